//! End-to-end throughput against a loopback server.
//!
//! `cargo bench -p seozoom-benches --bench end_to_end`
//!
//! A loopback axum server (its own thread and runtime) serves prebuilt
//! domain-keyword pages; one client, rate limiting off, sends calls one after the
//! other on a reused connection: `client.domains().keywords(..).send()`, with
//! validation, the request, the body and the typed decode. Small bodies (10 rows)
//! and full pages (10,000 rows). The decode of the 10,000-row body alone is
//! measured in the same run, to show its share of a call.
//!
//! The summary is printed and written to `<target>/bench-results/end_to_end.md`.

mod common;

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, SystemTime};

use criterion::{Criterion, Throughput};
use seozoom::operations::DOMAINS_KEYWORDS;
use seozoom::{Client, config::RateLimitMode, types::DomainKeyword, types::KeywordType};

const SMALL: usize = 10;
const PAGE: usize = 10_000;

fn bench(c: &mut Criterion, server: &common::server::Server, page_body: &[u8]) {
    let client = Client::builder()
        .api_key("BENCH-KEY")
        .base_url(server.base_url())
        .rate_limit(RateLimitMode::Off)
        .build()
        .expect("a client");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let call = |rows: usize| {
        runtime.block_on(async {
            client
                .domains()
                .keywords("example.it", KeywordType::Best, rows as i64)
                .send()
                .await
                .expect("the call succeeds")
        })
    };
    assert_eq!(call(SMALL).response.len(), SMALL);
    assert_eq!(call(PAGE).response.len(), PAGE);

    let mut group = c.benchmark_group("e2e");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(1));
    group.bench_function("small_10_rows", |b| b.iter(|| call(black_box(SMALL))));
    group.sample_size(20);
    group.throughput(Throughput::Bytes(page_body.len() as u64));
    group.bench_function("page_10000_rows", |b| b.iter(|| call(black_box(PAGE))));
    group.bench_function("decode_only_10000_rows", |b| {
        b.iter(|| {
            DOMAINS_KEYWORDS
                .decode_rows::<DomainKeyword>(200, black_box(page_body))
                .unwrap()
        })
    });
    group.finish();
}

fn median_ns(dir: &Path, function: &str, since: SystemTime) -> Option<f64> {
    let path = dir.join("e2e").join(function).join("new/estimates.json");
    if std::fs::metadata(&path).ok()?.modified().ok()? < since {
        return None;
    }
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).ok()?).ok()?;
    value["median"]["point_estimate"].as_f64()
}

fn summary(dir: &Path, since: SystemTime, small_len: usize, page_len: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "### End to end over loopback (sequential, one reused connection, rate limit off)\n"
    );
    let _ = writeln!(out, "| call | body | median per call | calls/s | MB/s |");
    let _ = writeln!(out, "|---|---:|---:|---:|---:|");
    for (name, id, len) in [
        ("10 rows", "small_10_rows", small_len),
        ("10,000 rows", "page_10000_rows", page_len),
        (
            "decode only, 10,000 rows (no I/O)",
            "decode_only_10000_rows",
            page_len,
        ),
    ] {
        match median_ns(dir, id, since) {
            Some(ns) => {
                let _ = writeln!(
                    out,
                    "| {name} | {:.1} kB | {:.1} µs | {:.0} | {:.0} |",
                    len as f64 / 1e3,
                    ns / 1e3,
                    1e9 / ns,
                    common::mb_per_s(len, ns)
                );
            }
            None => {
                let _ = writeln!(out, "| {name} | | not run | | |");
            }
        }
    }
    if let (Some(call), Some(decode)) = (
        median_ns(dir, "page_10000_rows", since),
        median_ns(dir, "decode_only_10000_rows", since),
    ) {
        let _ = writeln!(
            out,
            "\nDecoding is {:.0}% of a 10,000-row call.",
            100.0 * decode / call
        );
    }
    out
}

fn main() {
    let small = common::domain_keywords(SMALL);
    let page = common::domain_keywords(PAGE);
    let (small_len, page_len) = (small.len(), page.len());
    let server = common::server::Server::start(vec![(SMALL, small), (PAGE, page.clone())]);
    let target = common::target_dir();
    let dir = target.join("criterion");
    let since = SystemTime::now() - Duration::from_secs(1);
    let mut c = Criterion::default()
        .output_directory(&dir)
        .configure_from_args();
    bench(&mut c, &server, &page);
    c.final_summary();
    drop(server);

    let table = summary(&dir, since, small_len, page_len);
    println!("\n{table}");
    let results = target.join("bench-results");
    if std::fs::create_dir_all(&results).is_ok() {
        let _ = std::fs::write(results.join("end_to_end.md"), &table);
    }
}
