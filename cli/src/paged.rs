//! A paged job (`--max-rows`): pages of rows fetched one after another, printed
//! as each page arrives (`ndjson`, `csv`: [`stream`]) or collected into one
//! result (`json`, `table`: [`collect`]).
//!
//! Either way the job's rows go to a sink page by page; only the collecting
//! sink keeps them. A page that fails after rows came stops the job with those
//! rows: streamed, they are already printed; collected, they are printed as the
//! result. Standard error and the exit code are the same in both.

use std::io::{self, BufWriter};

use futures_util::StreamExt;
use seozoom::error::ErrorKind;
use seozoom::operation_table::Shape;
use seozoom::request::Request;
use seozoom::{Client, Envelope, Error};
use serde_json::Value;

use crate::format::Format;
use crate::partial::{Failure, Stopped};
use crate::stream::RowWriter;

/// A paged job: its request, rows per page and row cap.
#[derive(Debug, Clone)]
pub struct Job {
    /// The request of the first page (its limit is replaced by `page_size`).
    pub request: Request,
    /// Rows per request.
    pub page_size: i64,
    /// The most rows wanted.
    pub max_rows: usize,
}

/// What a job came to.
struct Outcome {
    /// Rows received.
    rows: usize,
    /// Units the job's requests were charged.
    units_used: i64,
    /// The last balance reported.
    units_remaining: i64,
    /// The error that ended the job, if one did.
    failure: Option<Error>,
    /// The sink's first write error; the job stopped there.
    written: io::Result<()>,
}

impl Job {
    /// Fetch the pages, giving each page's rows to `sink` as it comes. A write
    /// error of the sink stops the job: no more pages are paid for.
    async fn run(
        &self,
        client: &Client,
        mut sink: impl FnMut(Vec<Value>) -> io::Result<()>,
    ) -> Outcome {
        let before = client.units();
        let progress = crate::progress::bar(self.max_rows, "rows");
        let stream = client.pages_json(self.request.clone(), self.page_size, Some(self.max_rows));
        // The rows of one page are ready together: a chunk is a page (or the
        // rows before a failed page's error).
        let size = usize::try_from(self.page_size).unwrap_or(1).max(1);
        let mut pages = stream.ready_chunks(size);
        let (mut rows, mut failure, mut written) = (0usize, None, Ok(()));
        'pages: while let Some(chunk) = pages.next().await {
            let mut page = Vec::with_capacity(chunk.len());
            for row in chunk {
                match row {
                    Ok(row) => page.push(row),
                    // A failed page is the stream's last item.
                    Err(error) => failure = Some(error),
                }
            }
            if page.is_empty() {
                // The failed page alone: nothing to give (a CSV header would
                // print for a job that failed before any row).
                continue;
            }
            rows += page.len();
            if let Some(bar) = &progress {
                bar.inc(page.len() as u64);
            }
            if let Err(error) = sink(page) {
                written = Err(error);
                break 'pages;
            }
        }
        // Dropping the stream ends the job: it asks for no more pages.
        drop(pages);
        if let Some(bar) = progress {
            bar.finish_and_clear();
        }
        let after = client.units();
        Outcome {
            rows,
            units_used: after.used - before.used,
            units_remaining: after.remaining.unwrap_or(0),
            failure,
            written,
        }
    }

    /// The job's rows as one envelope: `ResultRows` the rows received,
    /// `UnitsUsed` what the job's requests were charged, `UnitsRemaining` the
    /// last balance reported. A page that fails after rows came stops the job
    /// with those rows ([`Failure::Stopped`]).
    pub async fn collect(self, client: &Client) -> Result<Envelope<Value>, Failure> {
        let mut rows = Vec::new();
        let outcome = self
            .run(client, |page| {
                rows.extend(page);
                Ok(())
            })
            .await;
        let (used, remaining) = (outcome.units_used, outcome.units_remaining);
        match outcome.failure {
            // Refused, or the first page failed: nothing to print.
            Some(error) if rows.is_empty() => return Err(Failure::Error(error)),
            Some(error) => {
                let stopped = Stopped::paged(
                    &self.request,
                    (self.page_size, self.max_rows),
                    rows,
                    (used, remaining),
                    error,
                );
                return Err(Failure::Stopped(Box::new(stopped)));
            }
            None => {}
        }
        if rows.is_empty() && used == 0 {
            // The first page was "no data found": nothing was charged, and the
            // result is the empty list a single call gives.
            return Ok(Envelope::no_data(Value::Array(rows), remaining));
        }
        // `Envelope` is `#[non_exhaustive]`: built from its one constructor,
        // then filled in.
        let mut envelope = Envelope::no_data(Value::Null, remaining);
        envelope.no_data = false;
        envelope.result_rows = i64::try_from(rows.len()).unwrap_or(i64::MAX);
        envelope.units_used = used;
        envelope.response = Value::Array(rows);
        Ok(envelope)
    }

    /// Print the job's rows to standard output as each page arrives, then what
    /// a collected result says on stderr; the exit code. Nothing is kept: the
    /// memory is one page's, however many rows.
    ///
    /// `Err` gives the job back when its rows cannot be printed before the
    /// last one has come: in `json` or `table`, or for an operation that does
    /// not answer an array of rows (every paged operation does).
    pub async fn stream(
        self,
        client: &Client,
        format: Format,
        columns: Option<&[String]>,
    ) -> Result<u8, Job> {
        let op = self.request.operation();
        if op.response.shape != Shape::Array {
            return Err(self);
        }
        let stdout = BufWriter::new(io::stdout().lock());
        let Some(mut writer) = RowWriter::new(format, op, columns, stdout) else {
            return Err(self);
        };
        let outcome = self.run(client, |page| writer.rows(&page)).await;
        let no_data = outcome.rows == 0 && outcome.units_used == 0;
        let stopped = match outcome.failure {
            Some(error) if outcome.rows > 0 => Some(error),
            // "No data found" for the first page is an empty result.
            Some(error) if matches!(error.kind(), ErrorKind::NoData) => None,
            // Refused, or the first page failed: nothing printed.
            Some(error) => return Ok(crate::error_report::report(&error)),
            None => None,
        };
        let written = outcome.written.and_then(|()| match stopped {
            Some(_) => Ok(()),
            // A complete result: a CSV one with no rows is its header.
            None => writer.finish(),
        });
        drop(writer);
        let code = crate::result::summary(
            op,
            format,
            no_data && stopped.is_none(),
            (outcome.rows, outcome.units_used, outcome.units_remaining),
            written,
        );
        Ok(match stopped {
            Some(cause) => {
                let missing = crate::partial::missing_rows(
                    &self.request,
                    (self.page_size, self.max_rows),
                    outcome.rows,
                );
                crate::error_report::report_stopped(op, outcome.rows, &missing, &cause)
            }
            None => code,
        })
    }
}
