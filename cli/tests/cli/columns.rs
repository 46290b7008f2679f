//! `--columns a,b,c` picks columns by wire name in every format, in the order
//! given, members the spec does not know included; a name no row had is
//! reported on stderr, listing the valid ones. Without it, json and ndjson keep
//! every member (the unknown ones too) and csv every field. Rows that cannot be
//! typed are listed in JSON's `raw_rows` and printed as sent by the others.

use crate::support;

use serde_json::Value;
use support::{Server, envelope, op, run, sample_params, sample_response};

fn metrics(format: &str, columns: Option<&str>) -> support::Run {
    let mut args = vec!["--sandbox", "--format", format];
    if let Some(columns) = columns {
        args.extend(["--columns", columns]);
    }
    args.extend([
        "keywords",
        "metrics",
        "--keyword",
        "scarpe running",
        "--keyword",
        "mutuo casa",
    ]);
    let run = run(&args);
    run.expect_code(0);
    run
}

fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

#[test]
fn json_keeps_the_named_fields_of_each_record() {
    let json = metrics("json", Some("KD,keyword")).json();
    let records = json["response"].as_array().unwrap();
    assert_eq!(records.len(), 2);
    for record in records {
        assert_eq!(keys(record), ["KD", "keyword"]);
    }
    assert!(json["UnitsUsed"].is_i64(), "the envelope is kept: {json}");
}

#[test]
fn ndjson_is_one_object_per_record() {
    let all = metrics("ndjson", None);
    let lines: Vec<Value> = all
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let json = metrics("json", None).json();
    assert_eq!(
        lines,
        json["response"].as_array().unwrap().clone(),
        "every field kept"
    );

    let picked = metrics("ndjson", Some("keyword,search_volume"));
    for line in picked.stdout.lines() {
        let value: Value = serde_json::from_str(line).unwrap();
        assert_eq!(keys(&value), ["keyword", "search_volume"]);
    }
}

#[test]
fn csv_and_table_show_those_columns_in_that_order() {
    let csv = metrics("csv", Some("search_volume,keyword,jan"));
    let mut lines = csv.stdout.lines();
    assert_eq!(lines.next(), Some("search_volume,keyword,jan"));
    assert_eq!(lines.count(), 2);
    let all = metrics("csv", None);
    assert!(
        all.stdout.lines().next().unwrap().split(',').count() > 20,
        "csv keeps every field"
    );

    let table = metrics("table", Some("keyword,jan"));
    let header = table.stdout.lines().find(|l| l.starts_with('│')).unwrap();
    let names: Vec<&str> = header.trim_matches('│').split('┆').map(str::trim).collect();
    assert_eq!(names, ["keyword", "jan"]);
}

#[test]
fn nested_columns_are_picked_by_their_prefixed_name() {
    let run = run([
        "--sandbox",
        "--format",
        "csv",
        "--columns",
        "domain,niches.name",
        "domains",
        "niches",
        "--domain",
        "a.it",
        "--limit",
        "2",
    ]);
    run.expect_code(0);
    let mut lines = run.stdout.lines();
    assert_eq!(lines.next(), Some("domain,niches.name"));
    assert!(lines.all(|l| l.starts_with("a.it,")));
}

/// The sample response of `keywords metrics`, its rows with a member the
/// spec does not know, and one more row without `keyword` (what names it).
fn drifted_metrics() -> (Server, Vec<String>) {
    let target = op("keywords", "metrics");
    let params = sample_params(target);
    let mut response = sample_response(target, &params);
    for row in response.as_array_mut().unwrap() {
        row["brand_new_metric"] = serde_json::json!(7.5);
    }
    let mut untyped = response[0].clone();
    untyped.as_object_mut().unwrap().remove("keyword");
    response.as_array_mut().unwrap().push(untyped);
    let server = Server::json(envelope(&response));
    (server, support::param_args(&params))
}

fn drifted(
    server: &Server,
    params: &[String],
    format: &str,
    columns: Option<&str>,
) -> support::Run {
    let mut args = vec![
        "--base-url".to_owned(),
        server.base_url(),
        "--api-key".to_owned(),
        support::KEY.to_owned(),
        "--format".to_owned(),
        format.to_owned(),
    ];
    if let Some(columns) = columns {
        args.extend(["--columns".to_owned(), columns.to_owned()]);
    }
    args.extend(["keywords".to_owned(), "metrics".to_owned()]);
    args.extend(params.iter().cloned());
    let run = run(&args);
    run.expect_code(0).expect_no_key();
    run
}

#[test]
fn members_the_spec_does_not_know_are_printed_and_can_be_picked() {
    let (server, params) = drifted_metrics();
    let json = drifted(&server, &params, "json", None).json();
    let rows = json["response"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "the typed rows");
    assert!(rows.iter().all(|r| r["brand_new_metric"] == 7.5), "{json}");
    let raw = json["raw_rows"].as_array().expect("the untyped row");
    assert_eq!(raw[0]["index"], 2);
    assert!(raw[0]["error"].as_str().unwrap().contains("keyword"));
    assert_eq!(raw[0]["row"]["brand_new_metric"], 7.5);

    let ndjson = drifted(&server, &params, "ndjson", None);
    let lines: Vec<Value> = ndjson
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.len(),
        3,
        "the untyped row in its place: {}",
        ndjson.stdout
    );
    assert!(lines.iter().all(|l| l["brand_new_metric"] == 7.5));
    assert!(
        ndjson.stderr.contains("could not be typed"),
        "{}",
        ndjson.stderr
    );

    let picked = drifted(&server, &params, "json", Some("keyword,brand_new_metric")).json();
    assert_eq!(
        keys(&picked["response"][0]),
        ["keyword", "brand_new_metric"]
    );
    let csv = drifted(&server, &params, "csv", Some("brand_new_metric,keyword"));
    let mut csv_lines = csv.stdout.lines();
    assert_eq!(csv_lines.next(), Some("brand_new_metric,keyword"));
    assert!(csv_lines.next().unwrap().starts_with("7.5,"));
    let table = drifted(&server, &params, "table", Some("keyword,brand_new_metric"));
    assert!(
        table.stdout.contains("brand_new_metric"),
        "{}",
        table.stdout
    );
    assert!(table.stdout.contains("7.5"), "{}", table.stdout);
}

#[test]
fn a_name_no_row_had_is_reported_with_the_valid_ones() {
    let (server, params) = drifted_metrics();
    for format in ["json", "ndjson", "csv", "table"] {
        let run = drifted(&server, &params, format, Some("keyword,volume"));
        assert!(run.stderr.contains("`volume`"), "{}", run.stderr);
        assert!(
            run.stderr.contains("search_volume"),
            "lists the valid names: {}",
            run.stderr
        );
        assert!(!run.stdout.is_empty());
    }
}
