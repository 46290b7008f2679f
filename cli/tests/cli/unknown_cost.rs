//! An operation whose cost the reference does not print (`keywords related`):
//! it works like every other, its estimate says the cost is unknown (never 0),
//! and a budget refuses it before anything is sent, until the store's ledger
//! has seen what the key was charged for it: then a dry run shows the
//! estimate made from that, marked observed.

use crate::support;

use seozoom::sandbox::Sandbox;
use support::{KEY, Server, run, run_with_env};

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

/// A store file of its own for one test, its directory removed when dropped.
struct TempStore(std::path::PathBuf);

impl TempStore {
    fn new(name: &str) -> TempStore {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!(
            "seozoom-cli-learned-{name}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempStore(dir)
    }

    fn url(&self) -> String {
        format!("sqlite:{}", self.0.join("store.sqlite3").display())
    }
}

impl Drop for TempStore {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_dry_run_after_a_real_call_shows_the_observed_estimate() {
    let sandbox = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(Sandbox::start())
        .unwrap();
    let store = TempStore::new("dry-run");
    let base_url = sandbox.base_url();
    let on_store = |args: &[&str]| {
        run_with_env(
            with(&["--api-key", KEY, "--base-url", &base_url], args),
            &[("SEOZOOM_STORE", &store.url())],
        )
    };

    // Nothing seen yet: unknown.
    let before = on_store(&["--dry-run"]);
    before.expect_code(0).expect_no_key();
    assert!(
        before.stdout.contains("estimated cost unknown"),
        "{}",
        before.stdout
    );

    // A real call: 5 rows, charged what the sandbox charges.
    let call = on_store(&["--format", "json"]);
    call.expect_code(0).expect_no_key();
    let units = call.json()["UnitsUsed"].as_i64().unwrap();
    assert!(units > 0);
    let per_row = (units + 4) / 5;
    assert_eq!(sandbox.requests(), 1);

    // The cache answers it now: nothing to send, nothing to pay.
    let dry = on_store(&["--dry-run"]);
    dry.expect_code(0);
    assert!(
        dry.stdout
            .contains("0 requests, estimated cost 0 units; 1 of 1 item from the cache"),
        "{}",
        dry.stdout
    );

    // The same request sent again (`--refresh`) and a budget that covers
    // it: the estimate is made from what was observed, and the budget could
    // admit it.
    let unit = if per_row == 1 { "unit" } else { "units" };
    let observed = format!(
        "estimated cost 0..{} units (observed: {per_row} {unit} a row over 5 rows)",
        5 * per_row
    );
    let dry = on_store(&["--budget", "1000", "--refresh", "--dry-run"]);
    dry.expect_code(0).expect_no_key();
    let last = dry.stdout.lines().last().unwrap_or_default();
    assert_eq!(last, format!("1 request, {observed}"), "{}", dry.stdout);

    // A budget under it: the note says it would be refused as over the
    // budget, not as of unknown cost.
    let small = (5 * per_row - 1).to_string();
    let dry = on_store(&["--budget", &small, "--refresh", "--dry-run"]);
    dry.expect_code(0);
    assert!(
        dry.stdout.contains(&format!(
            "(over the budget of {small}: the call would be refused)"
        )),
        "{}",
        dry.stdout
    );
    assert_eq!(sandbox.requests(), 1, "a dry run sends nothing");

    // The call itself, under a budget, is admitted now (sent again, not
    // answered from the cache).
    let sent = on_store(&["--budget", "1000", "--refresh", "--format", "json"]);
    sent.expect_code(0).expect_no_key();
    assert_eq!(sandbox.requests(), 2);

    // Without a key there is no ledger to read: unknown, as before.
    let keyless = run_with_env(
        with(&["--base-url", &base_url], &["--dry-run"]),
        &[("SEOZOOM_STORE", &store.url())],
    );
    keyless.expect_code(0);
    assert!(
        keyless.stdout.contains("estimated cost unknown"),
        "{}",
        keyless.stdout
    );
}
