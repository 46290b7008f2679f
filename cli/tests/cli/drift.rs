//! `seozoom drift [--patch]` against a drifting sandbox (`Sandbox::builder().drift()`,
//! as `seozoom sandbox --drift` serves): the calls keep what the spec does not
//! know, the store records it, and the report and the patch say it.

use crate::store::{TempDir, seozoom};
use crate::support;

use seozoom::sandbox::Sandbox;
use serde_json::{Value, json};

/// The observations of `seozoom drift --format json` as (record, member, kind).
fn kinds(report: &Value) -> Vec<(String, String, String)> {
    report["observations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let text = |name: &str| o[name].as_str().unwrap().to_owned();
            (text("record"), text("member"), text("kind"))
        })
        .collect()
}

#[test]
fn a_drifting_answer_is_kept_recorded_reported_and_patched() {
    let sandbox = support::start_sandbox(Sandbox::builder().drift());
    let dir = TempDir::new("drift");
    let store = dir.store();

    // Nothing recorded yet: the table says so.
    let empty = seozoom(&sandbox, &store, &["drift"]);
    empty.expect_code(0);
    assert!(
        empty.stdout.contains("no drift recorded"),
        "{}",
        empty.stdout
    );

    let args = [
        "--format",
        "json",
        "keywords",
        "metrics",
        "--keyword",
        "mutuo",
        "--keyword",
        "prestito",
        "--keyword",
        "tasso",
    ];
    let call = seozoom(&sandbox, &store, &args);
    call.expect_code(0);
    let answer = call.json();
    // The first row left out what names it: kept raw, with its index.
    let raw = answer["raw_rows"].as_array().expect("raw rows");
    assert_eq!(raw.len(), 1, "{answer}");
    assert_eq!(raw[0]["index"], 0);
    assert!(
        raw[0]["error"].as_str().unwrap().contains("keyword"),
        "{raw:?}"
    );
    // The other rows are typed; the even one keeps the member the spec does not know.
    let rows = answer["response"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{answer}");
    assert!(
        rows[1][seozoom::sandbox::EXTRA_MEMBER].is_number(),
        "{}",
        rows[1]
    );
    assert!(
        rows[0].get(seozoom::sandbox::EXTRA_MEMBER).is_none(),
        "{}",
        rows[0]
    );

    let report = seozoom(&sandbox, &store, &["--format", "json", "drift"]);
    report.expect_code(0);
    let report = report.json();
    assert_eq!(
        report["origin"].as_str().unwrap(),
        sandbox.base_url().trim_end_matches('/'),
        "{report}"
    );
    let seen = kinds(&report);
    let has = |member: &str, kind: &str| {
        seen.iter()
            .any(|(record, m, k)| record == "keyword_metrics" && m == member && k == kind)
    };
    assert!(has("drift_metric", "unknown_member"), "{seen:?}");
    assert!(has("keyword", "missing"), "{seen:?}");
    assert!(has("search_intent", "unlisted_value"), "{seen:?}");
    assert!(
        seen.iter().any(|(_, _, k)| k == "unexpected_type"),
        "a number sent as a string: {seen:?}"
    );
    // A metric sent as null is what the spec allows of a metric whose
    // presence the reference does not state: no drift.
    assert!(!seen.iter().any(|(_, _, k)| k == "null"), "{seen:?}");
    let unknown = report["observations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["member"] == "drift_metric")
        .unwrap();
    assert_eq!(
        (&unknown["group"], &unknown["action"]),
        (&json!("keywords"), &json!("metrics")),
        "{unknown}"
    );
    assert_eq!(
        (&unknown["count"], &unknown["rows"]),
        (&json!(2), &json!(3))
    );
    assert_eq!(unknown["types"], json!(["number"]), "{unknown}");
    assert!(unknown["example"].as_str().unwrap().len() <= 80);

    // The same call from the cache sees nothing new and sends nothing.
    let again = seozoom(&sandbox, &store, &args);
    again.expect_code(0);
    assert_eq!(again.json()["raw_rows"], answer["raw_rows"]);
    let after = seozoom(&sandbox, &store, &["--format", "json", "drift"]).json();
    assert_eq!(after, report, "a cached answer records no drift again");

    let table = seozoom(&sandbox, &store, &["drift"]);
    table.expect_code(0);
    assert!(table.stdout.contains("drift_metric"), "{}", table.stdout);
    assert!(table.stdout.contains("unknown_member"), "{}", table.stdout);

    let patch = seozoom(&sandbox, &store, &["drift", "--patch"]);
    patch.expect_code(0);
    let text = &patch.stdout;
    assert!(
        text.contains("[[records]]\nname = \"keyword_metrics\""),
        "{text}"
    );
    assert!(text.contains("wire = \"drift_metric\""), "{text}");
    assert!(text.contains("type = \"number\""), "{text}");
    assert!(text.contains("source = \"observed\""), "{text}");

    // The key is in no output.
    for run in [&call, &table, &patch] {
        run.expect_no_key();
    }
}

#[test]
fn a_sandbox_for_one_call_has_no_drift_to_report() {
    let run = support::run(["--sandbox", "drift"]);
    run.expect_code(2);
    assert!(
        run.stderr.contains("seozoom sandbox --drift"),
        "{}",
        run.stderr
    );
}
