//! A value of another type than its field's, over real HTTP on loopback,
//! through a store: the typed field is empty, the value is kept with the row
//! as sent (its unknown members) and written back in its place, the charge is
//! in the ledger, and the same call again sends nothing.

use crate::support;

use seozoom::job::RunOptions;
use seozoom::store::Store;
use serde_json::{Value, json};
use support::Server;

/// The competitors of `example.it`: `competitor` as sent.
fn competitors_body(competitor: &str) -> String {
    format!(
        r#"{{"ResultRows":1,"UnitsUsed":60,"UnitsRemaining":900,"response":[
        {{"domain":"example.it","competitor":{competitor}}}]}}"#
    )
}

#[tokio::test]
async fn a_value_of_another_type_is_kept_as_sent_and_written_in_its_place() {
    let sent = r#"[{"domain":"rivale.it","za":55.5,"1a3":"1.234","4a6":"14800","7a10":"12.0"}]"#;
    let server = Server::json(competitors_body(sent)).await;
    let client = server.builder().store(Store::memory()).build().unwrap();
    for _ in 0..2 {
        let answer = client
            .domains()
            .competitors(["example.it"], 1)
            .send()
            .await
            .unwrap();
        let c = &answer.response[0].competitors[0];
        assert_eq!((c.za, c.positions_1_to_3), (None, None));
        assert_eq!(
            (c.positions_4_to_6, c.positions_7_to_10),
            (Some(14800), Some(12)),
            "a numeric string that reads exactly as the number fills the field"
        );
        assert_eq!(c.unknown_members().get("za"), Some(&json!(55.5)));
        assert_eq!(c.unknown_members().get("1a3"), Some(&json!("1.234")));
        let written = serde_json::to_value(c).unwrap();
        assert_eq!(
            (&written["za"], &written["1a3"], &written["4a6"]),
            (&json!(55.5), &json!("1.234"), &json!(14800))
        );
    }
    assert_eq!(
        server.requests(),
        1,
        "the second call was answered by the store"
    );
    let usage = client.usage(0).await.unwrap();
    assert_eq!((usage[0].units_used, usage[0].units_saved), (60, 60));
}

#[tokio::test]
async fn a_nested_list_sent_as_an_object_is_kept_as_sent() {
    let sent = r#"{"domain":"odd.it","za":12}"#;
    let server = Server::json(competitors_body(sent)).await;
    let client = server.builder().store(Store::memory()).build().unwrap();
    let answer = client
        .domains()
        .competitors(["example.it"], 1)
        .send()
        .await
        .unwrap();
    let row = &answer.response[0];
    assert!(row.competitors.is_empty());
    let kept = row.unknown_members().get("competitor");
    assert_eq!(kept, Some(&json!({"domain": "odd.it", "za": 12})));
    let written: Value = serde_json::to_value(row).unwrap();
    assert_eq!(written["competitor"], json!({"domain": "odd.it", "za": 12}));
    let request = client.domains().competitors(["example.it"], 1).request();
    let json = client
        .run::<Value>(request, RunOptions::one_request())
        .await
        .unwrap()
        .envelope;
    assert_eq!(server.requests(), 1);
    assert_eq!(json.response[0]["competitor"]["domain"], "odd.it");
}
