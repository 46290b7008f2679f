//! Python arguments to a request: each parameter found by its Rust name in
//! the operation table, each value written as wire text. The validator of
//! the Rust client then checks them all (kinds, limits, rules), so a wrong
//! value is refused there, naming the parameter, the value and the limit.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDate, PyDict, PyInt, PyString};
use seozoom::error::InvalidInput;
use seozoom::operation_table::{Operation, Param};
use seozoom::request::Request;

use crate::errors;

/// The operation a group and an action name.
pub fn operation(group: &str, action: &str) -> PyResult<&'static Operation> {
    Operation::find(group, action).ok_or_else(|| {
        errors::refused_input(&InvalidInput {
            operation: format!("{group} {action}"),
            param: "(operation)".into(),
            value: format!("{group} {action}"),
            problem: "no such operation in the spec".into(),
        })
    })
}

/// The parameter a Python name stands for: its Rust name, or that name with
/// the trailing `_` a Python keyword takes.
fn param(op: &'static Operation, name: &str) -> Option<&'static Param> {
    let visible = || op.params.iter().filter(|p| !p.implicit);
    visible()
        .find(|p| p.rust == name)
        .or_else(|| visible().find(|p| Some(p.rust) == name.strip_suffix('_')))
}

/// A request of `op` with `params` (Python name to value; `None` values are
/// left out) and the database, if one is given.
pub fn request(
    op: &'static Operation,
    params: &Bound<'_, PyDict>,
    db: Option<&str>,
) -> PyResult<Request> {
    let mut request = Request::new(op, db);
    for (name, value) in params.iter() {
        if value.is_none() {
            continue;
        }
        let name: String = name.extract()?;
        let Some(param) = param(op, &name) else {
            let known: Vec<&str> = op
                .params
                .iter()
                .filter(|p| !p.implicit)
                .map(|p| p.rust)
                .collect();
            return Err(errors::refused_input(&InvalidInput {
                operation: op.label(),
                param: name,
                value: errors::shown_value(&value),
                problem: format!(
                    "unknown parameter: this operation takes {}",
                    known.join(", ")
                ),
            }));
        };
        let values = wire_values(op, param, &value)?;
        request.set(param.wire, values);
    }
    Ok(request)
}

/// A value as wire text: a string as it is, a sequence as its items.
fn wire_values(op: &Operation, param: &Param, value: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if value.is_instance_of::<PyString>() || !param.list {
        return Ok(vec![wire_text(op, param, value)?]);
    }
    let mut values = Vec::new();
    for item in value.try_iter().map_err(|_| wrong_type(op, param, value))? {
        values.push(wire_text(op, param, &item?)?);
    }
    Ok(values)
}

/// One value as wire text: text, a whole number or a date.
fn wire_text(op: &Operation, param: &Param, value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = value.cast::<PyString>() {
        return text.extract::<String>();
    }
    // `True` is an int in Python; no parameter is a boolean.
    if value.is_instance_of::<PyBool>() {
        return Err(wrong_type(op, param, value));
    }
    if value.is_instance_of::<PyInt>() || value.is_instance_of::<PyDate>() {
        // `date.isoformat()` is the wire's `YYYY-MM-DD`; a datetime's has a
        // time too, which the validator refuses for a date parameter.
        return match value.is_instance_of::<PyDate>() {
            true => Ok(value.call_method0("isoformat")?.extract()?),
            false => value.str()?.extract::<String>(),
        };
    }
    Err(wrong_type(op, param, value))
}

fn wrong_type(op: &Operation, param: &Param, value: &Bound<'_, PyAny>) -> PyErr {
    let shown = errors::shown_value(value);
    let kind = value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    errors::refused_input(&InvalidInput {
        operation: op.label(),
        param: param.rust.into(),
        value: shown,
        problem: format!(
            "a {kind} is not a value of this parameter: give {}",
            if param.list {
                "a list of str, int or datetime.date"
            } else {
                "a str, int or datetime.date"
            }
        ),
    })
}
