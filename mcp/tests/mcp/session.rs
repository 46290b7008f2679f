//! A session driven with real JSON-RPC, one message per line as on stdio, as
//! an MCP client would: the tool list built from the operation table, calls
//! through the sandbox and through a loopback server that records what is
//! sent, bad input, the budget, long lists, and the key kept out of
//! everything the client receives.

use crate::support;

use std::collections::BTreeSet;

use seozoom::operation_table::Operation;
use seozoom::operation_table::{Charged, ParamKind};
use seozoom::operations::{OPERATIONS, SERVICE};
use seozoom::units::{UnitParts, unit_parts};
use seozoom_mcp::Ended;
use serde_json::{Map, Value, json};
use support::{
    KEY, Mcp, Server, envelope, expected_query, options, sample_params, sample_response,
};

/// The server's own tools.
const OWN_TOOLS: [&str; 3] = ["estimate", "usage", "more"];

/// The tool name of an operation.
fn tool_name(op: &Operation) -> String {
    format!("{}_{}", op.group, op.action)
}

/// Parameter values as tool arguments: lists as arrays, integers as numbers.
fn arguments(op: &Operation, params: &[(&'static str, Vec<String>)]) -> Value {
    let mut arguments = Map::new();
    for (wire, values) in params {
        let param = op.param(wire).expect("a parameter of the operation");
        let value = |text: &String| match param.kind {
            ParamKind::Integer => json!(text.parse::<i64>().expect("an integer sample")),
            _ => json!(text),
        };
        let value = if param.list {
            Value::Array(values.iter().map(value).collect())
        } else {
            value(&values[0])
        };
        arguments.insert((*wire).to_owned(), value);
    }
    Value::Object(arguments)
}

#[test]
fn tools_list_has_one_tool_per_operation_built_from_the_table() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp"]);
    let tools = mcp.tools();
    let names: BTreeSet<String> = tools
        .iter()
        .map(|t| t["name"].as_str().expect("a name").to_owned())
        .collect();
    let mut expected: BTreeSet<String> = OPERATIONS.iter().map(|op| tool_name(op)).collect();
    expected.extend(OWN_TOOLS.map(str::to_owned));
    assert_eq!(names, expected);
    assert_eq!(tools.len(), OPERATIONS.len() + OWN_TOOLS.len());

    for op in OPERATIONS {
        let name = tool_name(op);
        let tool = tools.iter().find(|t| t["name"] == name.as_str()).unwrap();
        let description = tool["description"].as_str().expect("a description");
        // The cost's parts named as the estimate counts them.
        let cost = match unit_parts(op) {
            None => "Cost: unknown".to_owned(),
            Some(UnitParts {
                per_request: Some(call),
                per_row: None,
            }) => format!("Cost: {call} units per call"),
            Some(UnitParts {
                per_request: None,
                per_row: Some((_, high)),
            }) => format!("Cost: {high} units per returned row"),
            Some(UnitParts {
                per_request: Some(call),
                per_row: Some((_, high)),
            }) => {
                format!("Cost: up to {high} units per returned row plus up to {call} per request")
            }
            Some(other) => panic!("{name}: {other:?}"),
        };
        for singular in [" 1 rows", " 1 input values", " 1 requests", " 1 units"] {
            assert!(!description.contains(singular), "{name}: {description}");
        }
        assert!(
            description.contains(&cost),
            "{name}: no `{cost}` in {description}"
        );
        for rule in op.rules {
            assert!(
                description.contains(&format!("`{}`", rule.require)),
                "{name}: rule on {} not described",
                rule.require
            );
        }
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{name}");
        assert_eq!(tool["annotations"]["openWorldHint"], true, "{name}");

        let input = &tool["inputSchema"];
        assert_eq!(input["type"], "object", "{name}");
        let properties: BTreeSet<&str> = input["properties"]
            .as_object()
            .expect("properties")
            .keys()
            .map(String::as_str)
            .collect();
        let mut params: BTreeSet<&str> = op
            .params
            .iter()
            .filter(|p| !p.implicit)
            .map(|p| p.wire)
            .collect();
        params.insert(SERVICE.database.wire);
        // A row tool (its rows records with named members) takes `fields`.
        let response = &tool["outputSchema"]["properties"]["response"];
        let row = [
            &response["items"],
            &response["additionalProperties"],
            &response["anyOf"][0],
        ]
        .into_iter()
        .find(|row| row.is_object())
        .expect("a row schema");
        if row["properties"].as_object().is_some_and(|p| !p.is_empty()) {
            params.insert("fields");
        }
        if op.paging().is_some() {
            params.insert("max_rows");
        }
        params.insert("max_wait_s");
        // A job that can stop part-way (batched or paged) can be resumed.
        if op.batch_param().is_some() || op.paging().is_some() {
            params.insert("resume");
        }
        assert_eq!(
            properties, params,
            "{name}: one property per parameter and db, fields for a row tool, max_rows for a paged one, resume for a job"
        );
        let required: BTreeSet<&str> = input["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let wanted: BTreeSet<&str> = op
            .params
            .iter()
            .filter(|p| p.required && !p.implicit)
            .map(|p| p.wire)
            .collect();
        assert_eq!(required, wanted, "{name}: required");
        for param in op.params.iter().filter(|p| !p.implicit) {
            let schema = &input["properties"][param.wire];
            let value = if param.list {
                assert_eq!(schema["type"], "array", "{name}.{}", param.wire);
                &schema["items"]
            } else {
                schema
            };
            match param.kind {
                ParamKind::Integer => {
                    assert_eq!(value["type"], "integer", "{name}.{}", param.wire);
                    if let Some(max) = param.max {
                        assert_eq!(value["maximum"], max.value, "{name}.{}", param.wire);
                    }
                }
                ParamKind::Enum { values, .. } => {
                    assert_eq!(value["enum"], json!(values), "{name}.{}", param.wire)
                }
                ParamKind::Date => assert_eq!(value["format"], "date", "{name}.{}", param.wire),
                _ => assert_eq!(value["type"], "string", "{name}.{}", param.wire),
            }
        }
        let db = &input["properties"][SERVICE.database.wire];
        assert!(db["enum"].is_array(), "{name}: db is an enum");

        let output = &tool["outputSchema"];
        for member in [
            SERVICE.envelope_result_rows,
            SERVICE.envelope_units_used,
            SERVICE.envelope_units_remaining,
            SERVICE.envelope_response,
            "from_cache",
        ] {
            assert!(
                output["required"]
                    .as_array()
                    .unwrap()
                    .contains(&json!(member)),
                "{name}: outputSchema lacks {member}"
            );
        }
    }
    assert_eq!(
        mcp.finish(),
        Ended::Normally,
        "the server ends when its input closes"
    );
}

/// Each operation's tool sends the request the command line would: every
/// argument as wire text, in spec order, with the key, which no answer shows.
#[test]
fn every_tool_sends_its_operation_with_the_arguments_given() {
    for op in OPERATIONS {
        let params = sample_params(op);
        let server = Server::json(envelope(&sample_response(op, &params)));
        let base_url = server.base_url();
        let mut mcp = Mcp::start(&["--base-url", &base_url, "--db", "fr", "mcp"]);
        let name = tool_name(op);
        let content = mcp.structured(&name, arguments(op, &params));
        assert_eq!(content["UnitsUsed"], 20, "{name}: {content}");
        assert_eq!(content["UnitsRemaining"], 980, "{name}: {content}");
        assert_eq!(content["from_cache"], false, "{name}");
        assert_eq!(content["no_data"], false, "{name}");
        let seen = server.seen();
        assert_eq!(seen.len(), 1, "{name}: {seen:?}");
        assert_eq!(seen[0].path, op.path, "{name}");
        assert_eq!(
            seen[0].query,
            expected_query(op, KEY, "fr", &params),
            "{name}"
        );
        let usage = mcp.structured("usage", json!({}));
        assert_eq!(usage["units_used"], 20, "{name}: {usage}");
        assert_eq!(usage["calls"], 1, "{name}: {usage}");
        mcp.finish();
    }
}

#[test]
fn bad_input_is_a_tool_error_naming_the_parameter_and_the_value() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp"]);
    let cases = [
        (
            "keywords_metrics",
            json!({"keyword": ["a|b"]}),
            ["`keyword`", "a|b"],
        ),
        ("keywords_metrics", json!({}), ["`keyword`", "required"]),
        (
            "domains_keywords",
            json!({"domain": "example.it", "type": "best", "limit": 10001}),
            ["`limit`", "10001"],
        ),
        (
            "domains_keywords",
            json!({"domain": "example.it", "type": "byposition", "limit": 5}),
            ["`position`", "byposition"],
        ),
        (
            "domains_keywords",
            json!({"domain": "example.it", "type": "sideways", "limit": 5}),
            ["`type`", "sideways"],
        ),
        (
            "domains_keywords",
            json!({"domain": ["a.it", "b.it"], "type": "best", "limit": 5}),
            ["`domain`", "one value"],
        ),
        (
            "keywords_metrics",
            json!({"keyword": [true]}),
            ["`keyword`", "true"],
        ),
        (
            "keywords_metrics",
            json!({"keyword": ["x"], "api_key": "stolen"}),
            ["`api_key`", "unknown parameter"],
        ),
        (
            "estimate",
            json!({"tool": "nothing"}),
            ["`tool`", "nothing"],
        ),
        (
            "more",
            json!({"result": "r1", "start": -1}),
            ["`result`", "r1"],
        ),
    ];
    for (tool, arguments, pieces) in cases {
        let text = mcp.error(tool, arguments.clone());
        for piece in pieces {
            assert!(
                text.contains(piece),
                "{tool} {arguments}: {piece:?} not in {text}"
            );
        }
    }
    let usage = mcp.structured("usage", json!({}));
    assert_eq!(usage["units_used"], 0, "nothing was spent: {usage}");

    let unknown = mcp.request(
        "tools/call",
        json!({"name": "no_such_tool", "arguments": {}}),
    );
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    assert_eq!(mcp.finish(), Ended::Normally);
}

#[test]
fn a_call_over_the_budget_is_refused_before_sending_naming_the_budget_left() {
    let server = Server::json(envelope(&json!([])));
    let base_url = server.base_url();
    let mut mcp = Mcp::start(&["--base-url", &base_url, "--budget", "30", "mcp"]);
    let arguments = json!({"domain": "example.it", "type": "best", "limit": 1000});
    let estimate = mcp.structured(
        "estimate",
        json!({"tool": "domains_keywords", "arguments": arguments}),
    );
    assert_eq!(estimate["within_budget"], false, "{estimate}");
    assert_eq!(estimate["budget_left"], 30, "{estimate}");
    assert_eq!(estimate["requests"], 1, "{estimate}");
    let text = mcp.error("domains_keywords", arguments);
    assert!(text.contains("budget"), "{text}");
    assert!(text.contains("30 are left"), "{text}");
    assert_eq!(server.seen(), [], "a refused call sends nothing");

    // Within the budget the call goes, and what it cost is taken off.
    mcp.structured(
        "domains_keywords",
        json!({"domain": "example.it", "type": "best", "limit": 1}),
    );
    assert_eq!(server.seen().len(), 1);
    let usage = mcp.structured("usage", json!({}));
    assert_eq!(usage["budget"], 30, "{usage}");
    assert_eq!(usage["budget_left"], 10, "{usage}");
    mcp.finish();
}

/// An operation whose cost the spec does not know: a session with a budget
/// refuses it before sending, one without sends it and counts what it reports.
#[test]
fn an_unknown_cost_is_refused_under_a_budget_and_counted_without() {
    let Some(op) = OPERATIONS
        .iter()
        .copied()
        .find(|op| op.cost.charged == Charged::Unknown)
    else {
        // The spec knows every cost: nothing to show.
        return;
    };
    let name = tool_name(op);
    let params = sample_params(op);
    let server = Server::json(envelope(&sample_response(op, &params)));
    let base_url = server.base_url();

    let mut mcp = Mcp::start(&["--base-url", &base_url, "--budget", "1000", "mcp"]);
    let estimate = mcp.structured(
        "estimate",
        json!({"tool": name, "arguments": arguments(op, &params)}),
    );
    assert_eq!(estimate["unknown"], true, "{estimate}");
    assert_eq!(estimate["max"], Value::Null, "{estimate}");
    assert_eq!(estimate["within_budget"], false, "{estimate}");
    let text = mcp.error(&name, arguments(op, &params));
    assert!(text.contains("unknown") && text.contains("1000"), "{text}");
    assert_eq!(server.seen(), [], "a refused call sends nothing");
    mcp.finish();

    let mut mcp = Mcp::start(&["--base-url", &base_url, "mcp"]);
    let content = mcp.structured(&name, arguments(op, &params));
    assert_eq!(server.seen().len(), 1);
    let usage = mcp.structured("usage", json!({}));
    assert_eq!(usage["units_used"], content["UnitsUsed"], "{usage}");
    mcp.finish();
}

#[test]
fn a_long_list_is_one_batched_call_and_the_rows_past_the_cap_are_held() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp", "--max-result-rows", "60"]);
    let keywords: Vec<String> = (0..150).map(|i| format!("parola {i}")).collect();
    let estimate = mcp.structured(
        "estimate",
        json!({"tool": "keywords_metrics", "arguments": {"keyword": keywords}}),
    );
    assert_eq!(estimate["requests"], 2, "{estimate}");

    let first = mcp.structured("keywords_metrics", json!({"keyword": keywords}));
    assert_eq!(first["ResultRows"], 150, "{first}");
    assert_eq!(
        first["rows"],
        json!({"start": 0, "returned": 60, "total": 150})
    );
    let mut rows = first["response"].as_array().unwrap().clone();
    let mut more = first["more"].clone();
    while !more.is_null() {
        let next = mcp.structured(
            "more",
            json!({"result": more["result"], "start": more["start"]}),
        );
        rows.extend(next["response"].as_array().unwrap().iter().cloned());
        more = next["more"].clone();
    }
    let got: Vec<&str> = rows
        .iter()
        .map(|r| r["keyword"].as_str().unwrap())
        .collect();
    assert_eq!(got, keywords, "every row, in input order");

    let usage = mcp.structured("usage", json!({}));
    assert_eq!(
        usage["calls"], 2,
        "two requests, `more` sends none: {usage}"
    );
    assert_eq!(usage["units_used"], first["UnitsUsed"], "{usage}");
    mcp.finish();
}

/// A batched job that fails part-way (a sandbox answering 429 to the request
/// carrying one keyword): an error result that says what is missing, and the
/// rows already paid for held for `more`.
#[test]
fn a_batched_job_that_stops_part_way_keeps_the_rows_it_paid_for() {
    let _timed = support::one_timed_test_at_a_time();
    use seozoom::sandbox::{Fault, FaultPlan, Sandbox};

    let sandbox = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(
            Sandbox::builder()
                .faults(FaultPlan::none().retry_after(0).on(
                    "keyword",
                    "boom",
                    Fault::RateLimitedRetryAfter,
                ))
                .start(),
        )
        .unwrap();
    let base_url = sandbox.base_url();
    // Three requests of at most 100; the second carries `boom`.
    let mut keywords: Vec<String> = (0..250).map(|i| format!("mutuo {i:03}")).collect();
    keywords[150] = "boom".into();

    // A short rate window: the 429 that never ends is waited out for three
    // windows (the retry policy's bound), not three minutes.
    let mut mcp = Mcp::start(&[
        "--base-url",
        &base_url,
        "--rate-window",
        "0.5",
        "mcp",
        "--max-result-rows",
        "100",
    ]);
    let text = mcp.error("keywords_metrics", json!({"keyword": keywords}));
    assert!(text.contains("HTTP 429"), "{text}");
    assert!(text.contains("`keyword` values"), "{text}");
    let held = text
        .split('`')
        .find(|piece| {
            piece
                .strip_prefix('r')
                .and_then(|id| id.split_once('-'))
                .is_some_and(|(count, _)| count.parse::<u32>().is_ok())
        })
        .unwrap_or_else(|| panic!("no held result in: {text}"));
    let rest = mcp.structured("more", json!({"result": held, "start": 0}));
    let rows: Vec<&str> = rest["response"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["keyword"].as_str().unwrap())
        .collect();
    // The first request's rows at least, in input order; never the failed one's.
    assert!(rows.len() >= 100 && !rows.contains(&"boom"), "{rows:?}");
    assert_eq!(rows[..100], keywords[..100]);
    let usage = mcp.structured("usage", json!({}));
    assert_eq!(
        usage["units_used"],
        Sandbox::STARTING_UNITS - sandbox.units_remaining(),
        "what was charged is counted: {usage}"
    );
    mcp.finish();
}

/// Once the store's ledger has seen what the key was charged for an operation
/// whose cost the spec does not know, `estimate` gives the range made from
/// it, marked observed, and a session with a budget sends the call.
#[test]
fn an_unknown_cost_seen_before_is_estimated_as_observed_and_sent_under_a_budget() {
    let Some(op) = OPERATIONS
        .iter()
        .copied()
        .find(|op| op.cost.charged == Charged::Unknown)
    else {
        // The spec knows every cost: nothing to show.
        return;
    };
    let name = tool_name(op);
    let params = sample_params(op);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir = std::env::temp_dir().join(format!(
        "seozoom-mcp-learned-{}-{nanos}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let store = format!("sqlite:{}", dir.join("store.sqlite3").display());

    let mut mcp = Mcp::start(&["--sandbox", "--store", &store, "mcp"]);
    let before = mcp.structured(
        "estimate",
        json!({"tool": name, "arguments": arguments(op, &params)}),
    );
    assert_eq!(before["unknown"], true, "{before}");
    assert_eq!(before["max"], Value::Null, "{before}");
    assert_eq!(before["basis"], "spec", "{before}");
    assert_eq!(
        before["learned"],
        Value::Null,
        "nothing learned yet: {before}"
    );
    let content = mcp.structured(&name, arguments(op, &params));
    let (units, rows) = (
        content["UnitsUsed"].as_i64().unwrap(),
        content["ResultRows"].as_i64().unwrap(),
    );
    assert!(rows > 0, "{content}");
    mcp.finish();

    let mut mcp = Mcp::start(&[
        "--sandbox",
        "--store",
        &store,
        "--budget",
        "1000",
        "--refresh",
        "mcp",
    ]);
    let estimate = mcp.structured(
        "estimate",
        json!({"tool": name, "arguments": arguments(op, &params)}),
    );
    let per_row = (units + rows - 1) / rows;
    assert_eq!(estimate["unknown"], false, "{estimate}");
    assert_eq!(estimate["basis"], "observed", "{estimate}");
    assert_eq!(
        estimate["learned"],
        json!({"per_row": per_row, "rows": rows}),
        "{estimate}"
    );
    assert_eq!(estimate["min"], 0, "{estimate}");
    assert!(
        estimate["max"].as_i64().unwrap() >= per_row * rows,
        "{estimate}"
    );
    assert_eq!(estimate["within_budget"], true, "{estimate}");
    let sent = mcp.structured(&name, arguments(op, &params));
    assert_eq!(sent["ResultRows"], rows, "{sent}");
    mcp.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The size of `tools/list` with every tool on and the shared schemas sent
/// whole: every session pays for the tool list in tokens.
const TOOL_LIST_BYTES_BEFORE: usize = 118_821;

#[test]
fn the_tool_list_is_at_most_half_its_former_size_and_keeps_limits_and_costs() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp"]);
    let list = mcp.request("tools/list", json!({}));
    let bytes = mcp.received().last().expect("the answer").trim_end().len();
    eprintln!(
        "tools/list: {bytes} bytes, at most {}",
        TOOL_LIST_BYTES_BEFORE / 2
    );
    assert!(
        bytes <= TOOL_LIST_BYTES_BEFORE / 2,
        "tools/list is {bytes} bytes, over half of {TOOL_LIST_BYTES_BEFORE}"
    );
    let tools = list["result"]["tools"].as_array().expect("tools");
    for op in OPERATIONS {
        let tool = tools
            .iter()
            .find(|t| t["name"] == tool_name(op))
            .expect("every operation's tool");
        let description = tool["description"].as_str().expect("a description");
        assert!(
            description.contains(&format!(
                "{} requests per minute",
                op.cost.requests_per_minute.value
            )),
            "{description}"
        );
        // Every unit figure the reference prints is there.
        for figure in op.cost.units {
            assert!(description.contains(&figure.to_string()), "{description}");
        }
        // Every limit of the table is in the input schema.
        for param in op.params.iter().filter(|p| !p.implicit) {
            let schema = &tool["inputSchema"]["properties"][param.wire];
            let value = if param.list { &schema["items"] } else { schema };
            if let Some(max) = &param.max {
                assert_eq!(
                    value["maximum"],
                    json!(max.value),
                    "{}: {schema}",
                    param.wire
                );
            }
            if let Some(min) = &param.min {
                assert_eq!(
                    value["minimum"],
                    json!(min.value),
                    "{}: {schema}",
                    param.wire
                );
            }
            if let Some(max) = &param.max_items {
                let batched = op.batch_param().is_some_and(|p| p.wire == param.wire);
                let said = if batched {
                    schema["description"]
                        .as_str()
                        .unwrap_or_default()
                        .contains(&format!("At most {} per request", max.value))
                } else {
                    schema["maxItems"] == json!(max.value)
                };
                assert!(said, "{}: {schema}", param.wire);
            }
        }
        assert!(tool["outputSchema"]["properties"]["from_cache"].is_object());
    }
    mcp.finish();
}

#[test]
fn tools_option_exposes_exactly_what_it_names() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp", "--tools", "keywords,domains_metrics"]);
    let names: BTreeSet<String> = mcp
        .tools()
        .iter()
        .map(|t| t["name"].as_str().expect("a name").to_owned())
        .collect();
    let mut expected: BTreeSet<String> = OPERATIONS
        .iter()
        .filter(|op| op.group == "keywords" || tool_name(op) == "domains_metrics")
        .map(|op| tool_name(op))
        .collect();
    assert!(expected.len() > 2);
    expected.extend(OWN_TOOLS.map(str::to_owned));
    assert_eq!(names, expected);
    // A tool not exposed cannot be called.
    let hidden = mcp.request(
        "tools/call",
        json!({"name": "domains_authority", "arguments": {}}),
    );
    assert!(hidden["error"].is_object(), "{hidden}");
    mcp.finish();
}

#[test]
fn edge_inputs_are_refused_and_the_server_still_answers() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp"]);
    // A malformed line: -32700 with id null, and the session goes on.
    mcp.write_line("{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": ");
    let parse = mcp.next_message();
    assert_eq!(parse["error"]["code"], -32700, "{parse}");
    assert_eq!(parse["id"], Value::Null, "{parse}");
    mcp.ping();
    // A line longer than the server reads (16 MiB): -32700, skipped, and on.
    mcp.write_line(&format!("\"{}\"", "x".repeat(17 << 20)));
    let too_long = mcp.next_message();
    assert_eq!(too_long["error"]["code"], -32700, "{too_long}");
    mcp.ping();
    // A keyword longer than a request may be: refused before sending, naming it.
    let long = mcp.error("keywords_metrics", json!({"keyword": ["x".repeat(70_000)]}));
    assert!(
        long.contains("`keyword`") && long.contains("32768"),
        "{long}"
    );
    assert!(long.len() < 1_000, "the value is cut: {long}");
    mcp.ping();
    // A number in a list of keywords: not sent as text and charged.
    let number = mcp.error("keywords_metrics", json!({"keyword": ["scarpe", 42]}));
    assert!(
        number.contains("`keyword`") && number.contains("42"),
        "{number}"
    );
    mcp.ping();
    // A fraction for an integer; a numeric string is taken (leniency).
    let fraction = mcp.error(
        "domains_keywords",
        json!({"domain": "example.it", "type": "best", "limit": 2.5}),
    );
    assert!(
        fraction.contains("`limit`") && fraction.contains("integer"),
        "{fraction}"
    );
    mcp.ping();
    let lenient = mcp.structured(
        "domains_keywords",
        json!({"domain": "example.it", "type": "best", "limit": "3"}),
    );
    assert_eq!(lenient["rows"]["total"], 3, "{lenient}");
    // One string for a list (leniency).
    let one = mcp.structured("keywords_metrics", json!({"keyword": "scarpe"}));
    assert_eq!(one["rows"]["total"], 1, "{one}");
    mcp.ping();
    mcp.finish();
}

#[test]
fn logging_is_declared_and_its_level_can_be_set() {
    let mut mcp = Mcp::start(&["--sandbox", "--store", "memory", "mcp"]);
    let set = mcp.request("logging/setLevel", json!({"level": "debug"}));
    assert_eq!(set["result"], json!({}), "{set}");
    // A cache hit is logged at info: a call, then the same call again.
    mcp.structured("keywords_metrics", json!({"keyword": ["scarpe"]}));
    let again = mcp.structured("keywords_metrics", json!({"keyword": ["scarpe"]}));
    assert_eq!(again["from_cache"], true, "{again}");
    assert_eq!(again["UnitsUsed"], 0, "{again}");
    // Part from the cache: not `from_cache`, and how much is said.
    let part = mcp.structured("keywords_metrics", json!({"keyword": ["scarpe", "mutuo"]}));
    assert_eq!(part["from_cache"], false, "{part}");
    assert_eq!(part["cached_items"], 1, "{part}");
    assert!(part["UnitsUsed"].as_i64() > Some(0), "{part}");
    // Each hit told as the library says it, named by the tool called.
    let logged = log_messages(&mcp);
    let told = |line: &str| {
        logged
            .iter()
            .any(|(level, text)| level == "info" && text == line)
    };
    assert!(
        told("keywords_metrics: answered from the cache, not charged"),
        "{logged:?}"
    );
    assert!(
        told("keywords_metrics: 1 input answered from the cache, not charged"),
        "{logged:?}"
    );
    mcp.finish();
}

/// Retries are told to the agent as log messages once it has set a level:
/// a sandbox that answers one keyword with 429 every time.
#[test]
fn retries_are_logged_to_the_agent_at_the_level_it_set() {
    let _timed = support::one_timed_test_at_a_time();
    use seozoom::sandbox::{Fault, FaultPlan, Sandbox};

    let sandbox = support::start_sandbox(
        Sandbox::builder().faults(FaultPlan::none().retry_after(0).on(
            "keyword",
            "boom",
            Fault::RateLimitedRetryAfter,
        )),
    );
    let base_url = sandbox.base_url();
    let mut mcp = Mcp::start(&[
        "--base-url",
        &base_url,
        "--rate-window",
        "0.5",
        "mcp",
        "--max-result-rows",
        "100",
    ]);
    let messages = |mcp: &Mcp| -> Vec<String> {
        mcp.received()
            .iter()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter(|m| m["method"] == "notifications/message")
            .map(|m| m["params"]["data"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    // No level set: nothing is sent.
    let text = mcp.error("keywords_metrics", json!({"keyword": ["boom"]}));
    assert!(text.contains("HTTP 429"), "{text}");
    assert_eq!(messages(&mcp), Vec::<String>::new());
    let set = mcp.request("logging/setLevel", json!({"level": "warning"}));
    assert_eq!(set["result"], json!({}), "{set}");
    let text = mcp.error("keywords_metrics", json!({"keyword": ["boom"]}));
    assert!(text.contains("HTTP 429"), "{text}");
    let logged = messages(&mcp);
    assert!(
        logged
            .iter()
            .any(|m| m.contains("keywords_metrics: retrying")),
        "{logged:?}"
    );
    mcp.finish();
}

/// The log messages received so far: (level, text).
fn log_messages(mcp: &Mcp) -> Vec<(String, String)> {
    mcp.received()
        .iter()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|m| m["method"] == "notifications/message")
        .map(|m| {
            let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
            (text(&m["params"]["level"]), text(&m["params"]["data"]))
        })
        .collect()
}

/// Waits for a rate-limit slot are told to the agent at info, as the library
/// says them (how long, what for, why, before which attempt), and only once
/// it set a level that low. The per-minute figure of `keywords_metrics` (20)
/// applies over 3 s here (long enough that 20 requests fit in it on a busy
/// machine), so a job of 21 requests waits for its last slot:
/// the same job at `warning` and then at `info` waits alike, and only the
/// second is told.
#[test]
fn rate_slot_waits_are_logged_to_the_agent_at_the_level_it_set() {
    let _timed = support::one_timed_test_at_a_time();
    let mut mcp = Mcp::start(&["--sandbox", "--rate-window", "3", "mcp"]);
    let job = |prefix: &str| {
        let keywords: Vec<String> = (0..2_100).map(|i| format!("{prefix} {i}")).collect();
        json!({ "keyword": keywords })
    };
    let set = mcp.request("logging/setLevel", json!({"level": "warning"}));
    assert_eq!(set["result"], json!({}), "{set}");
    let quiet = mcp.structured("keywords_metrics", job("quiet"));
    assert_eq!(quiet["rows"]["total"], 2_100, "{quiet}");
    assert_eq!(log_messages(&mcp), Vec::new(), "below the level set");
    let set = mcp.request("logging/setLevel", json!({"level": "info"}));
    assert_eq!(set["result"], json!({}), "{set}");
    let told = mcp.structured("keywords_metrics", job("told"));
    assert_eq!(told["rows"]["total"], 2_100, "{told}");
    let logged = log_messages(&mcp);
    let waits: Vec<&(String, String)> = logged
        .iter()
        .filter(|(_, text)| {
            text.starts_with("keywords_metrics: waiting ")
                && text.contains(" for a rate-limit slot (20 requests a minute) before attempt 1")
        })
        .collect();
    assert!(!waits.is_empty(), "no wait told: {logged:?}");
    assert!(waits.iter().all(|(level, _)| level == "info"), "{waits:?}");
    // A wait of nothing is no wait: never told.
    assert!(
        logged.iter().all(|(_, text)| !text.contains("waiting 0 s")),
        "{logged:?}"
    );
    assert!(
        logged.iter().all(|(level, _)| level != "debug"),
        "below the level set: {logged:?}"
    );
    mcp.finish();
}

/// A backoff after a failure is told as the retry it precedes (with its
/// delay), never as a wait for the rate window: a sandbox that answers one
/// keyword with HTTP 500 every time.
#[test]
fn a_backoff_is_logged_as_a_retry_not_as_a_wait_for_the_rate_window() {
    use seozoom::sandbox::{Fault, FaultPlan, Sandbox};

    let sandbox = support::start_sandbox(Sandbox::builder().faults(FaultPlan::none().on(
        "keyword",
        "crash",
        Fault::ServerError,
    )));
    let base_url = sandbox.base_url();
    let mut mcp = Mcp::start(&["--base-url", &base_url, "mcp"]);
    let set = mcp.request("logging/setLevel", json!({"level": "debug"}));
    assert_eq!(set["result"], json!({}), "{set}");
    let text = mcp.error("keywords_metrics", json!({"keyword": ["crash"]}));
    assert!(text.contains("500"), "{text}");
    let logged = log_messages(&mcp);
    assert!(
        logged.iter().any(|(level, text)| level == "warning"
            && text.contains("keywords_metrics: retrying")
            && text.contains("failed: HTTP 500)")),
        "{logged:?}"
    );
    assert!(
        logged.iter().all(|(_, text)| !text.contains("rate window")),
        "{logged:?}"
    );
    mcp.finish();
}

/// The conformance fixture's tools are listed only on the sandbox when the
/// hidden flag asks; its logging tool's messages are the cache hits of real
/// calls, told through the path every tool's are.
#[test]
fn the_conformance_fixture_logs_cache_hits_of_real_calls_and_only_when_asked() {
    const FIXTURE_TOOL: &str = "test_tool_with_logging";
    let mut plain = Mcp::start(&["--sandbox", "--store", "memory", "mcp"]);
    assert!(
        plain
            .tools()
            .iter()
            .all(|tool| tool["name"] != FIXTURE_TOOL),
        "listed without the flag"
    );
    plain.finish();
    let args = [
        "--sandbox",
        "--store",
        "memory",
        "mcp",
        "--conformance-fixture",
    ];
    let mut mcp = Mcp::start(&args);
    assert!(mcp.tools().iter().any(|tool| tool["name"] == FIXTURE_TOOL));
    let set = mcp.request("logging/setLevel", json!({"level": "debug"}));
    assert_eq!(set["result"], json!({}), "{set}");
    let result = mcp.call(FIXTURE_TOOL, json!({}));
    assert_ne!(result["isError"], true, "{result}");
    let logged = log_messages(&mcp);
    // Each hit named by the tool called, not "the call".
    let hits = logged
        .iter()
        .filter(|(level, text)| {
            level == "info" && text.starts_with(&format!("{FIXTURE_TOOL}: answered from the cache"))
        })
        .count();
    assert!(hits >= 3, "{logged:?}");
    mcp.finish();
    // Without a store nothing is cached, and the fixture says what it needs.
    let mut bare = Mcp::start(&["--sandbox", "mcp", "--conformance-fixture"]);
    let text = bare.error(FIXTURE_TOOL, json!({}));
    assert!(text.contains("--store memory"), "{text}");
    bare.finish();
}

#[test]
fn a_repeat_call_in_a_second_session_comes_from_the_store() {
    let dir = std::env::temp_dir().join(format!("seozoom-mcp-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch dir");
    let store = format!("sqlite:{}", dir.join("store.sqlite3").display());
    // One service for both sessions: the cache is kept per origin, and each
    // `--sandbox` run would start a sandbox on a port of its own.
    let sandbox = support::start_sandbox(seozoom::sandbox::Sandbox::builder());
    let base_url = sandbox.base_url();
    let args = ["--base-url", &base_url, "--store", store.as_str(), "mcp"];
    let call = json!({"keyword": ["scarpe running", "mutuo casa"]});
    let mut first = Mcp::start(&args);
    let paid = first.structured("keywords_metrics", call.clone());
    assert_eq!(paid["from_cache"], false, "{paid}");
    assert!(paid["UnitsUsed"].as_i64().expect("units") > 0, "{paid}");
    first.finish();
    let mut second = Mcp::start(&args);
    let cached = second.structured("keywords_metrics", call);
    assert_eq!(cached["from_cache"], true, "{cached}");
    assert_eq!(cached["UnitsUsed"], 0, "{cached}");
    assert_eq!(cached["response"], paid["response"]);
    // Cache hits reach a SQLite ledger within a second.
    let mut usage = Value::Null;
    for _ in 0..30 {
        usage = second.structured("usage", json!({}));
        if usage["key"]["cache_hits"].as_i64() >= Some(1) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(usage["key"]["cache_hits"].as_i64() >= Some(1), "{usage}");
    assert!(usage["key"]["calls"].as_i64() >= Some(1), "{usage}");
    assert_eq!(usage["key"]["units_used"], paid["UnitsUsed"], "{usage}");
    assert!(usage["key"]["units_saved"].as_i64() > Some(0), "{usage}");
    assert_eq!(
        usage["key"]["last_balance"]["units_remaining"], paid["UnitsRemaining"],
        "{usage}"
    );
    assert_eq!(usage["units_remaining"], paid["UnitsRemaining"], "{usage}");
    assert_eq!(usage["cache_hits"], 1, "{usage}");
    assert_eq!(usage["units_used"], 0, "{usage}");
    second.finish();
    std::fs::remove_dir_all(&dir).ok();
}

/// A 3,000-keyword job (30 requests) against a strict sandbox whose window
/// is lowered to 6 s (long enough that the first call and the job's start
/// fit in it on a busy machine): 18 requests of another call fill the window first, so
/// the job's first two go at once and its third waits for the window. The
/// progress says so; a cancel after the second request sends nothing more;
/// the rows paid for are held for `more`; `usage` counts only what was sent.
#[test]
fn a_cancelled_job_sends_nothing_more_and_holds_what_it_paid_for() {
    let _timed = support::one_timed_test_at_a_time();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let window = std::time::Duration::from_secs(6);
    let sandbox = runtime
        .block_on(
            seozoom::sandbox::Sandbox::builder()
                .rate_window(window)
                .start(),
        )
        .expect("a strict sandbox");
    let base_url = sandbox.base_url();
    let mut mcp = Mcp::start(&[
        "--base-url",
        &base_url,
        "--rate-window",
        "6",
        "mcp",
        "--max-result-rows",
        "100",
    ]);
    let keywords = |prefix: &str, n: usize| -> Vec<String> {
        (0..n).map(|i| format!("{prefix} {i}")).collect()
    };
    // 22 requests of 100: two fit the window the filler leaves, and the
    // resume's 19 or 20 fit the next one, so the test waits out the window
    // once (to see that nothing more is sent), not twice.
    let job = 2_200;
    let filler = mcp.structured(
        "keywords_metrics",
        json!({"keyword": keywords("filler", 1_800)}),
    );
    assert_eq!(filler["rows"]["total"], 1_800);
    assert_eq!(sandbox.requests(), 18);
    let id = mcp.send_request(
        "tools/call",
        json!({
            "name": "keywords_metrics",
            "arguments": {"keyword": keywords("kw", job)},
            "_meta": {"progressToken": "job"},
        }),
    );
    let mut progress = Vec::new();
    while progress.len() < 2 {
        let message = mcp.next_message();
        assert_ne!(
            message["id"],
            json!(id),
            "answered before two requests: {message}"
        );
        if message["method"] == "notifications/progress" {
            progress.push(message["params"].clone());
        }
    }
    mcp.send(&json!({
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "the agent gave up"},
    }));
    assert_eq!(progress[0]["progressToken"], "job");
    assert_eq!(progress[1]["progress"].as_f64(), Some(2.0));
    assert_eq!(progress[1]["total"].as_f64(), Some(22.0));
    let message = progress[1]["message"].as_str().expect("a message");
    assert!(
        message.contains("waiting") && message.contains("rate window"),
        "{message}"
    );
    // The held rows, found with `more` and no id (the job ends at once: its
    // next request was waiting for the window).
    let mut held = Value::Null;
    for _ in 0..50 {
        held = mcp.structured("more", json!({}));
        if held["held"]
            .as_array()
            .is_some_and(|h| h.iter().any(|r| r["complete"] == false))
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let stopped = held["held"]
        .as_array()
        .and_then(|h| h.iter().find(|r| r["complete"] == false))
        .unwrap_or_else(|| panic!("nothing held: {held}"))
        .clone();
    let sent = sandbox.requests() - 18;
    assert!(
        (2..=3).contains(&sent),
        "{sent} requests of the job were sent"
    );
    assert_eq!(stopped["items"], json!(sent * 100), "{stopped}");
    let rows = mcp.structured(
        "more",
        json!({"result": stopped["result"], "start": 0, "count": 100}),
    );
    assert_eq!(rows["rows"]["total"], json!(sent * 100), "{rows}");
    // Units only for the requests sent.
    let usage = mcp.structured("usage", json!({}));
    let charged = 1_000_000 - sandbox.units_remaining();
    assert_eq!(usage["units_used"], json!(charged), "{usage}");
    assert_eq!(usage["calls"], json!(18 + sent), "{usage}");
    assert_eq!(usage["held"].as_array().map(Vec::len), Some(2), "{usage}");
    // Nothing more was sent after the cancel, even once the window freed.
    std::thread::sleep(window);
    assert_eq!(sandbox.requests() - 18, sent);

    // The held result says how to resume: a handle, and how many inputs it
    // lacks; the resource gives exactly the keywords not answered, in input
    // order; `usage` stays small.
    let id = stopped["result"].as_str().expect("an id").to_owned();
    let resume = stopped["resume"].clone();
    let missing = &keywords("kw", job)[sent as usize * 100..];
    assert_eq!(resume, json!({"resume": id}), "resume: {stopped}");
    assert_eq!(stopped["missing"], json!(missing.len()), "{stopped}");
    let listed = mcp.request(
        "resources/read",
        json!({"uri": format!("seozoom://held/{id}/missing")}),
    );
    let listed: Value = serde_json::from_str(
        listed["result"]["contents"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{listed}")),
    )
    .expect("JSON");
    assert_eq!(listed["arguments"], json!({"keyword": missing}), "{listed}");
    let usage = mcp.call("usage", json!({}));
    assert!(usage.to_string().len() < 4096, "usage is small: {usage}");
    let resumed = mcp.structured("keywords_metrics", resume);
    assert_eq!(
        resumed["rows"]["total"],
        json!(job as u64 - sent * 100),
        "{resumed}"
    );
    // Exactly the missing part was sent: one request per 100 keywords.
    assert_eq!(
        sandbox.requests() - 18 - sent,
        22 - sent,
        "requests of the resume"
    );
    mcp.finish();
    drop(runtime);
}

/// A paged tool takes a row cap (`max_rows`): its rows come page by page,
/// `limit` a page, through the library's runner, as on the command line.
#[test]
fn a_paged_tool_pages_up_to_its_row_cap() {
    let sandbox = support::start_sandbox(seozoom::sandbox::Sandbox::builder().paged_rows(1_000));
    let base_url = sandbox.base_url();
    let mut mcp = Mcp::start(&["--base-url", &base_url, "mcp", "--max-result-rows", "1000"]);
    let arguments = json!({"domain": "example.it", "type": "best", "limit": 10, "max_rows": 25});
    let content = mcp.structured("domains_keywords", arguments);
    assert_eq!(content["rows"]["total"], 25, "{content}");
    assert_eq!(content["ResultRows"], 25, "{content}");
    assert_eq!(sandbox.requests(), 3, "pages of 10, 10 and 5");
    let bad = mcp.error(
        "domains_keywords",
        json!({"domain": "example.it", "type": "best", "limit": 10, "max_rows": 0}),
    );
    assert!(bad.contains("`max_rows` = 0"), "{bad}");
    let not_paged = mcp.error("keywords_metrics", json!({"keyword": ["a"], "max_rows": 5}));
    assert!(not_paged.contains("unknown parameter"), "{not_paged}");
    mcp.finish();
}

/// With a budget, an answer's text says what this call cost and what is
/// left of the budget, apart from the account's balance; a row cap that
/// `--fit-budget` cut says how many rows were asked for and how many the
/// budget allowed, so that a model does not take them for all there are.
#[test]
fn the_text_names_the_budget_and_a_cut_by_fit_budget() {
    let sandbox = support::start_sandbox(seozoom::sandbox::Sandbox::builder().paged_rows(1_000));
    let base_url = sandbox.base_url();
    let mut mcp = Mcp::start(&[
        "--base-url",
        &base_url,
        "--budget",
        "500",
        "--fit-budget",
        "mcp",
    ]);
    let answer = mcp.call(
        "domains_keywords",
        json!({"domain": "example.it", "type": "best", "limit": 100, "max_rows": 300}),
    );
    let content = &answer["structuredContent"];
    let allowed = content["budget"]["rows_allowed"].as_u64().expect("a cut");
    assert!(allowed < 300, "{content}");
    assert_eq!(content["budget"]["rows_asked"], 300, "{content}");
    assert_eq!(content["rows"]["total"], allowed, "{content}");
    let used = content["UnitsUsed"].as_i64().expect("units");
    assert_eq!(content["budget"]["left"], 500 - used, "{content}");
    let text = answer["content"][0]["text"].as_str().expect("a text");
    for piece in [
        format!("This call was charged {used} units"),
        format!("{} units of this server's budget of 500 left", 500 - used),
        "the account has".to_owned(),
        format!("The budget allowed {allowed} rows of the 300 asked for"),
    ] {
        assert!(text.contains(&piece), "{piece:?} in: {text}");
    }
    mcp.finish();
}

/// `--max-wait` bounds the session's waits as it bounds a command's: a wait
/// for the rate window longer than it is not begun (a server that waited it
/// out whatever the flag said would hold an agent past its bound), and the
/// rows received are held.
#[test]
fn the_most_time_to_wait_holds_in_the_server() {
    let mut mcp = Mcp::start(&["--sandbox", "--rate-window", "30", "--max-wait", "3", "mcp"]);
    let keywords: Vec<String> = (0..2_100).map(|i| format!("wait {i}")).collect();
    let started = std::time::Instant::now();
    let text = mcp.error("keywords_metrics", json!({"keyword": keywords}));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert!(text.contains("stopped waiting"), "{text}");
    assert!(text.contains("100 `keyword` values"), "{text}");
    assert!(text.contains("are held as result"), "{text}");
    mcp.finish();
}

/// `keywords_serp`'s map keeps the order of the keywords asked for, the
/// cached one included (it came back with the cached member first).
#[test]
fn a_map_keeps_the_order_of_its_inputs() {
    let mut mcp = Mcp::start(&["--sandbox", "--store", "memory", "mcp"]);
    mcp.structured("keywords_serp", json!({"keyword": ["mid tre"]}));
    let all = mcp.structured(
        "keywords_serp",
        json!({"keyword": ["zeta uno", "alpha due", "mid tre"]}),
    );
    let order = |map: &Map<String, Value>| map.keys().cloned().collect::<Vec<_>>();
    let asked = ["zeta uno", "alpha due", "mid tre"].map(String::from);
    assert_eq!(
        all["response"].as_object().map(order),
        Some(asked.to_vec()),
        "{all}"
    );
    mcp.finish();
}

/// A list reaches the service as one `|`-joined value: the sandbox refuses a
/// list sent as repeated keys, so two fresh keywords answered in one call
/// show that the MCP tools join them.
#[test]
fn a_list_argument_goes_out_joined() {
    let mut mcp = Mcp::start(&["--sandbox", "--store", "memory", "mcp"]);
    let both = mcp.structured("keywords_metrics", json!({"keyword": ["scarpe", "mutuo"]}));
    let keywords: Vec<&str> = both["response"]
        .as_array()
        .unwrap_or_else(|| panic!("{both}"))
        .iter()
        .filter_map(|row| row["keyword"].as_str())
        .collect();
    assert_eq!(keywords, ["scarpe", "mutuo"], "{both}");
    mcp.finish();
}

/// A service that drifted from its spec (a drifting sandbox): the tool's
/// `structuredContent` keeps the members the spec does not know in each row,
/// and the row it could not type under `raw_rows`, with its index and error;
/// the output schema forbids neither.
#[test]
fn what_the_spec_does_not_know_reaches_the_agent() {
    use seozoom::sandbox::Sandbox;
    use seozoom::types::RawRow;

    let sandbox = support::start_sandbox(Sandbox::builder().drift());
    let base_url = sandbox.base_url();
    let mut mcp = Mcp::start(&["--base-url", &base_url, "mcp"]);
    let tool = mcp
        .tools()
        .into_iter()
        .find(|tool| tool["name"] == "keywords_metrics")
        .expect("the tool");
    let schema = &tool["outputSchema"];
    assert_ne!(schema["additionalProperties"], json!(false), "{schema}");
    let items = &schema["properties"][SERVICE.envelope_response]["items"];
    assert!(items.is_object(), "{schema}");
    assert_ne!(items["additionalProperties"], json!(false), "{items}");

    let whole = mcp.call(
        "keywords_metrics",
        json!({"keyword": ["mutuo", "prestito", "tasso"]}),
    );
    let answer = whole["structuredContent"].clone();
    let raw = answer[RawRow::MEMBER].as_array().expect("raw rows");
    // The text tells the row kept raw, and why, beside the typed ones.
    let text = whole["content"][0]["text"].as_str().unwrap_or_default();
    let error = raw[0]["error"].as_str().expect("an error");
    assert!(
        text.contains("2 rows.") && text.contains("1 row more kept raw") && text.contains(error),
        "{text}"
    );
    assert_eq!(raw.len(), 1, "{answer}");
    assert_eq!(raw[0]["index"], 0, "{answer}");
    assert!(raw[0]["row"].is_object(), "{answer}");
    let rows = answer[SERVICE.envelope_response].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{answer}");
    assert!(
        rows[1][seozoom::sandbox::EXTRA_MEMBER].is_number(),
        "{}",
        rows[1]
    );
    mcp.finish();
}

/// `max_wait_s` bounds one call's waits, and the server's `--max-wait`
/// bounds `max_wait_s`: a batched job whose next request would wait for the
/// rate window past either stops there, keeping the rows it paid for and
/// saying which inputs to send to resume.
#[test]
fn max_wait_s_stops_a_call_and_the_servers_max_wait_bounds_it() {
    let _timed = support::one_timed_test_at_a_time();
    let keywords: Vec<String> = (0..2_100).map(|i| format!("attesa {i}")).collect();
    // 21 requests of 100: the 21st waits for a 6 s window.
    let mut mcp = Mcp::start(&["--sandbox", "--rate-window", "6", "mcp"]);
    let stopped = mcp.call(
        "keywords_metrics",
        json!({"keyword": keywords, "max_wait_s": 0.5}),
    );
    assert_eq!(stopped["isError"], true, "{stopped}");
    assert!(
        stopped.to_string().len() < 4096,
        "a small answer: {stopped}"
    );
    let handle = &stopped["structuredContent"]["resume"];
    assert!(handle["resume"].is_string(), "{stopped}");
    assert_eq!(stopped["structuredContent"]["missing"], 100, "{stopped}");
    let text = stopped["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        text.contains(&format!("call `keywords_metrics` with {handle}"))
            && text.contains("100 inputs")
            && text.contains("larger `max_wait_s`"),
        "{text}"
    );
    // The handle stands for the job's arguments: another beside it, or the
    // handle given to another tool, is refused before sending.
    let mut beside = handle.clone();
    beside["keyword"] = json!(["x"]);
    let refused = mcp.error("keywords_metrics", beside);
    assert!(
        refused.contains("`keyword`") && refused.contains("beside"),
        "{refused}"
    );
    let elsewhere = mcp.error("keywords_serp", handle.clone());
    assert!(
        elsewhere.contains("no stopped job of `keywords_serp`"),
        "{elsewhere}"
    );
    let bad = mcp.error(
        "keywords_metrics",
        json!({"keyword": ["x"], "max_wait_s": -1}),
    );
    assert!(bad.contains("`max_wait_s`") && bad.contains("-1"), "{bad}");
    mcp.finish();

    // The server's --max-wait 0.5 holds over a larger max_wait_s.
    let mut bounded = Mcp::start(&[
        "--sandbox",
        "--rate-window",
        "6",
        "--max-wait",
        "0.5",
        "mcp",
    ]);
    let text = bounded.error(
        "keywords_metrics",
        json!({"keyword": keywords, "max_wait_s": 60}),
    );
    assert!(text.contains("The job stopped part-way"), "{text}");
    bounded.finish();
}

/// `--confirm-over UNITS`: a call whose estimate may pass UNITS asks the
/// user through `elicitation/create` when the client declared elicitation;
/// declined, nothing is sent or charged and the answer says so; accepted, it
/// is sent. A client without elicitation gets it refused before sending,
/// with the estimate and the option named. A call within UNITS asks nothing.
#[test]
fn confirm_over_asks_before_a_large_spend() {
    let server = Server::json(envelope(&json!([])));
    let base_url = server.base_url();
    let args = [
        "--base-url",
        base_url.as_str(),
        "mcp",
        "--confirm-over",
        "100",
    ];
    let large = json!({"keyword": (0..300).map(|i| format!("k {i}")).collect::<Vec<_>>()});

    let mut plain = Mcp::start(&args);
    let refused = plain.error("keywords_metrics", large.clone());
    assert!(
        refused.starts_with("Not sent")
            && refused.contains("--confirm-over 100")
            && refused.contains("elicitation"),
        "{refused}"
    );
    assert_eq!(server.seen(), [], "a refused call sends nothing");
    plain.finish();

    let mut asking = Mcp::serve(options(&args));
    let init = asking.request(
        "initialize",
        json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "asking", "version": "0"},
        }),
    );
    assert!(init["result"].is_object(), "{init}");
    asking.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    for (action, sent) in [("decline", 0), ("cancel", 0), ("accept", 3)] {
        let id = asking.send_request(
            "tools/call",
            json!({"name": "keywords_metrics", "arguments": large}),
        );
        let answer = loop {
            let message = asking.next_message();
            if message["method"] == "elicitation/create" {
                let text = message["params"]["message"].as_str().unwrap_or_default();
                assert!(
                    text.contains("3 requests") && text.contains("--confirm-over 100"),
                    "{text}"
                );
                asking.send(
                    &json!({"jsonrpc": "2.0", "id": message["id"], "result": {"action": action}}),
                );
            } else if message["id"] == json!(id) {
                break message["result"].clone();
            }
        };
        assert_eq!(server.seen().len(), sent, "{action}: {answer}");
        if sent == 0 {
            let text = answer["content"][0]["text"].as_str().unwrap_or_default();
            assert_eq!(answer["isError"], true, "{answer}");
            assert!(
                text.contains("Not sent") && text.contains("Nothing was charged"),
                "{text}"
            );
        } else {
            assert_ne!(answer["isError"], true, "{answer}");
        }
    }
    // Within the units, nothing is asked.
    asking.structured("keywords_metrics", json!({"keyword": ["one"]}));
    asking.finish();
}
