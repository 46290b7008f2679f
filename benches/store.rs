//! The key-wide store: what a cache hit saves, what the store adds to a call
//! that goes out, and whether a rate-limited job finishes as soon as a
//! rolling-window service allows.
//!
//! `cargo bench -p seozoom-benches --bench store [-- FILTER]`
//!
//! Against the sandbox on loopback (in this process, on its own thread), one
//! client per store, calls one after the other:
//!
//! - `store_hit`: the same `keywords metrics` call of one keyword, answered from
//!   the cache of each store (lookup, decode, the last balance read, the hit
//!   recorded in the ledger), against the same call sent every time
//!   (`Store::none()`: the round trip, with the client's own work).
//! - `store_miss`: a call of a keyword never asked before, so that it misses
//!   and is sent: the store's lookup, its rate-limit slot (shared by processes
//!   for SQLite and Redis), the ledger row and the cache entry, against the
//!   same calls with `Store::none()`. The rate window is 1 ms, so the limiter
//!   runs on every call but never makes one wait.
//! - `sqlite_floor`: a bare read transaction of one row and write transaction
//!   of one row through rusqlite, on a file of their own: what SQLite itself
//!   costs here, under the store's hits and misses.
//! - `store_job` (timed once, not by criterion): a paged job of
//!   [`JOB_REQUESTS`] requests of `domains keywords` with the spec's figure per
//!   [`JOB_WINDOW`] instead of per minute, against the least time a service
//!   that counts a rolling window allows: `(ceil(N / figure) - 1) x window`.
//!   Each store's job runs against a strict sandbox of its own (429 for a
//!   request over the figure in any rolling window), whose 429s are counted.
//!
//! Redis runs as a real `redis-server` on a free loopback port (started and
//! killed here); where it is not installed, its lines are skipped with a note.
//! The SQLite file is in a directory of its own under the system's temporary
//! directory, removed at the end.
//!
//! The summary is printed and written to `<target>/bench-results/store.md`.

mod common;

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};

use criterion::Criterion;
use futures_util::StreamExt;
use seozoom::Client;
use seozoom::config::RetryPolicy;
use seozoom::operations::DOMAINS_KEYWORDS;
use seozoom::sandbox::Sandbox;
use seozoom::store::Store;
use seozoom::types::KeywordType;

use seozoom_test_support::RedisServer;

/// Requests of the rate-limited job.
const JOB_REQUESTS: usize = 100;
/// Rows per page of the job.
const JOB_PAGE: usize = 10;
/// The period the job's per-minute figure is applied to.
const JOB_WINDOW: Duration = Duration::from_secs(2);
/// The rate window of the hit and miss benches: short enough never to wait.
const NO_WAIT_WINDOW: Duration = Duration::from_millis(1);
/// The keyword of the hit bench.
const HIT_KEYWORD: &str = "scarpe running";

/// The stores measured, by name; Redis's server lives as long as this.
struct Stores {
    named: Vec<(&'static str, Store)>,
    dir: PathBuf,
    _redis: Option<RedisServer>,
}

impl Stores {
    fn open() -> Stores {
        let dir = std::env::temp_dir().join(format!("seozoom-bench-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let sqlite = format!("sqlite:{}", dir.join("store.sqlite3").display());
        let mut named = vec![
            ("memory", Store::memory()),
            (
                "sqlite",
                Store::open(&sqlite).expect("the SQLite store opens"),
            ),
        ];
        let redis = RedisServer::start();
        if let Some(server) = &redis {
            named.push((
                "redis",
                Store::open(&server.url()).expect("the Redis store opens"),
            ));
        }
        Stores {
            named,
            dir,
            _redis: redis,
        }
    }
}

impl Drop for Stores {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A client of the sandbox on `store`, rate-limited per `window`, no retries.
fn client(sandbox: &Sandbox, store: &Store, window: Duration) -> Client {
    Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .retry(RetryPolicy::none())
        .rate_window(window)
        .store(store.clone())
        .build()
        .expect("a client")
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

/// One `keywords metrics` call of `keyword`; whether it came from the cache.
async fn metrics(client: &Client, keyword: &str) -> bool {
    let answer = client
        .keywords()
        .metrics([keyword])
        .send()
        .await
        .expect("the call succeeds");
    answer.fetched_at.is_some()
}

fn bench_hits(
    c: &mut Criterion,
    runtime: &tokio::runtime::Runtime,
    sandbox: &Sandbox,
    stores: &Stores,
) {
    let mut group = c.benchmark_group("store_hit");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    let round_trip = client(sandbox, &Store::none(), NO_WAIT_WINDOW);
    assert!(!runtime.block_on(metrics(&round_trip, HIT_KEYWORD)));
    group.bench_function("round_trip", |b| {
        b.iter(|| runtime.block_on(metrics(&round_trip, black_box(HIT_KEYWORD))))
    });
    for (name, store) in &stores.named {
        let client = client(sandbox, store, NO_WAIT_WINDOW);
        runtime.block_on(metrics(&client, HIT_KEYWORD));
        assert!(
            runtime.block_on(metrics(&client, HIT_KEYWORD)),
            "{name}: the second call is a hit"
        );
        group.bench_function(*name, |b| {
            b.iter(|| runtime.block_on(metrics(&client, black_box(HIT_KEYWORD))))
        });
    }
    group.finish();
}

fn bench_misses(
    c: &mut Criterion,
    runtime: &tokio::runtime::Runtime,
    sandbox: &Sandbox,
    stores: &Stores,
) {
    let mut group = c.benchmark_group("store_miss");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    // Every call asks for a keyword never asked before, on any store.
    let next = AtomicU64::new(0);
    let fresh = || format!("bench miss {}", next.fetch_add(1, Ordering::Relaxed));
    let none = Store::none();
    let all = std::iter::once(("none", &none)).chain(stores.named.iter().map(|(n, s)| (*n, s)));
    for (name, store) in all {
        let client = client(sandbox, store, NO_WAIT_WINDOW);
        assert!(
            !runtime.block_on(metrics(&client, &fresh())),
            "{name}: a miss"
        );
        group.bench_function(name, |b| {
            b.iter(|| runtime.block_on(metrics(&client, &fresh())))
        });
    }
    group.finish();
}

/// What SQLite itself costs on this machine, under everything the store does:
/// a read transaction of one row, and a write transaction of one small row,
/// through rusqlite on a file of their own in WAL mode with
/// `synchronous=NORMAL` (the store's settings, with SQLite's own
/// checkpoints). A hit needs the one, a miss three of the other (the slot
/// taken, the slot settled, the call recorded).
fn bench_sqlite_floor(c: &mut Criterion, dir: &Path) {
    let file = dir.join("floor.sqlite3");
    let connection = rusqlite::Connection::open(&file).expect("the floor file opens");
    connection
        .execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
             CREATE TABLE kv (k TEXT PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID; \
             INSERT INTO kv VALUES ('read', zeroblob(1000));",
        )
        .expect("the floor file is set up");
    let mut group = c.benchmark_group("sqlite_floor");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("read_transaction", |b| {
        b.iter(|| {
            connection
                .prepare_cached("BEGIN")
                .unwrap()
                .execute([])
                .unwrap();
            let bytes: Vec<u8> = connection
                .prepare_cached("SELECT v FROM kv WHERE k = 'read'")
                .unwrap()
                .query_row([], |row| row.get(0))
                .unwrap();
            connection
                .prepare_cached("COMMIT")
                .unwrap()
                .execute([])
                .unwrap();
            black_box(bytes)
        })
    });
    let next = AtomicU64::new(0);
    group.bench_function("write_transaction", |b| {
        b.iter(|| {
            connection
                .prepare_cached("BEGIN IMMEDIATE")
                .unwrap()
                .execute([])
                .unwrap();
            connection
                .prepare_cached("INSERT INTO kv VALUES (?1, zeroblob(100))")
                .unwrap()
                .execute([next.fetch_add(1, Ordering::Relaxed).to_string()])
                .unwrap();
            connection
                .prepare_cached("COMMIT")
                .unwrap()
                .execute([])
                .unwrap();
        })
    });
    group.finish();
}

/// The least time a service counting a rolling `window` allows for
/// `requests` requests of an operation allowed `figure` in any window.
fn least_time(requests: usize, figure: usize, window: Duration) -> Duration {
    window * (requests.div_ceil(figure) as u32 - 1)
}

/// What one job did: its wall time, and the 429s the strict sandbox answered.
struct JobRun {
    took: Duration,
    refused: u64,
}

/// One paged job of [`JOB_REQUESTS`] requests on `store`, against a strict
/// sandbox of its own (it answers 429 to a request over the figure in any
/// rolling [`JOB_WINDOW`], as the service would).
fn time_job(runtime: &tokio::runtime::Runtime, store: &Store) -> JobRun {
    let sandbox = runtime
        .block_on(
            Sandbox::builder()
                .rate_window(JOB_WINDOW)
                .paged_rows((JOB_REQUESTS * JOB_PAGE) as u64)
                .start(),
        )
        .expect("the strict sandbox starts");
    let client = Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        // The default retries: a 429 would be waited out and counted, not
        // end the job.
        .rate_window(JOB_WINDOW)
        .store(store.clone())
        .refresh(true)
        .build()
        .expect("a client");
    let before = sandbox.requests();
    let started = Instant::now();
    let rows = runtime.block_on(async {
        let mut rows = client
            .domains()
            .keywords("example.it", KeywordType::Best, 1)
            .pages(JOB_PAGE as i64, Some(JOB_REQUESTS * JOB_PAGE));
        let mut count = 0;
        while let Some(row) = rows.next().await {
            row.expect("a row");
            count += 1;
        }
        count
    });
    let took = started.elapsed();
    assert_eq!(rows, JOB_REQUESTS * JOB_PAGE, "rows of the job");
    let refused = sandbox.rate_limited();
    assert_eq!(
        sandbox.requests() - before - refused,
        JOB_REQUESTS as u64,
        "requests of the job answered"
    );
    JobRun { took, refused }
}

/// The job on every store: (store, wall time).
fn time_jobs(runtime: &tokio::runtime::Runtime, stores: &Stores) -> Vec<(&'static str, JobRun)> {
    stores
        .named
        .iter()
        .map(|(name, store)| {
            let run = time_job(runtime, store);
            eprintln!("store_job/{name}: {:?}, {} refused", run.took, run.refused);
            (*name, run)
        })
        .collect()
}

fn median_ns(dir: &Path, group: &str, function: &str, since: SystemTime) -> Option<f64> {
    let path = dir.join(group).join(function).join("new/estimates.json");
    if std::fs::metadata(&path).ok()?.modified().ok()? < since {
        return None;
    }
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).ok()?).ok()?;
    value["median"]["point_estimate"].as_f64()
}

fn summary(
    dir: &Path,
    since: SystemTime,
    names: &[&str],
    jobs: &[(&'static str, JobRun)],
) -> String {
    let mut out = String::new();
    let median = |group, id| median_ns(dir, group, id, since);

    let _ = writeln!(out, "### A cache hit against a round trip\n");
    let _ = writeln!(
        out,
        "| store | median hit | round trip (`Store::none()`) | round trip / hit |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|");
    let round_trip = median("store_hit", "round_trip");
    for name in names {
        match (median("store_hit", name), round_trip) {
            (Some(hit), Some(trip)) => {
                let _ = writeln!(
                    out,
                    "| {name} | {:.1} µs | {:.1} µs | **{:.1}x** |",
                    hit / 1e3,
                    trip / 1e3,
                    trip / hit
                );
            }
            _ => {
                let _ = writeln!(out, "| {name} | not run | | |");
            }
        }
    }

    let _ = writeln!(out, "\n### What the store adds to a call that is sent\n");
    let _ = writeln!(
        out,
        "| store | median miss | added over `Store::none()` | added / round trip |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|");
    let base = median("store_miss", "none");
    if let Some(base) = base {
        let _ = writeln!(out, "| none | {:.1} µs | | |", base / 1e3);
    }
    for name in names {
        match (median("store_miss", name), base) {
            (Some(miss), Some(base)) => {
                let _ = writeln!(
                    out,
                    "| {name} | {:.1} µs | {:.1} µs | **{:.2}** |",
                    miss / 1e3,
                    (miss - base) / 1e3,
                    (miss - base) / base
                );
            }
            _ => {
                let _ = writeln!(out, "| {name} | not run | | |");
            }
        }
    }

    let read = median("sqlite_floor", "read_transaction");
    let write = median("sqlite_floor", "write_transaction");
    if let (Some(read), Some(write), Some(trip)) = (read, write, round_trip) {
        let _ = writeln!(out, "\n### SQLite's own floor on this machine\n");
        let _ = writeln!(out, "| transaction | median | / round trip |");
        let _ = writeln!(out, "|---|---:|---:|");
        for (what, ns) in [("read of one row", read), ("write of one row", write)] {
            let _ = writeln!(out, "| {what} | {:.1} µs | {:.2} |", ns / 1e3, ns / trip);
        }
    }

    if !jobs.is_empty() {
        let figure = DOMAINS_KEYWORDS.cost.requests_per_minute.value as usize;
        let least = least_time(JOB_REQUESTS, figure, JOB_WINDOW);
        let _ = writeln!(
            out,
            "\n### A rate-limited job: {JOB_REQUESTS} requests at {figure} per {} s\n",
            JOB_WINDOW.as_secs_f64()
        );
        let _ = writeln!(
            out,
            "| store | wall time | least time allowed | wall / least | 429s (strict sandbox) |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|");
        for (name, run) in jobs {
            let _ = writeln!(
                out,
                "| {name} | {:.3} s | {:.3} s | **{:.3}** | {} |",
                run.took.as_secs_f64(),
                least.as_secs_f64(),
                run.took.as_secs_f64() / least.as_secs_f64(),
                run.refused
            );
        }
    }
    out
}

/// Whether the timed job runs: with no filter, or one that names it.
fn job_wanted() -> bool {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    filters.is_empty() || filters.iter().any(|f| "store_job".contains(f.as_str()))
}

/// `SEOZOOM_BENCH_PROFILE=miss:STORE:N` makes N calls that miss on `STORE`
/// (`none`, `memory`, `sqlite` or `redis`), after one that warms it, and
/// nothing else: under `valgrind --tool=callgrind`, the instructions a miss
/// costs this process, the same on every run (BENCHMARKS.md, "Key-wide store").
fn profile(spec: &str, runtime: &tokio::runtime::Runtime, sandbox: &Sandbox, stores: &Stores) {
    let mut parts = spec.split(':').skip(1);
    let name = parts.next().unwrap_or("none");
    let calls: usize = parts.next().and_then(|n| n.parse().ok()).unwrap_or(100);
    let none = Store::none();
    let store = match name {
        "none" => &none,
        _ => stores
            .named
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, store)| store)
            .expect("a store this run opened"),
    };
    let client = client(sandbox, store, NO_WAIT_WINDOW);
    for call in 0..=calls {
        let keyword = format!("profile miss {call}");
        assert!(!runtime.block_on(metrics(&client, &keyword)), "a miss");
    }
}

fn main() {
    let runtime = runtime();
    // Units for every call of a run, whatever criterion's iteration counts.
    let sandbox = runtime
        .block_on(Sandbox::builder().units(1 << 50).start())
        .expect("the sandbox starts");
    let stores = Stores::open();
    if let Ok(spec) = std::env::var("SEOZOOM_BENCH_PROFILE") {
        profile(&spec, &runtime, &sandbox, &stores);
        return;
    }
    let target = common::target_dir();
    let dir = target.join("criterion");
    let since = SystemTime::now() - Duration::from_secs(1);
    let mut c = Criterion::default()
        .output_directory(&dir)
        .configure_from_args();
    bench_hits(&mut c, &runtime, &sandbox, &stores);
    bench_misses(&mut c, &runtime, &sandbox, &stores);
    bench_sqlite_floor(&mut c, &stores.dir);
    c.final_summary();
    let jobs = if job_wanted() {
        time_jobs(&runtime, &stores)
    } else {
        Vec::new()
    };

    let names: Vec<&str> = stores.named.iter().map(|(name, _)| *name).collect();
    let table = summary(&dir, since, &names, &jobs);
    println!("\n{table}");
    let results = target.join("bench-results");
    if std::fs::create_dir_all(&results).is_ok() {
        let _ = std::fs::write(results.join("store.md"), &table);
    }
}
