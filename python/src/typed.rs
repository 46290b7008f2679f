//! Each operation's typed result, from the spec: the generated
//! `for_operation` (written by `build.rs` into `OUT_DIR`) hands a
//! [`ResultType`] visitor the operation's row, map value or result type, so
//! that the generic code here calls the client's typed APIs and builds Python
//! objects from the typed records, with no JSON value between.

use pyo3::prelude::*;
use seozoom::job::{Figures, Output, Row};
use seozoom::operation_table::Operation;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::rows::Rows;

/// Code generic over an operation's typed result; one method per kind of
/// result, so that each gets the client API it can use.
pub trait ResultType {
    /// What the visitor makes.
    type Output;
    /// A list of records `R` (paged and batched jobs merge such rows).
    fn rows<R>(self) -> Self::Output
    where
        R: Row + DeserializeOwned + Serialize + Send + Sync + 'static;
    /// A map keyed by input, of `V` (batched jobs join such maps).
    fn map<V>(self) -> Self::Output
    where
        V: DeserializeOwned + Serialize + Send + Sync + 'static;
    /// One result `T`.
    fn one<T>(self) -> Self::Output
    where
        T: DeserializeOwned + Serialize + Send + Sync + 'static;
}

include!(concat!(env!("OUT_DIR"), "/dispatch.rs"));

/// A typed result, kept until the GIL is taken to build its Python objects.
pub trait Response: Send {
    /// The Python rows of the result.
    fn to_python<'py>(
        &self,
        rows: &mut Rows<'py>,
        op: &'static Operation,
    ) -> PyResult<Bound<'py, PyAny>>;
}

/// An operation's `response`; `None` when there is none ("no data found"
/// for an operation that answers one object).
pub struct Typed<T>(pub Option<T>);

impl<T: Serialize + Send> Response for Typed<T> {
    fn to_python<'py>(
        &self,
        rows: &mut Rows<'py>,
        op: &'static Operation,
    ) -> PyResult<Bound<'py, PyAny>> {
        rows.result(op, self.0.as_ref())
    }
}

/// A result, made Python later, and the run's figures.
pub struct Outcome {
    pub body: Box<dyn Response>,
    /// Rows (or members) in the result.
    pub rows: usize,
    pub figures: Figures,
}

impl Outcome {
    /// The library's outcome, its result kept as `body` makes it.
    pub fn of<T: Output, B: Response + 'static>(
        outcome: seozoom::job::Outcome<T>,
        body: fn(T) -> B,
    ) -> Self {
        Outcome {
            rows: outcome.envelope.response.rows(),
            figures: outcome.figures,
            body: Box::new(body(outcome.envelope.response)),
        }
    }
}
