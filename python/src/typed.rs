//! Each operation's typed result, from the spec: the generated
//! `for_operation` (written by `build.rs` into `OUT_DIR`) hands a
//! [`ResultType`] visitor the operation's row, map value or result type, so
//! that the generic code here calls the client's typed APIs and builds Python
//! objects from the typed records, with no JSON value between.

use pyo3::prelude::*;
use seozoom::Envelope;
use seozoom::job::{Figures, Output, Row};
use seozoom::operation_table::Operation;
use seozoom::types::{RawRow, UnknownMembers};
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
    /// The typed `response` (a paged job's rows), made Python later.
    pub body: Box<dyn Response>,
    /// Rows in the result (a list's items, a map's members).
    pub rows: usize,
    /// What the run sent, what the cache answered, what it was charged.
    pub figures: Figures,
    /// The rows that could not be typed, kept as the service sent them.
    pub raw_rows: Vec<RawRow>,
    /// The envelope's members the spec does not know, as sent.
    pub extras: UnknownMembers,
}

impl Outcome {
    /// A result of the runner, kept as `body` makes it.
    pub fn of<T: Output>(
        envelope: Envelope<T>,
        figures: Figures,
        body: fn(T) -> Box<dyn Response>,
    ) -> Self {
        let mut figures = figures;
        // A balance the answer did not report is unknown, not the last one known.
        if !envelope.no_data && envelope.units_remaining.is_none() {
            figures.units_remaining = None;
        }
        Outcome {
            rows: envelope.response.rows(),
            figures,
            raw_rows: envelope.raw_rows,
            extras: envelope.extras,
            body: body(envelope.response),
        }
    }

    /// The outcome of a body decoded on its own (`seozoom.decode`): nothing
    /// sent, nothing from the cache, the figures the body says.
    pub fn from_envelope<T: Serialize + Send + 'static>(
        envelope: Envelope<T>,
        count: fn(&T) -> usize,
    ) -> Self {
        let mut figures = Figures::default();
        figures.units_used = envelope.units_used;
        figures.units_remaining = envelope.units_remaining.filter(|_| !envelope.no_data);
        figures.no_data = envelope.no_data;
        Outcome {
            rows: count(&envelope.response),
            figures,
            raw_rows: envelope.raw_rows,
            extras: envelope.extras,
            body: Box::new(Typed(Some(envelope.response))),
        }
    }
}
