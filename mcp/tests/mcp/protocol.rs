//! The protocol's edges: malformed params of any kind get -32602 with the
//! request's id, naming what is wrong; every -32601 says "Method not found:
//! NAME"; a cursor this server never gave is -32602; `ping` is answered
//! before `initialize`, and any other request then is told to initialize
//! first.

use serde_json::{Value, json};

use crate::support::{Mcp, options};

#[track_caller]
fn error(answer: &Value, code: i64) -> String {
    assert_eq!(answer["error"]["code"], code, "{answer}");
    answer["error"]["message"]
        .as_str()
        .expect("a message")
        .to_owned()
}

#[test]
fn malformed_tools_call_params_are_invalid_params() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp"]);
    let none = mcp.request("tools/call", Value::Null);
    let message = error(&none, -32602);
    assert!(
        message.contains("tools/call") && message.contains("no params"),
        "{message}"
    );
    let listed = mcp.request("tools/call", json!({"name": "usage", "arguments": [1]}));
    let message = error(&listed, -32602);
    assert!(
        message.contains("tools/call") && message.contains("[1]"),
        "{message}"
    );
    let nameless = mcp.request("tools/call", json!({"arguments": {}}));
    assert!(error(&nameless, -32602).contains("name"), "{nameless}");
    mcp.ping();
    mcp.finish();
}

/// Params that are not an object at all (an array, a number, a string) are
/// -32602 answered with the request's id, so that a client waiting on it
/// gets its answer.
#[test]
fn params_that_are_not_an_object_are_invalid_params_with_the_id() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp"]);
    for (method, params) in [
        ("tools/call", json!(["usage"])),
        ("tools/list", json!(7)),
        ("resources/read", json!("seozoom://costs")),
    ] {
        let id = mcp.send_request(method, params.clone());
        let answer = mcp.next_message();
        assert_eq!(answer["id"], id, "{method}: {answer}");
        let message = error(&answer, -32602);
        assert!(
            message.contains(method) && message.contains(&params.to_string()),
            "{message}"
        );
        mcp.ping();
    }
    mcp.finish();
}

#[test]
fn a_cursor_this_server_never_gave_is_invalid_params() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp"]);
    for method in ["tools/list", "resources/list", "resources/templates/list"] {
        let answer = mcp.request(method, json!({"cursor": "page-2"}));
        let message = error(&answer, -32602);
        assert!(
            message.contains(method) && message.contains("page-2"),
            "{message}"
        );
    }
    let whole = mcp.request("tools/list", json!({}));
    assert!(whole["result"]["nextCursor"].is_null(), "one page: {whole}");
    mcp.finish();
}

#[test]
fn every_method_not_found_names_the_method() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp"]);
    for method in [
        "foo/bar",
        "completion/complete",
        "resources/subscribe",
        "tasks/get",
    ] {
        let answer = mcp.request(method, json!({"ref": {}, "argument": {}, "uri": "x"}));
        assert_eq!(
            error(&answer, -32601),
            format!("Method not found: {method}"),
            "{answer}"
        );
    }
    mcp.finish();
}

#[test]
fn a_request_before_initialize_is_told_to_initialize() {
    let mut mcp = Mcp::serve(options(&["--sandbox", "mcp"]));
    let ping = mcp.request("ping", json!({}));
    assert_eq!(
        ping["result"],
        json!({}),
        "a ping is answered at any time: {ping}"
    );
    let early = mcp.request("tools/list", json!({}));
    let message = error(&early, -32600);
    assert!(
        message.contains("not initialized") && message.contains("`initialize` before `tools/list`"),
        "{message}"
    );
    // Initializing afterwards works.
    let init = mcp.request(
        "initialize",
        json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "late", "version": "0"},
        }),
    );
    assert_eq!(init["result"]["serverInfo"]["name"], "seozoom", "{init}");
    mcp.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    assert!(!mcp.tools().is_empty());
    mcp.finish();
}

/// `prompts/list` gives workflows with the budget in mind; `prompts/get`
/// fills one in with its arguments, and refuses a missing one or an unknown
/// prompt with -32602.
#[test]
fn prompts_encode_a_workflow_with_the_budget() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp"]);
    let listed = mcp.request("prompts/list", json!({}));
    let prompts = listed["result"]["prompts"].as_array().expect("prompts");
    let names: Vec<&str> = prompts.iter().filter_map(|p| p["name"].as_str()).collect();
    assert!(names.contains(&"keyword_research_for_domain"), "{listed}");
    let got = mcp.request(
        "prompts/get",
        json!({"name": "keyword_research_for_domain", "arguments": {"site": "example.it", "min_search_volume": "500", "budget": "2000"}}),
    );
    let text = got["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{got}"));
    for piece in [
        "example.it",
        "at least 500",
        "at most 2000 units",
        "`estimate`",
        "`fields`",
        "`more`",
        "`usage`",
    ] {
        assert!(text.contains(piece), "{piece:?} in: {text}");
    }
    let missing = mcp.request(
        "prompts/get",
        json!({"name": "keyword_research_for_domain", "arguments": {}}),
    );
    assert!(error(&missing, -32602).contains("`site`"), "{missing}");
    let unknown = mcp.request("prompts/get", json!({"name": "nope"}));
    assert!(error(&unknown, -32602).contains("nope"), "{unknown}");
    let bad = mcp.request("prompts/list", json!({"cursor": "x"}));
    error(&bad, -32602);
    mcp.finish();
}
