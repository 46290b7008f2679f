//! `fields`: the columns an agent asks a row tool for, by the names its
//! output schema uses, so that an answer carries only what the agent needs.
//!
//! A row tool is one whose rows are records (the spec's payload has named
//! members); a search-result list (positions to URLs) has no columns to pick.
//! The names come from the shared payload schema, the same the output schema
//! is made of, so nothing here names a field.
//!
//! A row may also carry members the spec does not know (the service moved on
//! from its reference): the text shows them as columns, so `fields` takes
//! them too. They can only be known from an answer, so a name outside the
//! output schema is checked against the answer's rows ([`check`]) rather
//! than refused before sending; one that no row carries is refused then,
//! naming the names there are, and the answer is held whole, nothing paid
//! for lost.

use std::sync::Arc;

use seozoom::error::InvalidInput;
use seozoom::operation_table::{Operation, Shape};
use serde_json::{Map, Value, json};

use super::json_schema::TYPE;
use super::shared_schemas;
use super::shown::shown;
use super::tool_names::ARG_FIELDS;

/// The columns asked for, in the order asked.
pub type Fields = Arc<[String]>;

/// The names of `op`'s row members, in the output schema's order; `None`
/// when its rows are not records.
pub fn names(op: &Operation) -> Option<Vec<String>> {
    let payload = shared_schemas::payload(op);
    let properties = payload.get("properties")?.as_object()?;
    (!properties.is_empty()).then(|| properties.keys().cloned().collect())
}

/// The `fields` property of `op`'s `inputSchema`, when its rows are records:
/// each item one of the output schema's row names (an `enum`, for a model to
/// pick from) or any other name (`anyOf` a plain string), since an answer's
/// rows may carry members the spec does not know, which only the answer
/// tells and [`check`] then accepts. A client that validates arguments
/// against the schema, or a model decoding under it, must let those
/// through: the `enum` alone would refuse them.
pub fn schema(op: &Operation) -> Option<Value> {
    let names = names(op)?;
    Some(json!({
        TYPE: "array",
        "items": {"anyOf": [{"enum": names}, {TYPE: "string"}]},
        "description": "Columns to return (default: all).",
    }))
}

/// The `fields` a call of `op` was given; `None` when not given. A name
/// outside the output schema is taken here and checked against the answer
/// ([`check`]).
///
/// # Errors
///
/// A value that is not a list of names (or one name), or a tool whose rows
/// are not records, naming the parameter and the value.
pub fn read(
    op: &Operation,
    arguments: Option<&Map<String, Value>>,
) -> Result<Option<Fields>, InvalidInput> {
    let value = match arguments.and_then(|a| a.get(ARG_FIELDS)) {
        None | Some(Value::Null) => return Ok(None),
        Some(value) => value,
    };
    let refuse = |value: &Value, problem: String| InvalidInput {
        operation: op.label(),
        param: ARG_FIELDS.into(),
        value: shown(value),
        problem,
    };
    let Some(names) = names(op) else {
        return Err(refuse(
            value,
            "this tool's rows are not records: it takes no `fields`".into(),
        ));
    };
    // Leniency, as for every list argument: one name for a list of one.
    let asked: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    if asked.is_empty() {
        return Err(refuse(value, "must name at least one field".into()));
    }
    let mut fields = Vec::with_capacity(asked.len());
    for item in asked {
        match item.as_str().filter(|name| !name.trim().is_empty()) {
            Some(name) => {
                if !fields.iter().any(|f| f == name) {
                    fields.push(name.to_owned());
                }
            }
            None => {
                return Err(refuse(
                    item,
                    format!(
                        "not a column name; the columns of this tool's rows are {}",
                        names.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(Some(fields.into()))
}

/// Checks the `fields` of a call of `op` (the tool `tool`) against its
/// answer's `response`: each is a name of the output schema's rows or a
/// member some row of this answer carries that the spec does not know.
///
/// # Errors
///
/// The first name that is neither, naming the tool, the value and the names
/// it takes (the schema's, then this answer's unknown members).
pub fn check(
    op: &Operation,
    tool: &str,
    fields: &[String],
    response: &Value,
) -> Result<(), InvalidInput> {
    let names = names(op).unwrap_or_default();
    let unknown = unknown_members(op.response.shape, response, &names);
    let Some(missing) = fields
        .iter()
        .find(|f| !names.contains(f) && !unknown.contains(f))
    else {
        return Ok(());
    };
    let mut accepted = names.join(", ");
    if !unknown.is_empty() {
        accepted.push_str("; and, in this answer's rows, members the spec does not know: ");
        accepted.push_str(&unknown.join(", "));
    }
    Err(InvalidInput {
        operation: op.label(),
        param: ARG_FIELDS.into(),
        value: shown(&Value::String(missing.clone())),
        problem: format!(
            "not a column of the rows of the tool `{tool}`, nor a member of this answer's rows; the columns are {accepted}"
        ),
    })
}

/// The members of `response`'s rows that are not among `names` (the spec's),
/// in the order first seen.
fn unknown_members(shape: Shape, response: &Value, names: &[String]) -> Vec<String> {
    let rows: Vec<&Value> = match (shape, response) {
        (Shape::Array, Value::Array(rows)) => rows.iter().collect(),
        (Shape::Map { .. }, Value::Object(members)) => members.values().collect(),
        (_, single) => vec![single],
    };
    let mut unknown: Vec<String> = Vec::new();
    for row in rows {
        for name in row.as_object().into_iter().flat_map(Map::keys) {
            if !names.contains(name) && !unknown.contains(name) {
                unknown.push(name.clone());
            }
        }
    }
    unknown
}

/// `response` with each row cut to `fields`, in their order.
pub fn project(shape: Shape, response: Value, fields: &[String]) -> Value {
    match (shape, response) {
        (Shape::Array, Value::Array(rows)) => {
            Value::Array(rows.into_iter().map(|row| row_of(row, fields)).collect())
        }
        (Shape::Map { .. }, Value::Object(members)) => Value::Object(
            members
                .into_iter()
                .map(|(key, row)| (key, row_of(row, fields)))
                .collect(),
        ),
        (_, single) => row_of(single, fields),
    }
}

/// One row cut to `fields`; a value that is not a record is left as it is.
fn row_of(row: Value, fields: &[String]) -> Value {
    match row {
        Value::Object(mut members) => Value::Object(
            fields
                .iter()
                .filter_map(|f| Some((f.clone(), members.remove(f)?)))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use seozoom::operations::OPERATIONS;

    fn record_op() -> &'static Operation {
        OPERATIONS
            .iter()
            .copied()
            .find(|op| op.response.shape == Shape::Array && names(op).is_some())
            .expect("an operation answering an array of records")
    }

    #[test]
    fn fields_are_read_as_names_and_refused_when_not_names() {
        let op = record_op();
        let names = names(op).unwrap();
        let args = json!({ARG_FIELDS: [names[1], names[0], names[1]]});
        let fields = read(op, args.as_object()).unwrap().unwrap();
        assert_eq!(&fields[..], [names[1].clone(), names[0].clone()]);
        let one = json!({ARG_FIELDS: names[0]});
        assert_eq!(read(op, one.as_object()).unwrap().unwrap().len(), 1);
        let bad = json!({ARG_FIELDS: [names[0], 7]});
        let error = read(op, bad.as_object()).unwrap_err();
        assert_eq!(
            (error.param.as_str(), error.value.as_str()),
            (ARG_FIELDS, "7")
        );
        assert!(error.problem.contains(&names[0]), "{error}");
        let empty = json!({ARG_FIELDS: []});
        assert!(read(op, empty.as_object()).is_err());
        assert!(read(op, None).unwrap().is_none());
    }

    #[test]
    fn a_name_outside_the_schema_is_checked_against_the_answers_rows() {
        let op = record_op();
        let names = names(op).unwrap();
        let rows = json!([{names[0].as_str(): 1}, {names[0].as_str(): 2, "drifted": 3}]);
        let known: Vec<String> = vec![names[0].clone(), "drifted".into()];
        assert!(check(op, "t_x", &known, &rows).is_ok());
        let typo: Vec<String> = vec![names[0].clone(), "driftd".into()];
        let error = check(op, "t_x", &typo, &rows).unwrap_err();
        assert_eq!(
            (error.param.as_str(), error.value.as_str()),
            (ARG_FIELDS, "driftd")
        );
        for named in ["`t_x`", &names[0], &names[names.len() - 1], "drifted"] {
            assert!(error.problem.contains(named), "{named}: {error}");
        }
        let without = check(op, "t_x", &typo, &json!([{names[0].as_str(): 1}])).unwrap_err();
        assert!(!without.problem.contains("spec does not know"), "{without}");
    }

    #[test]
    fn rows_keep_the_fields_asked_in_their_order() {
        let rows = json!([{"a": 1, "b": 2, "c": 3}, {"a": 4, "c": null}]);
        let fields: Vec<String> = vec!["c".into(), "a".into()];
        let cut = project(Shape::Array, rows, &fields);
        assert_eq!(cut.to_string(), r#"[{"c":3,"a":1},{"c":null,"a":4}]"#);
        let map = json!({"k": {"a": 1, "b": 2}});
        let cut = project(Shape::Map { key: "x" }, map, &fields);
        assert_eq!(cut, json!({"k": {"a": 1}}));
    }
}
