//! Every refusal in the published documents has an example, and each example
//! is what a running sandbox answers: the refusal is provoked for every
//! operation (a query missing what it requires or naming a parameter it does
//! not take, no key, no units, an unknown action, a rate figure passed, an
//! injected 500, a query that matches nothing) and its body compared with the
//! example's. The sandbox never answers 402 (an account that cannot pay is a
//! 403); that example must be the 403's body under its own status. A 429's
//! `Retry-After` fits the header's published schema.
//!
//! `cargo test -p seozoom-tests --test cross_crate published_refusals::`

use std::collections::BTreeMap;
use std::time::Duration;

use seozoom::operation_table::Operation;
use seozoom::operations::{OPERATIONS, SERVICE};
use seozoom::sandbox::{Fault, FaultPlan, Sandbox};
use serde_json::{Value, json};

use super::published_sandbox::{published, requests};

/// What the tests name that no operation has.
const NOSUCH: &str = "nosuch";

/// A valid query of `op` as wire pairs, the key first.
fn valid(op: &'static Operation) -> Vec<(String, String)> {
    let request = requests(op).swap_remove(0);
    let mut pairs = vec![(SERVICE.key.wire.to_owned(), Sandbox::API_KEY.to_owned())];
    let query = request.validate(&SERVICE, "it").unwrap();
    pairs.extend(query.into_iter().map(|(n, v)| (n.to_owned(), v)));
    pairs
}

/// GET `op`'s path with `pairs`: status, `Retry-After`, body as JSON.
async fn get(
    sandbox: &Sandbox,
    op: &Operation,
    pairs: &[(String, String)],
) -> (u16, Option<String>, Value) {
    let response = reqwest::Client::new()
        .get(format!("{}{}", sandbox.base_url(), op.path))
        .query(pairs)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (status, retry_after, body)
}

/// The sandboxes each refusal needs.
struct Sandboxes {
    open: Sandbox,
    broke: Sandbox,
    strict: Sandbox,
    failing: Sandbox,
}

/// The sandbox's answer with `status` to a query of `op` made to get it.
async fn provoke(s: &Sandboxes, op: &'static Operation, status: u16) -> (u16, Value) {
    let mut pairs = valid(op);
    let (sandbox, pairs) = match status {
        400 => {
            let dropped = op.params.iter().find(|p| p.required && p.default.is_none());
            match dropped {
                Some(p) => pairs.retain(|(n, _)| n != p.wire),
                None => pairs.push((NOSUCH.to_owned(), "1".to_owned())),
            }
            (&s.open, pairs)
        }
        401 => {
            pairs.retain(|(n, _)| n != SERVICE.key.wire);
            (&s.open, pairs)
        }
        402 | 403 => (&s.broke, pairs),
        404 => {
            for pair in pairs.iter_mut().filter(|(n, _)| n == SERVICE.action.wire) {
                pair.1 = NOSUCH.to_owned();
            }
            (&s.open, pairs)
        }
        429 => {
            // Past the operation's figure within the (long) window.
            for _ in 0..10_000 {
                let (got, retry_after, body) = get(&s.strict, op, &pairs).await;
                if got == 429 {
                    let seconds: u64 = retry_after
                        .expect("a 429 with Retry-After")
                        .parse()
                        .unwrap();
                    assert!(seconds >= 1, "{}", op.label());
                    return (got, body);
                }
            }
            panic!("{}: never rate-limited", op.label());
        }
        500 => (&s.failing, pairs),
        other => panic!("a refusal this test cannot provoke: {other}"),
    };
    let (got, _, body) = get(sandbox, op, &pairs).await;
    (got, body)
}

#[tokio::test]
async fn refusal_examples_are_the_sandbox_s_answers() {
    let s = Sandboxes {
        open: Sandbox::start().await.unwrap(),
        broke: Sandbox::builder().units(0).start().await.unwrap(),
        strict: Sandbox::builder()
            .rate_window(Duration::from_secs(600))
            .start()
            .await
            .unwrap(),
        failing: Sandbox::builder()
            .faults(FaultPlan::random(1.0).kinds(&[Fault::ServerError]))
            .start()
            .await
            .unwrap(),
    };
    let no_data = json!({"status": SERVICE.no_data_status, "message": SERVICE.no_data_message});
    let mut by_group: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    let mut checked = 0;
    for op in OPERATIONS {
        let doc = published(&format!("actions/{}.{}.openapi.json", op.group, op.action));
        let responses = doc["paths"][op.path]["get"]["responses"]
            .as_object()
            .unwrap();
        for (status, response) in responses.iter().filter(|(s, _)| *s != "200") {
            let here = format!("{} {status}", op.label());
            let examples = response["content"]["application/json"]["examples"]
                .as_object()
                .unwrap_or_else(|| panic!("{here}: no example"));
            let status: u16 = status.parse().unwrap();
            for (name, example) in examples {
                let value = &example["value"];
                by_group.entry(op.group).or_default().push(value.clone());
                if name == "no_data" {
                    assert_eq!(*value, no_data, "{here}");
                    continue;
                }
                let (got, body) = provoke(&s, op, status).await;
                let expected_status = if status == 402 { 403 } else { status };
                assert_eq!(got, expected_status, "{here}: {body}");
                let mut body = body;
                body["status"] = json!(status);
                assert_eq!(
                    *value, body,
                    "{here} `{name}`: the sandbox answers otherwise"
                );
                checked += 1;
            }
            if let Some(header) = response["headers"].get("Retry-After") {
                let schemas = header["schema"]["oneOf"].as_array().unwrap();
                assert!(schemas.iter().any(|s| s["type"] == "integer"), "{here}");
                assert!(schemas.iter().any(|s| s["format"] == "http-date"), "{here}");
                assert!(header["example"].is_u64(), "{here}");
            }
        }
    }
    assert!(
        checked >= 7 * OPERATIONS.len(),
        "{checked} examples checked"
    );
    // The whole-API documents show examples of the same answers.
    for document in ["openapi.json", "openapi-3.0.json"] {
        let doc = published(document);
        for op in OPERATIONS {
            let responses = doc["paths"][op.path]["get"]["responses"]
                .as_object()
                .unwrap();
            for (status, response) in responses.iter().filter(|(s, _)| *s != "200") {
                let examples = response["content"]["application/json"]["examples"]
                    .as_object()
                    .unwrap_or_else(|| panic!("{document} {} {status}: no example", op.path));
                for example in examples.values() {
                    assert!(
                        by_group[op.group].contains(&example["value"]),
                        "{document} {} {status}: an example no action's document has",
                        op.path
                    );
                }
            }
        }
    }
    // A query that matches nothing is answered with the no-match example.
    let op = OPERATIONS
        .iter()
        .find(|op| op.params.iter().any(|p| p.list))
        .unwrap();
    let list = op.params.iter().find(|p| p.list).unwrap();
    let mut pairs = valid(op);
    for pair in pairs.iter_mut().filter(|(n, _)| n == list.wire) {
        pair.1 = "zzz-nothing".to_owned();
    }
    let (status, _, body) = get(&s.open, op, &pairs).await;
    assert_eq!((status, body), (SERVICE.no_data_status, no_data));
}
