//! An operation whose cost the reference does not print (`keywords related`):
//! it works like every other, its estimate says the cost is unknown (never 0),
//! and a budget refuses it before anything is sent.

mod support;

use support::{KEY, Server, run};

const RELATED: [&str; 6] = [
    "keywords",
    "related",
    "--keyword",
    "scarpe running",
    "--limit",
    "5",
];

fn with(before: &[&str], after: &[&str]) -> Vec<String> {
    before
        .iter()
        .chain(RELATED.iter())
        .chain(after)
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn related_keywords_come_from_the_sandbox_with_their_affinity() {
    let out = run(with(&["--sandbox", "--format", "json"], &[]));
    out.expect_code(0);
    let body = out.json();
    let rows = body["response"].as_array().expect("rows");
    assert_eq!(rows.len(), 5, "{body}");
    assert_eq!(body["ResultRows"], 5);
    for row in rows {
        let affinity = row["serp_affinity"].as_i64().expect("an integer affinity");
        assert!((0..=100).contains(&affinity), "{row}");
        assert!(
            row["keyword"].is_string() && row["search_volume"].is_i64(),
            "{row}"
        );
        assert!(row["jan"].is_i64() && row["dec"].is_i64(), "{row}");
    }
    // The units the call reported are what it cost, counted as usual.
    assert!(body["UnitsUsed"].as_i64().unwrap() > 0, "{body}");
}

#[test]
fn a_dry_run_says_the_cost_is_unknown() {
    let out = run(with(&["--sandbox"], &["--dry-run"]));
    out.expect_code(0);
    assert!(
        out.stdout
            .contains("action=related&keyword=scarpe%20running&limit=5"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("estimated cost unknown"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("0..0"), "{}", out.stdout);

    let out = run(with(&["--sandbox", "--budget", "100"], &["--dry-run"]));
    out.expect_code(0);
    assert!(
        out.stdout.contains("cannot cover an unknown cost"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_budget_refuses_it_before_sending() {
    let server = Server::json(r#"{"ResultRows":0,"UnitsUsed":0,"UnitsRemaining":1,"response":[]}"#);
    let out = run(with(
        &[
            "--api-key",
            KEY,
            "--base-url",
            &server.base_url(),
            "--budget",
            "100",
        ],
        &[],
    ));
    out.expect_code(2).expect_no_key();
    assert!(
        out.stderr
            .contains("the cost of keywords related is unknown")
            && out.stderr.contains("budget of 100"),
        "{}",
        out.stderr
    );
    assert!(server.seen().is_empty(), "a request was sent");

    // Without a budget it is sent.
    let out = run(with(
        &["--api-key", KEY, "--base-url", &server.base_url()],
        &[],
    ));
    out.expect_code(0).expect_no_key();
    assert_eq!(server.seen().len(), 1);
}

#[test]
fn its_help_says_the_cost_is_unknown() {
    let out = run(["keywords", "related", "--help"]);
    out.expect_code(0);
    assert!(out.stdout.contains("Cost: unknown"), "{}", out.stdout);
}
