//! The key-wide store through the command line: real processes on one SQLite
//! file, against a sandbox on loopback. The same command twice sends one
//! request; `usage` reports the ledger; `--budget N/day` holds across
//! processes; a paged job that failed part-way pays only for the rest; the
//! key is nowhere in the file.

use crate::support;

use std::path::{Path, PathBuf};

use seozoom::sandbox::{Fault, FaultPlan, Sandbox};
use seozoom_test_support::RedisServer;
use serde_json::Value;
use support::{KEY, Run, run_with_env};

fn sandbox_with(faults: Option<FaultPlan>) -> Sandbox {
    sandbox_of(Sandbox::builder(), faults)
}

fn sandbox_of(builder: seozoom::sandbox::SandboxBuilder, faults: Option<FaultPlan>) -> Sandbox {
    match faults {
        Some(faults) => support::start_sandbox(builder.faults(faults)),
        None => support::start_sandbox(builder),
    }
}

/// A directory of its own for one test, removed when dropped.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "seozoom-cli-store-{name}-{}-{}",
            std::process::id(),
            fastrand_suffix()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub(crate) fn store(&self) -> String {
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

/// A paged ndjson job of ten pages of 10 rows (offsets 0 to 90).
const TEN_PAGES: [&str; 12] = [
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

/// A sandbox whose fourth page of [`TEN_PAGES`] (offset 30) answers after `delay`.
fn fourth_page_slow(delay: std::time::Duration) -> Sandbox {
    sandbox_with(Some(FaultPlan::none().slow(delay).on(
        "offset",
        "30",
        Fault::Slow,
    )))
}

/// A healthy sandbox on the port `old` served on, once `old` has stopped.
/// (A stopped sandbox lets its requests in flight finish first.)
fn same_port(old: Sandbox) -> Sandbox {
    let port = old.local_addr().port();
    drop(old);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    for _ in 0..200 {
        if let Ok(sandbox) = runtime.block_on(Sandbox::builder().port(port).start()) {
            return sandbox;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("port {port} stayed in use");
}

/// The binary on `store`, calling `sandbox` with the test key.
pub(crate) fn seozoom(sandbox: &Sandbox, store: &str, args: &[&str]) -> Run {
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
        (
            "rows",
            Value::from(2 * first["ResultRows"].as_i64().unwrap()),
        ),
    ] {
        assert_eq!(row[member], expected, "{member} in {row}");
    }
    let members: Vec<&String> = row.as_object().unwrap().keys().collect();
    assert_eq!(
        members.len(),
        7,
        "exactly the library's members of a usage line: {members:?}"
    );

    // The table shows the last balance reported.
    let table = seozoom(&sandbox, &dir.store(), &["usage", "--since", "2000-01-01"]);
    table.expect_code(0);
    assert!(table.stdout.contains("authority"), "{}", table.stdout);
    let balance = sandbox.units_remaining();
    assert!(
        table
            .stdout
            .contains(&format!("last balance reported: {balance} units, at 2")),
        "{}",
        table.stdout
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

/// The default store is the user's alone: its directories are created
/// `0700` and its files `0600` (they were `0755` and `0644`, so any local
/// user could read the paid data). A file that others may read is left as it
/// is, and `usage` says so on stderr.
#[cfg(unix)]
#[test]
fn the_default_store_is_the_users_alone_and_usage_warns_when_others_may_read_it() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    let sandbox = sandbox_with(None);
    let dir = TempDir::new("private");
    let data = dir.path().join("data");
    let base_url = sandbox.base_url();
    let on_default_store = |args: &[&str]| {
        let mut command = support::binary();
        command
            .env_remove("SEOZOOM_STORE")
            .env("XDG_DATA_HOME", &data)
            .args(["--api-key", KEY, "--base-url", &base_url])
            .args(args);
        let output = command.output().unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stderr).unwrap()
    };
    on_default_store(&["keywords", "metrics", "--keyword", "mutuo"]);
    let store_dir = data.join("seozoom");
    assert_eq!(mode(&data), 0o700);
    assert_eq!(mode(&store_dir), 0o700);
    let file = store_dir.join("store.sqlite3");
    for entry in std::fs::read_dir(&store_dir).unwrap() {
        let path = entry.unwrap().path();
        assert_eq!(mode(&path), 0o600, "{}", path.display());
    }
    let quiet = on_default_store(&["usage"]);
    assert!(!quiet.contains("warning"), "{quiet}");

    // Made readable by others (an older version, a chmod): left so, and said.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let warned = on_default_store(&["--format", "json", "usage"]);
    let expected = format!(
        "warning: the store's file `{}` can be read by other users (mode 0644): `chmod 600 {}`",
        file.display(),
        file.display()
    );
    assert!(warned.contains(&expected), "{warned}");
    assert_eq!(mode(&file), 0o644, "left as the user set it");
}

/// The cache is scoped by the base URL's origin: the answer of one server
/// (a test double, a proxy, a staging server) is never served for another;
/// the ledger stays the key's, wherever its calls went.
#[test]
fn answers_are_cached_per_origin_and_the_ledger_per_key() {
    let (one, other) = (sandbox_with(None), sandbox_with(None));
    let dir = TempDir::new("origins");
    let args = [
        "--format",
        "json",
        "domains",
        "authority",
        "--domain",
        "a.it",
    ];

    seozoom(&one, &dir.store(), &args)
        .expect_code(0)
        .expect_no_key();
    let second = seozoom(&other, &dir.store(), &args);
    second.expect_code(0).expect_no_key();
    assert_eq!(one.requests(), 1);
    assert_eq!(
        other.requests(),
        1,
        "the other server got the request: {}",
        second.stderr
    );
    assert!(
        !second.stderr.contains("from the cache"),
        "{}",
        second.stderr
    );
    assert!(second.json()["UnitsUsed"].as_i64().unwrap() > 0);

    // Each origin's answer is still cached for that origin.
    let again = seozoom(&one, &dir.store(), &args);
    again.expect_code(0);
    assert!(again.stderr.contains("from the cache"), "{}", again.stderr);
    assert_eq!((one.requests(), other.requests()), (1, 1));

    // One key: one ledger, whatever server each call went to.
    let usage = seozoom(&one, &dir.store(), &["--format", "json", "usage"]);
    usage.expect_code(0).expect_no_key();
    let list = usage.json();
    let rows = list.as_array().unwrap();
    assert_eq!(rows.len(), 1, "{list}");
    assert_eq!(rows[0]["calls"], 2, "{list}");
    assert_eq!(rows[0]["cache_hits"], 1, "{list}");
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
    let args = TEN_PAGES;
    let stopped = seozoom(&failing, &dir.store(), &args);
    stopped.expect_code(1);
    let pages_sent = failing.requests();
    assert!(
        pages_sent >= 4,
        "three pages, then the failing one (with retries)"
    );

    // The same origin (the cache is kept per origin), healthy this time.
    let healthy = same_port(failing);
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

/// Six processes at once on one store, each a batched job of 7 requests of
/// `domains authority` (20 a window), against a sandbox that answers 429 over
/// the figure in any rolling window, as the service would. The window is
/// lowered to 2 s on both sides (`SEOZOOM_RATE_WINDOW`), so 42 requests need
/// three windows. (On `memory`, each process holds the figure alone: the
/// sandbox answers 429s, retried, and sees more than 42 requests.)
fn six_processes_hold_the_figures_together(store: &str) {
    let window = "2";
    let sandbox = sandbox_of(
        Sandbox::builder().rate_window(std::time::Duration::from_secs(2)),
        None,
    );
    let base_url = sandbox.base_url();
    let children: Vec<_> = (0..6)
        .map(|process| {
            let mut command = support::binary();
            command
                .args([
                    "--api-key",
                    KEY,
                    "--base-url",
                    &base_url,
                    "--format",
                    "ndjson",
                ])
                .args(["domains", "authority"])
                .env("SEOZOOM_STORE", store)
                .env("SEOZOOM_RATE_WINDOW", window)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped());
            for i in 0..700 {
                command.args(["--domain", &format!("p{process}-{i}.it")]);
            }
            command.spawn().unwrap()
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 700);
        assert!(!stderr.contains(KEY));
    }
    assert_eq!(
        sandbox.rate_limited(),
        0,
        "no request arrived over the figure in any rolling window"
    );
    assert_eq!(sandbox.requests(), 42, "every request sent once");
}

#[test]
fn six_processes_on_one_sqlite_file_never_trip_the_strict_sandbox() {
    let dir = TempDir::new("six");
    six_processes_hold_the_figures_together(&dir.store());
}

#[test]
fn six_processes_on_one_redis_never_trip_the_strict_sandbox() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    six_processes_hold_the_figures_together(&redis.url());
}

#[test]
fn an_unreachable_redis_fails_naming_it_unless_the_user_opts_to_fall_back() {
    let sandbox = sandbox_with(None);
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let store = format!("redis://:hunter2@127.0.0.1:{port}/0");
    let args = ["domains", "authority", "--domain", "a.it"];

    let refused = seozoom(&sandbox, &store, &args);
    refused.expect_code(2).expect_no_key();
    assert!(
        refused
            .stderr
            .contains(&format!("redis://:<hidden>@127.0.0.1:{port}/0")),
        "the store is named, its password hidden: {}",
        refused.stderr
    );
    assert!(!refused.stderr.contains("hunter2"), "{}", refused.stderr);
    assert_eq!(sandbox.requests(), 0, "nothing sent");

    let mut fallback = vec!["--store-fallback"];
    fallback.extend_from_slice(&args);
    let went_on = seozoom(&sandbox, &store, &fallback);
    went_on.expect_code(0).expect_no_key();
    assert!(
        went_on.stderr.contains("store fallback") && went_on.stderr.contains("WARN"),
        "a warning says so: {}",
        went_on.stderr
    );
    assert_eq!(sandbox.requests(), 1);
}

#[test]
fn a_paged_job_killed_after_3_of_10_pages_sends_7_when_run_again() {
    use std::io::{BufRead, BufReader};
    // The fourth page (offset 30) hangs; the job is killed while it waits.
    // (Not for long: the rerun waits for it to be done, to use the same port.)
    let hanging = fourth_page_slow(std::time::Duration::from_secs(3));
    let dir = TempDir::new("killed");
    let args = TEN_PAGES;
    let base_url = hanging.base_url();
    let mut child = support::binary()
        .args(["--api-key", KEY, "--base-url", &base_url])
        .args(args)
        .env("SEOZOOM_STORE", dir.store())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Three pages are printed as they arrive; then the process is killed.
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    for _ in 0..30 {
        lines.next().expect("a row").unwrap();
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let sent = hanging.requests();
    assert!(
        sent == 3 || sent == 4,
        "three pages, and perhaps the fourth in flight: {sent}"
    );

    // The same origin (the cache is kept per origin), healthy this time.
    let healthy = same_port(hanging);
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
fn a_redis_killed_mid_job_fails_naming_it_and_keeps_the_rows_received() {
    use std::io::{BufRead, BufReader};
    let Some(mut redis) = RedisServer::start() else {
        return;
    };
    let store = redis.url();
    // The fourth page (offset 30) is slow: Redis is killed while it is on its way.
    let sandbox = fourth_page_slow(std::time::Duration::from_millis(1_500));
    let base_url = sandbox.base_url();
    let mut child = support::binary()
        .args(["--api-key", KEY, "--base-url", &base_url])
        .args(TEN_PAGES)
        .env("SEOZOOM_STORE", &store)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut rows = Vec::new();
    for _ in 0..30 {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        rows.push(line);
    }
    redis.kill();
    rows.extend(stdout.lines().map_while(Result::ok).map(|l| l + "\n"));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let status = child.wait().unwrap();

    assert_eq!(status.code(), Some(1), "requests were sent: {stderr}");
    assert!(stderr.contains(&store), "the store is named: {stderr}");
    assert!(stderr.contains("cannot be reached"), "{stderr}");
    assert!(!stderr.contains(KEY), "the key is shown: {stderr}");
    // The pages that arrived are printed, the one in flight when Redis went
    // away included (it was paid for); the job stops at the next store call.
    assert!(
        rows.len() == 30 || rows.len() == 40,
        "{} rows printed: {stderr}",
        rows.len()
    );
    assert!(rows.iter().all(|r| r.starts_with('{')), "{rows:?}");
    assert!(
        sandbox.requests() <= 4,
        "nothing sent once the store was gone: {}",
        sandbox.requests()
    );
}

/// The binary on `store`, calling `base_url` with the test key.
pub(crate) fn seozoom_at(base_url: &str, store: &str, args: &[&str]) -> Run {
    let mut all = vec!["--api-key", KEY, "--base-url", base_url];
    all.extend_from_slice(args);
    run_with_env(all, &[("SEOZOOM_STORE", store)])
}

/// The ledger's one row for `keywords metrics`, as `usage --format json`
/// prints it.
fn metrics_usage(base_url: &str, store: &str) -> Value {
    let usage = seozoom_at(base_url, store, &["--format", "json", "usage"]);
    usage.expect_code(0).expect_no_key();
    let list = usage.json();
    let rows = list.as_array().unwrap();
    assert_eq!(rows.len(), 1, "{list}");
    assert_eq!(rows[0]["action"], "metrics", "{list}");
    rows[0].clone()
}

/// An answer cut in half after its `UnitsUsed` was charged: the ledger has
/// the call with its units, and the error says what was charged.
#[test]
fn a_cut_answer_is_charged_in_the_ledger_and_the_error() {
    let server = support::Server::json(
        r#"{"ResultRows": 1, "UnitsUsed": 10, "UnitsRemaining": 990, "response": [{"keyword": "scar"#,
    );
    let dir = TempDir::new("cut");
    let run = seozoom_at(
        &server.base_url(),
        &dir.store(),
        &["keywords", "metrics", "--keyword", "scarpe"],
    );
    run.expect_code(1).expect_no_key();
    assert!(run.stderr.contains("cannot decode"), "{}", run.stderr);
    assert!(
        run.stderr.contains("charged: 10 units"),
        "the error says what was charged: {}",
        run.stderr
    );
    assert_eq!(server.seen().len(), 1, "a decode error is not retried");
    let row = metrics_usage(&server.base_url(), &dir.store());
    assert_eq!(row["calls"], 1, "{row}");
    assert_eq!(row["units_used"], 10, "{row}");
}

/// A 500 without a body: the charge is unknown, and every answered attempt
/// is in the ledger all the same.
#[test]
fn an_answer_without_a_body_is_a_call_of_unknown_charge() {
    let server = support::Server::start(500, "");
    let dir = TempDir::new("empty500");
    let run = seozoom_at(
        &server.base_url(),
        &dir.store(),
        &["keywords", "metrics", "--keyword", "scarpe"],
    );
    run.expect_code(1).expect_no_key();
    assert!(run.stderr.contains("HTTP 500"), "{}", run.stderr);
    assert!(run.stderr.contains("charged: unknown"), "{}", run.stderr);
    let attempts = server.seen().len();
    assert!(attempts >= 1);
    let row = metrics_usage(&server.base_url(), &dir.store());
    assert_eq!(row["calls"], attempts, "every answered attempt: {row}");
    assert_eq!(row["units_used"], 0, "{row}");
}

/// The sandbox's answer to a call the balance cannot cover is its own kind,
/// not a bare HTTP status.
#[test]
fn running_out_of_units_is_said_as_such() {
    let sandbox = support::start_sandbox(Sandbox::builder().units(5));
    let run = seozoom(
        &sandbox,
        "none",
        &["keywords", "metrics", "--keyword", "scarpe"],
    );
    run.expect_code(1).expect_no_key();
    assert!(
        run.stderr.contains("the account has run out of units"),
        "{}",
        run.stderr
    );
}

/// A dry run reads the store's cache without spending: what it answers is
/// not a request and costs nothing.
#[test]
fn a_dry_run_counts_what_the_cache_answers() {
    let sandbox = sandbox_with(None);
    let dir = TempDir::new("dry");
    let two = ["keywords", "metrics", "--keyword", "a", "--keyword", "b"];
    seozoom(&sandbox, &dir.store(), &two).expect_code(0);
    assert_eq!(sandbox.requests(), 1);

    let mut dry = vec!["--dry-run"];
    dry.extend_from_slice(&two);
    let run = seozoom(&sandbox, &dir.store(), &dry);
    run.expect_code(0).expect_no_key();
    assert_eq!(
        run.stdout,
        "0 requests, estimated cost 0 units; 2 of 2 items from the cache\n"
    );

    dry.extend_from_slice(&["--keyword", "c"]);
    let run = seozoom(&sandbox, &dir.store(), &dry);
    run.expect_code(0).expect_no_key();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    assert!(
        lines[0].starts_with("GET ") && lines[0].ends_with("&keyword=c"),
        "{}",
        lines[0]
    );
    let figure = seozoom::operations::KEYWORDS_METRICS.cost.units[0];
    assert_eq!(
        lines[1],
        format!(
            "1 request for 1 item, estimated cost 0..{figure} units; 2 of 3 items from the cache"
        )
    );
    assert_eq!(sandbox.requests(), 1, "a dry run sends nothing");
}

/// With no `--store`, the store is a SQLite file in the user's data directory
/// (`$XDG_DATA_HOME` honoured), which a second process finds: its call is
/// answered from the cache.
#[test]
fn without_a_store_named_the_default_is_a_file_in_the_data_directory() {
    let sandbox = sandbox_with(None);
    let dir = TempDir::new("default");
    let base_url = sandbox.base_url();
    let args = [
        "--api-key",
        KEY,
        "--base-url",
        &base_url,
        "--format",
        "json",
        "domains",
        "authority",
        "--domain",
        "a.it",
    ];
    for _ in 0..2 {
        let output = support::binary()
            .env_remove("SEOZOOM_STORE")
            .env("XDG_DATA_HOME", dir.path())
            .args(args)
            .output()
            .expect("the binary runs");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    assert!(dir.path().join("seozoom/store.sqlite3").is_file());
    assert_eq!(
        sandbox.requests(),
        1,
        "the second run is answered from the file"
    );
}
