//! The key-wide store through the command line: real processes on one SQLite
//! file, against a sandbox on loopback. The same command twice sends one
//! request; `usage` reports the ledger; `--budget N/day` holds across
//! processes; a paged job that failed part-way pays only for the rest; the
//! key is nowhere in the file.

mod support;

use std::path::{Path, PathBuf};

use seozoom::sandbox::{Fault, FaultPlan, Sandbox};
use serde_json::Value;
use support::{KEY, Run, run_with_env};

fn sandbox_with(faults: Option<FaultPlan>) -> Sandbox {
    let mut builder = Sandbox::builder();
    if let Some(faults) = faults {
        builder = builder.faults(faults);
    }
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(builder.start())
        .unwrap()
}

/// A directory of its own for one test, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "seozoom-cli-store-{name}-{}-{}",
            std::process::id(),
            fastrand_suffix()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn store(&self) -> String {
        format!("sqlite:{}", self.0.join("store.sqlite3").display())
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn fastrand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

/// The binary on `store`, calling `sandbox` with the test key.
fn seozoom(sandbox: &Sandbox, store: &str, args: &[&str]) -> Run {
    let base_url = sandbox.base_url();
    let mut all = vec!["--api-key", KEY, "--base-url", &base_url];
    all.extend_from_slice(args);
    run_with_env(all, &[("SEOZOOM_STORE", store)])
}

#[test]
fn the_same_command_twice_sends_one_request() {
    let sandbox = sandbox_with(None);
    let dir = TempDir::new("twice");
    let args = [
        "--format",
        "json",
        "domains",
        "authority",
        "--domain",
        "a.it",
        "--domain",
        "b.it",
    ];

    let first = seozoom(&sandbox, &dir.store(), &args);
    first.expect_code(0).expect_no_key();
    let second = seozoom(&sandbox, &dir.store(), &args);
    second.expect_code(0).expect_no_key();

    assert_eq!(
        sandbox.requests(),
        1,
        "the second run was answered from the cache"
    );
    let (first, second_json) = (first.json(), second.json());
    assert_eq!(first["response"], second_json["response"]);
    assert_eq!(
        second_json["UnitsUsed"], 0,
        "a cached answer is charged nothing"
    );
    assert_eq!(second_json["UnitsRemaining"], first["UnitsRemaining"]);
    assert!(
        second.stderr.contains("from the cache, fetched 2"),
        "stderr says so and when: {}",
        second.stderr
    );

    // --refresh sends it again.
    let mut refreshed = vec!["--refresh"];
    refreshed.extend_from_slice(&args);
    seozoom(&sandbox, &dir.store(), &refreshed).expect_code(0);
    assert_eq!(sandbox.requests(), 2);

    // The ledger: two calls sent, one cache hit.
    let usage = seozoom(&sandbox, &dir.store(), &["--format", "json", "usage"]);
    usage.expect_code(0).expect_no_key();
    let list = usage.json();
    let rows = list.as_array().unwrap();
    assert_eq!(rows.len(), 1, "{list}");
    let row = &rows[0];
    let charged = first["UnitsUsed"].as_i64().unwrap();
    assert!(charged > 0);
    for (member, expected) in [
        ("group", Value::from("domains")),
        ("action", Value::from("authority")),
        ("calls", Value::from(2)),
        ("cache_hits", Value::from(1)),
        ("units_used", Value::from(2 * charged)),
        ("units_saved", Value::from(charged)),
    ] {
        assert_eq!(row[member], expected, "{member} in {row}");
    }
    let members: Vec<&String> = row.as_object().unwrap().keys().collect();
    assert_eq!(
        members.len(),
        6,
        "exactly the documented members: {members:?}"
    );

    // The table shows the last balance reported.
    let table = seozoom(&sandbox, &dir.store(), &["usage", "--since", "2000-01-01"]);
    table.expect_code(0);
    assert!(table.stdout.contains("authority"), "{}", table.stdout);
    assert!(
        table.stderr.contains("last balance reported"),
        "{}",
        table.stderr
    );

    // The key is nowhere in the store's files.
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        assert!(
            !bytes.windows(KEY.len()).any(|w| w == KEY.as_bytes()),
            "the key is in the store"
        );
    }
}

#[test]
fn a_budget_per_day_holds_across_processes() {
    let sandbox = sandbox_with(None);
    let dir = TempDir::new("budget");
    // `domains authority` costs up to 10 units a domain.
    let call = |domains: [&str; 2]| {
        seozoom(
            &sandbox,
            &dir.store(),
            &[
                "--budget",
                "50/day",
                "domains",
                "authority",
                "--domain",
                domains[0],
                "--domain",
                domains[1],
            ],
        )
    };
    call(["a.it", "b.it"]).expect_code(0);
    call(["c.it", "d.it"]).expect_code(0);
    let third = call(["e.it", "f.it"]);
    third.expect_code(2).expect_no_key();
    assert!(
        third.stderr.contains("50 units per day") && third.stderr.contains("40 spent"),
        "{}",
        third.stderr
    );
    assert_eq!(sandbox.requests(), 2, "the third process sent nothing");
}

#[test]
fn a_bad_budget_window_is_refused_before_anything_is_sent() {
    let sandbox = sandbox_with(None);
    let dir = TempDir::new("badbudget");
    let run = seozoom(
        &sandbox,
        &dir.store(),
        &[
            "--budget",
            "50/week",
            "domains",
            "authority",
            "--domain",
            "a.it",
        ],
    );
    run.expect_code(2);
    assert!(run.stderr.contains("week"), "{}", run.stderr);
    assert_eq!(sandbox.requests(), 0);
}

#[test]
fn a_paged_job_that_failed_part_way_pays_only_for_the_rest_when_run_again() {
    // The fourth page (offset 30) fails however often it is tried.
    let failing = sandbox_with(Some(FaultPlan::none().on(
        "offset",
        "30",
        Fault::ServerError,
    )));
    let dir = TempDir::new("pages");
    let args = [
        "--format",
        "ndjson",
        "domains",
        "keywords",
        "--domain",
        "example.it",
        "--type",
        "best",
        "--limit",
        "10",
        "--max-rows",
        "100",
    ];
    let stopped = seozoom(&failing, &dir.store(), &args);
    stopped.expect_code(1);
    let pages_sent = failing.requests();
    assert!(
        pages_sent >= 4,
        "three pages, then the failing one (with retries)"
    );

    let healthy = sandbox_with(None);
    let rerun = seozoom(&healthy, &dir.store(), &args);
    rerun.expect_code(0);
    assert_eq!(
        healthy.requests(),
        7,
        "pages 4 to 10; the first three came from the cache"
    );
    assert_eq!(rerun.stdout.lines().count(), 100);
}

#[test]
fn an_unusable_store_is_a_clear_error_and_nothing_is_sent() {
    let sandbox = sandbox_with(None);
    let dir = TempDir::new("unusable");
    let not_sqlite = dir.path().join("not-a-database");
    std::fs::write(
        &not_sqlite,
        "this is not a SQLite file, it is plain text ".repeat(100),
    )
    .unwrap();
    for store in [
        format!("sqlite:{}", not_sqlite.display()),
        "postgres://db".to_owned(),
    ] {
        let run = seozoom(
            &sandbox,
            &store,
            &["domains", "authority", "--domain", "a.it"],
        );
        run.expect_code(2).expect_no_key();
        assert!(run.stderr.contains("store"), "{store}: {}", run.stderr);
    }
    assert_eq!(sandbox.requests(), 0);
}
