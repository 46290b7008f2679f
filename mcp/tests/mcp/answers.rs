//! Answers sized for an agent's context window: `fields`,
//! `content` a summary and a compact table rather than a copy of the
//! structured content, fewer rows shown by default, and a `resource_link` to
//! what is held.

use serde_json::{Value, json};

use crate::support::Mcp;

/// The 100-row call the sizes are measured on.
fn hundred_rows() -> Value {
    json!({"domain": "example.it", "type": "best", "limit": 100})
}

/// The bytes of a tool result's two members as sent: `structuredContent` and
/// `content`.
fn answer_bytes(result: &Value) -> usize {
    result["structuredContent"].to_string().len() + result["content"].to_string().len()
}

/// The whole answer, the baseline: every row of the 100 in
/// `structuredContent`, and the same JSON again as the one text of
/// `content`. The structured content has the same shape, so it is made
/// here from a server whose cap shows all 100 rows, and counted twice.
/// (A server that answered so, the binary of commit 20faf50, sent
/// `structuredContent` 47,734 bytes and `content` 54,383 for the same
/// sandbox call over stdio, 102,117 together; this reconstruction gives the
/// same 102,117.)
fn former_bytes() -> usize {
    let mut whole = Mcp::start(&["--sandbox", "mcp", "--max-result-rows", "100"]);
    let result = whole.call("domains_keywords", hundred_rows());
    let structured = result["structuredContent"].to_string();
    assert_eq!(
        result["structuredContent"]["rows"]["returned"], 100,
        "{result}"
    );
    whole.finish();
    let text_block = json!([{"type": "text", "text": structured}]).to_string();
    structured.len() + text_block.len()
}

#[test]
fn a_default_answer_is_a_quarter_of_the_former_and_two_fields_a_tenth() {
    let former = former_bytes();
    let mut mcp = Mcp::start(&["--sandbox", "mcp"]);
    let default = mcp.call("domains_keywords", hundred_rows());
    assert_eq!(default["structuredContent"]["ResultRows"], 100, "{default}");
    let default_bytes = answer_bytes(&default);
    let mut two = hundred_rows();
    two["fields"] = json!(["keyword", "ranking_position"]);
    let narrow = mcp.call("domains_keywords", two);
    let narrow_bytes = answer_bytes(&narrow);
    eprintln!(
        "domains_keywords, 100 rows: whole {former} bytes; default {default_bytes} ({:.1}%); two fields {narrow_bytes} ({:.1}%)",
        100.0 * default_bytes as f64 / former as f64,
        100.0 * narrow_bytes as f64 / former as f64,
    );
    assert!(
        default_bytes * 4 <= former,
        "default {default_bytes} of {former}"
    );
    assert!(
        narrow_bytes * 10 <= former,
        "two fields {narrow_bytes} of {former}"
    );
    mcp.finish();
}

#[test]
fn fields_cut_every_row_shown_and_held_and_a_wrong_name_is_refused() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp", "--max-result-rows", "10"]);
    let mut args = hundred_rows();
    args["limit"] = json!(30);
    args["fields"] = json!(["ranking_position", "keyword"]);
    let answer = mcp.structured("domains_keywords", args.clone());
    let rows = answer["response"].as_array().expect("rows");
    assert_eq!(rows.len(), 10);
    for row in rows {
        let names: Vec<&str> = row
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(names, ["ranking_position", "keyword"], "{row}");
    }
    let held = answer["more"]["result"].as_str().expect("held").to_owned();
    let rest = mcp.structured("more", json!({"result": held, "start": 10}));
    for row in rest["response"].as_array().expect("rows") {
        assert_eq!(row.as_object().unwrap().len(), 2, "{row}");
    }
    // The text: the summary, then the table's header in the order asked.
    let result = mcp.call("domains_keywords", args);
    let text = result["content"][0]["text"].as_str().expect("a text");
    let mut lines = text.lines();
    let summary = lines.next().unwrap();
    assert!(
        summary.starts_with("domains_keywords: 30 rows (1-10 shown)."),
        "{summary}"
    );
    assert_eq!(lines.next(), Some("ranking_position\tkeyword"), "{text}");
    assert_eq!(lines.count(), 10, "{text}");

    let mut wrong = hundred_rows();
    wrong["fields"] = json!(["keyword", "volumee"]);
    let refused = mcp.error("domains_keywords", wrong);
    assert!(
        refused.contains("`fields`") && refused.contains("volumee") && refused.contains("keyword"),
        "{refused}"
    );
    mcp.finish();
}

#[test]
fn an_answer_with_held_rows_links_the_resource_and_says_so_in_its_summary() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp", "--max-result-rows", "5"]);
    let result = mcp.call(
        "domains_keywords",
        json!({"domain": "example.it", "type": "best", "limit": 12}),
    );
    let id = result["structuredContent"]["more"]["result"]
        .as_str()
        .expect("held");
    let content = result["content"].as_array().expect("content");
    let link = content
        .iter()
        .find(|block| block["type"] == "resource_link")
        .unwrap_or_else(|| panic!("no resource_link: {result}"));
    assert_eq!(link["uri"], format!("seozoom://held/{id}"), "{link}");
    let summary = content[0]["text"].as_str().expect("a text");
    assert!(
        summary.contains("charged ") && summary.contains("7 more held"),
        "{summary}"
    );
    let read = mcp.request("resources/read", json!({"uri": link["uri"]}));
    let whole: Value = serde_json::from_str(
        read["result"]["contents"][0]["text"]
            .as_str()
            .expect("a text"),
    )
    .unwrap();
    assert_eq!(whole.as_array().map(Vec::len), Some(12));
    // Nothing held: no link.
    let small = mcp.call(
        "domains_keywords",
        json!({"domain": "example.it", "type": "best", "limit": 3}),
    );
    assert!(
        small["content"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["type"] == "text"),
        "{small}"
    );
    assert!(
        small["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("domains_keywords: 3 rows."),
        "{small}"
    );
    mcp.finish();
}
