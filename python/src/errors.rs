//! The client's errors as the package's exceptions (`seozoom._errors`):
//!
//! | Rust | Python |
//! |---|---|
//! | `InvalidInput`, `InsecureUrl`, `RateLimited` (refuse mode), `Config`, `Store` | `Refused` |
//! | `OverBudget`, `OverWindowBudget`, `UnknownCost` | `OverBudget` (a `Refused`) |
//! | `Service` | `ServiceError` |
//! | `Transport` | `TransportError` |
//! | `Decode` | `DecodeError` |
//! | `Partial` | `Partial` (built by `job`, which holds the rows) |
//!
//! Every text comes from the Rust error, which the client has already
//! scrubbed of the key.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use seozoom::Error;
use seozoom::error::{ConfigError, ErrorKind, InvalidInput};
use seozoom::operation_table::Operation;

/// An instance of the exception class `name` of `seozoom._errors`, with
/// `message` and the attributes in `attrs`.
pub fn raise(py: Python<'_>, name: &str, message: &str, attrs: &[(&str, Py<PyAny>)]) -> PyErr {
    let built = (|| -> PyResult<PyErr> {
        let class = py.import("seozoom._errors")?.getattr(name)?;
        let kwargs = PyDict::new(py);
        for (key, value) in attrs {
            kwargs.set_item(key, value)?;
        }
        let instance = class.call((message,), Some(&kwargs))?;
        Ok(PyErr::from_value(instance))
    })();
    built.unwrap_or_else(|error| error)
}

/// The most characters of a value a message shows: a long list or text is
/// cut, with its length said.
const SHOWN: usize = 80;

/// A value's text as a message shows it: whole when short, else its first
/// characters and how long it is. Text already cut is left as it is.
pub fn cut(text: &str) -> String {
    let count = text.chars().count();
    let already = text
        .split_once(CUT)
        .is_some_and(|(head, _)| head.chars().count() == SHOWN);
    if count <= SHOWN || already {
        return text.to_owned();
    }
    let head: String = text.chars().take(SHOWN).collect();
    format!("{head}{CUT}{count} characters)")
}

/// What follows the head of a cut value.
const CUT: &str = "… (";

/// A Python value as a message shows it: a `str` as it is, anything else as
/// its `repr`; cut, a sequence saying how many items it has.
pub fn shown_value(value: &Bound<'_, PyAny>) -> String {
    if let Ok(text) = value.extract::<String>() {
        return cut(&text);
    }
    let repr = value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "(a value)".into());
    match value.len() {
        Ok(n) if repr.chars().count() > SHOWN => {
            let head: String = repr.chars().take(SHOWN).collect();
            format!("{head}{CUT}{n} items)")
        }
        _ => cut(&repr),
    }
}

/// `Refused` (or its subclass `class`): `parameter` names what was refused,
/// `value` is the value as text, cut (`None` when no value is at fault),
/// and `limit` the limit or rule it breaks.
fn refused_as(
    class: &str,
    message: &str,
    parameter: &str,
    value: Option<&str>,
    limit: &str,
    more: &[(&str, Py<PyAny>)],
) -> PyErr {
    Python::attach(|py| {
        let value = value.map_or_else(|| py.None(), |v| text(py, cut(v)));
        let mut attrs = vec![
            ("parameter", text(py, parameter)),
            ("value", value),
            ("limit", text(py, limit)),
        ];
        attrs.extend(more.iter().map(|(k, v)| (*k, v.clone_ref(py))));
        raise(py, class, message, &attrs)
    })
}

/// `Refused` for `parameter` = `value` (as text, cut in the message too),
/// breaking `limit`.
pub fn refused(parameter: &str, value: Option<&str>, limit: &str) -> PyErr {
    let shown = value.map_or_else(|| "(none)".to_owned(), cut);
    let message = format!("{parameter} = {shown}: {limit}");
    refused_as("Refused", &message, parameter, value, limit, &[])
}

/// The Rust name of a parameter given by its wire name in an error, when the
/// operation has it.
fn rust_name(operation: &str, wire: &str) -> Option<&'static str> {
    let (group, action) = operation.split_once(' ')?;
    let op = Operation::find(group, action)?;
    op.param(wire).map(|p| p.rust)
}

/// `Refused` for an input the spec does not allow, naming the parameter as
/// Python gives it (its Rust name), the value (cut) and the limit.
pub fn refused_input(invalid: &InvalidInput) -> PyErr {
    let InvalidInput {
        operation,
        param,
        value,
        problem,
    } = invalid;
    let name = rust_name(operation, param).unwrap_or(param);
    let on_wire = match name == param {
        true => String::new(),
        false => format!(" (`{param}` on the wire)"),
    };
    let message = format!(
        "{operation}: parameter `{name}`{on_wire} = {}: {problem}",
        cut(value)
    );
    refused_as("Refused", &message, name, Some(value), problem, &[])
}

fn text(py: Python<'_>, value: impl AsRef<str>) -> Py<PyAny> {
    pyo3::types::PyString::new(py, value.as_ref())
        .into_any()
        .unbind()
}

fn int(py: Python<'_>, value: i64) -> Py<PyAny> {
    value
        .into_pyobject(py)
        .map(|v| v.into_any().unbind())
        .unwrap_or_else(|_| py.None())
}

/// What a configuration error is about, as the client's keyword argument,
/// the value at fault (never the key) and what the argument must be.
fn config_part(kind: &ErrorKind) -> (&'static str, Option<&str>, &'static str) {
    const STORE: &str =
        "a store that can be used: `sqlite:PATH`, `redis://HOST:PORT/N`, `memory` or `none`";
    const URL: &str =
        "an `https://` URL, or `http://` to a loopback host, without query or fragment";
    match kind {
        ErrorKind::Store { store, .. } | ErrorKind::Config(ConfigError::Store { store, .. }) => {
            ("store", Some(store), STORE)
        }
        ErrorKind::Config(ConfigError::MissingKey { .. } | ConfigError::KeyNotSet { .. }) => (
            "api_key",
            None,
            "an API key: pass `api_key=`, or set SEOZOOM_API_KEY",
        ),
        ErrorKind::Config(
            ConfigError::NotAUrl { url, .. }
            | ConfigError::UnsupportedScheme { url, .. }
            | ConfigError::QueryOrFragment { url },
        ) => ("base_url", Some(url), URL),
        ErrorKind::Config(ConfigError::NoDefaultDatabase) => {
            ("db", None, "a database: the spec names no default one")
        }
        _ => ("client", None, "a client that can be built"),
    }
}

/// `OverBudget`: `value` the most the call or job may cost (as text, `None`
/// when no cost is known), `limit` what is left; both also as numbers,
/// `cost` and `units_left`.
fn over_budget(message: &str, cost: Option<i64>, units_left: i64, limit: &str) -> PyErr {
    Python::attach(|py| {
        let more = [
            ("cost", cost.map_or_else(|| py.None(), |c| int(py, c))),
            ("units_left", int(py, units_left)),
        ];
        let value = cost.map(|c| c.to_string());
        refused_as(
            "OverBudget",
            message,
            "budget",
            value.as_deref(),
            limit,
            &more,
        )
    })
}

/// The exception for a client error (not `Partial`, which `job` builds).
pub fn from_error(error: &Error) -> PyErr {
    let message = error.to_string();
    Python::attach(|py| match error.kind() {
        ErrorKind::InvalidInput(invalid) => refused_input(invalid),
        ErrorKind::InsecureUrl { url } => refused_as(
            "Refused",
            &message,
            "base_url",
            Some(url),
            "an `https://` URL, or `http://` to a loopback host",
            &[],
        ),
        ErrorKind::OverBudget {
            estimate_max,
            budget_left,
            budget,
        } => over_budget(
            &message,
            Some(*estimate_max),
            *budget_left,
            &format!("{budget_left} units left of this client's budget of {budget}"),
        ),
        ErrorKind::OverWindowBudget {
            estimate_max,
            spent,
            held,
            budget,
            window,
        } => {
            let left = budget.saturating_sub(*spent).saturating_sub(*held);
            over_budget(
                &message,
                Some(*estimate_max),
                left,
                &format!("{left} units left of the key's budget of {budget} a {window}"),
            )
        }
        ErrorKind::UnknownCost { budget } => over_budget(
            &message,
            None,
            *budget,
            &format!("a cost the spec states, under this client's budget of {budget}"),
        ),
        ErrorKind::RateLimited { per_minute, .. } => refused_as(
            "Refused",
            &message,
            "rate_limit",
            None,
            &format!("{per_minute} requests per minute"),
            &[],
        ),
        ErrorKind::Config(_) | ErrorKind::Store { .. } => {
            let (parameter, value, limit) = config_part(error.kind());
            refused_as("Refused", &message, parameter, value, limit, &[])
        }
        ErrorKind::Service {
            status,
            message: said,
            ..
        } => raise(
            py,
            "ServiceError",
            &message,
            &[
                ("status", int(py, i64::from(*status))),
                (
                    "message",
                    said.as_deref().map_or_else(|| py.None(), |m| text(py, m)),
                ),
            ],
        ),
        ErrorKind::Transport { timeout, .. } => raise(
            py,
            "TransportError",
            &message,
            &[(
                "timeout",
                pyo3::types::PyBool::new(py, *timeout)
                    .to_owned()
                    .into_any()
                    .unbind(),
            )],
        ),
        ErrorKind::Decode { path, .. } => raise(
            py,
            "DecodeError",
            &message,
            &[
                (
                    "operation",
                    error.operation().map_or_else(|| py.None(), |o| text(py, o)),
                ),
                ("field", text(py, path)),
            ],
        ),
        _ => raise(py, "Error", &message, &[]),
    })
}
