//! The envelope every answer of the API comes in, written by hand: its Rust
//! field names are fixed, its wire member names are the [`Service`]'s
//! (`envelope_*`), read from the table the encoder is handed (the decoder,
//! `EnvelopeSeed`, is with the other decoders in `decode`).
//!
//! [`Service`]: crate::operation_table::Service

mod encode;
#[cfg(feature = "schemars")]
mod schema;

mod raw_row;
mod unreported;

pub use encode::WithWireNames;
pub use raw_row::RawRow;
pub use unreported::Unreported;

use crate::record::UnknownMembers;
#[cfg(feature = "schemars")]
pub use schema::envelope_schema;

/// The envelope of every answer: the result and what it cost.
///
/// Its wire member names are the spec's (`[envelope]`); the units are those the
/// service reported for the call.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Envelope<T> {
    /// The number of rows the service counted for the result.
    pub result_rows: i64,
    /// The units the call was charged.
    pub units_used: i64,
    /// The units left on the account after the call, as the answer reported
    /// them; `None` when the balance is unknown: the answer did not report it
    /// (`UnitsRemaining` missing, `null` or not a number), or, for an answer
    /// that reports none ("no data", from the cache), no balance was known.
    pub units_remaining: Option<i64>,
    /// The result: every row that decoded into its record.
    pub response: T,
    /// The rows of the answer that could not be decoded into their record
    /// (one that names the row was missing, `null` or unreadable), kept as
    /// the service sent them, each with its place in the answer and why.
    /// Empty, at no cost, when every row decoded.
    pub raw_rows: Vec<RawRow>,
    /// The envelope's members the spec does not know (a message from the
    /// service beside the figures, say), by wire name, as the service sent
    /// them; noted as drift. Empty, at no cost, when there is none.
    pub extras: UnknownMembers,
    /// The figures the answer did not report (missing, `null` or not a
    /// number) whose field above cannot say so itself: the charge, whose
    /// field then holds 0 and which the faces show as unknown.
    pub unreported: Unreported,
    /// `true` when the service answered "no data found" and `response` is
    /// the empty result made by the client. The service reports no units
    /// then: `result_rows` and `units_used` are 0 and `units_remaining` is the
    /// client's last known balance (`None` before any call reported one).
    pub no_data: bool,
    /// When the answer came from the store's cache rather than from the
    /// service: when the service sent it. `units_used` is then 0 and
    /// `units_remaining` the balance last reported (`None` if none was). For a batched job
    /// some of whose items came from the cache, the oldest such time.
    pub fetched_at: Option<std::time::SystemTime>,
}

impl<T> Envelope<T> {
    /// The result of a "no data found" answer: `response` as given (an empty list
    /// or map, or `null` for a single object), no rows, no units charged,
    /// `units_remaining` as last known to the caller, and [`no_data`](Self::no_data)
    /// set.
    pub fn no_data(response: T, units_remaining: Option<i64>) -> Self {
        Envelope {
            result_rows: 0,
            units_used: 0,
            units_remaining,
            response,
            raw_rows: Vec::new(),
            extras: UnknownMembers::default(),
            unreported: Unreported::default(),
            no_data: true,
            fetched_at: None,
        }
    }

    /// An envelope as the service sends it (not "no data", not from the cache).
    pub(crate) fn received(
        result_rows: i64,
        units_used: i64,
        units_remaining: Option<i64>,
        response: T,
    ) -> Self {
        Envelope {
            result_rows,
            units_used,
            units_remaining,
            response,
            raw_rows: Vec::new(),
            extras: UnknownMembers::default(),
            unreported: Unreported::default(),
            no_data: false,
            fetched_at: None,
        }
    }

    /// The rows kept raw, in a form for people: `row 1: missing field
    /// `keyword`` per row; `None` when there is none.
    pub fn raw_rows_note(&self) -> Option<String> {
        let shown: Vec<String> = self
            .raw_rows
            .iter()
            .map(|raw| match &raw.key {
                Some(key) => format!("`{key}`: {}", raw.error),
                None => format!("row {}: {}", raw.index, raw.error),
            })
            .collect();
        (!shown.is_empty()).then(|| shown.join("; "))
    }

    /// The same envelope around another response (the figures, the raw rows
    /// and the flags kept).
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Envelope<U> {
        Envelope {
            result_rows: self.result_rows,
            units_used: self.units_used,
            units_remaining: self.units_remaining,
            response: f(self.response),
            raw_rows: self.raw_rows,
            extras: self.extras,
            unreported: self.unreported,
            no_data: self.no_data,
            fetched_at: self.fetched_at,
        }
    }
}

impl Envelope<serde_json::Value> {
    /// The response as the service sent it: the typed rows with each row kept
    /// raw back in its place (an array's at its index, a map's under its key),
    /// for faces that print every row alike.
    pub fn response_as_sent(&self) -> std::borrow::Cow<'_, serde_json::Value> {
        use serde_json::Value;
        if self.raw_rows.is_empty() {
            return std::borrow::Cow::Borrowed(&self.response);
        }
        let mut response = self.response.clone();
        match &mut response {
            Value::Array(rows) => {
                for raw in &self.raw_rows {
                    rows.insert(raw.index.min(rows.len()), raw.row.clone());
                }
            }
            Value::Object(members) => {
                for raw in &self.raw_rows {
                    let key = raw.key.clone().unwrap_or_else(|| raw.index.to_string());
                    members.insert(key, raw.row.clone());
                }
            }
            _ => {}
        }
        std::borrow::Cow::Owned(response)
    }
}
