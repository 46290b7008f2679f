//! A tool's `structuredContent`: the service's envelope (`ResultRows`,
//! `UnitsUsed`, `UnitsRemaining`, `response`, with the API's names) and this
//! server's members: whether it came from a cache, whether nothing was found,
//! which rows it shows, and how to get the rest.
//!
//! A result is cut to the session's row cap so that it does not flood an
//! agent's context: an array's items or a map's members past the cap are held
//! by the server ([`super::held`]) and handed out by the `more` tool.

use std::sync::Arc;

use seozoom::operation_table::Shape;
use seozoom::operations::SERVICE;
use seozoom::{Envelope, operation_table::Operation};
use serde_json::{Map, Value, json};

use super::fields::{self, Fields};
use super::held::{Held, HeldResult};

/// Whether the whole result came from the store's cache (nothing charged).
pub const FROM_CACHE: &str = "from_cache";
/// How many input items came from the cache, when only some did.
pub const CACHED_ITEMS: &str = "cached_items";
/// How many of a batched job's requests came whole from the cache, when only
/// part of the answer did.
pub const CACHED_REQUESTS: &str = "cached_requests";
/// Whether the service found nothing.
pub const NO_DATA: &str = "no_data";
/// Which items of the whole result are shown.
pub const ROWS: &str = "rows";
/// How to get the items that were cut.
pub const MORE: &str = "more";
/// Position of the first item shown (in `rows`), or of the next (in `more`).
/// (Not `offset`, which some operations take as a parameter.)
pub const START: &str = "start";
/// Items shown.
pub const RETURNED: &str = "returned";
/// Items in the whole result.
pub const TOTAL: &str = "total";
/// Id of a held result.
pub const RESULT: &str = "result";
/// How to get more, in words.
pub const HINT: &str = "hint";
/// The server's budget, when it has one: its units, what is left after the
/// call, and a row cap `--fit-budget` cut (an operation tool's answer).
pub const BUDGET: &str = "budget";
/// The tool a held result came from (in the `more` tool's answer).
pub const TOOL: &str = "tool";

/// Items of a response that can be cut: an array's items or a map's members.
/// A single object is one item and is never cut.
pub fn total(shape: Shape, response: &Value) -> usize {
    match (shape, response) {
        (Shape::Array, Value::Array(items)) => items.len(),
        (Shape::Map { .. }, Value::Object(members)) => members.len(),
        (_, Value::Null) => 0,
        _ => 1,
    }
}

/// At most `limit` items of `response` from `offset` on.
pub fn window(shape: Shape, response: &Value, offset: usize, limit: usize) -> Value {
    match (shape, response) {
        (Shape::Array, Value::Array(items)) => {
            Value::Array(items.iter().skip(offset).take(limit).cloned().collect())
        }
        (Shape::Map { .. }, Value::Object(members)) => Value::Object(
            members
                .iter()
                .skip(offset)
                .take(limit)
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        _ => response.clone(),
    }
}

/// How much of an answer came from the store's cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cached {
    /// None of it: every request reached the service.
    None,
    /// All of it: no request reached the service, nothing was charged.
    All,
    /// Part of a batched job: these input items, and these of its requests
    /// whole; the rest was sent.
    Part {
        /// Inputs answered from the cache item by item.
        items: usize,
        /// Requests answered whole from the cache.
        requests: usize,
    },
}

/// `rows`: `returned` items from `offset`, of `total`.
pub fn rows(offset: usize, returned: usize, total: usize) -> Value {
    json!({START: offset, RETURNED: returned, TOTAL: total})
}

/// `more`: the held result's id and where the next items start, or `null`.
pub fn more(held: Option<&str>, next: usize, total: usize) -> Value {
    match held {
        Some(id) if next < total => json!({
            RESULT: id,
            START: next,
            HINT: format!(
                "{} more of {total} items: call the `{}` tool with {{\"{RESULT}\": \"{id}\", \"{START}\": {next}}} for them (no units charged).",
                total - next,
                super::tool_names::MORE
            ),
        }),
        _ => Value::Null,
    }
}

/// The structured content of an answer of `tool` (operation `op`): the first
/// `cap` items of the response, each cut to `fields` when given; when there
/// are more, the whole response is held in `held` (its id returned) and
/// `more` says how to get the rest.
pub fn structured(
    op: &Operation,
    tool: &str,
    mut envelope: Envelope<Value>,
    cached: Cached,
    cap: usize,
    held: &Held,
    fields: Option<&Fields>,
) -> (Value, Option<String>) {
    let shape = op.response.shape;
    let total = total(shape, &envelope.response);
    let whole = std::mem::take(&mut envelope.response);
    let (response, returned, more, id) = if total > cap {
        let whole = Arc::new(whole);
        let shown = window(shape, &whole, 0, cap);
        let id = held.hold(HeldResult {
            tool: tool.to_owned(),
            shape,
            units: envelope.units_used,
            complete: true,
            response: whole,
            fields: fields.cloned(),
            resume: None,
        });
        (shown, cap, more(Some(&id), cap, total), Some(id))
    } else {
        (whole, total, Value::Null, None)
    };
    let response = match fields {
        Some(fields) => fields::project(shape, response, fields),
        None => response,
    };
    let mut content = Map::new();
    content.insert(
        SERVICE.envelope_result_rows.into(),
        json!(envelope.result_rows),
    );
    // A figure the answer did not report is `null`, as in the command
    // line's JSON.
    let unreported = envelope.unreported;
    content.insert(
        SERVICE.envelope_units_used.into(),
        json!((!unreported.units_used).then_some(envelope.units_used)),
    );
    content.insert(
        SERVICE.envelope_units_remaining.into(),
        json!(envelope.units_remaining),
    );
    // The envelope's members the spec does not know, as the service sent
    // them (a message beside the figures; the schema allows them).
    for (name, value) in &envelope.extras {
        content.insert(name.to_owned(), value.clone());
    }
    content.insert(SERVICE.envelope_response.into(), response);
    content.insert(FROM_CACHE.into(), json!(cached == Cached::All));
    if let Cached::Part { items, requests } = cached {
        content.insert(CACHED_ITEMS.into(), json!(items));
        content.insert(CACHED_REQUESTS.into(), json!(requests));
    }
    content.insert(NO_DATA.into(), json!(envelope.no_data));
    // Rows the client could not type are kept, as the service sent them:
    // nothing paid for is lost to its shape (the schema allows the member).
    if !envelope.raw_rows.is_empty() {
        content.insert(
            seozoom::types::RawRow::MEMBER.into(),
            json!(std::mem::take(&mut envelope.raw_rows)),
        );
    }
    content.insert(ROWS.into(), rows(0, returned, total));
    content.insert(MORE.into(), more);
    (Value::Object(content), id)
}
