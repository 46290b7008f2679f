//! A list sent as repeated keys (`keyword=a&keyword=b`) is refused with a 400
//! that says how a list is sent (`keyword=a|b`), in every mode of the sandbox
//! (strict, with faults, or neither), before anything else is decided about
//! the request.
//!
//! The service reads a repeated key as PHP does, keeping the last value, and
//! answers for that value alone: the request succeeds and the other values
//! are silently dropped. That is the one mistake every client generator that
//! ignores OpenAPI's `pipeDelimited` makes (orval, openapi-python-client,
//! openapi-fetch without its serializer setting), and it would pass every test
//! against a sandbox that answered as the service does. The sandbox is where
//! clients are tested, so here it is stricter than the service on purpose.
//! A repeated key of a parameter that takes one value keeps PHP's reading
//! (the last value), as the service does.

use axum::http::StatusCode;
use axum::response::Response;

use crate::error::InvalidInput;
use crate::operation_table::Operation;

use super::encode_quirks;

/// Longest value quoted in the message (a value may be long).
const SHOWN: usize = 40;

/// The 400 for a query to `op` that gives one of its list parameters more
/// than once, or `None`.
pub(super) fn refuse_repeated(op: &'static Operation, raw_query: &str) -> Option<Response> {
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(raw_query.as_bytes())
        .map(|(n, v)| (n.into_owned(), v.into_owned()))
        .collect();
    let invalid = repeated(op, &pairs)?;
    Some(encode_quirks::error(
        StatusCode::BAD_REQUEST,
        &invalid.to_string(),
    ))
}

/// The first list parameter of `op` given more than once in `pairs`, as the
/// refusal that explains the separator.
fn repeated(op: &'static Operation, pairs: &[(String, String)]) -> Option<InvalidInput> {
    let separator = op.service.list_separator;
    pairs.iter().find_map(|(name, _)| {
        op.param(name).filter(|p| p.list)?;
        let values: Vec<&str> = pairs
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| shorten(v))
            .collect();
        if values.len() < 2 {
            return None;
        }
        let repeated = values
            .iter()
            .map(|v| format!("{name}={v}"))
            .collect::<Vec<_>>()
            .join("&");
        let joined = values.join(&separator.to_string());
        Some(InvalidInput {
            operation: op.label(),
            param: name.clone(),
            value: repeated,
            problem: format!(
                "a list parameter given {n} times (repeated keys). Send a list as one value, its values joined with `{separator}`: `{name}={joined}`. The service reads only the last of repeated keys and answers for that value alone; the sandbox refuses them so that this shows in tests (stricter than the service, on purpose)",
                n = values.len(),
            ),
        })
    })
}

fn shorten(value: &str) -> &str {
    match value.char_indices().nth(SHOWN) {
        Some((at, _)) => &value[..at],
        None => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::OPERATIONS;

    fn pairs(raw: &str) -> Vec<(String, String)> {
        url::form_urlencoded::parse(raw.as_bytes())
            .map(|(n, v)| (n.into_owned(), v.into_owned()))
            .collect()
    }

    #[test]
    fn a_repeated_list_key_is_refused_explaining_the_separator() {
        let mut checked = 0;
        for op in OPERATIONS {
            for p in op.params.iter().filter(|p| p.list) {
                let w = p.wire;
                let invalid = repeated(op, &pairs(&format!("{w}=a&db=it&{w}=b%20c")))
                    .unwrap_or_else(|| panic!("{}: {w} repeated", op.label()));
                let text = invalid.to_string();
                assert!(text.contains(&format!("`{w}=a|b c`")), "{text}");
                assert!(text.contains(&format!("{w}=a&{w}=b c")), "{text}");
                assert!(text.contains("given 2 times"), "{text}");
                assert!(repeated(op, &pairs(&format!("{w}=a|b"))).is_none());
                checked += 1;
            }
        }
        assert!(checked > 0);
    }

    #[test]
    fn a_repeated_single_value_key_keeps_the_last_value() {
        for op in OPERATIONS {
            for p in op.params.iter().filter(|p| !p.list) {
                let raw = format!("{0}=1&{0}=2", p.wire);
                assert!(repeated(op, &pairs(&raw)).is_none(), "{}", op.label());
            }
        }
    }

    #[test]
    fn the_refusal_is_a_400() {
        let op = OPERATIONS
            .iter()
            .find(|op| op.params.iter().any(|p| p.list))
            .unwrap();
        let list = op.params.iter().find(|p| p.list).unwrap().wire;
        let refused = refuse_repeated(op, &format!("{list}=a&{list}=b")).expect("refused");
        assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
        assert!(refuse_repeated(op, &format!("{list}=a|b")).is_none());
    }

    #[test]
    fn a_long_value_is_cut_in_the_message() {
        let long = "x".repeat(500);
        assert_eq!(shorten(&long).len(), SHOWN);
        assert_eq!(shorten("é"), "é");
    }
}
