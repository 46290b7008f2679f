//! Bulk jobs from the command line: list values from a file or standard input,
//! batched jobs merged in input order, and `--dry-run`.

use crate::support;

use std::io::Write;
use std::process::Stdio;

use seozoom::sandbox::Sandbox;
use support::{KEY, Run, Server, run};

/// A sandbox on loopback, for a run of the binary to call and for the test to
/// count its requests.
fn sandbox() -> Sandbox {
    support::start_sandbox(Sandbox::builder())
}

/// 250 distinct keywords in no sorted order.
fn keywords() -> Vec<String> {
    (0..250)
        .map(|i| format!("mutuo {:03}", (i * 37) % 250))
        .collect()
}

/// A file of these lines, removed when dropped.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn with_lines(name: &str, lines: &[String]) -> TempFile {
        let path = std::env::temp_dir().join(format!(
            "seozoom-cli-bulk-{}-{name}.txt",
            std::process::id()
        ));
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The keywords of a JSON envelope's rows, in order.
fn row_keywords(run: &Run) -> Vec<String> {
    run.json()["response"]
        .as_array()
        .expect("an array of rows")
        .iter()
        .map(|row| row["keyword"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_keyword_file_of_250_lines_is_one_merged_result_in_order() {
    let sandbox = sandbox();
    let mut lines = keywords();
    // Blank lines are skipped; repeats are sent once.
    lines.insert(10, String::new());
    lines.insert(20, "   ".into());
    lines.push(lines[0].clone());
    let file = TempFile::with_lines("250", &lines);
    let run = run([
        "--api-key",
        KEY,
        "--base-url",
        &sandbox.base_url(),
        "--format",
        "json",
        "keywords",
        "metrics",
        "--keyword-file",
        file.path(),
    ]);
    run.expect_code(0).expect_no_key();
    assert_eq!(row_keywords(&run), keywords());
    let envelope = run.json();
    assert_eq!(envelope["ResultRows"], 250);
    let spent = Sandbox::STARTING_UNITS - sandbox.units_remaining();
    assert_eq!(envelope["UnitsUsed"], spent);
    assert_eq!(envelope["UnitsRemaining"], sandbox.units_remaining());
    assert_eq!(sandbox.requests(), 3);
    // Not a terminal: no progress bar.
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn flag_values_come_first_then_the_file() {
    let sandbox = sandbox();
    let file = TempFile::with_lines("both", &["casa".into(), "auto".into()]);
    let run = run([
        "--api-key",
        KEY,
        "--base-url",
        &sandbox.base_url(),
        "--format",
        "json",
        "keywords",
        "metrics",
        "--keyword",
        "zaino",
        "--keyword-file",
        file.path(),
    ]);
    run.expect_code(0);
    assert_eq!(row_keywords(&run), ["zaino", "casa", "auto"]);
    assert_eq!(sandbox.requests(), 1);
}

#[test]
fn a_dash_reads_the_values_from_standard_input() {
    let sandbox = sandbox();
    let mut child = support::binary()
        .args([
            "--api-key",
            KEY,
            "--base-url",
            &sandbox.base_url(),
            "--format",
            "json",
            "keywords",
            "metrics",
            "--keyword-file",
            "-",
        ])
        .env_remove("SEOZOOM_API_KEY")
        .env_remove("SEOZOOM_BASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = keywords().join("\r\n") + "\r\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let run = Run {
        code: output.status.code().unwrap(),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    };
    run.expect_code(0).expect_no_key();
    assert_eq!(row_keywords(&run), keywords());
    assert_eq!(sandbox.requests(), 3);
}

#[test]
fn a_missing_file_is_a_usage_error() {
    let run = run([
        "--sandbox",
        "keywords",
        "metrics",
        "--keyword-file",
        "/nonexistent/seozoom-keywords.txt",
    ]);
    run.expect_code(2);
    assert!(
        run.stderr
            .contains("--keyword-file /nonexistent/seozoom-keywords.txt"),
        "{}",
        run.stderr
    );
}

#[test]
fn dry_run_prints_the_requests_and_the_estimate_and_sends_nothing() {
    let server = Server::json("{}");
    let file = TempFile::with_lines("dry", &keywords());
    let run = run([
        "--api-key",
        KEY,
        "--base-url",
        &server.base_url(),
        "--dry-run",
        "keywords",
        "metrics",
        "--keyword-file",
        file.path(),
    ]);
    run.expect_code(0).expect_no_key();
    assert_eq!(server.seen(), [], "a dry run sends nothing");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", run.stdout);
    let prefix = format!(
        "GET {}/api/v2/keywords/?api_key=<redacted>&db=it&action=metrics&keyword=mutuo%20000|",
        server.base_url()
    );
    assert!(lines[0].starts_with(&prefix), "{}", lines[0]);
    for line in &lines[..3] {
        assert!(line.starts_with("GET ") && line.contains("api_key=<redacted>"));
    }
    assert_eq!(lines[0].matches('|').count(), 99);
    assert_eq!(lines[2].matches('|').count(), 49);
    let figure = seozoom::operations::KEYWORDS_METRICS.cost.units[0];
    assert_eq!(
        lines[3],
        format!("3 requests, estimated cost 0..{} units", 250 * figure)
    );
}

#[test]
fn dry_run_needs_no_key_and_shows_a_budget_it_would_break() {
    let server = Server::json("{}");
    let run = run([
        "--base-url",
        &server.base_url(),
        "--dry-run",
        "--budget",
        "5",
        "keywords",
        "metrics",
        "--keyword",
        "casa",
    ]);
    run.expect_code(0);
    assert_eq!(server.seen(), []);
    assert!(
        run.stdout.contains("api_key=<redacted>") && run.stdout.contains("keyword=casa"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("1 request, estimated cost"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("over the budget of 5"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_batched_job_over_budget_is_refused_whole() {
    let sandbox = sandbox();
    let file = TempFile::with_lines("budget", &keywords());
    let run = run([
        "--api-key",
        KEY,
        "--base-url",
        &sandbox.base_url(),
        "--budget",
        "100",
        "keywords",
        "metrics",
        "--keyword-file",
        file.path(),
    ]);
    run.expect_code(2).expect_no_key();
    assert!(
        run.stderr
            .contains("keywords metrics (3 requests) may cost up to"),
        "{}",
        run.stderr
    );
    assert_eq!(sandbox.requests(), 0);
}

/// The rows of `domains keywords` for one domain, from the sandbox at `base_url`,
/// with these extra arguments.
fn domain_keywords(base_url: &str, extra: &[&str]) -> Run {
    let mut args = vec![
        "--api-key",
        KEY,
        "--base-url",
        base_url,
        "--format",
        "json",
        "domains",
        "keywords",
        "--domain",
        "example.it",
        "--type",
        "best",
    ];
    args.extend_from_slice(extra);
    run(args)
}

#[test]
fn max_rows_pages_through_the_rows_and_prints_them_as_one_result() {
    let whole = sandbox();
    let one_call = domain_keywords(&whole.base_url(), &["--limit", "25"]);
    one_call.expect_code(0);

    let paged = sandbox();
    let run = domain_keywords(&paged.base_url(), &["--limit", "10", "--max-rows", "25"]);
    run.expect_code(0).expect_no_key();
    // 25 rows with pages of 10: offsets 0, 10 and 20, the last asking for 5.
    assert_eq!(paged.requests(), 3);
    let envelope = run.json();
    assert_eq!(envelope["response"], one_call.json()["response"]);
    assert_eq!(envelope["ResultRows"], 25);
    let spent = Sandbox::STARTING_UNITS - paged.units_remaining();
    assert_eq!(envelope["UnitsUsed"], spent);
    assert_eq!(envelope["UnitsRemaining"], paged.units_remaining());
    assert_eq!(spent, one_call.json()["UnitsUsed"]);
}

#[test]
fn max_rows_stops_at_a_short_page() {
    let whole = sandbox();
    let one_call = domain_keywords(&whole.base_url(), &["--limit", "10000"]);
    one_call.expect_code(0);
    let available = one_call.json()["response"].as_array().unwrap().len();
    // Enough for several pages of 50, and not a multiple of 50: the last page
    // is short.
    assert!(
        available > 100 && !available.is_multiple_of(50),
        "{available}"
    );

    let paged = sandbox();
    let run = domain_keywords(
        &paged.base_url(),
        &["--limit", "50", "--max-rows", "100000"],
    );
    run.expect_code(0);
    assert_eq!(run.json()["response"], one_call.json()["response"]);
    // Full pages, then one short (or empty: "no data found") page.
    assert_eq!(paged.requests(), available as u64 / 50 + 1);

    // Without --limit, the pages are as large as one request takes.
    let default_pages = sandbox();
    let run = domain_keywords(&default_pages.base_url(), &["--max-rows", "100000"]);
    run.expect_code(0);
    assert_eq!(run.json()["response"], one_call.json()["response"]);
    assert_eq!(default_pages.requests(), 1);
}

#[test]
fn max_rows_fetches_one_page_when_a_rule_pins_the_offset() {
    let sandbox = sandbox();
    let run = run([
        "--api-key",
        KEY,
        "--base-url",
        &sandbox.base_url(),
        "--format",
        "json",
        "domains",
        "keywords",
        "--domain",
        "example.it",
        "--type",
        "newentry",
        "--limit",
        "5",
        "--max-rows",
        "50",
    ]);
    run.expect_code(0);
    assert_eq!(sandbox.requests(), 1);
    assert_eq!(run.json()["ResultRows"], 5);
}

/// The lines a `--dry-run` of `domains keywords` with these arguments prints,
/// having checked that it succeeds, sends nothing and never shows the key.
fn paged_dry_run(extra: &[&str]) -> Vec<String> {
    let server = Server::json("{}");
    let mut args = vec!["--dry-run"];
    args.extend_from_slice(extra);
    let run = domain_keywords(&server.base_url(), &args);
    run.expect_code(0).expect_no_key();
    assert_eq!(server.seen(), [], "a dry run sends nothing");
    run.stdout.lines().map(str::to_owned).collect()
}

#[test]
fn max_rows_dry_run_lists_the_pages_and_the_whole_estimate() {
    let lines = paged_dry_run(&["--limit", "10", "--max-rows", "25"]);
    assert_eq!(lines.len(), 4, "{lines:?}");
    for (line, (offset, limit)) in lines.iter().zip([(0, 10), (10, 10), (20, 5)]) {
        assert!(
            line.starts_with("GET ") && line.ends_with(&format!("&offset={offset}&limit={limit}")),
            "{line}"
        );
    }
    let figure = seozoom::operations::DOMAINS_KEYWORDS.cost.units[0];
    assert_eq!(
        lines[3],
        format!(
            "at most 3 requests (fewer if a page comes back short), estimated cost 0..{} units",
            25 * figure
        )
    );
}

#[test]
fn a_dry_run_of_many_pages_lists_the_first_and_counts_the_rest() {
    let lines = paged_dry_run(&["--limit", "1", "--max-rows", "1000000000"]);
    assert_eq!(lines.len(), 102, "{lines:?}");
    assert!(lines[99].ends_with("&offset=99&limit=1"), "{}", lines[99]);
    assert_eq!(lines[100], "... 999999900 more pages like these");
    assert!(
        lines[101].starts_with("at most 1000000000 requests (fewer if a page comes back short)"),
        "{}",
        lines[101]
    );
}

#[test]
fn a_paged_job_over_budget_is_refused_whole() {
    let sandbox = sandbox();
    let run = domain_keywords(
        &sandbox.base_url(),
        &["--budget", "100", "--limit", "10", "--max-rows", "25"],
    );
    run.expect_code(2).expect_no_key();
    assert!(
        run.stderr.contains("domains keywords may cost up to"),
        "{}",
        run.stderr
    );
    assert_eq!(sandbox.requests(), 0);
}

#[test]
fn max_rows_is_only_a_flag_of_paged_operations() {
    let run = run([
        "--sandbox",
        "domains",
        "metrics",
        "--domain",
        "example.it",
        "--max-rows",
        "5",
    ]);
    run.expect_code(2);
    assert!(run.stderr.contains("--max-rows"), "{}", run.stderr);
}

/// `--fit-budget`: a paged job whose maximum is over the budget takes as many
/// rows as the budget covers at worst, and says so before the first request.
#[test]
fn fit_budget_takes_the_rows_the_budget_covers() {
    let sandbox = support::start_sandbox(Sandbox::builder().paged_rows(10_000));
    let figure = seozoom::operations::DOMAINS_KEYWORDS.cost.units[0];
    assert_eq!(
        figure, 10,
        "the spec's 10 units a row, which the figures below assume"
    );
    let job = ["--limit", "1000", "--max-rows", "5000"];

    // Without it, the job is refused whole.
    let mut refused = vec!["--budget", "20000"];
    refused.extend_from_slice(&job);
    domain_keywords(&sandbox.base_url(), &refused).expect_code(2);
    assert_eq!(sandbox.requests(), 0);

    let mut fitted = vec!["--budget", "20000", "--fit-budget"];
    fitted.extend_from_slice(&job);
    let run = domain_keywords(&sandbox.base_url(), &fitted);
    run.expect_code(0).expect_no_key();
    let rows = run.json()["response"].as_array().unwrap().len();
    assert_eq!(rows, 2000, "{}", run.stderr);
    assert_eq!(sandbox.requests(), 2, "two pages of 1000");
    assert!(
        run.stderr.contains(
            "note: --fit-budget: 20000 units of budget cover 2000 of the 5000 rows asked at up to 10 units a row (worst case 20000 units); fetching up to 2000 rows"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(run.json()["UnitsUsed"], 20_000);

    // A dry run says the same, and lists the two pages.
    let mut dry = vec!["--dry-run"];
    dry.extend_from_slice(&fitted);
    let dry = domain_keywords(&sandbox.base_url(), &dry);
    dry.expect_code(0);
    assert!(
        dry.stderr.contains("cover 2000 of the 5000 rows asked"),
        "{}",
        dry.stderr
    );
    let last = dry.stdout.lines().last().unwrap_or_default();
    assert_eq!(
        last,
        "at most 2 requests (fewer if a page comes back short), estimated cost 0..20000 units",
        "{}",
        dry.stdout
    );
}
