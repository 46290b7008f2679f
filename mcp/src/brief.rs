//! The `content` of a row answer, for an agent that reads text: a short
//! summary (rows, units, cache, what is held) and the rows shown as a compact
//! table, one line a row, cells tab-separated under a header of the column
//! names. It is made from the `structuredContent` (the same figures, the same
//! rows), never a copy of it: a JSON row repeats every member's name, a
//! table line names none.
//!
//! A cell is the value's text: a string as it is (a tab, a line break or a
//! backslash escaped as `\t`, `\n`, `\r`, `\\`), a number or a boolean as
//! JSON writes it, `null` an empty cell, a list or an object compact JSON.

use std::fmt::Write as _;

use rmcp::model::{CallToolResult, ContentBlock, Resource};
use seozoom::operation_table::Shape;
use seozoom::operations::SERVICE;
use serde_json::{Map, Value};

use super::envelope;
use super::tool_names::MORE;

/// `n` and the word, singular for one ("1 row", "2 rows").
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The tool result of a row answer: `structured` as its structured content,
/// and the summary, the table and the held result's link as its content.
pub fn result(
    tool: &str,
    shape: Shape,
    structured: Value,
    held: Option<Resource>,
) -> CallToolResult {
    let content = content(tool, shape, &structured, held);
    let mut result = CallToolResult::structured(structured);
    result.content = content;
    result
}

/// The content of an answer of `tool` whose structured content is
/// `structured`: the summary and the table, then a link to the held result
/// when rows are held.
pub fn content(
    tool: &str,
    shape: Shape,
    structured: &Value,
    held: Option<Resource>,
) -> Vec<ContentBlock> {
    let mut text = summary(tool, structured);
    let table = table(shape, &structured[SERVICE.envelope_response]);
    if !table.is_empty() {
        text.push('\n');
        text.push_str(&table);
    }
    let mut content = vec![ContentBlock::text(text)];
    content.extend(held.map(ContentBlock::resource_link));
    content
}

/// What the answer holds, in a few words.
fn summary(tool: &str, structured: &Value) -> String {
    let number = |member: &str| structured.get(member).and_then(Value::as_u64);
    let rows = &structured[envelope::ROWS];
    let at = |member: &str| rows.get(member).and_then(Value::as_u64).unwrap_or(0);
    let (start, returned, total) = (
        at(envelope::START),
        at(envelope::RETURNED),
        at(envelope::TOTAL),
    );
    let mut text = match structured.get(envelope::RESULT).and_then(Value::as_str) {
        Some(id) => format!(
            "{tool} (held result `{id}`): {}",
            count(total, "row", "rows")
        ),
        None => format!("{tool}: {}", count(total, "row", "rows")),
    };
    if returned < total {
        let shown = if returned == 0 {
            "none shown".to_owned()
        } else {
            format!("{}-{} shown", start + 1, start + returned)
        };
        let _ = write!(text, " ({shown})");
    }
    text.push('.');
    text.push_str(&kept_raw(structured));
    if structured.get(envelope::NO_DATA) == Some(&Value::Bool(true)) {
        text.push_str(" No data found.");
    }
    if let Some(used) = number(SERVICE.envelope_units_used) {
        let _ = write!(
            text,
            " This call was charged {}",
            count(used, "unit", "units")
        );
        text.push_str(&budget_left(&structured[envelope::BUDGET]));
        if let Some(left) = number(SERVICE.envelope_units_remaining) {
            let _ = write!(
                text,
                "; the account has {} left",
                count(left, "unit", "units")
            );
        }
        text.push('.');
    } else if structured.get(SERVICE.envelope_units_used) == Some(&Value::Null) {
        text.push_str(" The answer did not say what it was charged.");
    }
    text.push_str(&budget_cut(&structured[envelope::BUDGET]));
    if structured.get(envelope::FROM_CACHE) == Some(&Value::Bool(true)) {
        text.push_str(" From the cache (nothing sent).");
    } else if let Some(items) = number(envelope::CACHED_ITEMS) {
        let requests = number(envelope::CACHED_REQUESTS).unwrap_or(0);
        let _ = write!(
            text,
            " Part from the cache: {} and {} (not charged).",
            count(items, "input", "inputs"),
            count(requests, "request", "requests"),
        );
    }
    let more = &structured[envelope::MORE];
    if let (Some(id), Some(next)) = (
        more.get(envelope::RESULT).and_then(Value::as_str),
        more.get(envelope::START).and_then(Value::as_u64),
    ) {
        let _ = write!(
            text,
            " {} more held as result `{id}`: `{MORE}` with {{\"{}\": \"{id}\", \"{}\": {next}}} gives them (free), or read the linked resource.",
            total.saturating_sub(next),
            envelope::RESULT,
            envelope::START,
        );
    }
    text
}

/// The rows the client could not type, counted apart from the others, with
/// the first one's reason: they are only in `raw_rows`, not in the table.
fn kept_raw(structured: &Value) -> String {
    let Some(raw) = structured
        .get(seozoom::types::RawRow::MEMBER)
        .and_then(Value::as_array)
        .filter(|raw| !raw.is_empty())
    else {
        return String::new();
    };
    let why = raw[0]
        .get("error")
        .and_then(Value::as_str)
        .map(|error| format!(" (the first: {error})"))
        .unwrap_or_default();
    format!(
        " {} more kept raw, as the service sent {}: {} not fit the record{why}; not in the table below, but in `{}` of the structured content.",
        count(raw.len() as u64, "row", "rows"),
        if raw.len() == 1 { "it" } else { "them" },
        if raw.len() == 1 { "it did" } else { "they did" },
        seozoom::types::RawRow::MEMBER,
    )
}

/// What is left of the server's budget, in words a model cannot take for the
/// account's balance; empty without a budget.
fn budget_left(budget: &Value) -> String {
    let figure = |member: &str| budget.get(member).and_then(Value::as_u64);
    match (figure("left"), figure("units")) {
        (Some(left), Some(units)) => format!(
            "; {} of this server's budget of {units} left",
            count(left, "unit", "units")
        ),
        _ => String::new(),
    }
}

/// A row cap `--fit-budget` cut, said so that a model does not take the
/// rows for all there are; empty when none was cut.
fn budget_cut(budget: &Value) -> String {
    let figure = |member: &str| budget.get(member).and_then(Value::as_u64);
    match (figure("rows_asked"), figure("rows_allowed")) {
        (Some(asked), Some(allowed)) => format!(
            " The budget allowed {} of the {asked} asked for (--fit-budget cut the row cap): there may be more rows than these.",
            count(allowed, "row", "rows")
        ),
        _ => String::new(),
    }
}

/// The rows of `response` as a table: a header line of column names, then a
/// line a row. Empty when there is no row.
pub fn table(shape: Shape, response: &Value) -> String {
    // (the key of a map's row, the row)
    let rows: Vec<(Option<&str>, &Value)> = match (shape, response) {
        (_, Value::Null) => Vec::new(),
        (Shape::Array, Value::Array(items)) => items.iter().map(|row| (None, row)).collect(),
        (Shape::Map { .. }, Value::Object(members)) => members
            .iter()
            .map(|(key, row)| (Some(key.as_str()), row))
            .collect(),
        (_, single) => vec![(None, single)],
    };
    if rows.is_empty() {
        return String::new();
    }
    let key_column = match shape {
        Shape::Map { key } => Some(key),
        _ => None,
    };
    // Every member any row has, in the order first seen. A row that is not
    // a record is one cell, `value`.
    let mut columns: Vec<&str> = Vec::new();
    let mut plain = false;
    for (_, row) in &rows {
        match row {
            Value::Object(members) if !is_positions(members) => {
                for name in members.keys() {
                    if !columns.contains(&name.as_str()) {
                        columns.push(name);
                    }
                }
            }
            _ => plain = true,
        }
    }
    if plain {
        columns.push("value");
    }
    let mut out = String::new();
    let header: Vec<&str> = key_column
        .into_iter()
        .chain(columns.iter().copied())
        .collect();
    out.push_str(&header.join("\t"));
    for (key, row) in rows {
        out.push('\n');
        let mut cells: Vec<String> = Vec::with_capacity(header.len());
        if key_column.is_some() {
            cells.push(cell(&Value::String(key.unwrap_or_default().to_owned())));
        }
        for column in &columns {
            let value = match row {
                Value::Object(members) if !is_positions(members) => {
                    members.get(*column).unwrap_or(&Value::Null)
                }
                _ if *column == "value" => row,
                _ => &Value::Null,
            };
            cells.push(cell(value));
        }
        out.push_str(&cells.join("\t"));
    }
    out
}

/// A search-result list (positions to URLs): one value, not a record whose
/// members are columns.
fn is_positions(members: &Map<String, Value>) -> bool {
    !members.is_empty()
        && members
            .keys()
            .all(|k| k.bytes().all(|b| b.is_ascii_digit()))
}

/// One cell's text.
fn cell(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => {
            let mut escaped = String::with_capacity(text.len());
            for c in text.chars() {
                match c {
                    '\t' => escaped.push_str("\\t"),
                    '\n' => escaped.push_str("\\n"),
                    '\r' => escaped.push_str("\\r"),
                    '\\' => escaped.push_str("\\\\"),
                    c => escaped.push(c),
                }
            }
            escaped
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rows_are_a_header_and_a_line_each() {
        let rows = json!([
            {"kw": "scarpe\trunning", "vol": 10, "cpc": null, "tags": ["a"]},
            {"kw": "mutuo", "vol": 20, "cpc": 1.5, "tags": []},
        ]);
        assert_eq!(
            table(Shape::Array, &rows),
            "kw\tvol\tcpc\ttags\nscarpe\\trunning\t10\t\t[\"a\"]\nmutuo\t20\t1.5\t[]"
        );
        assert_eq!(table(Shape::Array, &json!([])), "");
        assert_eq!(table(Shape::Single, &Value::Null), "");
        let map = json!({"scarpe": {"1": "https://a", "2": "https://b"}});
        assert_eq!(
            table(Shape::Map { key: "keyword" }, &map),
            "keyword\tvalue\nscarpe\t{\"1\":\"https://a\",\"2\":\"https://b\"}"
        );
    }

    #[test]
    fn the_summary_counts_the_rows_kept_raw_and_an_unreported_charge() {
        let structured = json!({
            "UnitsUsed": null, "UnitsRemaining": null, "from_cache": false, "no_data": false,
            "raw_rows": [{"index": 0, "error": "e", "row": "temporarily unavailable"}],
            "rows": {"start": 0, "returned": 1, "total": 1}, "more": null,
        });
        assert_eq!(
            summary("t", &structured),
            "t: 1 row. 1 row more kept raw, as the service sent it: it did not fit the record (the first: e); not in the table below, but in `raw_rows` of the structured content. The answer did not say what it was charged."
        );
    }

    #[test]
    fn the_summary_says_rows_units_cache_and_what_is_held_in_singular_or_plural() {
        let structured = json!({
            "UnitsUsed": 1, "UnitsRemaining": 99, "from_cache": false, "no_data": false,
            "rows": {"start": 0, "returned": 1, "total": 1}, "more": null,
        });
        assert_eq!(
            summary("t", &structured),
            "t: 1 row. This call was charged 1 unit; the account has 99 units left."
        );
        let held = json!({
            "UnitsUsed": 0, "UnitsRemaining": 99, "from_cache": true, "no_data": false,
            "rows": {"start": 0, "returned": 20, "total": 100},
            "more": {"result": "r1", "start": 20},
        });
        let text = summary("t", &held);
        assert!(
            text.starts_with(
                "t: 100 rows (1-20 shown). This call was charged 0 units; the account has 99 units left. From the cache"
            ),
            "{text}"
        );
        assert!(text.contains("80 more held as result `r1`"), "{text}");
    }
}
