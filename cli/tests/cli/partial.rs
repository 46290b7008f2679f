//! A bulk job that fails part-way prints the rows it paid for, in the chosen
//! format, says on stderr what is missing and why, and exits 1. The binary
//! runs against a sandbox that fails the requests carrying a given input.

use crate::support;

use seozoom::sandbox::{Fault, FaultPlan, Sandbox};
use support::{KEY, Run, run};

/// A sandbox on loopback with these faults.
fn sandbox(faults: FaultPlan) -> Sandbox {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(Sandbox::builder().faults(faults).start())
        .unwrap()
}

/// Run the binary against `sandbox` with the test key, and a rate window of
/// half a second: a 429 that never ends is waited out for three windows (the
/// retry policy's bound) before the job stops, not three minutes.
fn call(sandbox: &Sandbox, args: &[&str]) -> Run {
    let base = sandbox.base_url();
    let mut all = vec![
        "--api-key",
        KEY,
        "--base-url",
        &base,
        "--rate-window",
        "0.5",
    ];
    all.extend_from_slice(args);
    run(all)
}

/// 250 distinct keywords, three requests of at most 100, the one at 150 (in
/// the second request) being `boom`.
fn keywords() -> Vec<String> {
    let mut all: Vec<String> = (0..250)
        .map(|i| format!("mutuo {:03}", (i * 37) % 250))
        .collect();
    all[150] = "boom".into();
    all
}

fn keyword_args(keywords: &[String]) -> Vec<String> {
    keywords
        .iter()
        .flat_map(|k| ["--keyword".to_owned(), k.clone()])
        .collect()
}

/// A 429 with `Retry-After: 0`, so the command line's retries are quick.
fn failing_boom() -> Sandbox {
    sandbox(
        FaultPlan::none()
            .retry_after(0)
            .on("keyword", "boom", Fault::RateLimitedRetryAfter),
    )
}

#[test]
fn a_batched_job_prints_the_rows_received_and_says_what_is_missing() {
    let sandbox = failing_boom();
    let inputs = keywords();
    let args = keyword_args(&inputs);
    let mut all = vec!["--format", "json", "keywords", "metrics"];
    all.extend(args.iter().map(String::as_str));

    let run = call(&sandbox, &all);

    run.expect_code(1).expect_no_key();
    let printed = run.json();
    let rows: Vec<&str> = printed["response"]
        .as_array()
        .expect("an array of rows")
        .iter()
        .map(|row| row["keyword"].as_str().unwrap())
        .collect();
    // The first request's rows at least, in input order; never the failed one's.
    assert!(
        rows.len() == 100 || rows.len() == 150,
        "{} rows",
        rows.len()
    );
    assert_eq!(rows[..100], inputs[..100]);
    assert!(!rows.contains(&"boom"));
    assert_eq!(printed["ResultRows"], rows.len());
    let charged = Sandbox::STARTING_UNITS - sandbox.units_remaining();
    assert_eq!(printed["UnitsUsed"], charged, "{}", run.stdout);
    let missing = 250 - rows.len();
    assert!(
        run.stderr
            .contains(&format!("missing are {missing} `keyword` values")),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("HTTP 429"), "{}", run.stderr);
}

#[test]
fn a_batched_job_that_stopped_prints_csv_rows_too() {
    let sandbox = failing_boom();
    let inputs = keywords();
    let args = keyword_args(&inputs);
    let mut all = vec!["--format", "csv", "keywords", "metrics"];
    all.extend(args.iter().map(String::as_str));

    let run = call(&sandbox, &all);

    run.expect_code(1).expect_no_key();
    let mut lines = run.stdout.lines();
    assert!(
        lines.next().unwrap().starts_with("keyword,"),
        "{}",
        run.stdout
    );
    let rows: Vec<&str> = lines.map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(rows[..100], inputs[..100]);
    assert!(
        run.stderr.contains("the job stopped part-way"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_job_whose_first_request_fails_prints_nothing_and_exits_1() {
    let sandbox = failing_boom();

    let run = call(
        &sandbox,
        &[
            "--format",
            "json",
            "keywords",
            "metrics",
            "--keyword",
            "boom",
        ],
    );

    run.expect_code(1).expect_no_key();
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("HTTP 429"), "{}", run.stderr);
    assert!(!run.stderr.contains("part-way"), "{}", run.stderr);
}

#[test]
fn a_paged_job_prints_the_pages_received_and_where_the_missing_rows_start() {
    let sandbox = sandbox(FaultPlan::none().on("offset", "20", Fault::Truncated));

    let run = call(
        &sandbox,
        &[
            "--format",
            "json",
            "domains",
            "keywords",
            "--domain",
            "example.it",
            "--type",
            "best",
            "--limit",
            "10",
            "--max-rows",
            "60",
        ],
    );

    run.expect_code(1).expect_no_key();
    let printed = run.json();
    assert_eq!(printed["response"].as_array().unwrap().len(), 20);
    assert_eq!(printed["ResultRows"], 20);
    // Two pages charged in full, and the truncated one (the work was done).
    let charged = Sandbox::STARTING_UNITS - sandbox.units_remaining();
    assert!(printed["UnitsUsed"].as_i64().unwrap() > 0);
    assert!(printed["UnitsUsed"].as_i64().unwrap() <= charged);
    assert!(
        run.stderr
            .contains("the rows from offset 20 on: up to 40 rows in 4 pages"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("cut short"), "{}", run.stderr);
}

/// Ctrl-C stops a job as the library's stop does: the wait for the rate
/// window ends at once, nothing more is sent, and the rows paid for are
/// printed with what is missing (exit 1).
#[test]
fn ctrl_c_stops_a_job_waiting_for_the_rate_window_and_prints_what_it_paid_for() {
    let sandbox = sandbox(FaultPlan::none());
    let dir = std::env::temp_dir().join(format!("seozoom-ctrl-c-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("keywords.txt");
    let lines: Vec<String> = (0..2_100).map(|i| format!("stop {i}")).collect();
    std::fs::write(&file, lines.join("\n")).unwrap();
    let base = sandbox.base_url();
    // 20 requests a window of 30 s: the 21st waits for it.
    let child = support::binary()
        .args(["--api-key", KEY, "--base-url", &base, "--rate-window", "30"])
        .args(["--format", "json", "keywords", "metrics", "--keyword-file"])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while sandbox.requests() < 20 {
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let pid = child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status();
    assert!(killed.unwrap().success());
    let output = child.wait_with_output().unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(sandbox.requests(), 20, "nothing sent after Ctrl-C");
    let printed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(printed["ResultRows"], 2_000, "{stderr}");
    assert!(
        stderr.contains("missing are 100 `keyword` values (1 of 21 requests)"),
        "{stderr}"
    );
    assert!(stderr.contains("stopped by the caller"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
