//! A paged job (`--max-rows`) printed as each page arrives (`ndjson`, `csv`):
//! the library's runner hands each page's rows over as it comes
//! (`Client::run_each`) and keeps none, so memory stays one page's
//! however many rows. A page that fails after rows came stops the job: its
//! rows are printed already; stderr and the exit code are those of any job
//! that stopped part-way. A write error (a reader gone) stops the job too:
//! no more pages are paid for.

use std::io::Write;
use std::ops::ControlFlow;

use seozoom::job::RunOptions;
use seozoom::request::Request;
use seozoom::{Client, Error};
use serde_json::Value;

use crate::error_report::{report, report_stopped};
use crate::result::summary;
use crate::stream::RowWriter;

/// Run the paged job of `request`, printing each page's rows with `writer`
/// as it comes, then what a collected result says on stderr; the exit code.
pub async fn stream<W: Write + Send>(
    client: &Client,
    request: Request,
    options: RunOptions,
    mut writer: RowWriter<W>,
) -> u8 {
    let op = request.operation();
    let format = writer.format();
    let mut written = Ok(());
    let result = client
        .run_each(request, options, |page: Value| {
            let rows = match page {
                Value::Array(rows) => rows,
                Value::Null => Vec::new(),
                other => vec![other],
            };
            // A page without rows prints nothing (a CSV header would print
            // for a job that then fails).
            if rows.is_empty() {
                return ControlFlow::Continue(());
            }
            match writer.rows(&rows) {
                Ok(()) => ControlFlow::Continue(()),
                Err(error) => {
                    written = Err(error);
                    ControlFlow::Break(())
                }
            }
        })
        .await;
    let stopped = match result.map_err(Error::into_partial) {
        Ok(outcome) => {
            // A complete result: a CSV one with no rows is its header.
            let written = written.and_then(|()| writer.finish());
            let envelope = &outcome.envelope;
            let counts = (
                envelope.result_rows,
                envelope.units_used,
                envelope.units_remaining,
            );
            return summary(op, format, outcome.figures.no_data, counts, written);
        }
        // Refused, or the first page failed: nothing printed.
        Err(Err(error)) => return report(&error),
        Err(Ok(partial)) => partial,
    };
    let missing = stopped.missing_summary();
    let (received, _, cause) = match stopped.into_outcome::<Value>() {
        Ok(parts) => parts,
        Err(partial) => return report(&Error::from(partial)),
    };
    let envelope = &received.envelope;
    let rows = envelope.result_rows;
    let counts = (rows, envelope.units_used, envelope.units_remaining);
    drop(writer);
    // Stopped because the rows could not be written: that is what is said.
    let wrote = written.is_ok();
    let code = summary(op, format, false, counts, written);
    match wrote {
        true => report_stopped(op, rows, &missing, &cause),
        false => code,
    }
}
