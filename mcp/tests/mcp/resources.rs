//! Resources: the cost table, the published spec and the
//! held results, read by a host without passing them through the model.

use seozoom::operations::OPERATIONS;
use serde_json::{Value, json};

use crate::support::Mcp;

/// The text of the one content of `resources/read` of `uri`.
#[track_caller]
fn read(mcp: &mut Mcp, uri: &str) -> String {
    let answer = mcp.request("resources/read", json!({"uri": uri}));
    let contents = answer["result"]["contents"]
        .as_array()
        .unwrap_or_else(|| panic!("{uri}: {answer}"));
    assert_eq!(contents.len(), 1, "{answer}");
    assert_eq!(contents[0]["uri"], uri, "{answer}");
    assert_eq!(contents[0]["mimeType"], "application/json", "{answer}");
    contents[0]["text"].as_str().expect("a text").to_owned()
}

fn uris(mcp: &mut Mcp) -> Vec<String> {
    let list = mcp.request("resources/list", json!({}));
    list["result"]["resources"]
        .as_array()
        .unwrap_or_else(|| panic!("{list}"))
        .iter()
        .map(|r| r["uri"].as_str().expect("a uri").to_owned())
        .collect()
}

#[test]
fn the_cost_table_and_the_spec_are_resources() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp"]);
    let listed = uris(&mut mcp);
    for uri in [
        "seozoom://costs",
        "seozoom://spec/seozoom-v2.json",
        "seozoom://spec/openapi.json",
    ] {
        assert!(listed.iter().any(|u| u == uri), "{uri} in {listed:?}");
    }
    let costs: Value = serde_json::from_str(&read(&mut mcp, "seozoom://costs")).unwrap();
    let entries = costs["operations"].as_array().expect("operations");
    assert_eq!(entries.len(), OPERATIONS.len());
    for op in OPERATIONS {
        let entry = entries
            .iter()
            .find(|e| e["operation"] == op.label().as_str())
            .unwrap_or_else(|| panic!("{}", op.label()));
        assert_eq!(
            entry["requests_per_minute"],
            op.cost.requests_per_minute.value
        );
        assert_eq!(entry["unknown"], op.cost.units.is_empty(), "{entry}");
    }
    let spec = read(&mut mcp, "seozoom://spec/seozoom-v2.json");
    let published = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/published/seozoom-v2.json"),
    )
    .unwrap();
    assert_eq!(spec, published);
    let missing = mcp.request("resources/read", json!({"uri": "seozoom://nothing"}));
    assert_eq!(missing["error"]["code"], -32002, "{missing}");
    mcp.finish();
}

#[test]
fn a_held_result_is_a_resource_read_whole() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp", "--max-result-rows", "10"]);
    let changes = |mcp: &Mcp| {
        mcp.received()
            .iter()
            .filter(|line| line.contains("notifications/resources/list_changed"))
            .count()
    };
    mcp.structured(
        "domains_keywords",
        json!({"domain": "example.it", "type": "best", "limit": 5}),
    );
    assert_eq!(changes(&mcp), 0, "nothing held, the list is the same");
    let answer = mcp.structured(
        "domains_keywords",
        json!({"domain": "example.it", "type": "best", "limit": 40}),
    );
    let id = answer["more"]["result"]
        .as_str()
        .expect("rows held")
        .to_owned();
    let uri = format!("seozoom://held/{id}");
    assert_eq!(changes(&mcp), 1, "a result held: the list changed");
    assert!(uris(&mut mcp).contains(&uri));
    let whole: Value = serde_json::from_str(&read(&mut mcp, &uri)).unwrap();
    assert_eq!(whole.as_array().map(Vec::len), Some(40), "{whole}");
    assert_eq!(
        whole.as_array().unwrap()[..10],
        answer["response"].as_array().unwrap()[..]
    );
    let gone = mcp.request("resources/read", json!({"uri": "seozoom://held/r999"}));
    assert_eq!(gone["error"]["code"], -32002, "{gone}");
    mcp.finish();
}
