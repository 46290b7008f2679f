//! One call from Python through the Rust client, as the command line makes
//! it: a paged job when a row cap is given (`max_rows`), a batched job for an
//! operation with a list input, one call otherwise. Each ends in an
//! [`Outcome`], or in a [`Failure`] that keeps what a job that stopped
//! part-way received.

use futures_util::StreamExt;
use seozoom::error::{ErrorKind, InvalidInput};
use seozoom::operation_table::Operation;
use seozoom::request::Request;
use seozoom::{Client, Envelope, Error};
use serde_json::Value;

use seozoom::job::Stop;

/// The rows of a result: an operation's `response`, or a paged job's rows.
pub enum Body {
    Response(Value),
    Paged(Vec<Value>),
}

/// A result and its figures.
pub struct Outcome {
    pub body: Body,
    pub units_used: i64,
    pub units_remaining: i64,
    pub from_cache: bool,
    pub no_data: bool,
}

impl Outcome {
    fn from_envelope(envelope: Envelope<Value>) -> Self {
        Outcome {
            from_cache: envelope.fetched_at.is_some(),
            units_used: envelope.units_used,
            units_remaining: envelope.units_remaining,
            no_data: envelope.no_data,
            body: Body::Response(envelope.response),
        }
    }
}

/// What a job that stopped part-way did not get.
pub enum Missing {
    /// The inputs of a batched job without an answer (the parameter's Rust name).
    Inputs {
        param: &'static str,
        values: Vec<String>,
    },
    /// The rows of a paged job not fetched: from this offset, this many.
    Rows { offset: i64, rows: usize },
}

/// Why a job ended without its whole result.
pub enum Failure {
    /// Nothing received: the error itself.
    Error(Error),
    /// Part of the job was answered (and paid for): kept here.
    Stopped {
        received: Outcome,
        missing: Missing,
        /// `None` when the caller interrupted the job.
        cause: Option<Error>,
    },
}

/// Whether a call with these options runs as a job of several requests, which
/// one Ctrl-C stops between requests: a paged job, or a batched one.
pub fn stops_between_requests(op: &Operation, max_rows: Option<usize>) -> bool {
    max_rows.is_some() || op.batch_param().is_some()
}

/// Run the call.
pub async fn run(
    client: Client,
    request: Request,
    max_rows: Option<usize>,
    stop: Stop,
) -> Result<Outcome, Failure> {
    let op = request.operation();
    if let Some(max_rows) = max_rows {
        let page_size = page_size_of(&request, max_rows).map_err(Failure::Error)?;
        return paged(&client, request, page_size, max_rows, stop).await;
    }
    let result = match op.batch_param() {
        Some(_) => {
            client
                .execute_json_batched_until(request, |_, _| {}, &stop)
                .await
        }
        None => client.execute_json(request).await,
    };
    match result {
        Ok(envelope) => Ok(Outcome::from_envelope(envelope)),
        // One object asked for, none found: an empty result, as for lists.
        Err(error) if matches!(error.kind(), ErrorKind::NoData) => Ok(Outcome {
            body: Body::Response(Value::Null),
            units_used: 0,
            units_remaining: client.units().remaining.unwrap_or(0),
            from_cache: false,
            no_data: true,
        }),
        Err(error) => match error.into_partial() {
            Ok(partial) => {
                let param = partial.missing().param;
                let param = op.param(param).map_or(param, |p| p.rust);
                match partial.into_parts::<Value>() {
                    Ok((received, missing, cause)) => Err(Failure::Stopped {
                        received: Outcome::from_envelope(received),
                        missing: Missing::Inputs {
                            param,
                            values: missing.values,
                        },
                        // Stopped by the caller: interrupted, not failed.
                        cause: (!matches!(cause.kind(), ErrorKind::Stopped)).then_some(cause),
                    }),
                    // The job ran on JSON: this cannot differ; kept as an error.
                    Err(partial) => Err(Failure::Error(Error::from(partial))),
                }
            }
            Err(error) => Err(Failure::Error(error)),
        },
    }
}

/// Rows a page: the request's limit, else its default, else the most the
/// operation allows.
pub fn page_size_of(request: &Request, max_rows: usize) -> Result<i64, Error> {
    let op = request.operation();
    let not_paged = || {
        Error::from(InvalidInput {
            operation: op.label(),
            param: "max_rows".into(),
            value: max_rows.to_string(),
            problem: "this operation does not page".into(),
        })
    };
    let paging = op.paging().ok_or_else(not_paged)?;
    let limit = paging.limit;
    let given = match request.get(limit.wire) {
        Some([one]) => one.trim().parse().ok(),
        _ => None,
    };
    given
        .or_else(|| limit.default.and_then(|d| d.parse().ok()))
        .or(limit.max.map(|m| m.value))
        .ok_or_else(not_paged)
}

/// Where the first page starts: the request's offset, else its default.
fn start_offset(op: &Operation, request: &Request) -> i64 {
    let Some(paging) = op.paging() else { return 0 };
    match request.get(paging.offset.wire) {
        Some([one]) => one.trim().parse().unwrap_or(0),
        _ => paging
            .offset
            .default
            .and_then(|d| d.parse().ok())
            .unwrap_or(0),
    }
}

/// A paged job: pages one after another until a short page or the cap; the
/// stop flag is read before each request.
async fn paged(
    client: &Client,
    request: Request,
    page_size: i64,
    max_rows: usize,
    stop: Stop,
) -> Result<Outcome, Failure> {
    let op = request.operation();
    let before = client.units();
    let stream = client.pages_json(request.clone(), page_size, Some(max_rows));
    // A chunk is a page: its rows are ready together.
    let size = usize::try_from(page_size).unwrap_or(1).max(1);
    let mut pages = stream.ready_chunks(size);
    let (mut rows, mut failure, mut interrupted) = (Vec::new(), None, false);
    loop {
        if stop.is_stopped() {
            interrupted = true;
            break;
        }
        let Some(chunk) = pages.next().await else {
            break;
        };
        for row in chunk {
            match row {
                Ok(row) => rows.push(row),
                // A failed page is the stream's last item.
                Err(error) => failure = Some(error),
            }
        }
        if failure.is_some() {
            break;
        }
    }
    // Dropping the stream ends the job: no more pages are asked for.
    drop(pages);
    let after = client.units();
    let units_used = after.used - before.used;
    let received = Outcome {
        no_data: rows.is_empty() && units_used == 0 && failure.is_none(),
        from_cache: !rows.is_empty() && units_used == 0 && after.calls == before.calls,
        units_used,
        units_remaining: after.remaining.unwrap_or(0),
        body: Body::Paged(Vec::new()),
    };
    let missing = Missing::Rows {
        offset: start_offset(op, &request).saturating_add(i64::try_from(rows.len()).unwrap_or(0)),
        rows: max_rows.saturating_sub(rows.len()),
    };
    let received = Outcome {
        body: Body::Paged(rows),
        ..received
    };
    match (failure, interrupted) {
        (Some(error), _) if matches!(error.kind(), ErrorKind::NoData) => Ok(Outcome {
            no_data: true,
            ..received
        }),
        (Some(error), _) if matches!(&received.body, Body::Paged(r) if r.is_empty()) => {
            Err(Failure::Error(error))
        }
        (Some(error), _) => Err(Failure::Stopped {
            received,
            missing,
            cause: Some(error),
        }),
        (None, true) => Err(Failure::Stopped {
            received,
            missing,
            cause: None,
        }),
        (None, false) => Ok(received),
    }
}
