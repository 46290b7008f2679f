//! Decode speed, side by side in one run, and the cost of building a request.
//!
//! `cargo bench -p seozoom-benches --bench decode`
//!
//! For generated domain-keyword pages of 100, 10,000 and 100,000 rows (see
//! `common/mod.rs`), on the same bytes:
//!
//! - `seozoom`: the client's decode of a 2xx body (`Envelope<Vec<DomainKeyword>>`,
//!   quirks and all), exactly as a list operation's `send()` runs it (`Client::run` of one request);
//! - `serde_json_value`: `serde_json::from_slice::<serde_json::Value>`;
//! - `serde_json_typed`: the same struct through plain `serde_json::from_slice`;
//! - `path_to_error`: the same struct through `serde_path_to_error` over
//!   serde_json, as the client decoded every body before these benches;
//! - `simd_json_typed`: the same struct through `simd_json::serde::from_slice`
//!   (it parses in place, so each iteration gets a fresh copy, made untimed);
//! - `sonic_rs_typed`: the same struct through `sonic_rs::from_slice`.
//!
//! Then the `unknown_10000` group: the client's decode of the 10,000-row page
//! with nothing unknown (`none`) and with three members the spec does not know
//! at the start of every row (`three_per_row`), each kept in its record.
//!
//! Then the `request` group: building and validating a 100-keyword `metrics`
//! request (builder, `request()`, `validate()`), and all a call does before
//! sending (the same plus the percent-encoded URL and the cost estimate), each
//! against decoding its 100-row answer.
//!
//! After the criterion output a summary with MB/s and ratios is printed and written
//! to `<target>/bench-results/decode.md`. The bodies are written to
//! `<target>/bench-data/` for `benches/compare.py`.

mod common;

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use criterion::{Criterion, Throughput};
use seozoom::operations::{DOMAINS_KEYWORDS, KEYWORDS_METRICS, SERVICE};
use seozoom::{Client, Envelope, types::DomainKeyword, types::KeywordMetrics};

type Page = Envelope<Vec<DomainKeyword>>;

/// Decoders of the page, in the order shown.
const DECODERS: [(&str, &str); 6] = [
    ("seozoom", "seozoom (typed, quirks)"),
    ("serde_json_value", "serde_json::Value"),
    ("serde_json_typed", "serde_json typed"),
    ("path_to_error", "serde_path_to_error typed"),
    ("simd_json_typed", "simd-json typed"),
    ("sonic_rs_typed", "sonic-rs typed"),
];

/// The typed decoders (same struct, same quirks), for "fastest typed".
const TYPED: [&str; 5] = [
    "seozoom",
    "serde_json_typed",
    "path_to_error",
    "simd_json_typed",
    "sonic_rs_typed",
];

fn seozoom_decode(body: &[u8]) -> Page {
    DOMAINS_KEYWORDS
        .decode_rows::<DomainKeyword>(200, body)
        .expect("the generated page decodes")
}

fn path_to_error_decode(body: &[u8]) -> Page {
    let mut de = serde_json::Deserializer::from_slice(body);
    let page: Page = serde_path_to_error::deserialize(&mut de).expect("decodes");
    de.end().expect("nothing after the body");
    page
}

/// Every decoder gives the same rows on the generated bodies.
fn check_agreement(body: &[u8], rows: usize) {
    let ours = seozoom_decode(body);
    assert_eq!(ours.response.len(), rows);
    assert_eq!(ours.result_rows, rows as i64);
    let plain: Page = serde_json::from_slice(body).unwrap();
    assert!(plain == ours, "serde_json typed differs");
    assert!(path_to_error_decode(body) == ours, "path_to_error differs");
    let simd: Page = simd_json::serde::from_slice(&mut body.to_vec()).unwrap();
    assert!(simd == ours, "simd-json differs");
    let sonic: Page = sonic_rs::from_slice(body).unwrap();
    assert!(sonic == ours, "sonic-rs differs");
}

fn bench_decode(c: &mut Criterion) {
    for rows in common::SIZES {
        let body = common::domain_keywords(rows);
        check_agreement(&body, rows);
        let mut group = c.benchmark_group(format!("decode_{rows}"));
        group.throughput(Throughput::Bytes(body.len() as u64));
        if rows >= 100_000 {
            group
                .sample_size(10)
                .warm_up_time(Duration::from_secs(1))
                .measurement_time(Duration::from_secs(8));
        } else if rows >= 10_000 {
            group
                .sample_size(20)
                .warm_up_time(Duration::from_secs(1))
                .measurement_time(Duration::from_secs(5));
        } else {
            group.measurement_time(Duration::from_secs(3));
        }
        group.bench_function("seozoom", |b| b.iter(|| seozoom_decode(black_box(&body))));
        group.bench_function("serde_json_value", |b| {
            b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(&body)).unwrap())
        });
        group.bench_function("serde_json_typed", |b| {
            b.iter(|| serde_json::from_slice::<Page>(black_box(&body)).unwrap())
        });
        group.bench_function("path_to_error", |b| {
            b.iter(|| path_to_error_decode(black_box(&body)))
        });
        // simd-json parses in place: each iteration gets a fresh copy, made
        // outside the timed part; the decode and the drop are timed, as for the rest.
        group.bench_function("simd_json_typed", |b| {
            b.iter_custom(|iterations| {
                let mut timed = Duration::ZERO;
                for _ in 0..iterations {
                    let mut copy = body.clone();
                    let start = Instant::now();
                    drop(black_box(
                        simd_json::serde::from_slice::<Page>(&mut copy).unwrap(),
                    ));
                    timed += start.elapsed();
                }
                timed
            })
        });
        group.bench_function("sonic_rs_typed", |b| {
            b.iter(|| sonic_rs::from_slice::<Page>(black_box(&body)).unwrap())
        });
        group.finish();
    }
}

/// Rows of the page decoded with and without members the spec does not know.
const UNKNOWN_ROWS: usize = 10_000;

/// The client's decode of the same page with nothing unknown and with three
/// unknown members per row (kept by wire name in each record), side by side.
fn bench_unknown(c: &mut Criterion) {
    let plain = common::domain_keywords(UNKNOWN_ROWS);
    let drifted = common::with_unknown_members(&plain);
    let decoded = seozoom_decode(&drifted);
    assert_eq!(decoded.response.len(), UNKNOWN_ROWS);
    assert!(
        decoded
            .response
            .iter()
            .all(|row| row.unknown_members().len() == 3),
        "every row keeps its three unknown members"
    );
    let mut group = c.benchmark_group(format!("unknown_{UNKNOWN_ROWS}"));
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("none", |b| b.iter(|| seozoom_decode(black_box(&plain))));
    group.bench_function("three_per_row", |b| {
        b.iter(|| seozoom_decode(black_box(&drifted)))
    });
    group.finish();
}

fn bench_request(c: &mut Criterion) {
    let client = Client::builder()
        .api_key("BENCH-KEY")
        .build()
        .expect("a client");
    let keywords = common::metrics_keywords(100);
    let answer = common::keyword_metrics(100);
    let decoded = KEYWORDS_METRICS
        .decode_rows::<KeywordMetrics>(200, &answer)
        .expect("the generated answer decodes");
    assert_eq!(decoded.response.len(), 100);
    client
        .estimate(
            &client
                .keywords()
                .metrics(keywords.iter().cloned())
                .request(),
        )
        .expect("a valid request");

    let mut group = c.benchmark_group("request");
    group.measurement_time(Duration::from_secs(3));
    // The builder, the generic request and its validation against the spec.
    group.bench_function("build_validate_100_keywords", |b| {
        b.iter(|| {
            let request = client
                .keywords()
                .metrics(black_box(&keywords).iter().cloned())
                .request();
            request
                .validate(&SERVICE, client.default_database())
                .unwrap()
        })
    });
    // Everything a call does before sending: the same, plus the percent-encoded
    // URL and the cost estimate (`Client::estimate` runs the call's preparation).
    group.bench_function("prepare_100_keywords", |b| {
        b.iter(|| {
            let request = client
                .keywords()
                .metrics(black_box(&keywords).iter().cloned())
                .request();
            client.estimate(&request).unwrap()
        })
    });
    group.bench_function("decode_100_rows", |b| {
        b.iter(|| {
            KEYWORDS_METRICS
                .decode_rows::<KeywordMetrics>(200, black_box(&answer))
                .unwrap()
        })
    });
    group.finish();
}

/// The median time per iteration (ns) criterion measured in this run, if it did.
fn median_ns(dir: &Path, group: &str, function: &str, since: SystemTime) -> Option<f64> {
    let path = dir
        .join(group)
        .join(function)
        .join("new")
        .join("estimates.json");
    let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
    if modified < since {
        return None; // left over from an earlier run
    }
    let text = std::fs::read_to_string(&path).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value["median"]["point_estimate"].as_f64()
}

fn summary(dir: &Path, since: SystemTime) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "### Decode ({} rows per size)\n",
        common::SIZES.map(|n| n.to_string()).join(", ")
    );
    let _ = writeln!(
        out,
        "| rows | body | decoder | median | MB/s | x serde_json::Value | x fastest typed |"
    );
    let _ = writeln!(out, "|---:|---:|---|---:|---:|---:|---:|");
    for rows in common::SIZES {
        let len = common::domain_keywords(rows).len();
        let group = format!("decode_{rows}");
        let times: Vec<(&str, &str, Option<f64>)> = DECODERS
            .iter()
            .map(|&(id, name)| (id, name, median_ns(dir, &group, id, since)))
            .collect();
        let value = times
            .iter()
            .find(|(id, ..)| *id == "serde_json_value")
            .and_then(|t| t.2);
        let fastest = times
            .iter()
            .filter(|(id, ..)| TYPED.contains(id))
            .filter_map(|t| t.2)
            .reduce(f64::min);
        for (_, name, ns) in &times {
            let Some(ns) = *ns else {
                let _ = writeln!(out, "| {rows} | | {name} | not run | | | |");
                continue;
            };
            let ratio = |base: Option<f64>| base.map_or("".into(), |b| format!("{:.2}", b / ns));
            let _ = writeln!(
                out,
                "| {rows} | {:.2} MB | {name} | {} | {:.0} | {} | {} |",
                len as f64 / 1e6,
                show_ns(ns),
                common::mb_per_s(len, ns),
                ratio(value),
                ratio(fastest),
            );
        }
    }
    let group = format!("unknown_{UNKNOWN_ROWS}");
    let none = median_ns(dir, &group, "none", since);
    let three = median_ns(dir, &group, "three_per_row", since);
    let _ = writeln!(
        out,
        "\n### Members the spec does not know ({UNKNOWN_ROWS} rows, `seozoom`)\n"
    );
    let _ = writeln!(out, "| rows carry | median | x none |");
    let _ = writeln!(out, "|---|---:|---:|");
    let show = |ns: Option<f64>| ns.map_or("not run".into(), show_ns);
    let _ = writeln!(out, "| nothing unknown | {} | 1 |", show(none));
    let times = match (three, none) {
        (Some(three), Some(none)) => format!("{:.2}", three / none),
        _ => String::new(),
    };
    let _ = writeln!(
        out,
        "| 3 unknown members per row | {} | {times} |",
        show(three)
    );
    let build = median_ns(dir, "request", "build_validate_100_keywords", since);
    let prepare = median_ns(dir, "request", "prepare_100_keywords", since);
    let decode = median_ns(dir, "request", "decode_100_rows", since);
    let _ = writeln!(out, "\n### Request cost (100-keyword `metrics`)\n");
    let _ = writeln!(out, "| what | median | / decoding the answer |");
    let _ = writeln!(out, "|---|---:|---:|");
    let show = |ns: Option<f64>| ns.map_or("not run".into(), show_ns);
    let ratio = |ns: Option<f64>| match (ns, decode) {
        (Some(ns), Some(decode)) => format!("{:.3}", ns / decode),
        _ => String::new(),
    };
    let _ = writeln!(
        out,
        "| build + validate (builder, `request()`, `validate()`) | {} | {} |",
        show(build),
        ratio(build)
    );
    let _ = writeln!(
        out,
        "| all the work before sending (+ URL encoding + cost estimate) | {} | {} |",
        show(prepare),
        ratio(prepare)
    );
    let _ = writeln!(
        out,
        "| decode its 100-row answer ({} bytes) | {} | 1 |",
        common::keyword_metrics(100).len(),
        show(decode)
    );
    out
}

fn show_ns(ns: f64) -> String {
    match ns {
        ns if ns >= 1e6 => format!("{:.2} ms", ns / 1e6),
        ns if ns >= 1e3 => format!("{:.2} µs", ns / 1e3),
        ns => format!("{ns:.0} ns"),
    }
}

/// `SEOZOOM_BENCH_PROFILE=decoder:rows:iterations` runs one decoder in a loop and
/// nothing else (`seozoom_unknown3`: the client's, on the page with three
/// members the spec does not know per row) (`request:0:iterations` and `validate:0:iterations`: the
/// 100-keyword request, prepared or only validated), for `perf record` or `valgrind --tool=callgrind` (BENCHMARKS.md).
fn profile(spec: &str) {
    let mut parts = spec.split(':');
    let decoder = parts.next().unwrap_or("seozoom").to_owned();
    let rows = parts.next().and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let iterations: usize = parts.next().and_then(|n| n.parse().ok()).unwrap_or(10);
    if decoder == "request" {
        let client = Client::builder().api_key("BENCH-KEY").build().unwrap();
        let keywords = common::metrics_keywords(100);
        for _ in 0..iterations {
            let request = client
                .keywords()
                .metrics(keywords.iter().cloned())
                .request();
            black_box(client.estimate(&request).unwrap());
        }
        return;
    }
    if decoder == "validate" {
        let client = Client::builder().api_key("BENCH-KEY").build().unwrap();
        let keywords = common::metrics_keywords(100);
        for _ in 0..iterations {
            let request = client
                .keywords()
                .metrics(keywords.iter().cloned())
                .request();
            black_box(request.validate(&SERVICE, "it").unwrap());
        }
        return;
    }
    let body = common::domain_keywords(rows);
    let drifted = common::with_unknown_members(&body);
    for _ in 0..iterations {
        let rows = match decoder.as_str() {
            "seozoom" => seozoom_decode(&body).response.len(),
            "seozoom_unknown3" => seozoom_decode(&drifted).response.len(),
            "serde_json_value" => {
                serde_json::from_slice::<serde_json::Value>(&body).unwrap()["response"]
                    .as_array()
                    .map_or(0, Vec::len)
            }
            "serde_json_typed" => serde_json::from_slice::<Page>(&body)
                .unwrap()
                .response
                .len(),
            "path_to_error" => path_to_error_decode(&body).response.len(),
            "simd_json_typed" => simd_json::serde::from_slice::<Page>(&mut body.clone())
                .unwrap()
                .response
                .len(),
            "sonic_rs_typed" => sonic_rs::from_slice::<Page>(&body).unwrap().response.len(),
            other => panic!("unknown decoder {other}"),
        };
        black_box(rows);
    }
}

fn main() {
    if let Ok(spec) = std::env::var("SEOZOOM_BENCH_PROFILE") {
        profile(&spec);
        return;
    }
    let data = common::write_bench_data();
    let target = common::target_dir();
    let dir = target.join("criterion");
    let since = SystemTime::now() - Duration::from_secs(1);
    let mut c = Criterion::default()
        .output_directory(&dir)
        .configure_from_args();
    bench_decode(&mut c);
    bench_unknown(&mut c);
    bench_request(&mut c);
    c.final_summary();

    let table = summary(&dir, since);
    println!("\n{table}");
    let results = target.join("bench-results");
    if std::fs::create_dir_all(&results).is_ok() {
        let _ = std::fs::write(results.join("decode.md"), &table);
    }
    println!(
        "bodies written to {} (for benches/compare.py)",
        data.display()
    );
}
