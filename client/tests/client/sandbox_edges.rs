//! The sandbox as a place where other clients are tested: a list sent as
//! repeated keys is refused with its explanatory 400 in every mode, a list
//! joined with commas matches nothing (as at the service), uncharged,
//! an integer parameter at either end of its published range is answered
//! (never refused for its size), and the starting balance is what was asked.

use seozoom::operation_table::{Operation, Param, ParamKind};
use seozoom::operations::{OPERATIONS, SERVICE};
use seozoom::request::Request;
use seozoom::sandbox::{Fault, FaultPlan, Sandbox, SandboxBuilder};
use std::time::Duration;

/// GET `op`'s path with `pairs` and the sandbox's key, no client in between:
/// the status and the body.
async fn get(sandbox: &Sandbox, op: &Operation, pairs: &[(String, String)]) -> (u16, String) {
    let mut pairs = pairs.to_vec();
    pairs.push((SERVICE.key.wire.to_owned(), Sandbox::API_KEY.to_owned()));
    let response = reqwest::Client::new()
        .get(format!("{}{}", sandbox.base_url(), op.path))
        .query(&pairs)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

/// The wire pairs of a valid query of `op`: its required parameters with
/// plausible values, the rules between parameters satisfied.
fn valid_query(op: &'static Operation) -> Request {
    fn plausible(param: &Param) -> String {
        match param.kind {
            ParamKind::Integer => {
                let low = param.min.map_or(1, |m| m.value.max(1));
                param.max.map_or(low, |m| low.min(m.value)).to_string()
            }
            ParamKind::Date => "2024-03-01".to_owned(),
            ParamKind::Enum { values, .. } => values[0].to_owned(),
            _ => "example.it".to_owned(),
        }
    }
    let mut request = Request::new(op, None);
    for param in op.params.iter().filter(|p| p.required) {
        request.set(param.wire, vec![plausible(param)]);
    }
    for rule in op.rules {
        if request.get(rule.if_param) == Some(&[rule.if_value.to_owned()][..]) {
            let value = match rule.equal_to {
                Some(v) => v.to_owned(),
                None => plausible(op.param(rule.require).unwrap()),
            };
            request.set(rule.require, vec![value]);
        }
    }
    request
}

fn pairs(request: &Request) -> Vec<(String, String)> {
    request
        .validate(&SERVICE, "it")
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value))
        .collect()
}

/// Every mode of the sandbox: as it starts, strict (every request over the
/// figure is a 429), with a fault on every request, and with no units left
/// (every charged call is a 403). A list sent as repeated keys gets the
/// explanatory 400 in each, never the answer the mode would give otherwise.
#[tokio::test]
async fn a_list_sent_as_repeated_keys_is_refused_in_every_mode() {
    let modes: [(&str, SandboxBuilder); 4] = [
        ("default", Sandbox::builder()),
        (
            "strict",
            Sandbox::builder().rate_window(Duration::from_secs(600)),
        ),
        (
            "a fault on every request",
            Sandbox::builder().faults(FaultPlan::random(1.0).kinds(&Fault::ALL)),
        ),
        ("no units", Sandbox::builder().units(0)),
    ];
    let lists: Vec<(&'static Operation, &'static Param)> = OPERATIONS
        .iter()
        .flat_map(|op| op.params.iter().filter(|p| p.list).map(move |p| (*op, p)))
        .collect();
    assert!(lists.len() > 3, "operations with lists: {}", lists.len());
    for (mode, builder) in modes {
        let sandbox = builder.start().await.unwrap();
        for &(op, list) in &lists {
            let mut query: Vec<(String, String)> = pairs(&valid_query(op))
                .into_iter()
                .filter(|(name, _)| name != list.wire)
                .collect();
            query.push((list.wire.to_owned(), "alpha".to_owned()));
            query.push((list.wire.to_owned(), "beta gamma".to_owned()));
            // More than any per-minute figure, so that strict mode would refuse
            // some of them with a 429 if it came first.
            for _ in 0..3 {
                let (status, body) = get(&sandbox, op, &query).await;
                let here = format!("{mode}, {} {}: {body}", op.label(), list.wire);
                assert_eq!(status, 400, "{here}");
                let message = serde_json::from_str::<serde_json::Value>(&body).unwrap()["message"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                let w = list.wire;
                assert!(
                    message.contains(&format!("`{w}=alpha|beta gamma`")),
                    "{here}"
                );
                assert!(message.contains("repeated keys"), "{here}");
            }
        }
        assert_eq!(sandbox.rate_limited(), 0, "{mode}");
        assert!(sandbox.faults_injected().is_empty(), "{mode}");
    }
}

/// Every list parameter of every operation, its two values joined with
/// commas as a generator that ignores `pipeDelimited` joins them: the
/// service's no-match answer, exactly, and nothing charged; the same values
/// joined with the list separator are answered with rows and charged.
#[tokio::test]
async fn a_list_joined_with_commas_matches_nothing_and_costs_nothing() {
    let sandbox = Sandbox::start().await.unwrap();
    let no_match = serde_json::json!({
        "status": SERVICE.no_data_status,
        "message": SERVICE.no_data_message,
    });
    let mut checked = 0;
    for op in OPERATIONS {
        for list in op.params.iter().filter(|p| p.list) {
            let with = |joined: String| -> Vec<(String, String)> {
                let mut query: Vec<(String, String)> = pairs(&valid_query(op))
                    .into_iter()
                    .filter(|(name, _)| name != list.wire)
                    .collect();
                query.push((list.wire.to_owned(), joined));
                query
            };
            let here = format!("{} {}", op.label(), list.wire);
            let before = sandbox.units_remaining();
            let (status, body) = get(&sandbox, op, &with("example.it,example.org".into())).await;
            assert_eq!(status, SERVICE.no_data_status, "{here}: {body}");
            let body: serde_json::Value = serde_json::from_str(&body).unwrap();
            assert_eq!(body, no_match, "{here}");
            assert_eq!(sandbox.units_remaining(), before, "{here}: not charged");
            let separator = SERVICE.list_separator;
            let joined = format!("example.it{separator}example.org");
            let (status, body) = get(&sandbox, op, &with(joined)).await;
            assert_eq!(status, 200, "{here}: {body}");
            assert!(sandbox.units_remaining() < before, "{here}: charged");
            checked += 1;
        }
    }
    assert!(checked > 3, "list parameters checked: {checked}");
}

/// The range the published documents give an integer parameter: its own
/// limits, or the client's 64-bit integer where the spec states none.
fn published_range(param: &Param) -> (i64, i64) {
    (
        param.min.map_or(i64::MIN, |m| m.value),
        param.max.map_or(i64::MAX, |m| m.value),
    )
}

/// Every integer parameter of every operation at both ends of its published
/// range (`offset=9223372036854775807`, `id=1`, `page=5`, ...) is answered:
/// with rows, or with the no-match answer, never refused as too large or too
/// small, and the sandbox still serves afterwards.
#[tokio::test]
async fn integer_parameters_at_their_published_bounds_are_answered() {
    let sandbox = Sandbox::builder()
        .units(i64::MAX / 2)
        .start()
        .await
        .unwrap();
    let mut checked = 0;
    for op in OPERATIONS {
        for param in op
            .params
            .iter()
            .filter(|p| p.kind == ParamKind::Integer && !p.implicit)
        {
            let (low, high) = published_range(param);
            for bound in [low, high] {
                let mut request = valid_query(op);
                // A rule that pins the parameter (`offset` must be 0 with
                // `newentry`) leaves it no range to test.
                let pinned = op.rules.iter().any(|r| {
                    r.require == param.wire
                        && r.equal_to.is_some()
                        && request.get(r.if_param) == Some(&[r.if_value.to_owned()][..])
                });
                if pinned {
                    continue;
                }
                request.set(param.wire, vec![bound.to_string()]);
                let (status, body) = get(&sandbox, op, &pairs(&request)).await;
                let here = format!("{} {}={bound}: {status} {body}", op.label(), param.wire);
                let no_match = status == 400 && body.contains("No data found!");
                assert!(status == 200 || no_match, "{here}");
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "{checked} bounds checked");
    let op = OPERATIONS[0];
    assert_eq!(get(&sandbox, op, &pairs(&valid_query(op))).await.0, 200);
}

/// The balance the sandbox starts with is the one asked for, and a call is
/// charged against it.
#[tokio::test]
async fn the_starting_balance_is_the_one_asked_for() {
    let units = 1_000_000_000_000_i64;
    let sandbox = Sandbox::builder().units(units).start().await.unwrap();
    assert_eq!(sandbox.units_remaining(), units);
    let op = OPERATIONS
        .iter()
        .find(|op| op.params.iter().any(|p| p.list))
        .unwrap();
    let (status, body) = get(&sandbox, op, &pairs(&valid_query(op))).await;
    assert_eq!(status, 200, "{body}");
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    let used = answer["UnitsUsed"].as_i64().unwrap();
    assert!(used > 0, "{body}");
    assert_eq!(sandbox.units_remaining(), units - used);
}
