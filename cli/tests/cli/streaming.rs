//! A paged job (`--max-rows`) printed as its pages arrive (`--format ndjson`
//! and `csv`): the same lines as the collected result of the same rows, the
//! rows before a failure kept, and no more pages paid for once nobody reads.
//! The binary runs against the built-in sandbox on loopback.

use crate::support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::time::Duration;

use seozoom::sandbox::{Fault, FaultPlan, Sandbox};
use support::{KEY, Run, run};

/// A sandbox on loopback, with these faults.
fn sandbox(faults: Option<FaultPlan>) -> Sandbox {
    let mut builder = Sandbox::builder();
    if let Some(faults) = faults {
        builder = builder.faults(faults);
    }
    support::start_sandbox(builder)
}

/// The arguments of a `domains keywords` call for one domain against `base_url`,
/// with these extra arguments.
fn domain_keywords<'a>(base_url: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "--api-key",
        KEY,
        "--base-url",
        base_url,
        "domains",
        "keywords",
        "--domain",
        "example.it",
        "--type",
        "best",
    ];
    args.extend_from_slice(extra);
    args
}

/// The output of one call of `--limit 25` (one request: the collected result)
/// and of a job of pages of 10 up to 25 rows (three requests, streamed), in
/// `format`, with these extra arguments; each run against its own sandbox, so
/// that the units match too.
fn one_call_and_paged(format: &str, extra: &[&str]) -> (Run, Run) {
    let whole = sandbox(None);
    let mut args = vec!["--format", format, "--limit", "25"];
    args.extend_from_slice(extra);
    let one_call = run(domain_keywords(&whole.base_url(), &args));
    one_call.expect_code(0).expect_no_key();
    assert_eq!(whole.requests(), 1);

    let paged = sandbox(None);
    let mut args = vec!["--format", format, "--limit", "10", "--max-rows", "25"];
    args.extend_from_slice(extra);
    let streamed = run(domain_keywords(&paged.base_url(), &args));
    streamed.expect_code(0).expect_no_key();
    assert_eq!(paged.requests(), 3);
    (one_call, streamed)
}

#[test]
fn ndjson_of_a_paged_job_is_the_collected_rows_line_for_line() {
    let (one_call, streamed) = one_call_and_paged("ndjson", &[]);
    assert_eq!(streamed.stdout, one_call.stdout);
    assert_eq!(streamed.stdout.lines().count(), 25);
    // The same rows and values as the JSON envelope of the same rows.
    let whole = sandbox(None);
    let json = run(domain_keywords(
        &whole.base_url(),
        &["--format", "json", "--limit", "25"],
    ));
    let rows: Vec<serde_json::Value> = streamed
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(serde_json::Value::Array(rows), json.json()["response"]);
    // Stderr as for a collected result: the rows and the units of the job.
    assert_eq!(streamed.stderr, one_call.stderr);
    assert!(
        streamed.stderr.starts_with("rows: 25, units used: 250,"),
        "{}",
        streamed.stderr
    );
}

#[test]
fn csv_of_a_paged_job_is_the_collected_rows_with_one_header() {
    let (one_call, streamed) = one_call_and_paged("csv", &[]);
    assert_eq!(streamed.stdout, one_call.stdout);
    assert_eq!(streamed.stdout.lines().count(), 26);
    assert_eq!(
        streamed
            .stdout
            .lines()
            .filter(|line| line.starts_with("keyword,"))
            .count(),
        1,
        "{}",
        streamed.stdout
    );
    assert_eq!(streamed.stderr, one_call.stderr);
}

#[test]
fn columns_pick_the_streamed_fields_in_order() {
    for format in ["csv", "ndjson"] {
        let (one_call, streamed) =
            one_call_and_paged(format, &["--columns", "search_volume,keyword"]);
        assert_eq!(streamed.stdout, one_call.stdout, "{format}");
        let first = streamed.stdout.lines().next().unwrap();
        match format {
            "csv" => assert_eq!(first, "search_volume,keyword"),
            _ => {
                let object: serde_json::Map<String, serde_json::Value> =
                    serde_json::from_str(first).unwrap();
                assert_eq!(
                    object.keys().collect::<Vec<_>>(),
                    ["search_volume", "keyword"]
                );
            }
        }
    }
}

#[test]
fn rows_printed_before_a_failed_page_are_kept() {
    for format in ["csv", "ndjson"] {
        let whole = sandbox(None);
        let one_call = run(domain_keywords(
            &whole.base_url(),
            &["--format", format, "--limit", "20"],
        ));
        one_call.expect_code(0);

        // The third page (offset 20) comes back cut short.
        let failing = sandbox(Some(FaultPlan::none().on("offset", "20", Fault::Truncated)));
        let run = run(domain_keywords(
            &failing.base_url(),
            &["--format", format, "--limit", "10", "--max-rows", "60"],
        ));
        run.expect_code(1).expect_no_key();
        // The two pages received, as a call of their rows prints them.
        assert_eq!(run.stdout, one_call.stdout, "{format}");
        let stderr: Vec<&str> = run.stderr.lines().collect();
        assert_eq!(stderr.len(), 4, "{}", run.stderr);
        assert!(
            stderr[0].starts_with("rows: 20, units used: "),
            "{}",
            stderr[0]
        );
        assert_eq!(
            stderr[1],
            "error: domains keywords: the job stopped part-way; the 20 rows received are printed, and missing are the rows from offset 20 on: up to 40 rows in 4 pages"
        );
        assert!(stderr[2].contains("cut short"), "{}", stderr[2]);
        assert!(
            stderr[3].starts_with("charged for the failed request: "),
            "{}",
            stderr[3]
        );
    }
}

#[test]
fn a_job_whose_first_page_fails_prints_nothing() {
    let failing = sandbox(Some(FaultPlan::none().on(
        "offset",
        "0",
        Fault::ServerError,
    )));
    let run = run(domain_keywords(
        &failing.base_url(),
        &["--format", "csv", "--limit", "10", "--max-rows", "30"],
    ));
    run.expect_code(1).expect_no_key();
    assert_eq!(run.stdout, "", "not even the header");
    assert!(run.stderr.contains("HTTP 500"), "{}", run.stderr);
    assert!(!run.stderr.contains("part-way"), "{}", run.stderr);
}

#[test]
fn a_refused_job_prints_nothing_and_no_data_prints_the_header() {
    let sandbox = sandbox(None);
    let base = sandbox.base_url();
    let refused = run(domain_keywords(
        &base,
        &[
            "--format",
            "csv",
            "--budget",
            "100",
            "--limit",
            "10",
            "--max-rows",
            "25",
        ],
    ));
    refused.expect_code(2);
    assert_eq!(refused.stdout, "");
    assert_eq!(sandbox.requests(), 0);

    // A domain the sandbox does not know: "No data found!" on the first page.
    let args = [
        "--api-key",
        KEY,
        "--base-url",
        &base,
        "--format",
        "csv",
        "--columns",
        "keyword,KD",
        "domains",
        "keywords",
        "--domain",
        "nothing.invalid",
        "--type",
        "best",
        "--limit",
        "10",
        "--max-rows",
        "25",
    ];
    let empty = run(args);
    empty.expect_code(0);
    assert_eq!(empty.stdout, "keyword,KD\n");
    assert_eq!(
        empty.stderr,
        "domains keywords: no data found (not charged)\n"
    );
    let args = args.map(|arg| if arg == "csv" { "ndjson" } else { arg });
    let empty = run(args);
    empty.expect_code(0);
    assert_eq!(empty.stdout, "");
}

/// The binary started on these arguments, its stdout piped.
fn spawn(args: &[&str]) -> Child {
    support::binary()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn the_first_page_is_printed_while_the_next_is_awaited() {
    // The second page (offset 10) is answered after a long delay (drawn from a
    // fixed seed), long after the first page's rows must have been printed.
    let slow = sandbox(Some(FaultPlan::none().slow(Duration::from_secs(3600)).on(
        "offset",
        "10",
        Fault::Slow,
    )));
    let base = slow.base_url();
    let mut child = spawn(&domain_keywords(
        &base,
        &["--format", "csv", "--limit", "10", "--max-rows", "30"],
    ));
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    for _ in 0..11 {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        lines.push(line);
    }
    let still_running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(lines[0].starts_with("keyword,"), "{lines:?}");
    assert!(lines.iter().all(|line| line.ends_with('\n')), "{lines:?}");
    assert!(
        still_running,
        "the job ended before its first page was read"
    );
    // The first page, and perhaps the slow second one: never the third.
    assert!((1..=2).contains(&slow.requests()), "{}", slow.requests());
}

#[test]
fn a_closed_pipe_stops_the_job() {
    // Pages of 20 rows, about 10 kB in ndjson: a pipe (64 kB) holds a few.
    let sandbox = sandbox(None);
    let base = sandbox.base_url();
    let whole = run(domain_keywords(
        &base,
        &["--format", "ndjson", "--limit", "10000"],
    ));
    let available = whole.stdout.lines().count();
    assert!(available > 250, "{available} rows");
    let requests_before = sandbox.requests();

    let mut child = spawn(&domain_keywords(
        &base,
        &["--format", "ndjson", "--limit", "20", "--max-rows", "300"],
    ));
    // `| head -n 1`.
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(first.starts_with('{'), "{first}");
    // Not a failure of the call; nothing said but the rows received.
    assert_eq!(output.status.code(), Some(0));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("rows: "), "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
    // The pages after the one that could not be written were not asked for.
    let sent = sandbox.requests() - requests_before;
    let pages = available.min(300) as u64 / 20 + 1;
    assert!(
        sent < pages - 3,
        "{sent} of {pages} requests for a reader that left"
    );
}
