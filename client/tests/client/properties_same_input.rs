//! The same input is one input wherever it appears: any list of inputs, with any cache
//! state, gives exactly the rows of the inputs asked for, each once, in input
//! order. Every batchable operation of the table, against the sandbox on a
//! real SQLite store per case; the inputs are realistic values of the batch
//! parameter and variants of them that its spec rule (`compare.fold`) calls
//! the same input (spaces around, another letter case, a `www.`, a trailing
//! `/`), and the cache is filled first by earlier jobs and single calls of
//! other lists of the same values. A fixed seed (see `props`).

use crate::props;
use crate::same_input::SqliteStore;
use crate::store::client_on;

use std::collections::HashMap;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use seozoom::job::RunOptions;
use seozoom::operation_table::{Fold, Operation, Param};
use seozoom::operations::{OPERATIONS, RECORDS};
use seozoom::request::Request;
use seozoom::sandbox::Sandbox;
use serde_json::Value;

use props::{runner, valid_request, valid_value};

/// The batchable operations: those the property is about.
fn batchable() -> Vec<&'static Operation> {
    OPERATIONS
        .iter()
        .copied()
        .filter(|op| op.batch_param().is_some())
        .collect()
}

/// One way of writing a value, drawn for each occurrence.
#[derive(Debug, Clone, Copy)]
struct Variant {
    spaces: bool,
    upper: bool,
    www: bool,
    slash: bool,
}

fn variant() -> impl Strategy<Value = Variant> {
    (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(spaces, upper, www, slash)| Variant {
            spaces,
            upper,
            www,
            slash,
        },
    )
}

/// `value` written as `variant` says, in the ways the parameter's rule calls
/// the same input (and only those).
fn written(param: &Param, value: &str, variant: Variant, unknown: bool) -> String {
    let mut text = value.to_owned();
    if variant.upper && param.fold.contains(&Fold::Case) {
        text = text.to_uppercase();
    }
    // The sandbox knows nothing of `zzz...`: a `www.` before it would make it
    // known, so unknown values do without.
    if variant.www && !unknown && param.fold.contains(&Fold::Www) && !text.contains("://") {
        text = format!("www.{text}");
    }
    if variant.slash && param.fold.contains(&Fold::TrailingSlash) {
        text.push('/');
    }
    if variant.spaces && param.fold.contains(&Fold::Trim) {
        text = format!(" {text} ");
    }
    text
}

/// A job: an operation's request, and the lists of values of its batch
/// parameter sent first (to fill the cache: `true` as a batched job, `false`
/// as one call as given) and then asked for.
#[derive(Debug, Clone)]
struct Case {
    request: Request,
    before: Vec<(bool, Vec<String>)>,
    asked: Vec<String>,
}

fn case() -> impl Strategy<Value = Case> {
    prop::sample::select(batchable()).prop_flat_map(|op| {
        let param = op.batch_param().expect("batchable");
        // A few base values, some the sandbox knows nothing of.
        let bases = prop::collection::vec((valid_value(param), prop::bool::weighted(0.2)), 1..5);
        (valid_request(op, 3), bases).prop_flat_map(move |(request, bases)| {
            let list = prop::collection::vec((0..bases.len(), variant()), 1..9)
                .prop_map({
                    let bases = bases.clone();
                    move |picks| {
                        picks
                            .into_iter()
                            .map(|(i, variant)| {
                                let (value, unknown) = &bases[i];
                                let value = if *unknown {
                                    format!("zzz{value}")
                                } else {
                                    value.clone()
                                };
                                written(param, &value, variant, *unknown)
                            })
                            .collect::<Vec<String>>()
                    }
                })
                .boxed();
            let before = prop::collection::vec((any::<bool>(), list.clone()), 0..4);
            (Just(request.clone()), before, list).prop_map(|(request, before, asked)| Case {
                request,
                before,
                asked,
            })
        })
    })
}

/// Whether the sandbox knows nothing of the value sent (it starts `zzz`).
fn unknown(value: &str) -> bool {
    value.trim().to_lowercase().starts_with("zzz")
}

/// The names of the inputs a result's rows (or a map's members) are for.
fn names(op: &Operation, response: &Value) -> Vec<String> {
    match response {
        Value::Array(rows) => {
            let key = RECORDS
                .iter()
                .find(|r| r.name == op.response.payload)
                .and_then(|r| r.key)
                .expect("a batched record names its input");
            rows.iter()
                .map(|row| row[key].as_str().unwrap_or_default().to_owned())
                .collect()
        }
        Value::Object(members) => members.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

#[test]
fn any_inputs_with_any_cache_give_exactly_the_rows_asked_for_each_once() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let sandbox = runtime.block_on(Sandbox::start()).unwrap();
    runner(96)
        .run(&case(), |case| {
            let op = case.request.operation();
            let param = op.batch_param().expect("batchable");
            let store = SqliteStore::new("prop");
            let client = client_on(&sandbox, &store.store);
            let with = |values: &[String]| {
                let mut request = case.request.clone();
                request.set(param.wire, values.to_vec());
                request
            };
            let response = runtime.block_on(async {
                for (batched, values) in &case.before {
                    let request = with(values);
                    // A single call sends its values as given, repeats and
                    // all: its answer must not spoil the per-item cache.
                    let fits = param
                        .max_items
                        .is_none_or(|m| values.len() as i64 <= m.value);
                    let _ = match batched | !fits {
                        true => client
                            .run::<Value>(request, RunOptions::new())
                            .await
                            .map(|_| ()),
                        false => client
                            .run::<Value>(request, RunOptions::one_request())
                            .await
                            .map(|_| ()),
                    };
                }
                client
                    .run::<Value>(with(&case.asked), RunOptions::new())
                    .await
                    .map(|outcome| outcome.into_response())
            });
            let response = response.map_err(|e| TestCaseError::fail(e.to_string()))?;

            // The inputs asked for: the first value given of each, in order,
            // less those the sandbox knows nothing of.
            let mut first: Vec<(String, String)> = Vec::new();
            for value in &case.asked {
                let compared = param.compared(value).into_owned();
                if !first.iter().any(|(c, _)| *c == compared) {
                    first.push((compared, value.clone()));
                }
            }
            let expected: Vec<String> = first
                .into_iter()
                .filter(|(_, given)| !unknown(given))
                .map(|(compared, _)| compared)
                .collect();
            let got: Vec<String> = names(op, &response)
                .iter()
                .map(|name| param.compared(name).into_owned())
                .collect();
            let mut counts: HashMap<&str, usize> = HashMap::new();
            for name in &got {
                *counts.entry(name).or_default() += 1;
            }
            for name in &expected {
                prop_assert_eq!(
                    counts.get(name.as_str()).copied().unwrap_or(0),
                    1,
                    "{}: {:?} once in {:?}",
                    op.label(),
                    name,
                    got
                );
            }
            prop_assert_eq!(got.len(), expected.len(), "no other rows: {:?}", got);
            // Rows come in input order (a map's order is the JSON map's).
            if response.is_array() {
                prop_assert_eq!(&got, &expected);
            }
            Ok(())
        })
        .unwrap();
}
