//! A tool call's JSON arguments read into a generic [`Request`]: each value
//! written as the wire text the library's validator checks, so that a mistake
//! gets the same message as on the command line, naming the parameter, the
//! value and the limit. Nothing here names a parameter.
//!
//! Each value's JSON type is checked against the tool's `inputSchema`, with
//! two leniencies that agents need: one value where a list is asked (`"x"`
//! for `["x"]`), and a string of digits where an integer is (`"10"`). Any
//! other mismatch (a number in a list of keywords, a fraction for an integer,
//! an object) is a tool error naming the parameter.

use std::time::Duration;

use seozoom::operation_table::{Param, ParamKind};
use seozoom::operations::SERVICE;
use seozoom::{error::InvalidInput, operation_table::Operation, request::Request};
use serde_json::{Map, Value};

use super::fields;
use super::shown::shown;
use super::tool_names::{ARG_FIELDS, ARG_MAX_ROWS, ARG_MAX_WAIT_S};

/// The request `arguments` make for `op`; `database` when they name none.
/// Values are not checked here beyond their JSON type: the validator does it
/// when the request is estimated or sent.
pub fn request(
    op: &'static Operation,
    arguments: Option<&Map<String, Value>>,
    database: &str,
) -> Result<Request, InvalidInput> {
    let mut request = Request::new(op, Some(database));
    let Some(arguments) = arguments else {
        return Ok(request);
    };
    let fail = |name: &str, value: &Value, problem: String| InvalidInput {
        operation: op.label(),
        param: name.to_owned(),
        value: shown(value),
        problem,
    };
    for (name, value) in arguments {
        // An agent's way of leaving an optional argument out; or an argument
        // of the server's own, not a parameter: the columns to return
        // ([`fields`]), the row cap of a paged job ([`max_rows`]).
        if value.is_null()
            || (name == ARG_FIELDS && fields::names(op).is_some())
            || (name == ARG_MAX_ROWS && op.paging().is_some())
            || name == ARG_MAX_WAIT_S
        {
            continue;
        }
        if name == SERVICE.database.wire && op.param(name).is_none() {
            let Value::String(database) = value else {
                return Err(fail(name, value, "must be a string".into()));
            };
            request.set_database(database);
            continue;
        }
        let Some(param) = op.param(name).filter(|p| !p.implicit) else {
            return Err(fail(name, value, unknown(op)));
        };
        let integer = param.kind == ParamKind::Integer;
        let values = match value {
            Value::Array(items) if param.list => items
                .iter()
                .map(|item| wire(item, integer).ok_or_else(|| fail(name, item, must_be(param))))
                .collect::<Result<Vec<_>, _>>()?,
            Value::Array(items) => {
                let problem = format!("takes exactly one value, {} given", items.len());
                return Err(fail(name, value, problem));
            }
            // Leniency: one value where the schema asks for a list of them.
            one => vec![wire(one, integer).ok_or_else(|| fail(name, one, must_be(param)))?],
        };
        request.set(param.wire, values);
    }
    Ok(request)
}

/// The row cap a paged operation's tool was given (`max_rows`): a whole
/// number, at least 1; `None` when not given.
pub fn max_rows(
    op: &Operation,
    arguments: Option<&Map<String, Value>>,
) -> Result<Option<usize>, InvalidInput> {
    let value = match arguments.and_then(|a| a.get(ARG_MAX_ROWS)) {
        None | Some(Value::Null) => return Ok(None),
        Some(value) => value,
    };
    let rows = wire(value, true).and_then(|text| text.parse::<usize>().ok());
    match rows {
        Some(rows) if rows >= 1 => Ok(Some(rows)),
        _ => Err(InvalidInput {
            operation: op.label(),
            param: ARG_MAX_ROWS.into(),
            value: shown(value),
            problem: "must be a whole number, at least 1".into(),
        }),
    }
}

/// The most a call may wait (`max_wait_s`, seconds, a fraction allowed);
/// `None` when not given. The library bounds it by the client's
/// `--max-wait`.
pub fn max_wait(
    op: &Operation,
    arguments: Option<&Map<String, Value>>,
) -> Result<Option<Duration>, InvalidInput> {
    let value = match arguments.and_then(|a| a.get(ARG_MAX_WAIT_S)) {
        None | Some(Value::Null) => return Ok(None),
        Some(value) => value,
    };
    let seconds = match value {
        Value::Number(n) => n.as_f64(),
        Value::String(text) => text.trim().parse::<f64>().ok(),
        _ => None,
    };
    match seconds.and_then(|s| Duration::try_from_secs_f64(s).ok()) {
        Some(wait) => Ok(Some(wait)),
        None => Err(InvalidInput {
            operation: op.label(),
            param: ARG_MAX_WAIT_S.into(),
            value: shown(value),
            problem: "must be a number of seconds, 0 or more".into(),
        }),
    }
}

/// A value as wire text, if its JSON type is the schema's: a string for
/// text, dates and enums; for an integer, a JSON integer or (leniency) a
/// string that reads as one. A number where a string is asked is refused, so
/// that nothing is sent (and charged) for a value the agent did not mean.
fn wire(value: &Value, integer: bool) -> Option<String> {
    match (value, integer) {
        (Value::String(text), false) => Some(text.clone()),
        (Value::String(text), true) => text.trim().parse::<i64>().ok().map(|n| n.to_string()),
        (Value::Number(number), true) => number.as_i64().map(|n| n.to_string()),
        _ => None,
    }
}

/// What a value of `param` must be, per its `inputSchema`.
fn must_be(param: &Param) -> String {
    let one = match param.kind {
        ParamKind::Integer => "a whole number (an integer, or a string of one)",
        _ => "a string",
    };
    if param.list {
        format!("must be an array of values that are each {one}, or one such value")
    } else {
        format!("must be {one}")
    }
}

/// The problem of an argument the operation does not take.
fn unknown(op: &Operation) -> String {
    let mut names: Vec<String> = op
        .params
        .iter()
        .filter(|p| !p.implicit)
        .map(|p| format!("`{}`", p.wire))
        .collect();
    if op.param(SERVICE.database.wire).is_none() {
        names.push(format!("`{}`", SERVICE.database.wire));
    }
    if fields::names(op).is_some() {
        names.push(format!("`{ARG_FIELDS}`"));
    }
    if op.paging().is_some() {
        names.push(format!("`{ARG_MAX_ROWS}`"));
    }
    names.push(format!("`{ARG_MAX_WAIT_S}`"));
    format!("unknown parameter: this tool takes {}", names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use seozoom::operations::OPERATIONS;
    use serde_json::json;

    /// An operation with a list parameter and an integer one, found by role.
    fn op_with_list() -> &'static Operation {
        OPERATIONS
            .iter()
            .copied()
            .find(|op| op.batch_param().is_some())
            .expect("some operation batches")
    }

    #[test]
    fn values_become_wire_text() {
        let op = op_with_list();
        let list = op.batch_param().unwrap().wire;
        let args = json!({list: ["a b", "7"], "db": "fr"});
        let request = request(op, args.as_object(), "it").unwrap();
        assert_eq!(
            request.get(list),
            Some(&["a b".to_owned(), "7".to_owned()][..])
        );
        let query = request.validate(&SERVICE, "it").unwrap();
        assert_eq!(query[0], (SERVICE.database.wire, "fr".to_owned()));
    }

    #[test]
    fn unknown_and_mistyped_arguments_name_the_parameter() {
        let op = op_with_list();
        let list = op.batch_param().unwrap().wire;
        let unknown = request(op, json!({"api_key": "x"}).as_object(), "it").unwrap_err();
        assert_eq!(unknown.param, "api_key");
        assert!(unknown.problem.contains(&format!("`{list}`")), "{unknown}");
        let mistyped = request(op, json!({list: [{"a": 1}]}).as_object(), "it").unwrap_err();
        assert_eq!(mistyped.param, list);
        assert!(mistyped.problem.contains("array of values"), "{mistyped}");
    }

    #[test]
    fn the_input_schema_is_held_with_two_leniencies() {
        let op = op_with_list();
        let list = op.batch_param().unwrap().wire;
        // A number in a list of strings: refused, naming the parameter.
        let number = request(op, json!({list: ["a", 7]}).as_object(), "it").unwrap_err();
        assert_eq!((number.param.as_str(), number.value.as_str()), (list, "7"));
        // One string for a list: taken.
        let one = request(op, json!({list: "a"}).as_object(), "it").unwrap();
        assert_eq!(one.get(list), Some(&["a".to_owned()][..]));
        // An integer parameter: a numeric string is taken, a fraction or a
        // boolean is not.
        let (op, param) = OPERATIONS
            .iter()
            .find_map(|op| {
                let p = op
                    .params
                    .iter()
                    .find(|p| p.kind == ParamKind::Integer && !p.implicit && !p.list)?;
                Some((*op, p.wire))
            })
            .expect("some operation takes an integer");
        let text = request(op, json!({param: " 10 "}).as_object(), "it").unwrap();
        assert_eq!(text.get(param), Some(&["10".to_owned()][..]));
        for bad in [json!(1.5), json!(true), json!("ten")] {
            let error = request(op, json!({param: bad}).as_object(), "it").unwrap_err();
            assert_eq!(error.param, param);
            assert!(error.problem.contains("integer"), "{error}");
        }
    }
}
