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
//!   alike: its decoder is the operation table's
//!   ([`Client::run_json`](super::Client::run_json), generated).

use serde::de::DeserializeOwned;

use super::merge::{InputOrder, Merge, Row};
use crate::by_key::ByKey;
use crate::decode::{Decoder, decode_rows, decode_typed};
use crate::operation_table::{Operation, SERP_PAYLOAD, Shape};

/// A run's result type: a list of records, a map keyed by input, one object
/// (`Option`) or JSON. It says what one answer decodes to, what "no data
/// found" gives, and how the answers of a job's requests join
/// ([`Merge`]).
///
/// Implemented for `Vec<R>`, [`ByKey<V>`], `Option<T>` and
/// [`serde_json::Value`]; [`TypedOutput`] adds the decoder for the first
/// three.
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
}

/// A typed [`Output`]: the result types whose decoder the crate knows (the
/// operation's records), so that [`Client::run`](super::Client::run) takes
/// the type alone.
pub trait TypedOutput: Output {
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
}

impl<R: Row + DeserializeOwned + Send + Sync + 'static> TypedOutput for Vec<R> {
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
}

impl<V: DeserializeOwned + Send + Sync + 'static> TypedOutput for ByKey<V> {
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
}

impl<T: DeserializeOwned + Send + Sync + 'static> TypedOutput for Option<T> {
    fn decoder() -> Decoder<T> {
        decode_typed::<T>
    }
}

impl Output for serde_json::Value {
    type Answer = serde_json::Value;

    fn from_answer(answer: serde_json::Value) -> Self {
        answer
    }

    fn nothing(op: &Operation) -> Self {
        use serde_json::Value;
        match op.response.shape {
            Shape::Array => Value::Array(Vec::new()),
            Shape::Map { .. } => Value::Object(serde_json::Map::new()),
            // A SERP is a map of positions: its empty form is an empty map.
            Shape::Single if op.response.payload == SERP_PAYLOAD => {
                Value::Object(serde_json::Map::new())
            }
            Shape::Single => Value::Null,
        }
    }

    fn rows(&self) -> usize {
        use serde_json::Value;
        match self {
            Value::Array(items) => items.len(),
            Value::Object(members) => members.len(),
            Value::Null => 0,
            _ => 1,
        }
    }

    fn truncate(&mut self, rows: usize) {
        if let serde_json::Value::Array(items) = self {
            items.truncate(rows);
        }
    }
}
