//! Bodies the spec does not describe exactly, over real HTTP on loopback: a
//! paid answer is never lost to its shape. A metric `null`, missing or of
//! another JSON type leaves its field empty; a member the spec does not know
//! is kept; a row without what names it is kept raw beside the typed rows; a
//! body that cannot be decoded at all fails, is kept in the store, and is the
//! answer of the same call once a decoder reads it.

use crate::support;

use seozoom::__private::{Decoder, decode_typed};
use seozoom::error::{Charge, ErrorKind};
use seozoom::job::{InputOrder, Merge, Output, RunOptions};
use seozoom::operation_table::Operation;
use seozoom::store::Store;
use seozoom::types::{DateTime, KeywordMetrics};
use serde_json::{Value, json};
use support::Server;

/// One keyword-metrics row with `KD` written `kd` (`None`: left out).
fn keyword_metrics_body(kd: Option<&str>) -> String {
    let kd = kd.map(|v| format!(r#""KD":{v},"#)).unwrap_or_default();
    format!(
        r#"{{"ResultRows":1,"UnitsUsed":10,"UnitsRemaining":48700,"response":[
        {{"keyword":"mutuo","lang":"it","google_ext":".it","localcode":"","search_volume":90500,
         "ppc_competitiveness":1,"cpcapprox":4.37,"indexed_pages":21000000,{kd}"KO":12,
         "jan":1,"feb":1,"mar":1,"apr":1,"may":1,"jun":1,"jul":1,"aug":1,"sep":1,"oct":1,"nov":1,"dec":1,
         "search_intent":"informational"}}]}}"#
    )
}

#[tokio::test]
async fn a_metric_null_missing_or_of_another_type_leaves_its_field_empty() {
    for kd in [
        Some(r#""hard""#),
        None,
        Some("null"),
        Some("35.5"),
        Some("[1]"),
    ] {
        let server = Server::json(keyword_metrics_body(kd)).await;
        let answer = server
            .client()
            .keywords()
            .metrics(["mutuo"])
            .send()
            .await
            .unwrap_or_else(|e| panic!("KD = {kd:?}: {e}"));
        assert_eq!(answer.units_used, 10);
        assert!(answer.raw_rows.is_empty());
        let row = &answer.response[0];
        assert_eq!(row.keyword, "mutuo");
        assert_eq!(row.keyword_difficulty, None, "KD = {kd:?}");
        assert_eq!(
            row.keyword_opportunity,
            Some(12),
            "the rest of the row is read"
        );
    }
}

#[tokio::test]
async fn a_number_sent_as_a_string_is_read() {
    let server = Server::json(keyword_metrics_body(Some(r#"" 41 ""#))).await;
    let answer = server.client().keywords().metrics(["mutuo"]).send().await;
    assert_eq!(answer.unwrap().response[0].keyword_difficulty, Some(41));
}

#[tokio::test]
async fn a_date_that_is_not_a_day_leaves_its_field_empty() {
    let server = Server::json(
        r#"{"ResultRows":1,"UnitsUsed":100,"UnitsRemaining":49900,"response":[
        {"project_id":1,"is_live":1,"creation_date":"2023-02-29 09:12:00","project_last_update":"2024-03-04",
         "project_last_update_time":"24:00:00","project_name":"Shop","tags":"","url":"https:\/\/a.it\/",
         "category":null,"ZA":1,"keywords_up":0,"keywords_down":0,"keywords_stable":0,
         "monitored_keywords":0,"avg_search_volume_last_week":0,"avg_search_volume_last_month":0,
         "volume_attuale":0,"monthly_trend":0,"weekly_trend":0}]}"#,
    )
    .await;
    let answer = server.client().projects().list().send().await.unwrap();
    let project = &answer.response[0];
    assert_eq!(project.creation_date, None::<DateTime>);
    assert_eq!(project.project_last_update_time, None);
    assert_eq!(
        project
            .project_last_update
            .map(|d| d.to_string())
            .as_deref(),
        Some("2024-03-04")
    );
}

#[tokio::test]
async fn members_the_spec_does_not_know_are_kept_and_written_back() {
    let body = keyword_metrics_body(Some("35")).replace(
        r#""KO":12,"#,
        r#""KO":12,"brand_new_metric":7.5,"tags":["a","b"],"#,
    );
    let server = Server::json(body).await;
    let answer = server.client().keywords().metrics(["mutuo"]).send().await;
    let row = &answer.unwrap().response[0];
    let unknown = row.unknown_members();
    assert_eq!(unknown.len(), 2);
    assert_eq!(unknown.get("brand_new_metric"), Some(&json!(7.5)));
    assert_eq!(unknown.get("tags"), Some(&json!(["a", "b"])));
    let written = serde_json::to_value(row).unwrap();
    assert_eq!(written["brand_new_metric"], json!(7.5));
    assert_eq!(written["KD"], json!(35));
    // A row without any costs nothing and writes none.
    let plain = Server::json(keyword_metrics_body(Some("35"))).await;
    let answer = plain.client().keywords().metrics(["mutuo"]).send().await;
    assert!(answer.unwrap().response[0].unknown_members().is_empty());
}

#[tokio::test]
async fn a_row_without_what_names_it_is_kept_raw_beside_the_typed_rows() {
    let row = |keyword: &str| {
        format!(
            r#"{{{keyword}"lang":"it","google_ext":".it","localcode":"","search_volume":1,"search_intent":""}}"#
        )
    };
    let body = format!(
        r#"{{"ResultRows":4,"UnitsUsed":40,"UnitsRemaining":900,"response":[{},{},{},{}]}}"#,
        row(r#""keyword":"a","#),
        row(""),
        row(r#""keyword":null,"#),
        row(r#""keyword":"d","#),
    );
    let server = Server::json(body).await;
    let answer = server
        .client()
        .keywords()
        .metrics(["a", "b", "c", "d"])
        .send()
        .await
        .expect("rows that cannot be typed do not fail the call");
    assert_eq!((answer.result_rows, answer.units_used), (4, 40));
    let typed: Vec<&str> = answer.response.iter().map(|r| r.keyword.as_str()).collect();
    assert_eq!(typed, ["a", "d"]);
    let raw: Vec<(usize, &str)> = answer
        .raw_rows
        .iter()
        .map(|r| (r.index, r.error.as_str()))
        .collect();
    assert_eq!(raw.len(), 2);
    assert_eq!(raw[0].0, 1);
    assert!(raw[0].1.contains("missing field `keyword`"), "{}", raw[0].1);
    assert_eq!(raw[1].0, 2);
    assert!(raw[1].1.contains("`keyword` is null"), "{}", raw[1].1);
    assert_eq!(answer.raw_rows[0].row["search_volume"], json!(1));
    assert!(answer.raw_rows[0].row.get("keyword").is_none());
}

#[tokio::test]
async fn a_body_that_cannot_be_decoded_is_kept_and_is_the_answer_once_it_decodes() {
    let body =
        r#"{"ResultRows":1,"UnitsUsed":10,"UnitsRemaining":90,"response":"mutuo: 1 keyword"}"#;
    let server = Server::json(body).await;
    let client = server.builder().store(Store::memory()).build().unwrap();
    let request = client.keywords().metrics(["mutuo"]).request();

    // Today's client: an array is expected, a string came.
    let error = client
        .run::<Vec<KeywordMetrics>>(request.clone(), RunOptions::one_request())
        .await
        .unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::Decode { .. }),
        "{error:?}"
    );
    assert_eq!(error.charged(), Charge::Units(10));
    assert_eq!(
        error.answer(),
        Some(body.as_bytes()),
        "the error hands the body back"
    );
    assert_eq!(server.requests(), 1);

    // A client whose decoder reads that shape (the spec fixed, the client
    // rebuilt) gets the same answer from the store, sending nothing.
    let later = client
        .run::<AnyShape>(request, RunOptions::one_request())
        .await
        .expect("the kept answer decodes now")
        .envelope;
    assert_eq!(server.requests(), 1, "nothing was sent");
    assert_eq!(later.units_used, 0);
    assert!(later.fetched_at.is_some());
    assert_eq!(later.response.0, "mutuo: 1 keyword");
    let usage = client.usage(0).await.unwrap();
    assert_eq!(
        (usage[0].calls, usage[0].cache_hits, usage[0].units_saved),
        (1, 1, 10)
    );
}

#[tokio::test]
async fn a_body_that_is_not_json_is_not_kept() {
    let server =
        Server::json(r#"{"ResultRows":1,"UnitsUsed":10,"UnitsRemaining":90,"response":[{"#).await;
    let client = server.builder().store(Store::memory()).build().unwrap();
    for _ in 0..2 {
        let error = client
            .keywords()
            .metrics(["mutuo"])
            .send()
            .await
            .unwrap_err();
        assert!(
            matches!(error.kind(), ErrorKind::Decode { .. }),
            "{error:?}"
        );
    }
    assert_eq!(server.requests(), 2, "a body cut short is asked again");
}

/// What an answer held that the spec does not say is recorded in the store
/// per origin and operation, summed over calls; a call that saw nothing new
/// records nothing.
#[tokio::test]
async fn drift_is_recorded_per_origin_and_operation_and_summed() {
    use seozoom::drift::{DriftKind, JsonType};

    let plain = Server::json(keyword_metrics_body(Some("35"))).await;
    let store = Store::memory();
    let client = plain.builder().store(store.clone()).build().unwrap();
    client.keywords().metrics(["mutuo"]).send().await.unwrap();
    assert!(
        client.drift().await.unwrap().is_empty(),
        "nothing new, nothing written"
    );

    let body = keyword_metrics_body(Some(r#""41""#))
        .replace(r#""KO":12,"#, r#""KO":12,"brand_new_metric":7.5,"#)
        .replace(
            r#""search_intent":"informational""#,
            r#""search_intent":"informational,commercial""#,
        )
        .replace(r#""UnitsUsed":10"#, r#""UnitsUsed":25"#);
    let drifting = Server::json(body).await;
    let client = drifting.builder().store(store.clone()).build().unwrap();
    for keyword in ["mutuo", "casa"] {
        client.keywords().metrics([keyword]).send().await.unwrap();
    }
    let report = client.drift().await.unwrap();
    assert_eq!(
        report.origin(),
        format!(
            "http://{}",
            drifting.base_url().trim_start_matches("http://")
        )
    );
    let seen: Vec<(&str, DriftKind, i64, i64)> = report
        .observations()
        .iter()
        .map(|o| (o.member.as_str(), o.kind, o.count, o.rows))
        .collect();
    assert_eq!(
        seen,
        [
            ("", DriftKind::Charge, 2, 2),
            ("KD", DriftKind::UnexpectedType, 2, 2),
            ("brand_new_metric", DriftKind::UnknownMember, 2, 2),
            ("search_intent", DriftKind::UnlistedValue, 2, 2),
        ],
        "{:#?}",
        report.observations()
    );
    let new = &report.observations()[2];
    assert_eq!(
        (new.group.as_str(), new.action.as_str(), new.record.as_str()),
        ("keywords", "metrics", "keyword_metrics")
    );
    assert_eq!(new.example, "7.5");
    assert!(new.types.contains(JsonType::Number));
    assert!(new.first_ms <= new.last_ms);
    assert_eq!(
        report.observations()[0].example,
        "25 units for 1 rows; the spec: 10 a row"
    );
    assert_eq!(report.observations()[3].example, "\"commercial\"");
    // The first origin's report is its own.
    let other = plain.builder().store(store).build().unwrap();
    assert!(other.drift().await.unwrap().is_empty());

    let patch = report.patch();
    assert!(
        patch.contains("[[records]]\nname = \"keyword_metrics\""),
        "{patch}"
    );
    assert!(patch.contains("{ wire = \"brand_new_metric\", type = \"number\", presence = { source = \"observed\", note = \"seen 2 time(s) in 2 row(s) (keywords metrics)"), "{patch}");
    assert!(
        patch.contains("[[enums]]\nname = \"search_intent\""),
        "{patch}"
    );
    assert!(
        patch.contains("{ wire = \"commercial\", rust = \"Commercial\""),
        "{patch}"
    );
    assert!(
        patch.contains("# - record `keyword_metrics`: `KD` held a value of another JSON type"),
        "{patch}"
    );
    assert!(patch.contains("# - a charge that differs"), "{patch}");
}

/// A result that reads whatever JSON the service sent: what a client built
/// from a spec that knows the shape decodes.
#[derive(Debug)]
struct AnyShape(Value);

impl Merge for AnyShape {
    fn merge(parts: Vec<Self>, _: &InputOrder) -> Self {
        parts.into_iter().next().unwrap_or(AnyShape(Value::Null))
    }
}

impl Output for AnyShape {
    type Answer = Value;

    fn from_answer(answer: Value) -> Self {
        AnyShape(answer)
    }

    fn nothing(_: &Operation) -> Self {
        AnyShape(Value::Null)
    }

    fn rows(&self) -> usize {
        1
    }

    fn truncate(&mut self, _: usize) {}

    fn decoder() -> Decoder<Value> {
        decode_typed::<Value>
    }
}
