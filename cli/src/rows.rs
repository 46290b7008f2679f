//! The rows of a result, laid out from the spec's records
//! ([`seozoom::operations::RECORDS`]): one column per field in spec order,
//! named by its wire name. A field holding a list of records is flattened: one
//! line per inner record, the outer fields repeated on each, the inner columns
//! prefixed with the field's name (`niches.name`). A map keyed by a parameter
//! (keyword -> SERP) gets that parameter as its first column, and a SERP is one
//! `position,url` line per result.
//!
//! CSV, tables and the streamed lines of a paged job print these rows; the
//! names of the columns are what `--columns` takes. A name it gives that the
//! spec does not know is a member the service may send: it gets a column of
//! its own, after the record's (top-level members only).

use seozoom::operation_table::{FieldInfo, FieldKind, Operation, RecordInfo, Shape};
use seozoom::operations::RECORDS;
use serde_json::Value;

/// Payload name of a search-result list in the operation table.
pub use seozoom::operation_table::SERP_PAYLOAD as SERP;
/// The columns of a search-result list: a result's position and its URL.
pub(crate) const SERP_COLUMNS: [&str; 2] = ["position", "url"];
/// The one column of a payload the spec does not describe.
pub(crate) const VALUE_COLUMN: &str = "value";

/// A header and the lines under it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Rows {
    /// Column names.
    pub header: Vec<String>,
    /// What each column holds, as wide as the header.
    pub info: Vec<Column>,
    /// One entry per line, as wide as the header.
    pub lines: Vec<Vec<String>>,
}

/// What one column holds, from the spec: for choosing what a narrow table
/// shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Column {
    /// The record field it shows, if it is one.
    pub field: Option<&'static FieldInfo>,
    /// Whether it names the row's input: the top-level record's key, or the
    /// key of a map response.
    pub key: bool,
    /// Its rank among the top-level record's main measures (the spec's
    /// `priority`, 1 most wanted), if it is one.
    pub main: Option<u8>,
}

impl Rows {
    /// These columns, in this order (names not among the columns are left out;
    /// the command line has refused them already).
    pub fn select(self, names: &[String]) -> Rows {
        let picks = picks(&self.header, names);
        Rows {
            header: pick(&self.header, &picks),
            info: picks.iter().map(|&i| self.info[i]).collect(),
            lines: self.lines.iter().map(|line| pick(line, &picks)).collect(),
        }
    }
}

/// Where each of `names` is in `header`, in the order named (names not in the
/// header are left out; the command line has refused them already).
pub fn picks(header: &[String], names: &[String]) -> Vec<usize> {
    names
        .iter()
        .filter_map(|name| header.iter().position(|h| h == name))
        .collect()
}

/// The cells of `line` at `picks`, in that order.
pub fn pick(line: &[String], picks: &[usize]) -> Vec<String> {
    picks.iter().map(|&i| line[i].clone()).collect()
}

/// How one payload value is laid out.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Payload {
    /// A record of the spec.
    Record(&'static RecordInfo),
    /// A search-result list: `position,url` lines.
    Serp,
    /// Anything else: one `value` column of JSON text.
    Opaque,
}

pub(crate) fn layout(payload: &str) -> Payload {
    match RECORDS.iter().find(|r| r.name == payload) {
        Some(record) => Payload::Record(record),
        None if payload == SERP => Payload::Serp,
        None => Payload::Opaque,
    }
}

/// The columns of a layout, list fields flattened with a prefix.
fn columns(layout: Payload) -> Vec<String> {
    described_columns(layout, false)
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

/// The columns of a layout with what each holds; `nested` for the columns of a
/// list field's records.
fn described_columns(layout: Payload, nested: bool) -> Vec<(String, Column)> {
    match layout {
        Payload::Record(record) => record
            .fields
            .iter()
            .flat_map(|field| match field.kind {
                FieldKind::List { record } => described_columns(self::layout(record), true)
                    .into_iter()
                    .map(|(inner, column)| (format!("{}.{inner}", field.wire), column))
                    .collect(),
                _ => vec![(
                    field.wire.to_owned(),
                    Column {
                        field: Some(field),
                        key: !nested && record.key == Some(field.wire),
                        main: field.priority.filter(|_| !nested),
                    },
                )],
            })
            .collect(),
        Payload::Serp => SERP_COLUMNS
            .map(|name| (name.to_owned(), Column::default()))
            .into(),
        Payload::Opaque => vec![(VALUE_COLUMN.into(), Column::default())],
    }
}

/// The lines of one payload value, with a column per `extra` member.
fn lines(layout: Payload, value: &Value, extra: &[String]) -> Vec<Vec<String>> {
    match layout {
        Payload::Record(record) => record_lines(record, value, extra),
        Payload::Serp => serp_lines(value),
        Payload::Opaque if value.is_null() => Vec::new(),
        Payload::Opaque => vec![vec![cell(value)]],
    }
}

/// One line per inner record of the record's list fields (their `i`-th records
/// side by side when there are several), and one line when they are all empty;
/// the `extra` members (which the spec does not know) last. A row kept raw
/// that is no such record (not an object, or none of its members) is one
/// line holding its JSON in the first column: printed as sent, never as an
/// empty line.
fn record_lines(record: &'static RecordInfo, value: &Value, extra: &[String]) -> Vec<Vec<String>> {
    if value.is_null() {
        return Vec::new();
    }
    let a_record = value
        .as_object()
        .is_some_and(|members| record.fields.iter().any(|f| members.contains_key(f.wire)));
    if !a_record {
        let width = columns(Payload::Record(record)).len() + extra.len();
        let mut line = vec![String::new(); width.max(1)];
        line[0] = value.to_string();
        return vec![line];
    }
    enum Part {
        Cell(String),
        Nested {
            width: usize,
            lines: Vec<Vec<String>>,
        },
    }
    let parts: Vec<Part> = record
        .fields
        .iter()
        .map(|field| {
            let member = value.get(field.wire).unwrap_or(&Value::Null);
            match field.kind {
                FieldKind::List { record } => {
                    let inner = layout(record);
                    let lines = match member {
                        Value::Array(items) => items
                            .iter()
                            .flat_map(|item| lines(inner, item, &[]))
                            .collect(),
                        _ => Vec::new(),
                    };
                    Part::Nested {
                        width: columns(inner).len(),
                        lines,
                    }
                }
                _ => Part::Cell(cell(member)),
            }
        })
        .chain(
            extra
                .iter()
                .map(|name| Part::Cell(cell(value.get(name).unwrap_or(&Value::Null)))),
        )
        .collect();
    let height = parts
        .iter()
        .map(|part| match part {
            Part::Cell(_) => 1,
            Part::Nested { lines, .. } => lines.len(),
        })
        .max()
        .unwrap_or(1)
        .max(1);
    (0..height)
        .map(|i| {
            let mut line = Vec::new();
            for part in &parts {
                match part {
                    Part::Cell(text) => line.push(text.clone()),
                    Part::Nested { width, lines } => match lines.get(i) {
                        Some(inner) => line.extend(inner.iter().cloned()),
                        None => line.extend(std::iter::repeat_n(String::new(), *width)),
                    },
                }
            }
            line
        })
        .collect()
}

/// `position,url` lines by ascending numeric position.
fn serp_lines(value: &Value) -> Vec<Vec<String>> {
    serp_results(value)
        .into_iter()
        .map(|(position, url)| vec![position.to_string(), cell(url)])
        .collect()
}

/// The results of a search-result list (a map of position to URL, or an
/// array), by ascending numeric position; a position that is not a number
/// sorts last.
pub(crate) fn serp_results(value: &Value) -> Vec<(Value, &Value)> {
    let mut results: Vec<(u64, Value, &Value)> = match value {
        Value::Object(map) => map
            .iter()
            .map(|(position, url)| match position.trim().parse::<u64>() {
                Ok(rank) => (rank, Value::from(rank), url),
                Err(_) => (u64::MAX, Value::String(position.clone()), url),
            })
            .collect(),
        Value::Array(urls) => urls
            .iter()
            .enumerate()
            .map(|(i, url)| (i as u64 + 1, Value::from(i + 1), url))
            .collect(),
        _ => Vec::new(),
    };
    results.sort_by_key(|(rank, _, _)| *rank);
    results
        .into_iter()
        .map(|(_, position, url)| (position, url))
        .collect()
}

/// A JSON value as the text of one cell.
fn cell(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) => items.iter().map(cell).collect::<Vec<_>>().join(","),
        Value::Object(_) => value.to_string(),
    }
}

/// The rows of an operation's `response`.
pub fn rows(op: &Operation, response: &Value) -> Rows {
    rows_with(op, response, &[])
}

/// The names of `names` that are not columns of `op`'s rows: members the
/// spec does not know, each a column of its own after the record's.
pub fn extra_names(op: &Operation, names: &[String]) -> Vec<String> {
    let known = column_names(op);
    match layout(op.response.payload) {
        Payload::Record(_) => names
            .iter()
            .filter(|name| !known.contains(name))
            .cloned()
            .collect(),
        _ => Vec::new(),
    }
}

/// The rows of an operation's `response`, with a column for each member of
/// `extra` (see [`extra_names`]) after the record's.
pub fn rows_with(op: &Operation, response: &Value, extra: &[String]) -> Rows {
    let layout = layout(op.response.payload);
    let mut described = described_columns(layout, false);
    if matches!(layout, Payload::Record(_)) {
        described.extend(extra.iter().map(|name| (name.clone(), Column::default())));
    }
    let lines = match op.response.shape {
        Shape::Map { key } => {
            let column = Column {
                key: true,
                ..Column::default()
            };
            described.insert(0, (key.to_owned(), column));
            match response {
                Value::Object(map) => map
                    .iter()
                    .flat_map(|(k, v)| {
                        lines(layout, v, extra).into_iter().map(move |line| {
                            let mut full = vec![k.clone()];
                            full.extend(line);
                            full
                        })
                    })
                    .collect(),
                _ => Vec::new(),
            }
        }
        Shape::Array => match response {
            Value::Array(items) => items
                .iter()
                .flat_map(|item| lines(layout, item, extra))
                .collect(),
            _ => Vec::new(),
        },
        _ => lines(layout, response, extra),
    };
    let (header, info) = described.into_iter().unzip();
    Rows {
        header,
        info,
        lines,
    }
}

/// The lines one item of an array response gives: what [`rows_with`] gives
/// for each item, for printing the rows of a paged job as they arrive.
pub fn item_lines(op: &Operation, item: &Value, extra: &[String]) -> Vec<Vec<String>> {
    lines(layout(op.response.payload), item, extra)
}

/// Every column name of an operation's rows, in order: what `--columns` takes
/// (besides members the spec does not know).
pub fn column_names(op: &Operation) -> Vec<String> {
    rows(op, &Value::Null).header
}

/// The column names of [`rows_with`] with these `extra` members.
pub fn column_names_with(op: &Operation, extra: &[String]) -> Vec<String> {
    rows_with(op, &Value::Null, extra).header
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn op(group: &str, action: &str) -> &'static Operation {
        Operation::find(group, action).unwrap()
    }

    #[test]
    fn nested_lists_are_flattened_with_the_outer_fields() {
        let response = json!([
            {"domain": "a.it", "niches": [
                {"tza": 1, "name": "x", "perc": 1.5, "keywords": 3, "niche_traffic": 4},
                {"tza": 2, "name": "y", "perc": 2.5, "keywords": 5, "niche_traffic": 6}
            ]},
            {"domain": "b.it", "niches": []}
        ]);
        let rows = rows(op("domains", "niches"), &response);
        assert_eq!(rows.header[..3], ["domain", "niches.tza", "niches.name"]);
        assert_eq!(rows.lines.len(), 3);
        assert_eq!(rows.lines[0][..3], ["a.it", "1", "x"]);
        assert_eq!(rows.lines[1][..3], ["a.it", "2", "y"]);
        assert_eq!(rows.lines[2][0], "b.it");
        assert!(rows.lines[2][1..].iter().all(String::is_empty));
    }

    #[test]
    fn a_row_kept_raw_is_one_line_holding_its_json() {
        let op = op("urls", "metrics");
        let response = json!(["temporarily unavailable", {"odd": 1}, 7]);
        let rows = rows(op, &response);
        let firsts: Vec<&str> = rows.lines.iter().map(|line| line[0].as_str()).collect();
        assert_eq!(
            firsts,
            [r#""temporarily unavailable""#, r#"{"odd":1}"#, "7"]
        );
        for line in &rows.lines {
            assert_eq!(line.len(), rows.header.len());
            assert!(line[1..].iter().all(String::is_empty));
        }
    }

    #[test]
    fn serp_maps_are_keyword_position_url_by_numeric_position() {
        let response = json!({"k": {"10": "j", "2": "b", "1": "a"}});
        let rows = rows(op("keywords", "serp"), &response);
        assert_eq!(rows.header, ["keyword", "position", "url"]);
        assert_eq!(
            rows.lines,
            [["k", "1", "a"], ["k", "2", "b"], ["k", "10", "j"]]
        );
    }
}
