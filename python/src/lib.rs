//! `seozoom._native`: the Rust side of the `seozoom` Python package.
//!
//! It is generic: it names no action, parameter or field. The generated
//! Python surface (`seozoom/_generated.py`, committed, written by
//! `seozoom-codegen python` from the spec) calls one entry point, `Core::call` (`src/core.rs`), with a group, an
//! action and parameters by their Rust names; everything per operation is
//! read from the `seozoom` crate's operation table:
//!
//! - `params`: Python values to the request's wire text;
//! - `args`: the other arguments (`max_rows=`, `timeout=`, ...), checked;
//! - `job`: one call, a batched job or a paged job, through the Rust client
//!   (validation, budget, store, rate limits, retries);
//! - `typed`: each operation's typed result, generated from the spec, and
//!   the visitor the generic code hands it to;
//! - `rows`: typed results to Python objects (a serde `Serializer`), by the
//!   records' field kinds;
//! - `wait`: blocking with the GIL released, and Ctrl-C between requests;
//! - `errors`: the client's errors as the package's exceptions;
//! - `sandbox`: the offline stand-in of the service;
//! - `command`: the `seozoom` command line, the Rust binary's own code.

#![forbid(unsafe_code)]

mod args;
mod command;
mod core;
mod errors;
mod job;
mod params;
mod rows;
mod sandbox;
mod typed;
mod wait;

use pyo3::prelude::*;

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<core::Core>()?;
    m.add_class::<sandbox::Sandbox>()?;
    m.add_function(wrap_pyfunction!(default_store, m)?)?;
    m.add_function(wrap_pyfunction!(core::decode, m)?)?;
    m.add_function(wrap_pyfunction!(command::run_command_line, m)?)?;
    Ok(())
}

/// The store a client uses when given none: the command line's default, so
/// that both share one cache, ledger and budget; an error where the system
/// knows no data directory for the user.
#[pyfunction]
fn default_store() -> PyResult<String> {
    seozoom::store::default_url().map_err(|e| errors::from_error(&e))
}
