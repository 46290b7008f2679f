//! One call from Python through the Rust client's typed APIs, as the command
//! line makes it: a paged job when a row cap is given (`max_rows`), a batched
//! job for an operation with a list input, one call otherwise. The
//! operation's typed result comes from the spec (`typed::for_operation`).
//! Each ends in an [`Outcome`], or in a [`Failure`] that keeps what a job
//! that stopped part-way received.

use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use seozoom::error::{ErrorKind, InvalidInput};
use seozoom::job::{Merge, Row, Stop};
use seozoom::operation_table::Operation;
use seozoom::request::Request;
use seozoom::types::{ByKey, RawRow};
use seozoom::{Client, Envelope, Error};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::typed::{self, Response, ResultType, Typed};

/// A result and its figures.
pub struct Outcome {
    /// The typed `response` (a paged job's rows), made Python later.
    pub body: Box<dyn Response>,
    /// Rows in a list result (0 for other results).
    pub rows: usize,
    pub units_used: i64,
    pub units_remaining: i64,
    pub from_cache: bool,
    pub no_data: bool,
    /// The rows that could not be typed, kept as the service sent them.
    pub raw_rows: Vec<RawRow>,
}

impl Outcome {
    pub fn from_envelope<T: Serialize + Send + 'static>(
        envelope: Envelope<T>,
        count: fn(&T) -> usize,
    ) -> Self {
        Outcome {
            rows: count(&envelope.response),
            from_cache: envelope.fetched_at.is_some(),
            units_used: envelope.units_used,
            units_remaining: envelope.units_remaining,
            no_data: envelope.no_data,
            raw_rows: envelope.raw_rows,
            body: Box::new(Typed(Some(envelope.response))),
        }
    }

    /// "No data found" for an operation that answers one object: no rows.
    fn nothing<T: Serialize + Send + 'static>(client: &Client) -> Self {
        Outcome {
            body: Box::new(Typed::<T>(None)),
            rows: 0,
            units_used: 0,
            units_remaining: client.units().remaining.unwrap_or(0),
            from_cache: false,
            no_data: true,
            raw_rows: Vec::new(),
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
    let call = Call {
        client,
        request,
        max_rows,
        stop,
    };
    typed::for_operation(op, call).await
}

/// A call waiting for its operation's typed result.
struct Call {
    client: Client,
    request: Request,
    max_rows: Option<usize>,
    stop: Stop,
}

type Run = BoxFuture<'static, Result<Outcome, Failure>>;

impl ResultType for Call {
    type Output = Run;

    fn rows<R>(self) -> Run
    where
        R: Row + DeserializeOwned + Serialize + Send + Sync + 'static,
    {
        Box::pin(async move {
            let Call {
                client,
                request,
                max_rows,
                stop,
            } = self;
            if let Some(max_rows) = max_rows {
                let page_size = page_size_of(&request, max_rows).map_err(Failure::Error)?;
                return paged::<R>(&client, request, page_size, max_rows, stop).await;
            }
            match request.operation().batch_param() {
                Some(_) => batched::<Vec<R>>(&client, request, &stop, Vec::len).await,
                None => {
                    let result = client.execute_rows::<R>(request).await;
                    single(&client, result, Vec::len).map_err(Failure::Error)
                }
            }
        })
    }

    fn map<V>(self) -> Run
    where
        V: DeserializeOwned + Serialize + Send + Sync + 'static,
    {
        Box::pin(async move {
            let Call {
                client,
                request,
                max_rows,
                stop,
            } = self;
            if let Some(max_rows) = max_rows {
                return Err(Failure::Error(not_paged(request.operation(), max_rows)));
            }
            match request.operation().batch_param() {
                Some(_) => batched::<ByKey<V>>(&client, request, &stop, |_| 0).await,
                None => {
                    let result = client.execute::<ByKey<V>>(request).await;
                    single(&client, result, |_| 0).map_err(Failure::Error)
                }
            }
        })
    }

    fn one<T>(self) -> Run
    where
        T: DeserializeOwned + Serialize + Send + Sync + 'static,
    {
        Box::pin(async move {
            let Call {
                client,
                request,
                max_rows,
                ..
            } = self;
            if let Some(max_rows) = max_rows {
                return Err(Failure::Error(not_paged(request.operation(), max_rows)));
            }
            let result = client.execute::<T>(request).await;
            single(&client, result, |_| 0).map_err(Failure::Error)
        })
    }
}

/// One call's outcome.
fn single<T: Serialize + Send + 'static>(
    client: &Client,
    result: Result<Envelope<T>, Error>,
    count: fn(&T) -> usize,
) -> Result<Outcome, Error> {
    match result {
        Ok(envelope) => Ok(Outcome::from_envelope(envelope, count)),
        // One object asked for, none found: an empty result, as for lists.
        Err(error) if matches!(error.kind(), ErrorKind::NoData) => {
            Ok(Outcome::nothing::<T>(client))
        }
        Err(error) => Err(error),
    }
}

/// A batched job, which keeps what was answered when it stops part-way.
async fn batched<T>(
    client: &Client,
    request: Request,
    stop: &Stop,
    count: fn(&T) -> usize,
) -> Result<Outcome, Failure>
where
    T: DeserializeOwned + Merge + Serialize + Send + Sync + 'static,
{
    let op = request.operation();
    let result = client
        .execute_batched_until::<T>(request, |_, _| {}, stop)
        .await;
    let error = match result {
        Ok(envelope) => return Ok(Outcome::from_envelope(envelope, count)),
        Err(error) if matches!(error.kind(), ErrorKind::NoData) => {
            return Ok(Outcome::nothing::<T>(client));
        }
        Err(error) => error,
    };
    let partial = error.into_partial().map_err(Failure::Error)?;
    let param = match partial.missing() {
        seozoom::job::Missing::Inputs { param, .. } => *param,
        _ => "",
    };
    let param = op.param(param).map_or(param, |p| p.rust);
    match partial.into_parts::<T>() {
        Ok((received, missing, cause)) => Err(Failure::Stopped {
            received: Outcome::from_envelope(received, count),
            missing: Missing::Inputs {
                param,
                values: missing.values().to_vec(),
            },
            // Stopped by the caller: interrupted, not failed.
            cause: (!matches!(cause.kind(), ErrorKind::Stopped)).then_some(cause),
        }),
        // The job ran on `T`: this cannot differ; kept as an error.
        Err(partial) => Err(Failure::Error(Error::from(partial))),
    }
}

fn not_paged(op: &Operation, max_rows: usize) -> Error {
    Error::from(InvalidInput {
        operation: op.label(),
        param: "max_rows".into(),
        value: max_rows.to_string(),
        problem: "this operation does not page".into(),
    })
}

/// Rows a page: the request's limit, else its default, else the most the
/// operation allows.
pub fn page_size_of(request: &Request, max_rows: usize) -> Result<i64, Error> {
    let op = request.operation();
    let paging = op.paging().ok_or_else(|| not_paged(op, max_rows))?;
    let limit = paging.limit;
    let given = match request.get(limit.wire) {
        Some([one]) => one.trim().parse().ok(),
        _ => None,
    };
    given
        .or_else(|| limit.default.and_then(|d| d.parse().ok()))
        .or(limit.max.map(|m| m.value))
        .ok_or_else(|| not_paged(op, max_rows))
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

/// What the pages of one job reported.
#[derive(Default)]
struct Pages {
    /// Pages answered (by the service or the cache).
    answered: usize,
    /// Of them, answered by the cache.
    cached: usize,
    /// Units the job's own requests reported: other calls on the same
    /// client at the same time are not counted.
    units_used: i64,
    /// The balance the last page reported.
    units_remaining: Option<i64>,
}

/// A paged job: pages one after another until a short page or the cap; the
/// stop flag is read before each request.
async fn paged<R>(
    client: &Client,
    request: Request,
    page_size: i64,
    max_rows: usize,
    stop: Stop,
) -> Result<Outcome, Failure>
where
    R: Row + DeserializeOwned + Serialize + Send + Sync + 'static,
{
    let op = request.operation();
    let mut stream = client.pages_enveloped::<R>(request.clone(), page_size, Some(max_rows));
    let mut pages = Pages::default();
    let (mut rows, mut failure, mut interrupted) = (Vec::new(), None, false);
    let mut raw_rows = Vec::new();
    loop {
        if stop.is_stopped() {
            interrupted = true;
            break;
        }
        let Some(page) = stream.next().await else {
            break;
        };
        match page {
            Ok(page) => {
                pages.answered += 1;
                pages.cached += usize::from(page.fetched_at.is_some());
                pages.units_used = pages.units_used.saturating_add(page.units_used.max(0));
                pages.units_remaining = Some(page.units_remaining);
                raw_rows.extend(page.raw_rows);
                rows.extend(page.response);
            }
            // A failed page is the stream's last item.
            Err(error) => {
                failure = Some(error);
                break;
            }
        }
    }
    // Dropping the stream ends the job: no more pages are asked for.
    drop(stream);
    let missing = Missing::Rows {
        offset: start_offset(op, &request).saturating_add(i64::try_from(rows.len()).unwrap_or(0)),
        rows: max_rows.saturating_sub(rows.len()),
    };
    let answered = pages.answered > 0;
    let received = Outcome {
        rows: rows.len(),
        // Nothing found and nothing paid ("no data found", or an empty page).
        no_data: rows.is_empty() && pages.units_used == 0 && failure.is_none(),
        from_cache: answered && pages.cached == pages.answered,
        units_used: pages.units_used,
        units_remaining: pages
            .units_remaining
            .or(client.units().remaining)
            .unwrap_or(0),
        raw_rows,
        body: Box::new(Typed(Some(rows))),
    };
    match (failure, interrupted) {
        (Some(error), _) if matches!(error.kind(), ErrorKind::NoData) => Ok(Outcome {
            no_data: true,
            ..received
        }),
        (Some(error), _) if received.rows == 0 => Err(Failure::Error(error)),
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
