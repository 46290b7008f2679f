//! Shared by the property tests and the soak: the proptest configuration (a
//! fixed seed unless `PROPTEST_RNG_SEED` gives another, no regression files),
//! and valid requests of any operation drawn from the operation table.

#![allow(dead_code)]

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use seozoom::operation_table::{Operation, Param, ParamKind};
use seozoom::operations::{OPERATIONS, SERVICE};
use seozoom::request::Request;

/// The seed of every run unless `PROPTEST_RNG_SEED` is set: CI runs the same
/// cases each time, and a failure there is reproduced by running the test.
pub const SEED: u64 = 0x5e0_2007;

/// A runner of `cases` cases from the fixed seed. Failures are not persisted
/// (the seed reproduces them); shrinking is bounded in time.
pub fn runner(cases: u32) -> TestRunner {
    let mut config = Config::with_cases(cases);
    if config.rng_seed == RngSeed::Random {
        config.rng_seed = RngSeed::Fixed(SEED);
    }
    config.failure_persistence = None;
    config.max_shrink_time = 30_000;
    TestRunner::new(config)
}

/// Realistic text inputs of a parameter: a domain, a URL or a keyword, by
/// the parameter's wire name.
fn text_value(param: &Param) -> BoxedStrategy<String> {
    let word = "[a-z]{2,9}";
    if param.wire.contains("url") {
        (word, word)
            .prop_map(|(site, page)| format!("https://www.{site}.it/{page}"))
            .boxed()
    } else if param.wire.contains("domain") {
        word.prop_map(|site| format!("{site}.it")).boxed()
    } else {
        prop::collection::vec(word, 1..4)
            .prop_map(|words| words.join(" "))
            .boxed()
    }
}

/// A valid value of a parameter, as wire text.
pub fn valid_value(param: &'static Param) -> BoxedStrategy<String> {
    match param.kind {
        ParamKind::Text => text_value(param),
        ParamKind::Integer => {
            let low = param.min.map_or(0, |m| m.value);
            let high = param.max.map_or(low.saturating_add(10_000), |m| m.value);
            (low..=high).prop_map(|n| n.to_string()).boxed()
        }
        ParamKind::Date => (2015i32..2026, 1u8..=12, 1u8..=28)
            .prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"))
            .boxed(),
        ParamKind::Enum { values, .. } => {
            prop::sample::select(values).prop_map(str::to_owned).boxed()
        }
        _ => Just("1".to_owned()).boxed(),
    }
}

/// Valid values of a parameter: one, or for a list between its least and most
/// items (at most `most_items`).
pub fn valid_values(param: &'static Param, most_items: usize) -> BoxedStrategy<Vec<String>> {
    if !param.list {
        return valid_value(param).prop_map(|v| vec![v]).boxed();
    }
    let least = param.min_items.map_or(1, |m| m.value.max(1)) as usize;
    let most = param
        .max_items
        .map_or(most_items, |m| m.value as usize)
        .min(most_items)
        .max(least);
    // Repeats are allowed by the validator; distinct values are more useful.
    prop::collection::btree_set(valid_value(param), least..=most)
        .prop_map(|set| set.into_iter().collect())
        .boxed()
}

/// The value a request sends for `wire`: given, or the default.
fn effective(op: &Operation, request: &Request, wire: &str) -> Option<String> {
    match request.get(wire) {
        Some(values) => Some(values.join(&SERVICE.list_separator.to_string())),
        None => op.param(wire)?.default.map(str::to_owned),
    }
}

/// A valid request of `op`: every required parameter, some optional ones, and
/// what the rules ask for once their trigger is sent. Lists have at most
/// `most_items` items.
pub fn valid_request(op: &'static Operation, most_items: usize) -> BoxedStrategy<Request> {
    let params: Vec<BoxedStrategy<Option<Vec<String>>>> = op
        .params
        .iter()
        .map(|param| {
            let values = valid_values(param, most_items);
            if param.required {
                values.prop_map(Some).boxed()
            } else {
                prop::option::weighted(0.5, values).boxed()
            }
        })
        .collect();
    let fixes: Vec<BoxedStrategy<Vec<String>>> = op
        .rules
        .iter()
        .map(|rule| match op.param(rule.require) {
            Some(param) => valid_values(param, most_items),
            None => Just(Vec::new()).boxed(),
        })
        .collect();
    let db = prop::option::weighted(0.3, prop::sample::select(database_values()));
    (params, fixes, db)
        .prop_map(move |(values, fixes, db)| {
            let mut request = Request::new(op, db);
            for (param, values) in op.params.iter().zip(values) {
                if let Some(values) = values {
                    request.set(param.wire, values);
                }
            }
            // Twice: a value set for one rule may trigger another.
            for _ in 0..2 {
                for (rule, fix) in op.rules.iter().zip(&fixes) {
                    if effective(op, &request, rule.if_param).as_deref() != Some(rule.if_value) {
                        continue;
                    }
                    match rule.equal_to {
                        Some(wanted) => request.set(rule.require, vec![wanted.to_owned()]),
                        None if request.get(rule.require).is_none() => {
                            request.set(rule.require, fix.clone());
                        }
                        None => {}
                    }
                }
            }
            request
        })
        .boxed()
}

/// The database values the spec accepts.
pub fn database_values() -> &'static [&'static str] {
    match SERVICE.database.kind {
        ParamKind::Enum { values, .. } => values,
        _ => &[],
    }
}

/// Any operation of the table.
pub fn any_operation() -> impl Strategy<Value = &'static Operation> {
    prop::sample::select(OPERATIONS)
}

/// A valid request of any operation.
pub fn any_valid_request(most_items: usize) -> BoxedStrategy<Request> {
    any_operation()
        .prop_flat_map(move |op| valid_request(op, most_items))
        .boxed()
}
