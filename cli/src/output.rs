//! Printing a result: the JSON envelope, JSON lines, or rows for CSV and tables.
//!
//! The rows are laid out from the spec's records ([`crate::rows`]); `--columns`
//! picks columns by their names ([`crate::columns`]); a table is made to fit the
//! terminal ([`crate::table_fit`]).

use std::io::{self, Write};

use seozoom::{Envelope, operation_table::Operation};
use serde_json::Value;

use crate::format::{Format, View};

/// Print `envelope` (the result of `op`) to `out`; a note for stderr when a
/// table had to hide columns, when rows could not be typed (JSON lists them
/// in `raw_rows`; the other formats print them as the service sent them, in
/// their place), or when a column asked for matched nothing.
pub fn write(
    format: Format,
    op: &Operation,
    envelope: &Envelope<Value>,
    view: &View<'_>,
    out: &mut impl Write,
) -> io::Result<Option<String>> {
    let mut notes = Vec::new();
    if let Some(raw) = envelope.raw_rows_note() {
        let shown = match format {
            Format::Json => "listed in `raw_rows`",
            _ => "printed as the service sent them",
        };
        notes.push(format!(
            "warning: {}: {} row(s) could not be typed and are {shown} (their drift is recorded: `seozoom drift`): {raw}",
            op.label(),
            envelope.raw_rows.len()
        ));
    }
    let response = envelope.response_as_sent();
    if let Some(columns) = view.columns
        && let Some(warning) = crate::columns::unmatched(op, &response, columns)
    {
        notes.push(warning);
    }
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
            for mut object in crate::columns::json_lines(op, &response) {
                if let Some(columns) = view.columns {
                    crate::columns::keep_members(&mut object, columns);
                }
                serde_json::to_writer(&mut *out, &object)?;
                writeln!(out)?;
            }
        }
        Format::Csv => {
            let mut rows = laid_out(op, &response, view);
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
            let rows = laid_out(op, &response, view);
            let table = crate::table_fit::table(rows, view);
            writeln!(out, "{}", table.text)?;
            notes.extend(table.note);
        }
    }
    Ok((!notes.is_empty()).then(|| notes.join("\n")))
}

/// The rows of `response`, with a column for each member asked for that the
/// spec does not know.
fn laid_out(op: &Operation, response: &Value, view: &View<'_>) -> crate::rows::Rows {
    let extra = view
        .columns
        .map_or_else(Vec::new, |names| crate::rows::extra_names(op, names));
    crate::rows::rows_with(op, response, &extra)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_empty_envelope_has_the_api_names() {
        let overview = Operation::find("projects", "overview").unwrap();
        let envelope =
            Envelope::no_data(<Value as seozoom::job::Output>::nothing(overview), Some(7));
        assert_eq!(
            serde_json::to_value(&envelope).unwrap(),
            json!({"ResultRows": 0, "UnitsUsed": 0, "UnitsRemaining": 7, "response": null})
        );
        assert!(
            crate::rows::rows(overview, &envelope.response)
                .lines
                .is_empty()
        );
    }
}
