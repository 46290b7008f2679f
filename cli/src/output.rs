//! Printing a result: the JSON envelope, JSON lines, or rows for CSV and tables.
//!
//! The rows are laid out from the spec's records ([`crate::rows`]); `--columns`
//! picks columns by their names ([`crate::columns`]); a table is made to fit the
//! terminal ([`crate::table_fit`]).

use std::io::{self, Write};

use seozoom::{Envelope, operation_table::Operation};
use serde_json::Value;

use crate::format::{Format, View};
use crate::rows::rows;

/// Print `envelope` (the result of `op`) to `out`; a note for stderr when a
/// table had to hide columns.
pub fn write(
    format: Format,
    op: &Operation,
    envelope: &Envelope<Value>,
    view: &View<'_>,
    out: &mut impl Write,
) -> io::Result<Option<String>> {
    match format {
        Format::Json => {
            match view.columns {
                Some(columns) => {
                    let mut envelope = envelope.clone();
                    crate::columns::filter_json(op, &mut envelope.response, columns);
                    serde_json::to_writer(&mut *out, &envelope)?;
                }
                None => serde_json::to_writer(&mut *out, envelope)?,
            }
            writeln!(out)?;
        }
        Format::Ndjson => {
            for mut object in crate::columns::json_lines(op, &envelope.response) {
                if let Some(columns) = view.columns {
                    crate::columns::keep_members(&mut object, columns);
                }
                serde_json::to_writer(&mut *out, &object)?;
                writeln!(out)?;
            }
        }
        Format::Csv => {
            let mut rows = rows(op, &envelope.response);
            if let Some(columns) = view.columns {
                rows = rows.select(columns);
            }
            let mut writer = csv::Writer::from_writer(out);
            writer.write_record(&rows.header)?;
            for row in &rows.lines {
                writer.write_record(row)?;
            }
            writer.flush()?;
        }
        Format::Table => {
            let rows = rows(op, &envelope.response);
            let table = crate::table_fit::table(rows, view);
            writeln!(out, "{}", table.text)?;
            return Ok(table.note);
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_empty_envelope_has_the_api_names() {
        let overview = Operation::find("projects", "overview").unwrap();
        let envelope = Envelope::no_data(<Value as seozoom::job::Output>::nothing(overview), 7);
        assert_eq!(
            serde_json::to_value(&envelope).unwrap(),
            json!({"ResultRows": 0, "UnitsUsed": 0, "UnitsRemaining": 7, "response": null})
        );
        assert!(rows(overview, &envelope.response).lines.is_empty());
    }
}
