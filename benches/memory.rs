//! Peak memory of decoding, as a ratio to the body's size.
//!
//! `cargo bench -p seozoom-benches --bench memory`
//!
//! A counting global allocator keeps the bytes allocated now and the most seen
//! since the last reset. For each decoder of the 100,000-row page the peak is
//! reset just before the decode (the body is already in memory), and the result
//! is dropped after; the figure is the peak of bytes allocated during the decode
//! over the body's length. "Kept" is what the decoded value itself holds.
//!
//! Then the same for a whole call against a loopback server (10,000 rows, the
//! most one page may hold): the peak during `send()` over the body's length,
//! which adds receiving the body to decoding it.
//!
//! The table is printed and written to `<target>/bench-results/memory.md`.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

use seozoom::operations::DOMAINS_KEYWORDS;
use seozoom::{Client, Envelope, config::RateLimitMode, types::DomainKeyword, types::KeywordType};

type Page = Envelope<Vec<DomainKeyword>>;

struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = NOW.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is passed to the system allocator unchanged; only counters
// are kept around it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `System.alloc`; the caller upholds its contract.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `System.alloc_zeroed`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for `System.dealloc`.
        unsafe { System.dealloc(ptr, layout) };
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `System.realloc`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // A moving realloc holds both blocks for a moment; count the worst case.
            grew(new_size);
            NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak bytes allocated while `f` runs (above what was allocated before), and
/// bytes still held by its result.
fn measure<T>(f: impl FnOnce() -> T) -> (usize, usize) {
    let base = NOW.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let value = black_box(f());
    let peak = PEAK.load(Ordering::Relaxed) - base;
    let kept = NOW.load(Ordering::Relaxed).saturating_sub(base);
    drop(value);
    (peak, kept)
}

fn row(out: &mut String, name: &str, body: usize, (peak, kept): (usize, usize)) {
    let _ = writeln!(
        out,
        "| {name} | {:.1} MB | {:.1} MB | {:.2} | {:.2} |",
        peak as f64 / 1e6,
        kept as f64 / 1e6,
        peak as f64 / body as f64,
        kept as f64 / body as f64,
    );
}

fn decoders(out: &mut String) {
    let rows = 100_000;
    let body = common::domain_keywords(rows);
    let len = body.len();
    let _ = writeln!(
        out,
        "### Peak memory: decoding {rows} rows ({:.2} MB body)\n",
        len as f64 / 1e6
    );
    let _ = writeln!(
        out,
        "| decoder | peak during decode | kept by the result | peak / body | kept / body |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|");
    let seozoom = measure(|| {
        DOMAINS_KEYWORDS
            .decode_rows::<DomainKeyword>(200, &body)
            .expect("decodes")
    });
    row(out, "seozoom (typed, quirks)", len, seozoom);
    let value = measure(|| serde_json::from_slice::<serde_json::Value>(&body).unwrap());
    row(out, "serde_json::Value", len, value);
    let typed = measure(|| serde_json::from_slice::<Page>(&body).unwrap());
    row(out, "serde_json typed", len, typed);
    let mut copy = body.clone();
    let simd = measure(|| simd_json::serde::from_slice::<Page>(&mut copy).unwrap());
    row(
        out,
        "simd-json typed (in place, copy not counted)",
        len,
        simd,
    );
    let sonic = measure(|| sonic_rs::from_slice::<Page>(&body).unwrap());
    row(out, "sonic-rs typed", len, sonic);
}

/// The typed decode at other row counts. A `Vec` grown by doubling (serde's own
/// visitor, the other typed decoders) would make the ratio depend on where the
/// count falls, 65,537 rows (just past a power of two) being the worst case; the
/// client reserves the rows from `ResultRows`, so the ratio should not move.
fn sweep(out: &mut String) {
    let _ = writeln!(out, "\n### Peak memory of the typed decode by row count\n");
    let _ = writeln!(
        out,
        "| rows | body | peak during decode | kept by the result | peak / body | kept / body |"
    );
    let _ = writeln!(out, "|---:|---:|---:|---:|---:|---:|");
    for rows in [100, 10_000, 65_537, 100_000] {
        let body = common::domain_keywords(rows);
        let (peak, kept) = measure(|| {
            DOMAINS_KEYWORDS
                .decode_rows::<DomainKeyword>(200, &body)
                .expect("decodes")
        });
        let len = body.len() as f64;
        let _ = writeln!(
            out,
            "| {rows} | {:.2} MB | {:.1} MB | {:.1} MB | {:.2} | {:.2} |",
            len / 1e6,
            peak as f64 / 1e6,
            kept as f64 / 1e6,
            peak as f64 / len,
            kept as f64 / len,
        );
    }
}

fn end_to_end(out: &mut String) {
    let rows = 10_000;
    let body = common::domain_keywords(rows);
    let len = body.len();
    let server = common::server::Server::start(vec![(rows, body)]);
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
    let call = || {
        runtime.block_on(async {
            client
                .domains()
                .keywords("example.it", KeywordType::Best, rows as i64)
                .send()
                .await
                .expect("the call succeeds")
        })
    };
    // One call first, so the connection and the runtime's buffers exist.
    assert_eq!(call().response.len(), rows);
    let measured = measure(call);
    let _ = writeln!(
        out,
        "\n### Peak memory: one call of {rows} rows over loopback ({:.2} MB body)\n",
        len as f64 / 1e6
    );
    let _ = writeln!(
        out,
        "| what | peak during the call | kept by the result | peak / body | kept / body |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|");
    row(out, "`send()`: receive + decode", len, measured);
}

fn main() {
    // Under `cargo test --benches` (or `--test`), run nothing.
    if std::env::args().any(|a| a == "--test" || a == "--list") {
        return;
    }
    let mut out = String::new();
    decoders(&mut out);
    sweep(&mut out);
    end_to_end(&mut out);
    println!("{out}");
    let results = common::target_dir().join("bench-results");
    if std::fs::create_dir_all(&results).is_ok() {
        let _ = std::fs::write(results.join("memory.md"), &out);
    }
}
