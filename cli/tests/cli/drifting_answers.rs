//! The real binary against a loopback server of this test's own that drifts
//! from the spec in ways the built-in `--drift` sandbox does not: the
//! envelope's figures, its `response`, members it does not know, values of
//! another type, a nested list sent as an object, and rows kept raw. Each
//! call exits 0 with the rows as sent, is in the ledger with what it was
//! charged, and the same command again sends nothing.

use crate::store::{TempDir, seozoom_at};
use crate::support;

use serde_json::{Value, json};
use support::{Server, op, param_args, sample_params};

/// A keyword-metrics row named `keyword`.
fn row(keyword: &str) -> String {
    format!(
        r#"{{"keyword":"{keyword}","lang":"it","google_ext":".it","localcode":"","search_volume":10,"search_intent":""}}"#
    )
}

const METRICS: [&str; 7] = [
    "--format",
    "json",
    "keywords",
    "metrics",
    "--keyword",
    "mutuo",
    "--keyword",
];

/// `args` twice against a server answering `body`, on a fresh store: the
/// first run's output (exit code 0), after checking that the second printed
/// the same rows and sent nothing. `response` picks the rows out of the
/// output.
fn twice(body: String, args: &[&str]) -> (Value, Server, TempDir) {
    let server = Server::json(body);
    let dir = TempDir::new("drifting");
    let first = seozoom_at(&server.base_url(), &dir.store(), args);
    first.expect_code(0).expect_no_key();
    let second = seozoom_at(&server.base_url(), &dir.store(), args);
    second.expect_code(0);
    assert_eq!(server.seen().len(), 1, "sent again: {}", second.stderr);
    let json = |run: &support::Run| -> Value {
        serde_json::from_str(run.stdout.trim())
            .unwrap_or_else(|_| Value::String(run.stdout.clone()))
    };
    let (one, two) = (json(&first), json(&second));
    if one.is_object() {
        assert_eq!(
            one["response"], two["response"],
            "the same rows from the store"
        );
    }
    (one, server, dir)
}

/// The ledger's `units_used` for the one operation called.
fn units_in_ledger(server: &Server, dir: &TempDir) -> Value {
    let usage = seozoom_at(
        &server.base_url(),
        &dir.store(),
        &["--format", "json", "usage"],
    );
    usage.expect_code(0);
    usage.json()[0]["units_used"].clone()
}

#[test]
fn a_drifting_envelope_prints_its_rows_and_is_bought_once() {
    let rows = format!("[{},{}]", row("mutuo"), row("casa"));
    let by_key = format!(r#"{{"mutuo":{},"casa":{}}}"#, row("mutuo"), row("casa"));
    let both = json!(["mutuo", "casa"]);
    // The envelope, the keywords printed, `UnitsUsed` and `UnitsRemaining`
    // printed, the ledger's charge.
    let cases = [
        (
            format!(
                r#"{{"ResultRows":"2","UnitsUsed":20,"UnitsRemaining":900,"response":{rows}}}"#
            ),
            both.clone(),
            (json!(20), json!(900)),
            json!(20),
        ),
        (
            format!(
                r#"{{"ResultRows":2,"UnitsUsed":"20","UnitsRemaining":900,"response":{rows}}}"#
            ),
            both.clone(),
            (json!(20), json!(900)),
            json!(20),
        ),
        (
            format!(r#"{{"ResultRows":2,"UnitsUsed":20,"response":{rows}}}"#),
            both.clone(),
            (json!(20), Value::Null),
            json!(20),
        ),
        (
            format!(r#"{{"UnitsUsed":20,"UnitsRemaining":900,"response":{rows}}}"#),
            both.clone(),
            (json!(20), json!(900)),
            json!(20),
        ),
        (
            format!(
                r#"{{"ResultRows":2,"UnitsUsed":null,"UnitsRemaining":900,"response":{rows}}}"#
            ),
            both.clone(),
            (Value::Null, json!(900)),
            json!(0),
        ),
        (
            r#"{"ResultRows":0,"UnitsUsed":20,"UnitsRemaining":900,"response":null}"#.to_owned(),
            json!([]),
            (json!(20), json!(900)),
            json!(20),
        ),
        (
            format!(
                r#"{{"ResultRows":2,"UnitsUsed":20,"UnitsRemaining":900,"response":{by_key}}}"#
            ),
            both.clone(),
            (json!(20), json!(900)),
            json!(20),
        ),
    ];
    let mut args = METRICS.to_vec();
    args.push("casa");
    for (body, keywords, (used, remaining), charged) in cases {
        let (out, server, dir) = twice(body.clone(), &args);
        let printed: Vec<Value> = out["response"]
            .as_array()
            .unwrap_or_else(|| panic!("{body}: {out}"))
            .iter()
            .map(|r| r["keyword"].clone())
            .collect();
        assert_eq!(Value::from(printed), keywords, "{body}");
        assert_eq!(
            (&out["UnitsUsed"], &out["UnitsRemaining"]),
            (&used, &remaining),
            "{body}"
        );
        assert_eq!(units_in_ledger(&server, &dir), charged, "{body}");
    }
}

#[test]
fn a_balance_the_service_did_not_report_is_said_to_be_unknown() {
    let body = format!(
        r#"{{"ResultRows":1,"UnitsUsed":10,"UnitsRemaining":null,"response":[{}]}}"#,
        row("mutuo")
    );
    let server = Server::json(body);
    let dir = TempDir::new("drifting");
    let args = [
        "--format",
        "csv",
        "keywords",
        "metrics",
        "--keyword",
        "mutuo",
    ];
    let run = seozoom_at(&server.base_url(), &dir.store(), &args);
    run.expect_code(0).expect_no_key();
    assert!(
        run.stderr
            .contains("rows: 1, units used: 10, units remaining: unknown"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_member_of_the_envelope_the_spec_does_not_know_is_printed_and_recorded() {
    let body = format!(
        r#"{{"ResultRows":1,"Warnings":["url 2 normalised"],"UnitsUsed":10,"UnitsRemaining":90,"response":[{}]}}"#,
        row("mutuo")
    );
    let mut args = METRICS.to_vec();
    args.truncate(6);
    let (out, server, dir) = twice(body, &args);
    assert_eq!(out["Warnings"], json!(["url 2 normalised"]), "{out}");
    let members: Vec<&String> = out.as_object().unwrap().keys().collect();
    assert!(members.contains(&&"ResultRows".to_owned()));
    let drift = seozoom_at(
        &server.base_url(),
        &dir.store(),
        &["--format", "json", "drift"],
    );
    drift.expect_code(0);
    let report = drift.json();
    let warnings = report["observations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["member"] == "Warnings")
        .unwrap_or_else(|| panic!("not recorded: {report}"));
    assert_eq!(warnings["kind"], "unknown_member");
    assert_eq!(warnings["example"], r#"["url 2 normalised"]"#);
}

#[test]
fn values_of_another_type_are_printed_as_sent_in_json_and_ndjson() {
    let body = r#"{"ResultRows":1,"UnitsUsed":60,"UnitsRemaining":900,"response":[
        {"domain":"example.it","competitor":[{"domain":"rivale.it","za":55.5,"1a3":"1.234","4a6":"14800"}]},
        {"domain":"other.it","competitor":{"domain":"odd.it","za":12}}]}"#;
    let args = [
        "--format",
        "json",
        "domains",
        "competitor",
        "--domain",
        "example.it",
        "--domain",
        "other.it",
        "--limit",
        "1",
    ];
    let (out, server, dir) = twice(body.to_owned(), &args);
    let competitor = &out["response"][0]["competitor"][0];
    assert_eq!(
        (&competitor["za"], &competitor["1a3"], &competitor["4a6"]),
        (&json!(55.5), &json!("1.234"), &json!(14800)),
        "{out}"
    );
    assert_eq!(
        out["response"][1]["competitor"],
        json!({"domain": "odd.it", "za": 12})
    );
    let mut lines = args.to_vec();
    lines[1] = "ndjson";
    let ndjson = seozoom_at(&server.base_url(), &dir.store(), &lines);
    ndjson.expect_code(0);
    assert!(ndjson.stdout.contains(r#""za":55.5"#), "{}", ndjson.stdout);
    assert!(
        ndjson.stdout.contains(r#""1a3":"1.234""#),
        "{}",
        ndjson.stdout
    );
    assert_eq!(server.seen().len(), 1);
}

#[test]
fn a_row_kept_raw_prints_its_json_in_csv_and_table() {
    let metrics = op("urls", "metrics");
    let params = param_args(&sample_params(metrics));
    let body = r#"{"ResultRows":2,"UnitsUsed":40,"UnitsRemaining":900,"response":["temporarily unavailable",{"url":"https://a.it/","za":3}]}"#;
    for format in ["csv", "table"] {
        let mut args = vec!["--format", format, "urls", "metrics"];
        args.extend(params.iter().map(String::as_str));
        let (out, _server, _dir) = twice(body.to_owned(), &args);
        let text = out.as_str().unwrap_or_default();
        assert!(
            text.lines()
                .any(|line| line.contains("temporarily unavailable")),
            "{format}: {text}"
        );
        assert!(
            !text
                .lines()
                .any(|line| !line.is_empty() && line.chars().all(|c| c == ',')),
            "{format}: an empty line: {text}"
        );
    }
}

#[test]
fn a_paged_job_whose_counts_are_strings_prints_every_row() {
    let rows: Vec<String> = (0..3)
        .map(|i| {
            format!(
                r#"{{"keyword":"k{i}","position":{i},"search_volume":1,"url":"https://a.it/"}}"#
            )
        })
        .collect();
    let body = format!(
        r#"{{"ResultRows":"3","UnitsUsed":"30","UnitsRemaining":"900","response":[{}]}}"#,
        rows.join(",")
    );
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
    ];
    let (out, server, dir) = twice(body, &args);
    let text = out.as_str().unwrap_or_default();
    assert_eq!(text.lines().count(), 3, "{text}");
    assert_eq!(units_in_ledger(&server, &dir), json!(30));
}

#[test]
fn a_stored_answer_this_build_cannot_read_is_not_bought_again_unless_refreshed() {
    let server = Server::json(
        r#"{"ResultRows":1,"UnitsUsed":10,"UnitsRemaining":90,"response":"mutuo: 1 keyword"}"#,
    );
    let dir = TempDir::new("unreadable");
    let mut args = METRICS.to_vec();
    args.truncate(6);
    let first = seozoom_at(&server.base_url(), &dir.store(), &args);
    first.expect_code(1).expect_no_key();
    assert!(
        first.stderr.contains("charged: 10 units"),
        "{}",
        first.stderr
    );

    let again = seozoom_at(&server.base_url(), &dir.store(), &args);
    again.expect_code(1).expect_no_key();
    assert_eq!(server.seen().len(), 1, "bought again: {}", again.stderr);
    assert!(again.stderr.contains("`--refresh`"), "{}", again.stderr);
    assert!(
        again.stderr.contains("nothing was sent"),
        "{}",
        again.stderr
    );

    let mut refreshed = vec!["--refresh"];
    refreshed.extend_from_slice(&args);
    seozoom_at(&server.base_url(), &dir.store(), &refreshed).expect_code(1);
    assert_eq!(server.seen().len(), 2, "sent again on purpose");
}
