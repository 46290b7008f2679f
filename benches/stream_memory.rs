//! Peak memory of a paged command-line job, by rows: does it stay flat?
//!
//! `cargo bench -p seozoom-benches --bench stream_memory [-- ROWS... FORMAT...]`
//!
//! Builds the release `seozoom` binary (`cargo build -p seozoom-cli --release`,
//! into the same target directory; nothing to do when it is up to date) and runs it on
//!
//! ```text
//! seozoom --api-key sandbox --base-url URL --format ndjson \
//!     domains keywords --domain example.it --type best --max-rows N > /dev/null
//! ```
//!
//! for N = 10,000, 100,000 and 1,000,000 (or the rows given), in pages of
//! 10,000 rows (the most one request takes), against a sandbox in this process
//! whose query has as many rows as the largest N ([`SandboxBuilder::paged_rows`]).
//! The sandbox runs here rather than in the child (`--sandbox`) so that the
//! figure is the command line's alone, not also the pages the sandbox makes.
//!
//! The peak resident set size of the child is read from GNU time
//! (`/usr/bin/time -v`, Debian package `time`) when it is installed, else from
//! the child's `VmHWM` in `/proc/PID/status`, polled until it exits (a peak in
//! its last milliseconds may be missed; the table says which).
//!
//! `ndjson` and `csv` print each page as it arrives; `json` prints one envelope
//! and so holds every row: it is measured for comparison, up to 100,000 rows
//! (a million rows would take gigabytes).
//!
//! The rate limiter holds the job to the spec's 20 requests per minute for this
//! operation: 1,000,000 rows are 100 requests, about four minutes, unless
//! `SEOZOOM_RATE_WINDOW` (seconds; the child inherits it) shortens the window.
//! The child runs with `--store none` unless `SEOZOOM_STORE` names a store.
//!
//! The table is printed and written to `<target>/bench-results/stream_memory.md`.
//!
//! [`SandboxBuilder::paged_rows`]: seozoom::sandbox::SandboxBuilder::paged_rows

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use seozoom::sandbox::Sandbox;

/// Rows per job, by default.
const SIZES: [u64; 3] = [10_000, 100_000, 1_000_000];
/// Formats measured, by default.
const FORMATS: [&str; 3] = ["ndjson", "csv", "json"];
/// The most rows a format that collects every row is run with.
const COLLECTED_UP_TO: u64 = 100_000;
/// Enough units for every job of a run (10 units a row).
const UNITS: i64 = 1 << 40;
/// GNU time, which reports a child's peak resident set size.
const GNU_TIME: &str = "/usr/bin/time";

/// One run of the binary.
struct Measured {
    /// Peak resident set size, kB.
    peak_kb: u64,
    /// How it was read.
    how: &'static str,
    /// Rows the command line reported (not for `json`, whose envelope has them).
    rows: Option<u64>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut sizes: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = SIZES.to_vec();
    }
    let mut formats: Vec<&str> = FORMATS
        .into_iter()
        .filter(|f| args.iter().any(|a| a == f))
        .collect();
    if formats.is_empty() {
        formats = FORMATS.to_vec();
    }
    let most = sizes.iter().copied().max().unwrap_or(0);

    let sandbox = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(Sandbox::builder().paged_rows(most).units(UNITS).start())
        .expect("the sandbox starts");
    let base_url = sandbox.base_url();
    let binary = seozoom_binary();
    let binary = binary.as_path();

    let mut out = String::new();
    let _ = writeln!(
        out,
        "| format | rows | requests | peak RSS | peak RSS / first size's |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|");
    for format in &formats {
        let mut first = None;
        for &rows in &sizes {
            if *format == "json" && rows > COLLECTED_UP_TO {
                continue;
            }
            let before = sandbox.requests();
            let measured = run(binary, &base_url, format, rows);
            let requests = sandbox.requests() - before;
            if let Some(reported) = measured.rows {
                assert_eq!(reported, rows, "{format}: rows printed");
            }
            let first = *first.get_or_insert(measured.peak_kb);
            let line = format!(
                "| {format} | {rows} | {requests} | {:.1} MB{} | {:.2} |",
                measured.peak_kb as f64 / 1024.0,
                measured.how,
                measured.peak_kb as f64 / first as f64,
            );
            eprintln!("{line}");
            let _ = writeln!(out, "{line}");
        }
    }
    println!("{out}");
    let results = common::target_dir().join("bench-results");
    if std::fs::create_dir_all(&results).is_ok() {
        let _ = std::fs::write(results.join("stream_memory.md"), &out);
    }
}

/// The arguments of a job of `rows` rows printed in `format`: with no store
/// (`--store none`) unless `SEOZOOM_STORE` names one, so that a run neither
/// measures the cache's writes unasked nor fills the user's own store with
/// pages.
fn job_args(base_url: &str, format: &str, rows: u64) -> Vec<String> {
    let store: &[&str] = match std::env::var_os("SEOZOOM_STORE") {
        Some(_) => &[],
        None => &["--store", "none"],
    };
    let args = [
        "--api-key",
        Sandbox::API_KEY,
        "--base-url",
        base_url,
        "--format",
        format,
        "domains",
        "keywords",
        "--domain",
        "example.it",
        "--type",
        "best",
        "--max-rows",
        &rows.to_string(),
    ];
    store.iter().chain(&args).map(|a| (*a).to_owned()).collect()
}

/// Run one job, its output thrown away, and read its peak memory.
fn run(binary: &Path, base_url: &str, format: &str, rows: u64) -> Measured {
    let args = job_args(base_url, format, rows);
    let (peak_kb, how, stderr) = if Path::new(GNU_TIME).exists() {
        let output = Command::new(GNU_TIME)
            .arg("-v")
            .arg(binary)
            .args(&args)
            .stdout(Stdio::null())
            .output()
            .expect("GNU time runs");
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "{format} {rows}: {stderr}");
        let peak = stderr
            .lines()
            .find_map(|line| {
                line.trim()
                    .strip_prefix("Maximum resident set size (kbytes):")
            })
            .and_then(|kb| kb.trim().parse().ok())
            .unwrap_or_else(|| panic!("no peak in GNU time's report: {stderr}"));
        (peak, "", stderr)
    } else {
        polled(binary, &args)
    };
    // `rows: N, units used: ...` (the command line's summary; not for json).
    let rows = stderr
        .lines()
        .find_map(|line| line.strip_prefix("rows: ")?.split(',').next()?.parse().ok());
    Measured { peak_kb, how, rows }
}

/// Run the job and poll its `VmHWM` until it exits: the peak kB, a mark for
/// the table, and its stderr.
fn polled(binary: &Path, args: &[String]) -> (u64, &'static str, String) {
    let mut child = Command::new(binary)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let status = format!("/proc/{}/status", child.id());
    // Read stderr beside the polling, so that the child never blocks on it.
    let mut pipe = child.stderr.take().expect("piped stderr");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut pipe, &mut text);
        text
    });
    let mut peak = 0;
    loop {
        if let Some(kb) = std::fs::read_to_string(&status)
            .ok()
            .and_then(|text| vm_hwm(&text))
        {
            peak = peak.max(kb);
        }
        match child.try_wait().expect("the child's status") {
            Some(exit) => {
                let stderr = reader.join().unwrap_or_default();
                assert!(exit.success(), "{stderr}");
                return (peak, " (polled)", stderr);
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    }
}

/// `VmHWM:    1234 kB` of a `/proc/PID/status`.
fn vm_hwm(status: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// The `seozoom` binary, built first as this bench's sibling: same target
/// directory, same profile (`release` under `cargo bench`).
///
/// A bench cannot depend on another package's binary (`CARGO_BIN_EXE_*` is
/// set only for the package that has it), so this runs
/// `cargo build -p seozoom-cli --bin seozoom --profile PROFILE`, which does
/// nothing when the binary is up to date, and runs the result.
fn seozoom_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("the bench binary's path");
    // <target>/<profile directory>/deps/<bench>
    let profile_dir = exe
        .ancestors()
        .nth(2)
        .expect("the bench binary is in <target>/<profile>/deps");
    let target = profile_dir.parent().expect("<target>/<profile>");
    let profile = match profile_dir.file_name().and_then(|name| name.to_str()) {
        Some("debug") => "dev",
        Some(name) => name,
        None => "release",
    };
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
    eprintln!("building the seozoom binary (cargo build -p seozoom-cli --profile {profile})");
    let status = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "-p", "seozoom-cli", "--bin", "seozoom"])
        .args(["--profile", profile])
        .arg("--manifest-path")
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", target)
        .status()
        .expect("cargo runs");
    assert!(
        status.success(),
        "the seozoom binary did not build: {status}"
    );
    profile_dir.join(format!("seozoom{}", std::env::consts::EXE_SUFFIX))
}
