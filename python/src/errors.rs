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

/// The Rust name of a parameter given by its wire name in an error, when the
/// operation has it.
fn rust_name(operation: &str, wire: &str) -> Option<&'static str> {
    let (group, action) = operation.split_once(' ')?;
    let op = Operation::find(group, action)?;
    op.param(wire).map(|p| p.rust)
}

/// `Refused` for an input the spec does not allow, naming the parameter as
/// Python gives it (its Rust name), the value and the limit.
pub fn refused_input(invalid: &InvalidInput) -> PyErr {
    Python::attach(|py| {
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
        let message = format!("{operation}: parameter `{name}`{on_wire} = {value}: {problem}");
        raise(
            py,
            "Refused",
            &message,
            &[
                (
                    "parameter",
                    name.into_pyobject(py).unwrap().into_any().unbind(),
                ),
                (
                    "value",
                    value.into_pyobject(py).unwrap().into_any().unbind(),
                ),
                (
                    "limit",
                    problem.into_pyobject(py).unwrap().into_any().unbind(),
                ),
            ],
        )
    })
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

/// What a configuration error is about, as the client's keyword argument.
fn config_part(kind: &ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Store { .. } | ErrorKind::Config(ConfigError::Store { .. }) => "store",
        ErrorKind::Config(ConfigError::MissingKey { .. } | ConfigError::KeyNotSet { .. }) => {
            "api_key"
        }
        ErrorKind::Config(
            ConfigError::NotAUrl { .. }
            | ConfigError::UnsupportedScheme { .. }
            | ConfigError::QueryOrFragment { .. },
        ) => "base_url",
        _ => "client",
    }
}

/// The exception for a client error (not `Partial`, which `job` builds).
pub fn from_error(error: &Error) -> PyErr {
    let message = error.to_string();
    Python::attach(|py| match error.kind() {
        ErrorKind::InvalidInput(invalid) => refused_input(invalid),
        ErrorKind::InsecureUrl { url } => raise(
            py,
            "Refused",
            &message,
            &[
                ("parameter", text(py, "base_url")),
                ("value", text(py, url)),
                ("limit", text(py, "https://, or http:// to a loopback host")),
            ],
        ),
        ErrorKind::OverBudget {
            estimate_max,
            budget_left,
            ..
        } => raise(
            py,
            "OverBudget",
            &message,
            &[
                ("parameter", text(py, "budget")),
                ("value", int(py, *estimate_max)),
                ("limit", int(py, *budget_left)),
            ],
        ),
        ErrorKind::OverWindowBudget {
            estimate_max,
            spent,
            held,
            budget,
            ..
        } => raise(
            py,
            "OverBudget",
            &message,
            &[
                ("parameter", text(py, "budget")),
                ("value", int(py, *estimate_max)),
                (
                    "limit",
                    int(py, budget.saturating_sub(*spent).saturating_sub(*held)),
                ),
            ],
        ),
        ErrorKind::UnknownCost { budget } => raise(
            py,
            "OverBudget",
            &message,
            &[
                ("parameter", text(py, "budget")),
                ("value", py.None()),
                ("limit", int(py, *budget)),
            ],
        ),
        ErrorKind::RateLimited { per_minute, .. } => raise(
            py,
            "Refused",
            &message,
            &[
                ("parameter", text(py, "rate_limit")),
                ("value", py.None()),
                ("limit", int(py, *per_minute)),
            ],
        ),
        ErrorKind::Config(_) | ErrorKind::Store { .. } => raise(
            py,
            "Refused",
            &message,
            &[
                ("parameter", text(py, config_part(error.kind()))),
                ("value", py.None()),
                ("limit", text(py, &message)),
            ],
        ),
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
