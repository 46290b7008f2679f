//! A run's result type ([`Output`]): what [`Client::run`](super::Client::run)
//! gives for each kind of operation, with the empty form "no data found"
//! becomes, and how the answers of a job's requests make one result.
//!
//! - a list of records, `Vec<R>` (batched jobs merge the rows in input
//!   order, paged jobs join the pages; empty when nothing is found);
//! - a map keyed by input, [`ByKey<V>`] (joined; empty when nothing is
//!   found);
//! - one object, `Option<T>` (`None` when nothing is found);
//! - JSON, [`serde_json::Value`], for tools that handle every operation
//!   alike: each answer decoded as the operation's typed result and
//!   re-encoded with the API's field names. Its implementation is generated
//!   beside the table's decoder of every operation, which it uses, and calls
//!   [`json`] for the rest.

use std::any::Any;

use serde::de::DeserializeOwned;

use super::merge::{InputOrder, Merge, Row};
use crate::by_key::ByKey;
use crate::decode::{Decoder, decode_rows, decode_typed};
use crate::envelope::Envelope;
use crate::error::{Error, ErrorKind};
use crate::operation_table::Operation;
use crate::outcome::Outcome;

/// A run's result type: a list of records, a map keyed by input, one object
/// (`Option`) or JSON. It says what one answer decodes to, what "no data
/// found" gives, and how the answers of a job's requests join
/// ([`Merge`]).
///
/// Implemented for `Vec<R>`, [`ByKey<V>`], `Option<T>` and
/// [`serde_json::Value`].
pub trait Output: Merge + Send + Sync + Sized + 'static {
    /// What one answer of the operation decodes to: the result itself, or
    /// the one object of an `Option`.
    type Answer: Send + 'static;

    /// The result of one answer.
    fn from_answer(answer: Self::Answer) -> Self;

    /// The empty result of `op`: what "no data found" gives (an empty list
    /// or map, `None`, or for JSON `[]`, `{}` or `null` by the operation's
    /// shape; a SERP, a map of positions, is `{}`).
    fn nothing(op: &Operation) -> Self;

    /// Rows in the result, as a paged job counts them: a list's items (for
    /// other results, their members or one object).
    fn rows(&self) -> usize;

    /// The result cut to its first `rows` rows (the last page of a paged
    /// job, cut to the row cap); results that are not lists are kept whole.
    fn truncate(&mut self, rows: usize);

    /// The decoder of one answer.
    fn decoder() -> Decoder<Self::Answer>;
}

impl<R: Row + DeserializeOwned + Send + Sync + 'static> Output for Vec<R> {
    type Answer = Vec<R>;

    fn from_answer(answer: Vec<R>) -> Self {
        answer
    }

    fn nothing(_: &Operation) -> Self {
        Vec::new()
    }

    fn rows(&self) -> usize {
        self.len()
    }

    fn truncate(&mut self, rows: usize) {
        Vec::truncate(self, rows);
    }

    fn decoder() -> Decoder<Vec<R>> {
        decode_rows::<R>
    }
}

impl<V: DeserializeOwned + Send + Sync + 'static> Output for ByKey<V> {
    type Answer = ByKey<V>;

    fn from_answer(answer: ByKey<V>) -> Self {
        answer
    }

    fn nothing(_: &Operation) -> Self {
        ByKey::default()
    }

    fn rows(&self) -> usize {
        self.len()
    }

    fn truncate(&mut self, _: usize) {}

    fn decoder() -> Decoder<ByKey<V>> {
        decode_typed::<ByKey<V>>
    }
}

impl<T: Send + Sync + 'static> Merge for Option<T> {
    /// The first object given (an operation that answers one object does
    /// not batch: there is at most one).
    fn merge(parts: Vec<Self>, _order: &InputOrder) -> Self {
        parts.into_iter().flatten().next()
    }
}

impl<T: DeserializeOwned + Send + Sync + 'static> Output for Option<T> {
    type Answer = T;

    fn from_answer(answer: T) -> Self {
        Some(answer)
    }

    fn nothing(_: &Operation) -> Self {
        None
    }

    fn rows(&self) -> usize {
        usize::from(self.is_some())
    }

    fn truncate(&mut self, _: usize) {}

    fn decoder() -> Decoder<T> {
        decode_typed::<T>
    }
}

/// A result of a job under way, its type erased: what the job machinery
/// (plan, requests, pages, calls) works on, so that it is compiled once, in
/// this crate, whatever the result type; a run's typed shell
/// ([`Client::run`](super::Client::run)) gives it its type back.
pub(crate) type Part = Box<dyn Any + Send>;

/// What the job machinery needs of a result type, as plain functions: the
/// only code of a run compiled per result type.
#[derive(Clone, Copy)]
pub(crate) struct Erased {
    /// One answer decoded, as the result of that answer.
    pub(crate) decode: Decoder<Part>,
    /// The empty result ("no data found").
    pub(crate) nothing: fn(&Operation) -> Part,
    /// Rows in a result.
    pub(crate) rows: fn(&Part) -> usize,
    /// A result cut to its first rows.
    pub(crate) truncate: fn(&mut Part, usize),
    /// The results of a job's requests joined.
    pub(crate) merge: fn(Vec<Part>, &InputOrder) -> Part,
}

impl Erased {
    /// The functions of `T`.
    pub(crate) fn of<T: Output>() -> Erased {
        Erased {
            decode: decode_part::<T>,
            nothing: |op| Box::new(T::nothing(op)),
            rows: |part| part.downcast_ref::<T>().map_or(0, T::rows),
            truncate: |part, rows| {
                if let Some(result) = part.downcast_mut::<T>() {
                    result.truncate(rows);
                }
            },
            merge: |parts, order| {
                let parts = parts.into_iter().filter_map(|p| p.downcast::<T>().ok());
                Box::new(T::merge(parts.map(|p| *p).collect(), order))
            },
        }
    }
}

/// One answer decoded by `T`'s decoder, as the result of that answer.
fn decode_part<T: Output>(
    op: &Operation,
    status: u16,
    body: &[u8],
) -> Result<Envelope<Part>, Error> {
    let envelope = (T::decoder())(op, status, body)?;
    Ok(envelope.map(|answer| Box::new(T::from_answer(answer)) as Part))
}

/// A result given its type back. Every part of a run of `T` is a `T` (the
/// run's [`Erased`] made them); should one not be, the empty result stands
/// in rather than a panic.
pub(crate) fn typed<T: Output>(part: Part, op: &Operation) -> T {
    part.downcast::<T>()
        .map_or_else(|_| T::nothing(op), |result| *result)
}

/// What [`Output`] for [`serde_json::Value`] does besides decoding: its
/// decoder is the generated table's (`operations::decode_json`), so the
/// implementation is generated with it, and calls these.
pub mod json {
    use serde_json::Value;

    use crate::operation_table::{Operation, SERP_PAYLOAD, Shape};

    /// The empty result of `op`: `[]`, `{}` or `null` by the operation's
    /// shape (a SERP, a map of positions, is `{}`).
    pub fn nothing(op: &Operation) -> Value {
        match op.response.shape {
            Shape::Array => Value::Array(Vec::new()),
            Shape::Map { .. } => Value::Object(serde_json::Map::new()),
            Shape::Single if op.response.payload == SERP_PAYLOAD => {
                Value::Object(serde_json::Map::new())
            }
            Shape::Single => Value::Null,
        }
    }

    /// Rows in a JSON result: an array's items, an object's members, one
    /// other value, none for `null`.
    pub fn rows(result: &Value) -> usize {
        match result {
            Value::Array(items) => items.len(),
            Value::Object(members) => members.len(),
            Value::Null => 0,
            _ => 1,
        }
    }

    /// An array cut to its first `rows` items; other results kept whole.
    pub fn truncate(result: &mut Value, rows: usize) {
        if let Value::Array(items) = result {
            items.truncate(rows);
        }
    }
}

impl<T> Outcome<Option<T>> {
    /// The one object a run of `op` found, in its envelope; what a
    /// generated builder's `send()` gives.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoData`] when it found none (the service answered "No
    /// data found!"; nothing was charged).
    pub fn found(self, op: &Operation) -> Result<Envelope<T>, Error> {
        let mut envelope = self.envelope;
        let Some(response) = envelope.response.take() else {
            return Err(Error::new(op.label(), ErrorKind::NoData));
        };
        Ok(envelope.map(|_| response))
    }
}
