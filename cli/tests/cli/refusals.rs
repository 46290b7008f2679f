//! Inputs refused before anything is sent: exit 2, a message on stderr naming the
//! parameter and the value (and the limit), and no request at the server.

use crate::support;

use support::{KEY, Run, Server, run};

/// Run `args` after `--api-key KEY --base-url <server>` against a server that
/// must see nothing; the run must exit 2 without printing the key.
#[track_caller]
fn refused(args: &[&str]) -> Run {
    let server = Server::json(r#"{"ResultRows":0,"UnitsUsed":0,"UnitsRemaining":0,"response":[]}"#);
    let base_url = server.base_url();
    let mut all = vec!["--api-key", KEY, "--base-url", &base_url];
    all.extend_from_slice(args);
    let run = run(&all);
    run.expect_code(2).expect_no_key();
    assert_eq!(server.seen(), [], "a refused call must send nothing");
    assert!(run.stdout.is_empty(), "nothing on stdout: {}", run.stdout);
    run
}

/// Assert that stderr holds every piece.
#[track_caller]
fn says(run: &Run, pieces: &[&str]) {
    for piece in pieces {
        assert!(
            run.stderr.contains(piece),
            "stderr lacks {piece:?}: {}",
            run.stderr
        );
    }
}

/// More values than one request takes are a batched job (see `bulk.rs`); one
/// bad value in any of its requests refuses the whole job before anything is sent.
#[test]
fn a_bad_value_in_a_batched_job_refuses_it_whole() {
    let mut args = vec!["keywords", "metrics"];
    let keywords: Vec<String> = (0..101).map(|i| format!("kw{i}")).collect();
    for k in &keywords {
        args.extend(["--keyword", k]);
    }
    args.extend(["--keyword", "a|b"]);
    let run = refused(&args);
    says(
        &run,
        &[
            "error: refused before sending",
            "parameter `keyword` = a|b",
            "separates values on the wire",
        ],
    );
}

/// A refused run per case: `args` exit 2 without sending anything or printing
/// the key ([`refused`]), and stderr holds every piece of `says`. Each case is
/// its own test, named after it.
macro_rules! refusal_cases {
    ($($name:ident { args: [$($arg:expr),* $(,)?], says: [$($piece:expr),* $(,)?] $(,)? })*) => {$(
        #[test]
        fn $name() {
            let run = refused(&[$($arg),*]);
            says(&run, &[$($piece),*]);
        }
    )*};
}

refusal_cases! {
    page_above_its_maximum {
        args: [
            "domains", "keywords", "--domain", "example.it", "--type", "bypage", "--limit", "10",
            "--page", "6",
        ],
        says: ["parameter `page` = 6", "above the maximum 5"],
    }

    position_below_its_minimum {
        args: [
            "domains", "keywords", "--domain", "example.it", "--type", "byposition", "--limit",
            "10", "--position", "0",
        ],
        says: ["parameter `position` = 0", "below the minimum 1"],
    }

    a_negative_number_reaches_the_validator {
        args: ["domains", "keywords", "--domain", "example.it", "--type", "best", "--limit", "-3"],
        says: ["parameter `limit` = -3", "below the minimum 1"],
    }

    not_a_number {
        args: ["domains", "keywords", "--domain", "example.it", "--type", "best", "--limit", "ten"],
        says: ["parameter `limit` = ten", "must be a whole number"],
    }

    bypage_without_page {
        args: [
            "domains", "keywords", "--domain", "example.it", "--type", "bypage", "--limit", "10",
        ],
        says: ["parameter `page` = (none)", "required when type=bypage"],
    }

    newentry_with_an_offset {
        args: [
            "domains", "keywords", "--domain", "example.it", "--type", "newentry", "--limit", "10",
            "--offset", "5",
        ],
        says: ["parameter `offset` = 5", "must be 0 when type=newentry"],
    }

    a_date_that_does_not_exist {
        args: ["domains", "metricshistory", "--domain", "example.it", "--date", "2024-02-30"],
        says: ["parameter `date` = 2024-02-30", "yyyy-MM-dd"],
    }

    an_unknown_database {
        args: ["--db", "xx", "domains", "metrics", "--domain", "example.it"],
        says: ["parameter `db` = xx", "must be one of it, es, fr, de, uk"],
    }

    an_unknown_type {
        args: ["domains", "keywords", "--domain", "example.it", "--type", "foo", "--limit", "10"],
        says: ["parameter `type` = foo", "must be one of best"],
    }

    the_list_separator_inside_a_value {
        args: ["keywords", "metrics", "--keyword", "a|b"],
        says: ["parameter `keyword` = a|b", "contains `|`"],
    }

    a_single_value_flag_repeated {
        args: ["domains", "bestpages", "--domain", "a.it", "--domain", "b.it", "--limit", "10"],
        says: ["parameter `domain` = a.it|b.it", "takes exactly one value, 2 given"],
    }

    a_missing_required_parameter {
        args: ["domains", "metrics"],
        says: [
            "domains metrics", "parameter `domain` = (none)",
            "missing: this parameter is required",
        ],
    }

    an_empty_value {
        args: ["domains", "metrics", "--domain", ""],
        says: ["parameter `domain`", "must not be empty"],
    }

    // keywords metrics costs a figure per keyword: three keywords exceed one unit.
    over_budget {
        args: [
            "--budget", "1", "keywords", "metrics", "--keyword", "a", "--keyword", "b",
            "--keyword", "c",
        ],
        says: ["keywords metrics may cost up to", "over the budget left (1 of 1)"],
    }
}

#[test]
fn plain_http_to_a_remote_host() {
    // The URL is not the loopback server; nothing can be sent anywhere.
    let run = run([
        "--api-key",
        KEY,
        "--base-url",
        "http://apiv2.seozoom.com",
        "domains",
        "metrics",
        "--domain",
        "example.it",
    ]);
    run.expect_code(2).expect_no_key();
    says(
        &run,
        &["http://apiv2.seozoom.com", "plain http", "unencrypted"],
    );
}

#[test]
fn no_key() {
    let server = Server::json("{}");
    let run = run([
        "--base-url",
        &server.base_url(),
        "domains",
        "metrics",
        "--domain",
        "example.it",
    ]);
    run.expect_code(2);
    says(&run, &["no API key", "SEOZOOM_API_KEY"]);
    assert_eq!(server.seen(), []);
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["domains", "metrics", "--domain", "a.it", "--nope", "x"][..],
        &["nogroup", "metrics"],
        &["domains", "noaction"],
        &["domains"],
        &["--format", "xml", "domains", "metrics", "--domain", "a.it"],
        &["--budget", "lots", "domains", "metrics", "--domain", "a.it"],
    ] {
        let run = refused(args);
        assert!(!run.stderr.is_empty(), "{args:?}");
    }
}

/// The request-length limit holds on the command line too (the library's
/// validation), before anything is sent.
#[test]
fn the_command_line_refuses_a_request_too_long_naming_the_parameter() {
    let long = "x".repeat(70_000);
    let output = support::binary()
        .args(["--sandbox", "keywords", "metrics", "--keyword", &long])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("`keyword`") && stderr.contains("32768"),
        "{stderr}"
    );
    assert!(stderr.len() < 1_000, "the value is cut: {stderr}");
}
