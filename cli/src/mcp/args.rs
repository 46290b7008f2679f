//! A tool call's JSON arguments read into a generic [`Request`]: each value
//! written as the wire text the library's validator checks, so that a mistake
//! gets the same message as on the command line, naming the parameter, the
//! value and the limit. Nothing here names a parameter.

use seozoom::operations::SERVICE;
use seozoom::{error::InvalidInput, request::Request, table::Operation};
use serde_json::{Map, Value};

/// Longest piece of a value repeated in a message.
const SHOWN: usize = 80;

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
        if value.is_null() {
            // An agent's way of leaving an optional argument out.
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
        let values = match value {
            Value::Array(items) => items
                .iter()
                .map(|item| wire(item).ok_or_else(|| fail(name, item, must_be(param.list))))
                .collect::<Result<Vec<_>, _>>()?,
            one => vec![wire(one).ok_or_else(|| fail(name, one, must_be(param.list)))?],
        };
        request.set(param.wire, values);
    }
    Ok(request)
}

/// A scalar as wire text: a string as it is, a number as written. Anything
/// else has no wire form.
fn wire(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

fn must_be(list: bool) -> String {
    if list {
        "must be an array of strings or numbers".into()
    } else {
        "must be a string or a number".into()
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
    format!("unknown parameter: this tool takes {}", names.join(", "))
}

/// A value as shown in a message: its JSON text, cut short.
pub fn shown(value: &Value) -> String {
    let text = match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    if text.chars().count() > SHOWN {
        let mut cut: String = text.chars().take(SHOWN).collect();
        cut.push('…');
        cut
    } else {
        text
    }
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
        let args = json!({list: ["a b", 7], "db": "fr"});
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
        assert!(mistyped.problem.contains("array of strings"), "{mistyped}");
    }
}
