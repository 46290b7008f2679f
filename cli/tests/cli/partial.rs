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
