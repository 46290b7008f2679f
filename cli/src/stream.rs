//! Printing rows as they arrive (`--format ndjson` and `csv`): each row is
//! written as soon as its page has come, so a paged job holds one page at a
//! time however many rows it prints.
//!
//! The lines are the ones the collected formats print ([`crate::rows`]): the
//! same layout, one row at a time. The CSV header comes from the operation's
//! record in the spec, not from the first row, so it is known before any row
//! and is the same whatever the rows hold. `json` (one envelope) and `table`
//! (measured before it is drawn) cannot be printed before the last row.

use std::io::{self, Write};

use seozoom::operation_table::Operation;
use serde_json::Value;

use crate::format::Format;
use crate::rows;

/// Rows written as they come, in one of the formats that can be.
pub struct RowWriter<W: Write> {
    op: &'static Operation,
    format: Format,
    to: To<W>,
    /// `--columns`: the names asked for, in order.
    columns: Option<Vec<String>>,
    /// Whether anything (a CSV header) has been written.
    started: bool,
}

/// The writer of a format.
enum To<W: Write> {
    Ndjson(W),
    Csv {
        // Boxed: the CSV writer's state is large beside a plain writer.
        writer: Box<csv::Writer<W>>,
        /// The operation's columns, and where the ones asked for are in them.
        header: Vec<String>,
        picks: Option<Vec<usize>>,
        /// Members asked for that the spec does not know, a column each.
        extra: Vec<String>,
    },
}

impl<W: Write> RowWriter<W> {
    /// A writer of the rows of `op` to `out`; `None` for a format that prints
    /// the whole result at once (`json`, `table`).
    pub fn new(
        format: Format,
        op: &'static Operation,
        columns: Option<&[String]>,
        out: W,
    ) -> Option<RowWriter<W>> {
        let to = match format {
            Format::Ndjson => To::Ndjson(out),
            Format::Csv => {
                let extra = columns.map_or_else(Vec::new, |names| rows::extra_names(op, names));
                let header = rows::column_names_with(op, &extra);
                let picks = columns.map(|names| rows::picks(&header, names));
                To::Csv {
                    writer: Box::new(csv::Writer::from_writer(out)),
                    header,
                    picks,
                    extra,
                }
            }
            Format::Json | Format::Table => return None,
        };
        Some(RowWriter {
            op,
            format,
            to,
            columns: columns.map(<[String]>::to_vec),
            started: false,
        })
    }

    /// The format it writes.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Write these rows (items of the operation's array response) and flush,
    /// so that a reader sees each page when it comes.
    pub fn rows(&mut self, rows: &[Value]) -> io::Result<()> {
        self.start()?;
        match &mut self.to {
            To::Ndjson(out) => {
                for row in rows {
                    for mut object in crate::columns::item_json_lines(self.op, row) {
                        if let Some(columns) = &self.columns {
                            crate::columns::keep_members(&mut object, columns);
                        }
                        serde_json::to_writer(&mut *out, &object)?;
                        out.write_all(b"\n")?;
                    }
                }
                out.flush()
            }
            To::Csv {
                writer,
                picks,
                extra,
                ..
            } => {
                for row in rows {
                    for line in rows::item_lines(self.op, row, extra) {
                        match picks {
                            Some(picks) => writer.write_record(rows::pick(&line, picks))?,
                            None => writer.write_record(&line)?,
                        }
                    }
                }
                writer.flush()
            }
        }
    }

    /// End a result that is complete: a CSV result with no rows is its header
    /// alone, as the collected result would be.
    pub fn finish(&mut self) -> io::Result<()> {
        self.start()?;
        match &mut self.to {
            To::Ndjson(out) => out.flush(),
            To::Csv { writer, .. } => writer.flush(),
        }
    }

    /// The CSV header, once, before the first row.
    fn start(&mut self) -> io::Result<()> {
        if std::mem::replace(&mut self.started, true) {
            return Ok(());
        }
        if let To::Csv {
            writer,
            header,
            picks,
            ..
        } = &mut self.to
        {
            match picks {
                Some(picks) => writer.write_record(rows::pick(header, picks))?,
                None => writer.write_record(&*header)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::View;
    use crate::output;
    use seozoom::Envelope;
    use serde_json::json;

    fn domain_keywords() -> &'static Operation {
        Operation::find("domains", "keywords").unwrap()
    }

    /// What the collected formats print for these rows.
    fn collected(format: Format, rows: &[Value], columns: Option<&[String]>) -> String {
        let mut envelope = Envelope::no_data(Value::Array(rows.to_vec()), None);
        envelope.no_data = false;
        let view = View {
            columns,
            width: None,
        };
        let mut out = Vec::new();
        output::write(format, domain_keywords(), &envelope, &view, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// What a writer prints for these rows given in these pages.
    fn streamed(format: Format, pages: &[&[Value]], columns: Option<&[String]>) -> String {
        let mut out = Vec::new();
        let mut writer = RowWriter::new(format, domain_keywords(), columns, &mut out).unwrap();
        for page in pages {
            writer.rows(page).unwrap();
        }
        writer.finish().unwrap();
        drop(writer);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn rows_in_pages_print_as_the_collected_result() {
        let rows: Vec<Value> = (0..5)
            .map(|i| json!({"keyword": format!("k{i}"), "search_volume": i * 10, "url": "https://a.it/x,y"}))
            .collect();
        let columns = ["search_volume".to_owned(), "keyword".to_owned()];
        for format in [Format::Ndjson, Format::Csv] {
            for picked in [None, Some(&columns[..])] {
                let whole = collected(format, &rows, picked);
                let paged = streamed(format, &[&rows[..2], &rows[2..4], &rows[4..]], picked);
                assert_eq!(paged, whole, "{format:?} {picked:?}");
            }
        }
        assert!(
            streamed(Format::Csv, &[&rows], Some(&columns)).starts_with("search_volume,keyword\n")
        );
    }

    #[test]
    fn an_empty_result_is_the_header_alone_and_a_failed_one_nothing() {
        assert_eq!(
            streamed(Format::Csv, &[], None),
            collected(Format::Csv, &[], None)
        );
        assert_eq!(streamed(Format::Ndjson, &[], None), "");
        // Not finished (the job failed before any row): nothing at all.
        let mut out = Vec::new();
        drop(RowWriter::new(
            Format::Csv,
            domain_keywords(),
            None,
            &mut out,
        ));
        assert!(out.is_empty());
        assert!(RowWriter::new(Format::Json, domain_keywords(), None, &mut out).is_none());
    }
}
