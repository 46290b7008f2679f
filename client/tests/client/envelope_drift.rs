//! An envelope that drifts from the spec, over real HTTP on loopback, through
//! a store: the rows are delivered, the charge is in the ledger (unknown when
//! the answer does not say it), the drift is recorded, and the same call
//! again is answered from the store, sending nothing.

use crate::support;

use seozoom::drift::DriftKind;
use seozoom::store::Store;
use serde_json::json;
use support::Server;

/// A keyword-metrics row named `keyword`.
fn row(keyword: &str) -> String {
    format!(
        r#"{{"keyword":"{keyword}","lang":"it","google_ext":".it","localcode":"","search_volume":10,"search_intent":""}}"#
    )
}

/// An answer for `mutuo` and `casa` with `figures` before its `response`.
fn body(figures: &str, response: &str) -> String {
    format!(r#"{{{figures}"response":{response}}}"#)
}

/// A drifting envelope: the body, the rows it must give, the ledger's units
/// and calls' charge (`None`: unknown), the balance reported, and the drift
/// it must record (member, kind).
struct Case {
    body: String,
    rows: &'static [&'static str],
    charged: Option<i64>,
    balance: Option<i64>,
    drift: &'static [(&'static str, DriftKind)],
}

fn cases() -> Vec<Case> {
    let rows = format!("[{},{}]", row("mutuo"), row("casa"));
    let by_key = format!(r#"{{"mutuo":{},"casa":{}}}"#, row("mutuo"), row("casa"));
    let both: &[&str] = &["mutuo", "casa"];
    vec![
        Case {
            body: body(
                r#""ResultRows":"2","UnitsUsed":20,"UnitsRemaining":900,"#,
                &rows,
            ),
            rows: both,
            charged: Some(20),
            balance: Some(900),
            drift: &[("ResultRows", DriftKind::UnexpectedType)],
        },
        Case {
            body: body(
                r#""ResultRows":2,"UnitsUsed":"20","UnitsRemaining":900.0,"#,
                &rows,
            ),
            rows: both,
            charged: Some(20),
            balance: Some(900),
            drift: &[("UnitsUsed", DriftKind::UnexpectedType)],
        },
        Case {
            body: body(r#""ResultRows":2,"UnitsUsed":20,"#, &rows),
            rows: both,
            charged: Some(20),
            balance: None,
            drift: &[("UnitsRemaining", DriftKind::Missing)],
        },
        Case {
            body: body(
                r#""ResultRows":2,"UnitsUsed":20,"UnitsRemaining":null,"#,
                &rows,
            ),
            rows: both,
            charged: Some(20),
            balance: None,
            drift: &[("UnitsRemaining", DriftKind::Null)],
        },
        Case {
            body: body(r#""UnitsUsed":20,"UnitsRemaining":900,"#, &rows),
            rows: both,
            charged: Some(20),
            balance: Some(900),
            drift: &[("ResultRows", DriftKind::Missing)],
        },
        Case {
            body: body(
                r#""ResultRows":2,"UnitsUsed":"n/a","UnitsRemaining":900,"#,
                &rows,
            ),
            rows: both,
            charged: None,
            balance: Some(900),
            drift: &[("UnitsUsed", DriftKind::UnexpectedType)],
        },
        Case {
            body: body(
                r#""ResultRows":0,"UnitsUsed":20,"UnitsRemaining":900,"#,
                "null",
            ),
            rows: &[],
            charged: Some(20),
            balance: Some(900),
            drift: &[("response", DriftKind::Null)],
        },
        Case {
            body: body(
                r#""ResultRows":2,"UnitsUsed":20,"UnitsRemaining":900,"#,
                &by_key,
            ),
            rows: both,
            charged: Some(20),
            balance: Some(900),
            drift: &[("response", DriftKind::UnexpectedType)],
        },
    ]
}

#[tokio::test]
async fn a_drifting_envelope_gives_its_rows_once_and_the_same_call_sends_nothing() {
    for case in cases() {
        let server = Server::json(case.body.clone()).await;
        let client = server.builder().store(Store::memory()).build().unwrap();
        let call = || client.keywords().metrics(["mutuo", "casa"]).send();
        let answer = call()
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", case.body));
        let keywords: Vec<&str> = answer.response.iter().map(|r| r.keyword.as_str()).collect();
        assert_eq!(keywords, case.rows, "{}", case.body);
        assert_eq!(answer.result_rows, case.rows.len() as i64, "{}", case.body);
        assert_eq!(
            (!answer.unreported.units_used).then_some(answer.units_used),
            case.charged,
            "{}",
            case.body
        );
        assert_eq!(answer.units_remaining, case.balance, "{}", case.body);
        let usage = client.usage(0).await.unwrap();
        assert_eq!(usage[0].calls, 1, "{}", case.body);
        assert_eq!(
            usage[0].units_used,
            case.charged.unwrap_or(0),
            "{}",
            case.body
        );

        let again = call().await.unwrap();
        assert_eq!(server.requests(), 1, "sent again: {}", case.body);
        assert!(again.fetched_at.is_some());
        let keywords: Vec<&str> = again.response.iter().map(|r| r.keyword.as_str()).collect();
        assert_eq!(keywords, case.rows, "{}", case.body);

        let report = client.drift().await.unwrap();
        let seen: Vec<(&str, DriftKind)> = report
            .observations()
            .iter()
            .filter(|o| o.record.is_empty() && o.kind != DriftKind::Charge)
            .map(|o| (o.member.as_str(), o.kind))
            .collect();
        assert_eq!(seen, case.drift, "{}", case.body);
    }
}

#[tokio::test]
async fn a_null_response_of_one_object_is_an_empty_answer_paid_for_once() {
    let server = Server::json(
        r#"{"ResultRows":0,"UnitsUsed":100,"UnitsRemaining":900,"response":null}"#.to_owned(),
    )
    .await;
    let client = server.builder().store(Store::memory()).build().unwrap();
    let answer = client.projects().overview(7).send().await.unwrap();
    let fields = serde_json::to_value(&answer.response).unwrap();
    let fields = fields.as_object().unwrap();
    assert!(
        !fields.is_empty() && fields.values().all(|v| v.is_null()),
        "{fields:?}"
    );
    assert!(!answer.no_data, "the service answered, and charged");
    assert_eq!(
        (
            answer.result_rows,
            answer.units_used,
            answer.units_remaining
        ),
        (0, 100, Some(900))
    );
    assert_eq!(client.usage(0).await.unwrap()[0].units_used, 100);

    let again = client.projects().overview(7).send().await.unwrap();
    assert_eq!(server.requests(), 1, "sent again");
    assert!(again.fetched_at.is_some());
    let report = client.drift().await.unwrap();
    let seen: Vec<(&str, DriftKind)> = report
        .observations()
        .iter()
        .filter(|o| o.kind != DriftKind::Charge)
        .map(|o| (o.member.as_str(), o.kind))
        .collect();
    assert_eq!(seen, [("response", DriftKind::Null)]);
}

#[tokio::test]
async fn members_of_the_envelope_the_spec_does_not_know_are_kept_and_recorded() {
    let figures =
        r#""ResultRows":1,"Warnings":["url 2 normalised"],"UnitsUsed":10,"UnitsRemaining":90,"#;
    let server = Server::json(body(figures, &format!("[{}]", row("mutuo")))).await;
    let client = server.builder().store(Store::memory()).build().unwrap();
    let answer = client.keywords().metrics(["mutuo"]).send().await.unwrap();
    assert_eq!(answer.response[0].keyword, "mutuo");
    assert_eq!(
        answer.extras.get("Warnings"),
        Some(&json!(["url 2 normalised"]))
    );
    let report = client.drift().await.unwrap();
    let warnings = report
        .observations()
        .iter()
        .find(|o| o.member == "Warnings")
        .expect("recorded");
    assert_eq!(
        (warnings.record.as_str(), warnings.kind),
        ("", DriftKind::UnknownMember)
    );
    assert_eq!(warnings.example, r#"["url 2 normalised"]"#);
    // From the store, the extras are the answer's still.
    let again = client.keywords().metrics(["mutuo"]).send().await.unwrap();
    assert_eq!(server.requests(), 1);
    assert_eq!(again.extras.len(), 1);
}

#[tokio::test]
async fn a_response_object_whose_members_are_not_rows_is_kept_raw_whole() {
    let figures = r#""ResultRows":2,"UnitsUsed":20,"UnitsRemaining":900,"#;
    let response = r#"{"mutuo":"temporarily unavailable","casa":3}"#;
    let server = Server::json(body(figures, response)).await;
    let client = server.builder().store(Store::memory()).build().unwrap();
    let answer = client
        .keywords()
        .metrics(["mutuo", "casa"])
        .send()
        .await
        .unwrap();
    assert!(answer.response.is_empty());
    assert_eq!(answer.raw_rows.len(), 1);
    assert_eq!(
        answer.raw_rows[0].row,
        json!({"mutuo": "temporarily unavailable", "casa": 3})
    );
    assert_eq!(answer.units_used, 20);
    client
        .keywords()
        .metrics(["mutuo", "casa"])
        .send()
        .await
        .unwrap();
    assert_eq!(server.requests(), 1);
}

#[tokio::test]
async fn a_stored_answer_this_build_cannot_read_is_not_bought_again_unless_refreshed() {
    use seozoom::error::{Charge, ErrorKind};

    // A response no build of this spec reads: paid for, kept in the store.
    let figures = r#""ResultRows":1,"UnitsUsed":10,"UnitsRemaining":90,"#;
    let server = Server::json(body(figures, r#""mutuo: 1 keyword""#)).await;
    let store = Store::memory();
    let client = server.builder().store(store.clone()).build().unwrap();
    let first = client
        .keywords()
        .metrics(["mutuo"])
        .send()
        .await
        .unwrap_err();
    assert_eq!(first.charged(), Charge::Units(10));

    let again = client
        .keywords()
        .metrics(["mutuo"])
        .send()
        .await
        .unwrap_err();
    assert_eq!(server.requests(), 1, "nothing was sent");
    assert!(
        matches!(again.kind(), ErrorKind::Decode { .. }),
        "{again:?}"
    );
    assert_eq!(again.charged(), Charge::None);
    let text = again.to_string();
    for named in [
        "--refresh",
        "refresh=True",
        "ClientBuilder::refresh(true)",
        "nothing was sent",
    ] {
        assert!(text.contains(named), "{named} in {text}");
    }

    // Refreshing sends it again, on purpose.
    let refreshing = server.builder().store(store).refresh(true).build().unwrap();
    refreshing
        .keywords()
        .metrics(["mutuo"])
        .send()
        .await
        .unwrap_err();
    assert_eq!(server.requests(), 2);
}
