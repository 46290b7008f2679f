//! Every operation of the table through the real binary against a loopback
//! server: the exact path and raw query sent, the exit code, and the output in
//! each format. Driven by the operation table, so a new action is covered with no
//! edit here; a few hand-written cases pin exact queries.

use crate::support;

use seozoom::operation_table::{FieldKind, Shape};
use seozoom::operations::{OPERATIONS, SERVICE};
use serde_json::{Value, json};
use support::{
    KEY, Seen, Server, envelope, expected_query, op, param_args, record, run, sample_params,
    sample_response,
};

/// `--api-key KEY --base-url URL [extra...] group action [params...]`.
fn args(
    server: &Server,
    extra: &[&str],
    group: &str,
    action: &str,
    params: &[String],
) -> Vec<String> {
    let mut args = vec![
        "--api-key".to_owned(),
        KEY.to_owned(),
        "--base-url".to_owned(),
        server.base_url(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push(group.to_owned());
    args.push(action.to_owned());
    args.extend(params.iter().cloned());
    args
}

/// The CSV/table columns of a payload, computed from the records.
fn expected_columns(payload: &str) -> Vec<String> {
    match record(payload) {
        Some(record) => record
            .fields
            .iter()
            .flat_map(|f| match f.kind {
                FieldKind::List { record } => expected_columns(record)
                    .into_iter()
                    .map(|c| format!("{}.{c}", f.wire))
                    .collect(),
                _ => vec![f.wire.to_owned()],
            })
            .collect(),
        None => vec!["position".into(), "url".into()],
    }
}

#[test]
fn the_table_has_the_24_operations() {
    // The reference's 23, and `keywords related`, known from public use.
    assert_eq!(OPERATIONS.len(), 24);
}

#[test]
fn every_operation_sends_its_exact_query_and_prints_the_envelope() {
    for op in OPERATIONS {
        let params = sample_params(op);
        let response = sample_response(op, &params);
        let server = Server::json(envelope(&response));

        let run = run(args(
            &server,
            &["--format", "json"],
            op.group,
            op.action,
            &param_args(&params),
        ));
        run.expect_code(0).expect_no_key();

        assert_eq!(
            server.seen(),
            [Seen {
                path: op.path.to_owned(),
                query: expected_query(op, KEY, "it", &params),
            }],
            "{}",
            op.label()
        );
        // One document, the envelope's members in the API's names and order.
        assert!(
            run.stdout
                .starts_with(r#"{"ResultRows":2,"UnitsUsed":20,"UnitsRemaining":980,"response":"#),
            "{}: {}",
            op.label(),
            run.stdout
        );
        assert_eq!(run.stdout.trim_end().lines().count(), 1);
        assert_eq!(
            run.json(),
            json!({"ResultRows": 2, "UnitsUsed": 20, "UnitsRemaining": 980, "response": response}),
            "{}",
            op.label()
        );
    }
}

#[test]
fn every_operation_prints_csv_and_table_rows() {
    for op in OPERATIONS {
        let params = sample_params(op);
        let server = Server::json(envelope(&sample_response(op, &params)));
        let mut header = match op.response.shape {
            Shape::Map { key } => vec![key.to_owned()],
            _ => Vec::new(),
        };
        header.extend(expected_columns(op.response.payload));

        let csv = run(args(
            &server,
            &["--format", "csv"],
            op.group,
            op.action,
            &param_args(&params),
        ));
        csv.expect_code(0).expect_no_key();
        let mut reader = csv::Reader::from_reader(csv.stdout.as_bytes());
        let columns: Vec<String> = reader
            .headers()
            .unwrap()
            .iter()
            .map(str::to_owned)
            .collect();
        assert_eq!(columns, header, "{}", op.label());
        let lines: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert!(!lines.is_empty(), "{}: no rows", op.label());
        assert!(lines.iter().all(|l| l.len() == header.len()));
        assert!(
            csv.stderr.contains("units used: 20, units remaining: 980"),
            "{}: {}",
            op.label(),
            csv.stderr
        );

        let table = run(args(
            &server,
            &["--format", "table"],
            op.group,
            op.action,
            &param_args(&params),
        ));
        table.expect_code(0).expect_no_key();
        assert!(table.stdout.contains(&header[0]), "{}", op.label());
        assert!(table.stderr.contains("units remaining: 980"));
        assert_eq!(server.seen().len(), 2);
    }
}

#[test]
fn lists_are_joined_by_a_literal_bar_and_values_percent_encoded() {
    let server = Server::json(envelope(&json!([])));
    run(args(
        &server,
        &["--format", "json"],
        "keywords",
        "metrics",
        &[
            "--keyword".into(),
            "scarpe running".into(),
            "--keyword".into(),
            "caffè & latte".into(),
            "--keyword".into(),
            "a+b=c#d".into(),
        ],
    ))
    .expect_code(0);
    assert_eq!(
        server.seen(),
        [Seen {
            path: "/api/v2/keywords/".into(),
            query: format!(
                "api_key={KEY}&db=it&action=metrics&keyword=scarpe%20running|caff%C3%A8%20%26%20latte|a%2Bb%3Dc%23d"
            ),
        }]
    );
}

#[test]
fn database_default_offset_and_optional_params_in_spec_order() {
    let server = Server::json(envelope(&json!([])));
    // Given out of spec order, with the database before the group.
    run(args(
        &server,
        &["--db", "fr"],
        "domains",
        "keywords",
        &[
            "--page",
            "2",
            "--limit",
            "100",
            "--type",
            "bypage",
            "--domain",
            "example.it",
        ]
        .map(String::from),
    ))
    .expect_code(0);
    assert_eq!(
        server.seen()[0].query,
        format!(
            "api_key={KEY}&db=fr&action=keywords&domain=example.it&type=bypage&offset=0&limit=100&page=2"
        )
    );
}

#[test]
fn serp_with_underscored_flags_and_options_after_the_action() {
    let server = Server::json(envelope(
        &json!({"mutuo": {"10": "https://j.it/", "2": "https://b.it/?a=1&amp;b=2", "1": "https://a.it/"}}),
    ));
    let run = run([
        "--api-key",
        KEY,
        "keywords",
        "serp",
        "--keyword",
        "mutuo",
        "--google-ext",
        ".co.uk",
        "--localcode",
        "Roma",
        "--base-url",
        &server.base_url(),
        "--format",
        "csv",
        "--db",
        "uk",
    ]);
    run.expect_code(0).expect_no_key();
    assert_eq!(
        server.seen()[0].query,
        format!("api_key={KEY}&db=uk&action=serp&keyword=mutuo&google_ext=.co.uk&localcode=Roma")
    );
    // Ordered by numeric position, `&amp;` decoded.
    assert_eq!(
        run.stdout,
        "keyword,position,url\nmutuo,1,https://a.it/\nmutuo,2,https://b.it/?a=1&b=2\nmutuo,10,https://j.it/\n"
    );
}

#[test]
fn an_alias_reaches_its_action() {
    let Some(aliased) = OPERATIONS.iter().find(|o| !o.aliases.is_empty()) else {
        return;
    };
    let params = sample_params(aliased);
    let server = Server::json(envelope(&sample_response(aliased, &params)));
    run(args(
        &server,
        &[],
        aliased.group,
        aliased.aliases[0],
        &param_args(&params),
    ))
    .expect_code(0);
    assert!(
        server.seen()[0]
            .query
            .contains(&format!("&action={}&", aliased.action))
    );
}

#[test]
fn nested_lists_print_one_line_per_inner_record_with_the_outer_domain() {
    let niches = op("domains", "niches");
    assert_eq!(niches.response.payload, "domain_niches");
    let niche = |name: &str| json!({"tza": 5, "name": name, "perc": 12.5, "keywords": 40, "niche_traffic": 900});
    let server = Server::json(envelope(&json!([
        {"domain": "a.it", "niches": [niche("Viaggi"), niche("Cucina, ricette")]},
        {"domain": "b.it", "niches": [niche("Sport")]},
    ])));
    let run = run(args(
        &server,
        &["--format", "csv"],
        "domains",
        "niches",
        &["--domain", "a.it", "--domain", "b.it", "--limit", "2"].map(String::from),
    ));
    run.expect_code(0);
    assert_eq!(
        run.stdout,
        "domain,niches.tza,niches.name,niches.perc,niches.keywords,niches.niche_traffic\n\
         a.it,5,Viaggi,12.5,40,900\n\
         a.it,5,\"Cucina, ricette\",12.5,40,900\n\
         b.it,5,Sport,12.5,40,900\n"
    );
}

#[test]
fn a_single_object_prints_one_row() {
    let overview = op("projects", "overview");
    let params = sample_params(overview);
    let server = Server::json(envelope(&sample_response(overview, &params)));
    let run = run(args(
        &server,
        &["--format", "csv"],
        "projects",
        "overview",
        &param_args(&params),
    ));
    run.expect_code(0);
    assert_eq!(run.stdout.lines().count(), 2, "{}", run.stdout);
}

#[test]
fn the_key_may_come_from_the_environment() {
    let server = Server::json(envelope(&json!([])));
    let run = support::run_with_env(
        ["domains", "metrics", "--domain", "example.it"],
        &[
            ("SEOZOOM_API_KEY", KEY),
            ("SEOZOOM_BASE_URL", &server.base_url()),
        ],
    );
    run.expect_code(0).expect_no_key();
    assert_eq!(
        server.seen()[0].query,
        format!("api_key={KEY}&db=it&action=metrics&domain=example.it")
    );
}

#[test]
fn the_default_base_url_is_the_spec_one() {
    // Shown in the help; no request is made.
    let run = run(["--help"]);
    run.expect_code(0);
    assert!(run.stdout.contains(SERVICE.base_url));
    let _: Value = Value::Null;
}
