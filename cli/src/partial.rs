//! A job that stopped part-way: the rows it paid for are printed as a result
//! would be, and standard error says what is missing and why (exit code 1).
//!
//! A batched job's library error ([`seozoom::ErrorKind::Partial`]) carries its
//! received rows; a paged job's stream has delivered its rows before its error,
//! and the command line counts them to say where the missing rows start (the
//! rows of a streamed job are printed already: [`missing_rows`] alone).

use seozoom::{Envelope, Error, job::Partial, request::Request};
use serde_json::Value;

/// Why a call printed no complete result.
#[derive(Debug)]
pub enum Failure {
    /// Nothing to print: refused, or failed before any answer.
    Error(Error),
    /// Failed after some answers, which are printed.
    Stopped(Box<Stopped>),
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        match error.into_partial() {
            Ok(partial) => match Stopped::batched(partial) {
                Ok(stopped) => Failure::Stopped(Box::new(stopped)),
                Err(partial) => Failure::Error(Error::from(partial)),
            },
            Err(error) => Failure::Error(error),
        }
    }
}

/// The answered part of a job, what is missing and the error that stopped it.
#[derive(Debug)]
pub struct Stopped {
    /// The rows received, in input order, with their units.
    pub received: Envelope<Value>,
    /// What is missing, in words: `150 \`keyword\` values (2 of 3 requests)`.
    pub missing: String,
    /// The error that stopped the job.
    pub cause: Error,
}

impl Stopped {
    /// A batched job run with JSON rows; the partial back if it was not.
    fn batched(partial: Box<Partial>) -> Result<Stopped, Box<Partial>> {
        let missing = partial.missing_summary();
        let (received, _, cause) = partial.into_parts::<Value>()?;
        Ok(Stopped {
            received,
            missing,
            cause,
        })
    }

    /// A paged job of `request` (pages of `page_size` rows up to `max_rows`)
    /// that failed with `cause` after `rows` rows, received with `units_used`
    /// units; `units_remaining` is the last balance reported.
    pub fn paged(
        request: &Request,
        (page_size, max_rows): (i64, usize),
        rows: Vec<Value>,
        (units_used, units_remaining): (i64, i64),
        cause: Error,
    ) -> Stopped {
        let missing = missing_rows(request, (page_size, max_rows), rows.len());
        let mut received = Envelope::no_data(Value::Null, units_remaining);
        received.no_data = false;
        received.result_rows = i64::try_from(rows.len()).unwrap_or(i64::MAX);
        received.units_used = units_used;
        received.response = Value::Array(rows);
        Stopped {
            received,
            missing,
            cause,
        }
    }
}

/// What a paged job of `request` (pages of `page_size` rows up to `max_rows`)
/// that stopped after `received` rows is missing, in words: `the rows from
/// offset 20 on: up to 40 rows in 4 pages`.
pub fn missing_rows(
    request: &Request,
    (page_size, max_rows): (i64, usize),
    received: usize,
) -> String {
    // Every page before the failed one was full (a short page ends the job).
    let size = usize::try_from(page_size).unwrap_or(1).max(1);
    let done = received / size;
    let offset = page_offset(request, page_size, max_rows, done);
    let left = max_rows.saturating_sub(received);
    let pages = left.div_ceil(size);
    let from = offset.map_or_else(String::new, |o| format!(" from offset {o}"));
    format!(
        "the rows{from} on: up to {left} {} in {pages} {}",
        plural(left, "row", "rows"),
        plural(pages, "page", "pages"),
    )
}

/// The offset of page number `page` (0-based) of the job, as the library plans
/// it.
fn page_offset(request: &Request, page_size: i64, max_rows: usize, page: usize) -> Option<String> {
    let paging = request.operation().paging()?;
    let next = request.pages(page_size, max_rows).ok()?.nth(page)?;
    next.get(paging.offset.wire)?.first().cloned()
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
