//! What counts as the same input, through the binary on one SQLite store
//! against the sandbox: the spec's one rule per parameter decides what is
//! sent, what the cache answers and which rows come back, so each command
//! prints exactly the rows of the inputs it asked for, each once.

use crate::store::{TempDir, seozoom as on_store};
use crate::support;

use seozoom::sandbox::{Sandbox, SandboxBuilder};
use serde_json::Value;
use support::{KEY, Run, run_with_env};

/// `seozoom --format json ARGS` on `dir`'s store, calling `sandbox`; it
/// succeeds.
fn json(sandbox: &Sandbox, dir: &TempDir, args: &[&str]) -> (Value, Run) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let run = on_store(sandbox, &dir.store(), &all);
    run.expect_code(0).expect_no_key();
    (run.json(), run)
}

/// The rows of a JSON envelope, by their key field.
fn keys(envelope: &Value, field: &str) -> Vec<String> {
    envelope["response"]
        .as_array()
        .unwrap_or_else(|| panic!("no rows: {envelope}"))
        .iter()
        .map(|row| row[field].as_str().unwrap().to_owned())
        .collect()
}

/// (It gave 2 rows, then 0 rows "answered from the cache".)
#[test]
fn keywords_differing_in_case_give_one_row_now_and_from_the_cache() {
    let sandbox = support::start_sandbox(SandboxBuilder::default());
    let store = TempDir::new("case");
    let (both, _) = json(
        &sandbox,
        &store,
        &[
            "keywords",
            "metrics",
            "--keyword",
            "Mutuo",
            "--keyword",
            "mutuo",
        ],
    );
    assert_eq!(keys(&both, "keyword"), ["Mutuo"]);
    let (again, run) = json(
        &sandbox,
        &store,
        &["keywords", "metrics", "--keyword", "mutuo"],
    );
    assert_eq!(keys(&again, "keyword"), ["Mutuo"], "the cached row");
    assert!(
        run.stderr.contains("answered from the cache"),
        "{}",
        run.stderr
    );
    assert_eq!(sandbox.requests(), 1);
}

/// (The second command gave 2 rows, one of them for `www.example.it`.)
#[test]
fn a_domain_with_and_without_www_gives_one_row_now_and_from_the_cache() {
    let sandbox = support::start_sandbox(SandboxBuilder::default());
    let store = TempDir::new("www");
    let (both, _) = json(
        &sandbox,
        &store,
        &[
            "domains",
            "metrics",
            "--domain",
            "example.it",
            "--domain",
            "www.example.it",
        ],
    );
    assert_eq!(keys(&both, "domain"), ["example.it"]);
    let (again, _) = json(
        &sandbox,
        &store,
        &["domains", "metrics", "--domain", "example.it"],
    );
    assert_eq!(keys(&again, "domain"), ["example.it"]);
    assert_eq!(sandbox.requests(), 1);
}

/// (`" mutuo "` was merged into `"mutuo"` but `"MUTUO"` charged apart.)
#[test]
fn spaces_and_case_are_one_keyword_estimated_and_charged_once() {
    let sandbox = support::start_sandbox(SandboxBuilder::default());
    let store = TempDir::new("charged");
    let args = [
        "keywords",
        "metrics",
        "--keyword",
        " mutuo ",
        "--keyword",
        "MUTUO",
        "--keyword",
        "mutuo",
    ];
    let per_keyword = seozoom::operations::KEYWORDS_METRICS.cost.units[0];
    let base_url = sandbox.base_url();
    let mut dry = vec!["--api-key", KEY, "--base-url", &base_url, "--dry-run"];
    dry.extend_from_slice(&args);
    let plan = run_with_env(dry, &[("SEOZOOM_STORE", &store.store())]);
    plan.expect_code(0);
    let last = plan.stdout.lines().last().unwrap_or_default();
    assert_eq!(
        last,
        format!("1 request, estimated cost 0..{per_keyword} units"),
        "{}",
        plan.stdout
    );
    let before = sandbox.units_remaining();
    let (one, _) = json(&sandbox, &store, &args);
    assert_eq!(keys(&one, "keyword"), [" mutuo "], "sent as first given");
    assert_eq!(before - sandbox.units_remaining(), per_keyword);
}

/// `keywords serp` prints its map in the order of the keywords given, the
/// cached one included. (The cached members came first.)
#[test]
fn a_map_prints_in_input_order_whatever_the_cache_answers() {
    let sandbox = support::start_sandbox(SandboxBuilder::default());
    let store = TempDir::new("order");
    json(
        &sandbox,
        &store,
        &["keywords", "serp", "--keyword", "mid tre"],
    );
    let (all, _) = json(
        &sandbox,
        &store,
        &[
            "keywords",
            "serp",
            "--keyword",
            "zeta uno",
            "--keyword",
            "alpha due",
            "--keyword",
            "mid tre",
        ],
    );
    let keys = all["response"]
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        keys,
        Some(vec!["zeta uno", "alpha due", "mid tre"]),
        "{all}"
    );
    assert_eq!(sandbox.requests(), 2);
}
