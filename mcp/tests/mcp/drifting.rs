//! The MCP server against a loopback server of this test's own that drifts
//! from the spec (the envelope's figures, members it does not know, its
//! `response` sent keyed, values of another type, rows kept raw): each call
//! gives its rows as sent in `structuredContent`, says in its text how many
//! rows were kept raw, and the same call again is answered from the store,
//! sending nothing; a member the spec does not know is a column `fields`
//! takes.

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

/// A row member the spec does not know is a column of the text and a name
/// `fields` takes; a name no row carries is refused after the answer, which
/// is held whole, naming the tool, the value and the names there are.
#[test]
fn fields_take_a_member_the_spec_does_not_know() {
    let body = format!(
        r#"{{"ResultRows":2,"UnitsUsed":20,"UnitsRemaining":900,"response":[{},{}]}}"#,
        row("mutuo", r#""drift_metric":0.5,"#),
        row("casa", "")
    );
    let server = Server::json(body);
    let url = server.base_url();
    let mut mcp = Mcp::start(&["--base-url", &url, "mcp"]);
    let whole = mcp.call("keywords_metrics", json!({"keyword": ["mutuo", "casa"]}));
    let text = whole["content"][0]["text"].as_str().unwrap_or_default();
    let header = text.lines().nth(1).unwrap_or_default();
    assert!(header.split('\t').any(|c| c == "drift_metric"), "{text}");

    let asked = json!({"keyword": ["mutuo", "casa"], "fields": ["drift_metric", "keyword"]});
    let cut = mcp.call("keywords_metrics", asked);
    assert_ne!(cut["isError"], true, "{cut}");
    assert_eq!(
        cut["structuredContent"]["response"],
        json!([{"drift_metric": 0.5, "keyword": "mutuo"}, {"keyword": "casa"}]),
        "{cut}"
    );
    let text = cut["content"][0]["text"].as_str().unwrap_or_default();
    assert_eq!(text.lines().nth(1), Some("drift_metric\tkeyword"), "{text}");
    assert_eq!(text.lines().nth(2), Some("0.5\tmutuo"), "{text}");

    let typo = json!({"keyword": ["mutuo", "casa"], "fields": ["keyword", "drift_metrik"]});
    let refused = mcp.call("keywords_metrics", typo);
    assert_eq!(refused["isError"], true, "{refused}");
    let text = refused["content"][0]["text"].as_str().unwrap_or_default();
    for named in [
        "`fields`",
        "drift_metrik",
        "`keywords_metrics`",
        "search_volume",
    ] {
        assert!(text.contains(named), "{named}: {text}");
    }
    assert!(
        text.contains("members the spec does not know: drift_metric"),
        "{text}"
    );
    assert!(text.contains("charged 20 units"), "{text}");
    let id = text
        .split('`')
        .find(|part| part.starts_with('r') && part.contains('-'))
        .unwrap_or_else(|| panic!("a held result's id: {text}"));
    let held = mcp.structured("more", json!({"result": id}));
    assert_eq!(held["response"][0]["drift_metric"], 0.5, "{held}");
    assert_eq!(held["response"][1]["search_volume"], 10, "{held}");
    assert_eq!(
        server.seen().len(),
        3,
        "each call sent once, `more` nothing"
    );
    mcp.finish();
}
