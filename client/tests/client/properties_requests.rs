//! Property tests of requests: query encoding read back by a standard parser,
//! validation against an independent oracle written here from the operation
//! table, and cost estimates against what the sandbox charges. A fixed seed
//! (see `props`), so CI runs the same cases every time.

use crate::props;

use std::cell::Cell;
use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use seozoom::error::ErrorKind;
use seozoom::job::RunOptions;
use seozoom::operation_table::{Operation, Param, ParamKind};
use seozoom::operations::SERVICE;
use seozoom::sandbox::Sandbox;
use seozoom::{Client, config::RateLimitMode, config::RetryPolicy, request::Request};

use props::{any_operation, any_valid_request, database_values, runner, valid_request};

/// A client that is never used to send (URLs and estimates only).
fn offline() -> Client {
    Client::builder().api_key("prop-key").build().unwrap()
}

fn op(group: &str, action: &str) -> &'static Operation {
    Operation::find(group, action).unwrap()
}

// ---------------------------------------------------------------------------
// Query encoding
// ---------------------------------------------------------------------------

/// Text with the characters that break hand-made queries, and anything else;
/// now and then a separator or a blank value, which must be refused.
fn hostile_text() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => "[&=+%# a-zé\\x00-\\x1f\\x7f\u{1F600}\u{202E}\u{FEFF}\u{3000}]{1,12}",
        8 => any::<String>().prop_filter("not empty", |s| !s.is_empty()),
        1 => "[a-z&=]{0,3}\\|[a-z&=]{0,3}",
        1 => "[ \t\n]{0,3}",
    ]
}

#[test]
fn query_values_read_back_exactly_and_separators_or_empty_values_are_refused() {
    let client = offline();
    let cases = [
        ("keywords", "metrics", "keyword"),
        ("urls", "metrics", "url"),
    ];
    let strategy = (
        prop::sample::select(cases.to_vec()),
        prop::collection::vec(hostile_text(), 1..=6),
    );
    let (sent, refused) = (Cell::new(0u32), Cell::new(0u32));
    runner(1024)
        .run(&strategy, |((group, action, wire), values)| {
            let mut request = Request::new(op(group, action), None);
            request.set(wire, values.clone());
            let should_refuse = values
                .iter()
                .any(|v| v.contains(SERVICE.list_separator) || v.trim().is_empty());
            match client.redacted_url(&request) {
                Err(error) if matches!(error.kind(), ErrorKind::InvalidInput(_)) => {
                    let ErrorKind::InvalidInput(invalid) = error.into_kind() else {
                        return Err(TestCaseError::fail("the kind was just matched"));
                    };
                    prop_assert!(should_refuse, "refused {values:?}: {invalid}");
                    prop_assert_eq!(invalid.param, wire);
                    refused.set(refused.get() + 1);
                }
                Err(other) => return Err(TestCaseError::fail(format!("{other:?}"))),
                Ok(url) => {
                    prop_assert!(!should_refuse, "sent {values:?}");
                    let parsed =
                        url::Url::parse(&url).map_err(|e| TestCaseError::fail(e.to_string()))?;
                    let pairs: Vec<(String, String)> = parsed.query_pairs().into_owned().collect();
                    let read: Vec<&(String, String)> =
                        pairs.iter().filter(|(n, _)| n == wire).collect();
                    prop_assert_eq!(read.len(), 1, "{}", url);
                    let back: Vec<&str> = read[0].1.split(SERVICE.list_separator).collect();
                    prop_assert_eq!(back, values.iter().map(String::as_str).collect::<Vec<_>>());
                    prop_assert_eq!(
                        pairs
                            .iter()
                            .find(|(n, _)| n == "action")
                            .map(|(_, v)| v.as_str()),
                        Some(action)
                    );
                    sent.set(sent.get() + 1);
                }
            }
            Ok(())
        })
        .unwrap();
    let (sent, refused) = (sent.get(), refused.get());
    assert!(
        sent > 100 && refused > 100,
        "sent {sent}, refused {refused}"
    );
}

// ---------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------

/// A whole number as the spec means it: an optional sign and digits, within
/// `i64`. Written here, not taken from the client.
fn whole_number(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut n: i128 = 0;
    for b in digits.bytes() {
        n = n.checked_mul(10)?.checked_add(i128::from(b - b'0'))?;
        if n > i128::from(i64::MAX) + 1 {
            return None;
        }
    }
    i64::try_from(if negative { -n } else { n }).ok()
}

/// `yyyy-MM-dd`, a real day of the Gregorian calendar.
fn calendar_date(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let number = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = &text[range];
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let (Some(year), Some(month), Some(day)) = (number(0..4), number(5..7), number(8..10)) else {
        return false;
    };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// Whether one value is within the parameter's kind and limits.
fn value_ok(param: &Param, value: &str) -> bool {
    if value.trim().is_empty() || value.contains(SERVICE.list_separator) {
        return false;
    }
    match param.kind {
        ParamKind::Integer => whole_number(value).is_some_and(|n| {
            param.min.is_none_or(|m| n >= m.value) && param.max.is_none_or(|m| n <= m.value)
        }),
        ParamKind::Date => calendar_date(value),
        ParamKind::Enum { values, .. } => values.contains(&value),
        _ => true,
    }
}

/// Parameter values by wire name, as given to a request.
type Given = BTreeMap<String, Vec<String>>;

/// The oracle: whether the spec's table accepts a request of `op` with this
/// database and these values, from the table alone.
fn accepted(op: &Operation, database: Option<&str>, given: &Given) -> bool {
    if given.keys().any(|wire| op.param(wire).is_none()) {
        return false;
    }
    let database = database.or(SERVICE.database.default).unwrap_or_default();
    if !value_ok(&SERVICE.database, database) {
        return false;
    }
    let mut sent = BTreeMap::new();
    for param in op.params {
        let values = match (given.get(param.wire), param.default) {
            (Some(values), _) => values.clone(),
            (None, Some(default)) => vec![default.to_owned()],
            (None, None) if param.required => return false,
            (None, None) => continue,
        };
        let n = values.len() as i64;
        if (!param.list && n != 1)
            || param.min_items.is_some_and(|m| n < m.value)
            || param.max_items.is_some_and(|m| n > m.value)
            || !values.iter().all(|v| value_ok(param, v))
        {
            return false;
        }
        sent.insert(param.wire, values.join(&SERVICE.list_separator.to_string()));
    }
    op.rules.iter().all(|rule| {
        if sent.get(rule.if_param).map(String::as_str) != Some(rule.if_value) {
            return true;
        }
        match (sent.get(rule.require), rule.equal_to) {
            (None, _) => false,
            (Some(value), Some(wanted)) => value == wanted,
            (Some(_), None) => true,
        }
    })
}

/// A value that breaks something, or not: empty, blank, a separator, not a
/// number, out of range, not a date, not one of the values, or valid.
fn any_value(param: &'static Param) -> BoxedStrategy<String> {
    let edge = |limit: Option<seozoom::operation_table::Limit>, step: i64| {
        limit
            .map_or(0, |l| l.value.saturating_add(step))
            .to_string()
    };
    prop_oneof![
        4 => props::valid_value(param),
        1 => Just(String::new()),
        1 => Just(" \t".to_owned()),
        1 => props::valid_value(param).prop_map(|v| format!("{v}|x")),
        1 => Just(edge(param.min, -1)),
        1 => Just(edge(param.min, 0)),
        1 => Just(edge(param.max, 0)),
        1 => Just(edge(param.max, 1)),
        1 => prop_oneof![
            Just("99999999999999999999".to_owned()),
            Just("+7".to_owned()),
            Just("1.5".to_owned()),
            Just("2023-02-29".to_owned()),
            Just("2024-02-29".to_owned()),
            Just("2024-13-01".to_owned()),
            Just("2024/01/01".to_owned()),
            Just(" 5".to_owned()),
            Just("IT".to_owned()),
        ],
    ]
    .boxed()
}

/// Values of one parameter: usually within its item limits, sometimes none or
/// one too many.
fn any_values(param: &'static Param) -> BoxedStrategy<Vec<String>> {
    let most = param.max_items.map_or(3, |m| m.value as usize);
    prop_oneof![
        6 => prop::collection::vec(any_value(param), 1..=3.min(most.max(1))),
        1 => Just(Vec::new()),
        1 => prop::collection::vec(props::valid_value(param), most + 1..=most + 1),
        1 => prop::collection::vec(any_value(param), 2..=2),
    ]
    .boxed()
}

/// A request of `op` from a valid one, with up to three changes: a parameter
/// removed, given other values, or an unknown parameter added.
fn any_request(op: &'static Operation) -> BoxedStrategy<(Option<String>, Given)> {
    let wires: Vec<&'static str> = op.params.iter().map(|p| p.wire).collect();
    let change = prop_oneof![
        2 => prop::sample::select(op.params.iter().collect::<Vec<&'static Param>>())
            .prop_flat_map(|param| {
                any_values(param).prop_map(move |values| (param.wire.to_owned(), Some(values)))
            }),
        1 => prop::sample::select(wires).prop_map(|wire| (wire.to_owned(), None)),
        1 => Just(("nonsense".to_owned(), Some(vec!["1".to_owned()]))),
    ];
    let database = prop_oneof![
        4 => Just(None),
        2 => prop::sample::select(database_values()).prop_map(|d| Some(d.to_owned())),
        1 => prop::sample::select(&["", "xx", "IT", " it"][..]).prop_map(|d| Some(d.to_owned())),
    ];
    (
        valid_request(op, 3),
        prop::collection::vec(change, 0..=3),
        database,
    )
        .prop_map(move |(request, changes, database)| {
            let mut given: Given = op
                .params
                .iter()
                .filter_map(|p| Some((p.wire.to_owned(), request.get(p.wire)?.to_vec())))
                .collect();
            for (wire, values) in changes {
                match values {
                    Some(values) => given.insert(wire, values),
                    None => given.remove(&wire),
                };
            }
            (database, given)
        })
        .boxed()
}

#[test]
fn requests_are_accepted_exactly_when_the_oracle_accepts_them() {
    let strategy = any_operation()
        .prop_filter("takes parameters", |op| !op.params.is_empty())
        .prop_flat_map(|op| (Just(op), any_request(op)));
    let (yes, no) = (Cell::new(0u32), Cell::new(0u32));
    runner(4096)
        .run(&strategy, |(op, (database, given))| {
            let mut request = Request::new(op, None);
            if let Some(database) = &database {
                request.set_database(database);
            }
            for (wire, values) in &given {
                request.set(wire, values.clone());
            }
            let oracle = accepted(op, database.as_deref(), &given);
            let validated =
                request.validate(&SERVICE, SERVICE.database.default.unwrap_or_default());
            prop_assert_eq!(
                validated.is_ok(),
                oracle,
                "{} {:?} {:?}: {:?}",
                op.label(),
                database,
                given,
                validated.err()
            );
            let verdict = if oracle { &yes } else { &no };
            verdict.set(verdict.get() + 1);
            Ok(())
        })
        .unwrap();
    // Both verdicts must be common, or the property says little.
    let (yes, no) = (yes.get(), no.get());
    assert!(yes > 500 && no > 500, "accepted {yes}, refused {no}");
}

// ---------------------------------------------------------------------------
// Estimates
// ---------------------------------------------------------------------------

#[test]
fn the_estimate_is_never_below_what_the_sandbox_charges() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let (charged_calls, cases) = (Cell::new(0u32), Cell::new(0u32));
    runner(256)
        .run(&any_valid_request(100), |request| {
            let (estimate, charged, outcome) = runtime.block_on(async {
                // A sandbox per case: its balance is the only charge seen.
                let sandbox = Sandbox::start().await.unwrap();
                let client = Client::builder()
                    .api_key(Sandbox::API_KEY)
                    .base_url(sandbox.base_url())
                    .retry(RetryPolicy::none())
                    .rate_limit(RateLimitMode::Off)
                    .build()
                    .unwrap();
                let estimate = client.estimate(&request);
                let outcome = client
                    .run::<serde_json::Value>(request.clone(), RunOptions::one_request())
                    .await
                    .map(|outcome| outcome.envelope);
                let charged = Sandbox::STARTING_UNITS - sandbox.units_remaining();
                (estimate, charged, outcome.map(|e| e.units_used))
            });
            let estimate = estimate.map_err(|e| TestCaseError::fail(e.to_string()))?;
            match outcome {
                Ok(used) => prop_assert_eq!(used, charged, "the envelope reports the charge"),
                Err(e) if matches!(e.kind(), ErrorKind::NoData) => prop_assert_eq!(charged, 0),
                Err(other) => return Err(TestCaseError::fail(format!("{other}"))),
            }
            prop_assert!(
                estimate.max >= charged,
                "{}: estimate {:?}, charged {}",
                request.operation().label(),
                estimate,
                charged
            );
            prop_assert!(estimate.min <= estimate.max);
            cases.set(cases.get() + 1);
            if charged > 0 {
                charged_calls.set(charged_calls.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    let (charged_calls, cases) = (charged_calls.get(), cases.get());
    assert!(
        charged_calls > cases / 2,
        "{charged_calls} of {cases} calls charged"
    );
}
