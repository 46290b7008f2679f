//! The protocol's edges (issue 33, item 5): malformed `tools/call` params
//! get -32602 naming what is wrong, every -32601 says "Method not found:
//! NAME", and a request before `initialize` is told to initialize first.

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

#[test]
fn every_method_not_found_names_the_method() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp"]);
    for method in ["foo/bar", "completion/complete", "resources/subscribe"] {
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
