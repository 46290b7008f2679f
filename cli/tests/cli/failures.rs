//! Calls that were sent and failed (exit 1, the service's message on stderr),
//! "No data found!" (an empty result, exit 0), and the key never printed.

use crate::support;

use serde_json::json;
use support::{KEY, Run, Server, closed_port_url, run, run_with_env};

/// Run a call against `server` with the test key.
fn call(server: &Server, format: &str, group: &str, action: &str, params: &[&str]) -> Run {
    let base_url = server.base_url();
    let mut args = vec![
        "--api-key",
        KEY,
        "--base-url",
        &base_url,
        "--format",
        format,
        group,
        action,
    ];
    args.extend_from_slice(params);
    run(&args)
}

#[test]
fn a_service_error_exits_1_with_the_service_message() {
    let server = Server::start(500, r#"{"message":"boom"}"#);
    let run = call(
        &server,
        "json",
        "domains",
        "metrics",
        &["--domain", "example.it"],
    );
    run.expect_code(1).expect_no_key();
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr
            .contains("error: domains metrics: the service answered HTTP 500: boom"),
        "{}",
        run.stderr
    );
    // 500 is retried by the library's default policy, then reported.
    assert!(server.seen().len() > 1, "{:?}", server.seen());
}

#[test]
fn a_refusal_by_the_service_is_not_retried() {
    let server = Server::start(403, r#"{"message":"Invalid api key SECRET-CLI-KEY-991"}"#);
    let run = call(
        &server,
        "table",
        "keywords",
        "metrics",
        &["--keyword", "mutuo"],
    );
    run.expect_code(1).expect_no_key();
    assert!(
        run.stderr.contains("HTTP 403: Invalid api key <redacted>"),
        "{}",
        run.stderr
    );
    assert_eq!(server.seen().len(), 1);
}

#[test]
fn a_body_of_the_wrong_shape_exits_1() {
    let server = Server::json(
        r#"{"ResultRows":1,"UnitsUsed":1,"UnitsRemaining":1,"response":"example.it"}"#,
    );
    let run = call(
        &server,
        "csv",
        "domains",
        "metrics",
        &["--domain", "example.it"],
    );
    run.expect_code(1).expect_no_key();
    assert!(
        run.stderr.contains("cannot decode the response"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
}

#[test]
fn a_transport_error_exits_1() {
    let run = run([
        "--api-key",
        KEY,
        "--base-url",
        &closed_port_url(),
        "domains",
        "metrics",
        "--domain",
        "example.it",
    ]);
    run.expect_code(1).expect_no_key();
    assert!(
        run.stderr.contains("domains metrics: transport"),
        "{}",
        run.stderr
    );
}

const NO_DATA: &str = r#"{"status":400,"message":"No data found!"}"#;

#[test]
fn no_data_for_a_list_prints_an_empty_result() {
    let server = Server::start(400, NO_DATA);
    let run = call(
        &server,
        "json",
        "domains",
        "metrics",
        &["--domain", "example.it"],
    );
    run.expect_code(0).expect_no_key();
    assert_eq!(
        run.json(),
        json!({"ResultRows": 0, "UnitsUsed": 0, "UnitsRemaining": null, "response": []})
    );
    assert!(run.stderr.contains("no data found"), "{}", run.stderr);

    let csv = call(
        &server,
        "csv",
        "domains",
        "niches",
        &["--domain", "example.it", "--limit", "3"],
    );
    csv.expect_code(0).expect_no_key();
    assert_eq!(
        csv.stdout.lines().count(),
        1,
        "only the header: {}",
        csv.stdout
    );
    assert!(csv.stdout.starts_with("domain,niches."));

    let table = call(
        &server,
        "table",
        "keywords",
        "serp",
        &["--keyword", "mutuo"],
    );
    table.expect_code(0).expect_no_key();
    assert!(table.stdout.contains("keyword"));
    assert!(!table.stdout.contains("mutuo"));
    assert_eq!(server.seen().len(), 3, "no data is not retried");
}

#[test]
fn no_data_for_a_single_object_prints_an_empty_result() {
    let server = Server::start(400, NO_DATA);
    let run = call(&server, "json", "projects", "overview", &["--id", "12"]);
    run.expect_code(0).expect_no_key();
    assert_eq!(
        run.json(),
        json!({"ResultRows": 0, "UnitsUsed": 0, "UnitsRemaining": null, "response": null})
    );

    let serp = call(
        &server,
        "json",
        "keywords",
        "serphistory",
        &["--keyword", "mutuo", "--date", "2024-03-04"],
    );
    serp.expect_code(0);
    assert_eq!(serp.json()["response"], json!({}));

    let csv = call(&server, "csv", "projects", "overview", &["--id", "12"]);
    csv.expect_code(0);
    assert_eq!(
        csv.stdout.lines().count(),
        1,
        "only the header: {}",
        csv.stdout
    );
}

#[test]
fn the_key_is_never_printed_from_the_environment_either() {
    let server = Server::start(500, r#"{"message":"boom SECRET-CLI-KEY-991"}"#);
    let run = run_with_env(
        [
            "--format",
            "json",
            "keywords",
            "metrics",
            "--keyword",
            "mutuo",
        ],
        &[
            ("SEOZOOM_API_KEY", KEY),
            ("SEOZOOM_BASE_URL", &server.base_url()),
        ],
    );
    run.expect_code(1).expect_no_key();
    // Nor in the help, where clap could show the environment's value.
    let help = run_with_env(["--help"], &[("SEOZOOM_API_KEY", KEY)]);
    help.expect_code(0).expect_no_key();
    let help = run_with_env(
        ["domains", "metrics", "--help"],
        &[("SEOZOOM_API_KEY", KEY)],
    );
    help.expect_code(0).expect_no_key();
}

/// A service that answers 429 with a `Retry-After` the client cannot read:
/// each wait for its rate window is said on stderr as it starts, and the run
/// stops at `--max-wait` with a message that names the wait.
#[test]
fn long_waits_are_announced_and_bounded_by_max_wait() {
    use std::io::{BufRead, BufReader};
    use std::time::{Duration, Instant};
    let server = Server::with_headers(
        429,
        &[("Retry-After", "soon")],
        r#"{"status":429,"message":"Too Many Requests"}"#,
    );
    let started = Instant::now();
    let mut child = support::binary()
        .args(["--api-key", KEY, "--base-url", &server.base_url()])
        .args(["--rate-window", "3", "--max-wait", "5"])
        .args([
            "domains",
            "aikeywords",
            "--domain",
            "a.it",
            "--offset",
            "0",
            "--limit",
            "3",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(child.stderr.take().unwrap()).lines() {
        lines.push((Instant::now(), line.unwrap()));
    }
    let status = child.wait().unwrap();
    let ended = started.elapsed();
    let stderr: Vec<&str> = lines.iter().map(|(_, line)| line.as_str()).collect();
    assert_eq!(status.code(), Some(1), "{stderr:#?}");

    // The first wait, said within a second of its start (the first answer).
    let (said_at, said) = &lines[0];
    assert_eq!(
        said,
        "domains aikeywords: waiting 3 s for the service's rate window (HTTP 429 with an unreadable Retry-After (soon)) before attempt 2"
    );
    let first_answer = server.arrivals()[0];
    assert!(
        said_at.duration_since(first_answer) < Duration::from_secs(1),
        "said {:?} after the first answer",
        said_at.duration_since(first_answer)
    );

    // Two attempts; the third would need 3 s more than the 5 s allowed.
    assert_eq!(server.seen().len(), 2, "{stderr:#?}");
    let error = stderr
        .iter()
        .find(|line| line.starts_with("error: "))
        .expect("an error line");
    assert_eq!(
        *error,
        "error: domains aikeywords: stopped waiting: 3 s more for the service's rate window (HTTP 429 with an unreadable Retry-After (soon)) before attempt 3 would pass the longest a call may wait (5 s; waited 3 s so far)"
    );
    assert!(
        stderr.iter().any(|line| line.contains("--max-wait 5")),
        "{stderr:#?}"
    );
    assert!(
        ended < Duration::from_secs(5),
        "ended by the bound: {ended:?}"
    );
    assert!(!stderr.iter().any(|line| line.contains(KEY)));
}
