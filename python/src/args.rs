//! The Python arguments of the client and its calls that are not an
//! operation's parameters (`max_rows=`, `rate_window=`, `timeout=`, `store=`,
//! ...): each checked here, so that a wrong one is `Refused`, naming it, its
//! value and what it must be, rather than a bare `TypeError` or
//! `OverflowError` from the conversion.

use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDate, PyString};
use seozoom::error::InvalidInput;
use seozoom::operation_table::Operation;

use crate::errors;

/// The value of an argument left out (or given as `None`).
fn given<'a, 'py>(value: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    value.filter(|v| !v.is_none())
}

/// A whole number, not a `bool` (which Python counts as one).
fn whole(value: &Bound<'_, PyAny>) -> Option<i64> {
    match value.is_instance_of::<PyBool>() {
        true => None,
        false => value.extract::<i64>().ok(),
    }
}

/// `max_rows=`: a whole number of rows, at least 1, or `None`.
pub fn max_rows(op: &Operation, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    let Some(value) = given(value) else {
        return Ok(None);
    };
    match whole(value).map(usize::try_from) {
        Some(Ok(rows)) if rows >= 1 => Ok(Some(rows)),
        _ => Err(errors::refused_input(&InvalidInput {
            operation: op.label(),
            param: "max_rows".into(),
            value: errors::shown_value(value),
            problem: "a whole number (int) of rows, at least 1".into(),
        })),
    }
}

/// A text argument (`api_key=`, `base_url=`, `store=`, `db=`), or `None`.
/// `secret`: the value is never shown.
pub fn text(
    name: &str,
    value: Option<&Bound<'_, PyAny>>,
    secret: bool,
) -> PyResult<Option<String>> {
    let Some(value) = given(value) else {
        return Ok(None);
    };
    match value.cast::<PyString>() {
        Ok(text) => Ok(Some(text.extract::<String>()?)),
        Err(_) => {
            let shown = match secret {
                true => format!("a {}", type_name(value)),
                false => errors::shown_value(value),
            };
            Err(errors::refused(name, Some(&shown), "a str"))
        }
    }
}

/// A flag (`refresh=`, `store_fallback=`): `True` or `False`.
pub fn flag(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    let Some(value) = given(value) else {
        return Ok(false);
    };
    match value.cast::<PyBool>() {
        Ok(flag) => Ok(flag.is_true()),
        Err(_) => Err(errors::refused(
            name,
            Some(&errors::shown_value(value)),
            "True or False",
        )),
    }
}

/// Seconds (`rate_window=`, `timeout=`): a finite int or float, at least 0
/// (more than 0 with `positive`), or `None`.
pub fn seconds(
    name: &str,
    value: Option<&Bound<'_, PyAny>>,
    positive: bool,
) -> PyResult<Option<Duration>> {
    let Some(value) = given(value) else {
        return Ok(None);
    };
    let number = match value.is_instance_of::<PyBool>() {
        true => None,
        false => value.extract::<f64>().ok(),
    };
    let duration = number
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .filter(|d| !positive || !d.is_zero());
    let limit = match positive {
        true => "a number of seconds (int or float), more than 0",
        false => "a number of seconds (int or float), at least 0",
    };
    match duration {
        Some(duration) => Ok(Some(duration)),
        None => Err(errors::refused(
            name,
            Some(&errors::shown_value(value)),
            limit,
        )),
    }
}

/// A day (`since=`): a `datetime.date`, or `None`.
pub fn date<'py>(
    name: &str,
    value: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyDate>>> {
    let Some(value) = given(value) else {
        return Ok(None);
    };
    match value.cast::<PyDate>() {
        Ok(day) => Ok(Some(day.clone())),
        Err(_) => Err(errors::refused(
            name,
            Some(&errors::shown_value(value)),
            "a datetime.date",
        )),
    }
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "value".into())
}
