//! Printing a result: the JSON envelope, or rows for CSV and tables.
//!
//! Rows are laid out from the spec's records ([`seozoom::operations::RECORDS`]):
//! one column per field in spec order, named by its wire name. A field holding a
//! list of records is flattened: one line per inner record, the outer fields
//! repeated on each, the inner columns prefixed with the field's name
//! (`niches.name`). A map keyed by a parameter (keyword -> SERP) gets that
//! parameter as its first column, and a SERP is one `position,url` line per result.

use std::io::{self, Write};

use comfy_table::{ContentArrangement, Table, presets};
use seozoom::operations::RECORDS;
use seozoom::table::{FieldKind, RecordInfo, Shape};
use seozoom::{Envelope, table::Operation};
use serde_json::Value;

/// How a result is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The envelope as one JSON document, with the API's member names.
    Json,
    /// Rows as CSV with a header line.
    Csv,
    /// Rows as a text table.
    Table,
}

/// Payload name of a search-result list in the operation table.
pub const SERP: &str = "serp";

/// Print `envelope` (the result of `op`) to `out`.
pub fn write(
    format: Format,
    op: &Operation,
    envelope: &Envelope<Value>,
    out: &mut impl Write,
) -> io::Result<()> {
    match format {
        Format::Json => {
            serde_json::to_writer(&mut *out, envelope)?;
            writeln!(out)
        }
        Format::Csv => {
            let rows = rows(op, &envelope.response);
            let mut writer = csv::Writer::from_writer(out);
            writer.write_record(&rows.header)?;
            for row in &rows.lines {
                writer.write_record(row)?;
            }
            writer.flush()
        }
        Format::Table => {
            let rows = rows(op, &envelope.response);
            let mut table = Table::new();
            table
                .load_preset(presets::UTF8_FULL_CONDENSED)
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_header(&rows.header);
            for row in &rows.lines {
                table.add_row(row);
            }
            writeln!(out, "{table}")
        }
    }
}

/// The empty result printed when the service finds no data for an operation that
/// returns one object: no rows, no units, `response` null (an empty SERP for a
/// SERP).
pub fn empty_envelope(op: &Operation, units_remaining: i64) -> Envelope<Value> {
    let response = if op.response.payload == SERP {
        Value::Object(serde_json::Map::new())
    } else {
        Value::Null
    };
    Envelope::no_data(response, units_remaining)
}

/// A header and the lines under it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Rows {
    /// Column names.
    pub header: Vec<String>,
    /// One entry per line, as wide as the header.
    pub lines: Vec<Vec<String>>,
}

/// How one payload value is laid out.
#[derive(Debug, Clone, Copy)]
enum Layout {
    /// A record of the spec.
    Record(&'static RecordInfo),
    /// A search-result list: `position,url` lines.
    Serp,
    /// Anything else: one `value` column of JSON text.
    Opaque,
}

fn layout(payload: &str) -> Layout {
    match RECORDS.iter().find(|r| r.name == payload) {
        Some(record) => Layout::Record(record),
        None if payload == SERP => Layout::Serp,
        None => Layout::Opaque,
    }
}

/// The columns of a layout, list fields flattened with a prefix.
fn columns(layout: Layout) -> Vec<String> {
    match layout {
        Layout::Record(record) => record
            .fields
            .iter()
            .flat_map(|field| match field.kind {
                FieldKind::List { record } => columns(self::layout(record))
                    .into_iter()
                    .map(|inner| format!("{}.{inner}", field.wire))
                    .collect(),
                _ => vec![field.wire.to_owned()],
            })
            .collect(),
        Layout::Serp => vec!["position".into(), "url".into()],
        Layout::Opaque => vec!["value".into()],
    }
}

/// The lines of one payload value.
fn lines(layout: Layout, value: &Value) -> Vec<Vec<String>> {
    match layout {
        Layout::Record(record) => record_lines(record, value),
        Layout::Serp => serp_lines(value),
        Layout::Opaque if value.is_null() => Vec::new(),
        Layout::Opaque => vec![vec![cell(value)]],
    }
}

/// One line per inner record of the record's list fields (their `i`-th records
/// side by side when there are several), and one line when they are all empty.
fn record_lines(record: &RecordInfo, value: &Value) -> Vec<Vec<String>> {
    if value.is_null() {
        return Vec::new();
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
                        Value::Array(items) => {
                            items.iter().flat_map(|item| lines(inner, item)).collect()
                        }
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
    let mut results: Vec<(u64, String, String)> = match value {
        Value::Object(map) => map
            .iter()
            .map(|(position, url)| {
                let rank = position.trim().parse().unwrap_or(u64::MAX);
                (rank, position.clone(), cell(url))
            })
            .collect(),
        Value::Array(urls) => urls
            .iter()
            .enumerate()
            .map(|(i, url)| (i as u64 + 1, (i + 1).to_string(), cell(url)))
            .collect(),
        _ => Vec::new(),
    };
    results.sort_by_key(|(rank, _, _)| *rank);
    results
        .into_iter()
        .map(|(_, position, url)| vec![position, url])
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
    let layout = layout(op.response.payload);
    match op.response.shape {
        Shape::Map { key } => {
            let mut header = vec![key.to_owned()];
            header.extend(columns(layout));
            let lines = match response {
                Value::Object(map) => map
                    .iter()
                    .flat_map(|(k, v)| {
                        lines(layout, v).into_iter().map(move |line| {
                            let mut full = vec![k.clone()];
                            full.extend(line);
                            full
                        })
                    })
                    .collect(),
                _ => Vec::new(),
            };
            Rows { header, lines }
        }
        Shape::Array => Rows {
            header: columns(layout),
            lines: match response {
                Value::Array(items) => items.iter().flat_map(|item| lines(layout, item)).collect(),
                _ => Vec::new(),
            },
        },
        _ => Rows {
            header: columns(layout),
            lines: lines(layout, response),
        },
    }
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
    fn serp_maps_are_keyword_position_url_by_numeric_position() {
        let response = json!({"k": {"10": "j", "2": "b", "1": "a"}});
        let rows = rows(op("keywords", "serp"), &response);
        assert_eq!(rows.header, ["keyword", "position", "url"]);
        assert_eq!(
            rows.lines,
            [["k", "1", "a"], ["k", "2", "b"], ["k", "10", "j"]]
        );
    }

    #[test]
    fn the_empty_envelope_has_the_api_names() {
        let overview = op("projects", "overview");
        let envelope = empty_envelope(overview, 7);
        assert_eq!(
            serde_json::to_value(&envelope).unwrap(),
            json!({"ResultRows": 0, "UnitsUsed": 0, "UnitsRemaining": 7, "response": null})
        );
        assert!(rows(overview, &envelope.response).lines.is_empty());
    }
}
