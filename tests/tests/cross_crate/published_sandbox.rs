//! Every answer of the sandbox, for every operation of the table, validates
//! against the published schema of its action (`spec/published/schemas/`): the
//! raw body, as sent, not the client's decoding of it.
//!
//! Requests are made from the operation table alone: every required parameter,
//! lists of several values, each value of an enum parameter (with the rules it
//! triggers met), the optional parameters, another database, and an unknown input,
//! whose "no match" answer must fit `no_data.schema.json`.
//!
//! With `SEOZOOM_SANDBOX_BODIES=DIR` the bodies are also written to
//! `DIR/GROUP.ACTION.N.json` (and `DIR/no_data/GROUP.ACTION.json`), so that other
//! validators can check them (`.ci/publish-checks` runs check-jsonschema on them).
//!
//! `cargo test -p seozoom-tests --test cross_crate published_sandbox::`

use std::path::PathBuf;

use seozoom::operation_table::{Operation, Param, ParamKind};
use seozoom::operations::{OPERATIONS, SERVICE};
use seozoom::request::Request;
use seozoom::sandbox::Sandbox;
use serde_json::Value;

pub(super) fn published(relative: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../spec/published")
        .join(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// `count` distinct valid values for a parameter, from its type and name.
fn values(param: &Param, count: usize) -> Vec<String> {
    (1..=count)
        .map(|i| match param.kind {
            ParamKind::Text if param.wire.contains("url") => {
                format!("https://www.example{i}.it/page/")
            }
            ParamKind::Text if param.wire.contains("keyword") => format!("running shoes {i}"),
            ParamKind::Text if param.wire.contains("domain") => format!("example{i}.it"),
            ParamKind::Text if param.wire.ends_with("_ext") => ".co.uk".to_owned(),
            ParamKind::Text => format!("London {i}"),
            ParamKind::Integer => {
                let low = param.min.map_or(1, |m| m.value.max(1));
                let wanted = if param.wire == "limit" { 40 } else { low + 2 };
                param
                    .max
                    .map_or(wanted, |m| wanted.min(m.value))
                    .to_string()
            }
            ParamKind::Date => "2024-03-01".to_owned(),
            ParamKind::Enum { values, .. } => values[(i - 1) % values.len()].to_owned(),
            _ => panic!("a parameter kind this test does not know: {param:?}"),
        })
        .collect()
}

fn how_many(param: &Param) -> usize {
    if !param.list {
        return 1;
    }
    let most = param.max_items.map_or(3, |m| m.value.max(1) as usize);
    3.min(most)
}

/// The rules the request's values trigger, met.
fn meet_rules(op: &'static Operation, request: &mut Request) {
    for rule in op.rules {
        if request.get(rule.if_param) == Some(&[rule.if_value.to_owned()][..]) {
            let value = match rule.equal_to {
                Some(v) => vec![v.to_owned()],
                None => values(op.param(rule.require).unwrap(), 1),
            };
            request.set(rule.require, value);
        }
    }
}

/// The requests made for one operation.
pub(super) fn requests(op: &'static Operation) -> Vec<Request> {
    let base = || {
        let mut request = Request::new(op, None);
        for param in op.params.iter().filter(|p| p.required) {
            request.set(param.wire, values(param, how_many(param)));
        }
        request
    };
    let mut out = Vec::new();
    let mut plain = base();
    meet_rules(op, &mut plain);
    out.push(plain);
    // Each value of each enum parameter.
    for param in op.params.iter().filter(|p| p.required) {
        if let ParamKind::Enum { values, .. } = param.kind {
            for value in values.iter().skip(1) {
                let mut request = base();
                request.set(param.wire, vec![(*value).to_owned()]);
                meet_rules(op, &mut request);
                out.push(request);
            }
        }
    }
    // The optional parameters no rule speaks of, and another database.
    let ruled: Vec<&str> = op.rules.iter().map(|r| r.require).collect();
    let optional: Vec<&Param> = op
        .params
        .iter()
        .filter(|p| !p.required && !ruled.contains(&p.wire))
        .collect();
    if !optional.is_empty() {
        let mut request = base();
        for param in optional {
            request.set(param.wire, values(param, how_many(param)));
        }
        meet_rules(op, &mut request);
        out.push(request);
    }
    let mut other_db = base();
    if let ParamKind::Enum { values, .. } = SERVICE.database.kind
        && let Some(last) = values.last()
    {
        other_db.set_database(last);
    }
    meet_rules(op, &mut other_db);
    out.push(other_db);
    out
}

/// The operation's "no match" request: every input unknown to the sandbox.
fn no_match(op: &'static Operation) -> Option<Request> {
    let mut request = Request::new(op, None);
    let mut unknown = false;
    for param in op.params.iter().filter(|p| p.required) {
        let mut vals = values(param, how_many(param));
        if param.kind == ParamKind::Text {
            vals = vals
                .iter()
                .map(|v| format!("zzz-{}", v.replace("https://", "")))
                .collect();
            unknown = true;
        }
        request.set(param.wire, vals);
    }
    meet_rules(op, &mut request);
    unknown.then_some(request)
}

async fn get(
    http: &reqwest::Client,
    sandbox: &Sandbox,
    op: &Operation,
    request: &Request,
) -> (u16, String) {
    let query = request
        .validate(&SERVICE, "it")
        .unwrap_or_else(|e| panic!("{}: the test made a bad request: {e}", op.label()));
    let mut pairs: Vec<(&str, String)> = vec![(SERVICE.key.wire, Sandbox::API_KEY.to_owned())];
    pairs.extend(query);
    let response = http
        .get(format!("{}{}", sandbox.base_url(), op.path))
        .query(&pairs)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{}: {e}", op.label()));
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

fn problems(validator: &jsonschema::Validator, body: &Value) -> Vec<String> {
    validator
        .iter_errors(body)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

#[tokio::test]
async fn every_sandbox_response_fits_the_published_schema_of_its_action() {
    let sandbox = Sandbox::start().await.unwrap();
    let http = reqwest::Client::new();
    let dump = std::env::var_os("SEOZOOM_SANDBOX_BODIES").map(PathBuf::from);
    if let Some(dir) = &dump {
        std::fs::create_dir_all(dir.join("no_data")).unwrap();
    }
    let no_data = jsonschema::validator_for(&published("schemas/no_data.schema.json")).unwrap();
    let (mut answers, mut no_match_answers) = (0, 0);
    for op in OPERATIONS {
        let name = format!("{}.{}", op.group, op.action);
        let schema = published(&format!("schemas/actions/{name}.schema.json"));
        let validator = jsonschema::validator_for(&schema).unwrap();
        for (n, request) in requests(op).iter().enumerate() {
            let (status, text) = get(&http, &sandbox, op, request).await;
            assert_eq!(status, 200, "{name} request {n}: {text}");
            let body: Value = serde_json::from_str(&text).unwrap();
            let found = problems(&validator, &body);
            assert!(
                found.is_empty(),
                "{name} request {n}:\n{}\n{text}",
                found.join("\n")
            );
            if let Some(dir) = &dump {
                std::fs::write(dir.join(format!("{name}.{n}.json")), &text).unwrap();
            }
            answers += 1;
        }
        if let Some(request) = no_match(op) {
            let (status, text) = get(&http, &sandbox, op, &request).await;
            assert_eq!(status, SERVICE.no_data_status, "{name} no match: {text}");
            let body: Value = serde_json::from_str(&text).unwrap();
            let found = problems(&no_data, &body);
            assert!(
                found.is_empty(),
                "{name} no match:\n{}\n{text}",
                found.join("\n")
            );
            if let Some(dir) = &dump {
                std::fs::write(dir.join("no_data").join(format!("{name}.json")), &text).unwrap();
            }
            no_match_answers += 1;
        }
    }
    assert!(answers >= 2 * OPERATIONS.len(), "{answers} answers");
    let with_inputs = OPERATIONS
        .iter()
        .filter(|op| {
            op.params
                .iter()
                .any(|p| p.required && p.kind == ParamKind::Text)
        })
        .count();
    assert!(with_inputs > 0);
    assert_eq!(no_match_answers, with_inputs);
}

/// Every operation that takes a list, called through the client (a request of
/// several values per list) against the sandbox, which refuses a list sent as
/// repeated keys with a 400: the client sends one `|`-joined value, so every
/// call is answered.
#[tokio::test]
async fn the_client_sends_every_list_joined_never_as_repeated_keys() {
    let sandbox = Sandbox::start().await.unwrap();
    let client = seozoom::Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .build()
        .unwrap();
    let mut lists = 0;
    for op in OPERATIONS
        .iter()
        .filter(|op| op.params.iter().any(|p| p.list))
    {
        let request = requests(op).swap_remove(0);
        let list = op.params.iter().find(|p| p.list).unwrap();
        assert!(request.get(list.wire).is_some_and(|v| v.len() > 1));
        let answer = client
            .run::<Value>(request, seozoom::job::RunOptions::one_request())
            .await;
        assert!(answer.is_ok(), "{}: {answer:?}", op.label());
        lists += 1;
    }
    assert!(lists > 0);
    // The same query with the list as repeated keys is refused, saying why.
    let op = OPERATIONS
        .iter()
        .find(|op| op.params.iter().any(|p| p.list))
        .unwrap();
    let list = op.params.iter().find(|p| p.list).unwrap().wire;
    let mut pairs: Vec<(String, String)> = requests(op)[0]
        .validate(&SERVICE, "it")
        .unwrap()
        .into_iter()
        .filter(|(name, _)| *name != list)
        .map(|(name, value)| (name.to_owned(), value))
        .collect();
    pairs.push((SERVICE.key.wire.to_owned(), Sandbox::API_KEY.to_owned()));
    pairs.push((list.to_owned(), "a".to_owned()));
    pairs.push((list.to_owned(), "b".to_owned()));
    let refused = reqwest::Client::new()
        .get(format!("{}{}", sandbox.base_url(), op.path))
        .query(&pairs)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 400);
    let message = refused.text().await.unwrap();
    assert!(message.contains(&format!("{list}=a|b")), "{message}");
}
