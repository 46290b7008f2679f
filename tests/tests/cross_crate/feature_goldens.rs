//! The generator's per-feature goldens (`codegen/tests/features/*.rs`),
//! compiled against the real runtime, as typify compiles its goldens: each is
//! generated for a crate other than `seozoom` (`Options::external`), included
//! here as a module, and used, so a golden that does not compile or does not
//! work fails here.

#[allow(dead_code)] // the whole generated API; the tests use part of it
mod open_enum {
    include!("../../../codegen/tests/features/open_enum.rs");
}

#[allow(dead_code)] // the whole generated API; the tests use part of it
mod list_param {
    include!("../../../codegen/tests/features/list_param.rs");
}

#[allow(dead_code)] // the whole generated API; the tests use part of it
mod serp_map {
    include!("../../../codegen/tests/features/serp_map.rs");
}

#[allow(dead_code)] // the whole generated API; the tests use part of it
mod paged {
    include!("../../../codegen/tests/features/paged.rs");
}

#[allow(dead_code)] // the whole generated API; the tests use part of it
mod history {
    include!("../../../codegen/tests/features/history.rs");
}

use std::time::Duration;

use seozoom::Client;
use seozoom::operation_table::{Fresh, Role, Shape};

fn client() -> Client {
    Client::new("test-key").expect("a client with a key builds")
}

const BODY_OK: u16 = 200;

#[test]
fn an_open_enum_keeps_a_value_it_does_not_list() {
    use open_enum::types::{Intent, Thing};
    let thing: Thing = serde_json::from_str(r#"{"name":"a","intents":"informational,curious"}"#)
        .expect("the record decodes");
    assert_eq!(
        thing.intents,
        vec![Intent::Informational, Intent::Other("curious".into())]
    );
    // The dispatch decodes the operation's body and writes it back as JSON.
    let body = br#"{"ResultRows":1,"UnitsUsed":10,"UnitsRemaining":5,"response":[{"name":"a","intents":"curious"}]}"#;
    let op = &open_enum::operations::THINGS_INTENTS;
    let envelope = open_enum::operations::decode_json(op, BODY_OK, body).expect("decodes");
    assert_eq!(envelope.response[0]["intents"], "curious");
}

#[test]
fn a_list_parameter_takes_any_iterator_and_batches() {
    use list_param::builder::ClientExt;
    let request = client().things().metrics(["a", "b"]).request();
    assert_eq!(
        request.get("name"),
        Some(&["a".to_owned(), "b".to_owned()][..])
    );
    let param = request
        .operation()
        .batch_param()
        .expect("a batch parameter");
    assert!(param.list);
    assert_eq!(param.max_items.map(|l| l.value), Some(100));
    let many: Vec<String> = (0..250).map(|i| format!("thing{i}")).collect();
    let batches = client().things().metrics(many).request().batches();
    assert_eq!(batches.len(), 3);
}

#[test]
fn a_serp_map_decodes_by_key_in_position_order() {
    let op = &serp_map::operations::THINGS_SERP;
    assert_eq!(op.response.shape, Shape::Map { key: "keyword" });
    let body = br#"{"ResultRows":1,"UnitsUsed":100,"UnitsRemaining":5,"response":{"k":{"2":"https://b.test/?a=1&amp;b=2","1":"https://a.test/"}}}"#;
    let envelope = serp_map::operations::decode_json(op, BODY_OK, body).expect("decodes");
    assert_eq!(
        envelope.response["k"],
        serde_json::json!({"1": "https://a.test/", "2": "https://b.test/?a=1&b=2"})
    );
}

#[test]
fn a_paged_operation_plans_its_pages_and_checks_its_rule() {
    use paged::builder::ClientExt;
    use paged::types::Kind;
    let request = client().things().rows("x", Kind::All, 10).request();
    let op = request.operation();
    assert_eq!(op.param_with(Role::Offset).map(|p| p.wire), Some("offset"));
    let pages: Vec<(String, String)> = request
        .pages(10, 25)
        .expect("a paged job")
        .map(|page| {
            let one = |wire| page.get(wire).expect("set")[0].clone();
            (one("offset"), one("limit"))
        })
        .collect();
    let expected = [("0", "10"), ("10", "10"), ("20", "5")];
    assert_eq!(
        pages,
        expected.map(|(o, l)| (o.to_owned(), l.to_owned())).to_vec()
    );
    // `bypage` requires `page`: refused before anything is sent.
    let refused = client().estimate(&client().things().rows("x", Kind::ByPage, 10).request());
    assert!(refused.expect_err("the rule refuses it").is_refused());
}

#[test]
fn a_history_operation_keeps_a_past_day_for_good() {
    let op = &history::operations::THINGS_HISTORY;
    // The request as wire text, so that the test names no date type.
    let fresh = |date: &str| {
        let mut request = seozoom::request::Request::new(op, None);
        request.set("name", vec!["x".to_owned()]);
        request.set("date", vec![date.to_owned()]);
        let query = request
            .validate(&history::operations::SERVICE, "it")
            .expect("valid");
        op.fresh_for(&query, "2026-11-23")
    };
    assert_eq!(fresh("2026-11-22"), Fresh::ForGood);
    assert_eq!(fresh("2026-11-23"), Fresh::For(Duration::from_secs(86_400)));
    // Live data keeps its TTL whatever the day.
    let live = &list_param::operations::THINGS_METRICS;
    assert_eq!(live.freshness.past_days, None);
    assert_eq!(live.freshness.ttl, Duration::from_secs(86_400));
}
