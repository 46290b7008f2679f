//! The MCP server against a loopback server of this test's own that drifts
//! from the spec (the envelope's figures, members it does not know, its
//! `response` sent keyed, values of another type, rows kept raw): each call
//! gives its rows as sent in `structuredContent`, says in its text how many
//! rows were kept raw, and the same call again is answered from the store,
//! sending nothing.

use seozoom_test_support::Server;
use serde_json::{Value, json};

use crate::support::Mcp;

/// A keyword-metrics row named `keyword`, `extra` members after its name.
fn row(keyword: &str, extra: &str) -> String {
    format!(
        r#"{{"keyword":"{keyword}",{extra}"lang":"it","google_ext":".it","localcode":"","search_volume":10,"search_intent":""}}"#
    )
}

/// A server answering `body`, a session on a store of its own, and the
/// structured content of `keywords_metrics` for mutuo and casa, called twice.
fn twice(name: &str, body: String) -> (Value, String) {
    let server = Server::json(body);
    let dir = std::env::temp_dir().join(format!("seozoom-mcp-drift-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let store = format!("sqlite:{}", dir.join("store.sqlite3").display());
    let url = server.base_url();
    let mut mcp = Mcp::start(&["--base-url", &url, "--store", &store, "mcp"]);
    let arguments = json!({"keyword": ["mutuo", "casa"]});
    let first = mcp.call("keywords_metrics", arguments.clone());
    assert_ne!(first["isError"], true, "{first}");
    let second = mcp.call("keywords_metrics", arguments);
    assert_eq!(server.seen().len(), 1, "sent again: {second}");
    let (one, two) = (&first["structuredContent"], &second["structuredContent"]);
    assert_eq!(
        one["response"], two["response"],
        "the same rows from the store"
    );
    mcp.finish();
    let _ = std::fs::remove_dir_all(&dir);
    let text = first["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    (one.clone(), text)
}

fn keywords(content: &Value) -> Vec<Value> {
    let rows = content["response"]
        .as_array()
        .unwrap_or_else(|| panic!("{content}"));
    rows.iter().map(|r| r["keyword"].clone()).collect()
}

#[test]
fn a_drifting_envelope_gives_its_rows_and_its_extras_once() {
    let rows = format!("[{},{}]", row("mutuo", ""), row("casa", ""));
    let body = format!(
        r#"{{"ResultRows":"2","Warnings":["url 2 normalised"],"UnitsUsed":"20","response":{rows}}}"#
    );
    let (content, text) = twice("envelope", body);
    assert_eq!(keywords(&content), [json!("mutuo"), json!("casa")]);
    assert_eq!(content["UnitsUsed"], 20, "{content}");
    assert_eq!(content["UnitsRemaining"], Value::Null, "{content}");
    assert_eq!(
        content["Warnings"],
        json!(["url 2 normalised"]),
        "{content}"
    );
    assert!(text.contains("This call was charged 20 units"), "{text}");
}

#[test]
fn a_keyed_response_and_values_of_another_type_are_given_as_sent() {
    let body = format!(
        r#"{{"ResultRows":2,"UnitsUsed":20,"UnitsRemaining":900,"response":{{"mutuo":{},"casa":{}}}}}"#,
        row("mutuo", r#""KD":55.5,"#),
        row("casa", r#""KD":"n/a","#)
    );
    let (content, _) = twice("values", body);
    assert_eq!(keywords(&content), [json!("mutuo"), json!("casa")]);
    assert_eq!(content["response"][0]["KD"], json!(55.5), "{content}");
    assert_eq!(content["response"][1]["KD"], json!("n/a"), "{content}");
}

#[test]
fn the_text_counts_the_rows_kept_raw() {
    let body = format!(
        r#"{{"ResultRows":2,"UnitsUsed":20,"UnitsRemaining":900,"response":[{},"temporarily unavailable"]}}"#,
        row("mutuo", "")
    );
    let (content, text) = twice("raw", body);
    assert_eq!(
        content["raw_rows"][0]["row"], "temporarily unavailable",
        "{content}"
    );
    assert!(text.contains("1 row more kept raw"), "{text}");
}
