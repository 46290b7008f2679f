//! `fields`: the columns an agent asks a row tool for, by the names its
//! output schema uses, so that an answer carries only what the agent needs.
//!
//! A row tool is one whose rows are records (the spec's payload has named
//! members); a search-result list (positions to URLs) has no columns to pick.
//! The names come from the shared payload schema, the same the output schema
//! is made of, so nothing here names a field.

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

/// The `fields` property of `op`'s `inputSchema`, when its rows are records.
/// Bare: the names are not listed again as an `enum` (the output schema
/// lists them) and the meaning is said once, in the server's instructions,
/// since every session pays for the tool list in tokens; a name that is not
/// one is refused, naming those that are.
pub fn schema(op: &Operation) -> Option<Value> {
    names(op)?;
    Some(json!({TYPE: "array", "items": {TYPE: "string"}}))
}

/// The `fields` a call of `op` was given; `None` when not given.
///
/// # Errors
///
/// A value that is not a list of the row's member names, naming the
/// parameter, the value and the names it takes.
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
        match item.as_str() {
            Some(name) if names.iter().any(|n| n == name) => {
                if !fields.iter().any(|f| f == name) {
                    fields.push(name.to_owned());
                }
            }
            _ => {
                return Err(refuse(
                    item,
                    format!(
                        "not a field of this tool's rows; they are {}",
                        names.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(Some(fields.into()))
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
    fn fields_are_read_by_the_output_schema_names_and_refused_otherwise() {
        let op = record_op();
        let names = names(op).unwrap();
        let args = json!({ARG_FIELDS: [names[1], names[0], names[1]]});
        let fields = read(op, args.as_object()).unwrap().unwrap();
        assert_eq!(&fields[..], [names[1].clone(), names[0].clone()]);
        let one = json!({ARG_FIELDS: names[0]});
        assert_eq!(read(op, one.as_object()).unwrap().unwrap().len(), 1);
        let bad = json!({ARG_FIELDS: ["no_such_field"]});
        let error = read(op, bad.as_object()).unwrap_err();
        assert_eq!(
            (error.param.as_str(), error.value.as_str()),
            (ARG_FIELDS, "no_such_field")
        );
        assert!(error.problem.contains(&names[0]), "{error}");
        let empty = json!({ARG_FIELDS: []});
        assert!(read(op, empty.as_object()).is_err());
        assert!(read(op, None).unwrap().is_none());
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
