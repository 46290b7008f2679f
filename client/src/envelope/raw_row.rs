//! A row of an answer that could not be decoded into its record, kept as the
//! service sent it.

use serde::Serialize;
use serde_json::Value;

/// A row the client could not decode into its record: a member that names
/// the row was missing, `null` or of another type than the spec's. It is
/// kept beside the typed rows ([`Envelope::raw_rows`](crate::Envelope::raw_rows)),
/// so that nothing paid for is lost, and the drift it shows is recorded.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct RawRow {
    /// Its place in the answer's `response`: the index in an array, or the
    /// position among a map's members (for a batched job, in the answer of
    /// the request that brought it).
    pub index: usize,
    /// For a map answer, the key it came under.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Why it could not be decoded: the path in the row, and what was wrong.
    pub error: String,
    /// The row as the service sent it.
    pub row: Value,
}

impl RawRow {
    /// The member of a written envelope (JSON output, an MCP tool's result)
    /// that lists the rows kept raw, when there are any.
    pub const MEMBER: &'static str = "raw_rows";

    /// A row kept raw.
    pub(crate) fn new(index: usize, key: Option<String>, error: String, row: Value) -> Self {
        RawRow {
            index,
            key,
            error,
            row,
        }
    }
}
