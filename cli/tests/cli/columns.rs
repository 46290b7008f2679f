//! `--columns a,b,c` picks columns by wire name in every format, in the order
//! given; a name the operation does not have is refused with exit 2 before
//! anything is sent, naming it and listing the valid ones. Without it, csv,
//! json and ndjson keep every field.

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

#[test]
fn an_unknown_name_is_refused_before_anything_is_sent() {
    let target = op("keywords", "metrics");
    let params = sample_params(target);
    let server = Server::json(envelope(&sample_response(target, &params)));
    for format in ["json", "ndjson", "csv", "table"] {
        let mut args = vec![
            "--base-url".to_owned(),
            server.base_url(),
            "--api-key".to_owned(),
            support::KEY.to_owned(),
            "--format".to_owned(),
            format.to_owned(),
            "--columns".to_owned(),
            "keyword,volume".to_owned(),
            "keywords".to_owned(),
            "metrics".to_owned(),
        ];
        args.extend(support::param_args(&params));
        let refused = run(&args);
        refused.expect_code(2).expect_no_key();
        assert!(refused.stderr.contains("`volume`"), "{}", refused.stderr);
        assert!(
            refused.stderr.contains("search_volume"),
            "lists the valid names: {}",
            refused.stderr
        );
        assert!(refused.stdout.is_empty());
    }
    assert!(server.seen().is_empty(), "nothing is sent");
}
