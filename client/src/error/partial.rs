//! What a job that stopped part-way hands back: the rows its answered
//! requests paid for (in input order, or page order), what got no answer, and
//! why.
//!
//! A job's requests are charged one by one, so a failure on the 21st request of
//! a job must not throw away what the first 20 bought. The job keeps the rows in
//! the type it decoded them to (a `Vec` of records, a [`ByKey`](crate::types::ByKey)
//! map, or JSON for the untyped entry points); [`Error`] is not generic, so the
//! envelope is held as `dyn Any` and given back by [`Partial::received`],
//! [`Partial::into_parts`] and [`Partial::into_outcome`] for the type the job
//! was run with.

use std::any::Any;
use std::fmt;

use crate::envelope::Envelope;
use crate::error::Error;
#[cfg(doc)]
use crate::error::ErrorKind;
use crate::outcome::{Figures, Outcome};

/// What a job that stopped part-way did not get: the inputs of a batched job
/// without an answer, or where the rows of a paged job stop.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Missing {
    /// The inputs of a batched job without an answer: those of the request
    /// that failed, of any other that failed with it, and of the requests
    /// never sent.
    #[non_exhaustive]
    Inputs {
        /// Wire name of the job's batch parameter (`keyword`, `url`, ...).
        param: &'static str,
        /// The values without an answer, in input order (repeats already
        /// removed, each as it would have been sent), ready to be sent again.
        values: Vec<String>,
        /// Requests of the job without an answer: failed or never sent.
        requests: usize,
    },
    /// The rows of a paged job not fetched: from `offset` on (the value of
    /// the offset parameter `param` where the next page starts), up to
    /// `rows` rows (the rest of the row cap) in up to `pages` pages. Every
    /// page before was full, so nothing before `offset` is missing: the same
    /// job started at `offset` with a cap of `rows` fetches the rest.
    #[non_exhaustive]
    Rows {
        /// Wire name of the operation's offset parameter.
        param: &'static str,
        /// Where the first missing row is.
        offset: i64,
        /// The most rows missing: what was left of the row cap.
        rows: usize,
        /// The most pages that would have fetched them.
        pages: usize,
    },
}

impl Missing {
    /// The inputs without an answer (none for a paged job).
    pub fn values(&self) -> &[String] {
        match self {
            Missing::Inputs { values, .. } => values,
            Missing::Rows { .. } => &[],
        }
    }

    /// Requests (or pages) of the job without an answer.
    pub fn requests(&self) -> usize {
        match self {
            Missing::Inputs { requests, .. } => *requests,
            Missing::Rows { pages, .. } => *pages,
        }
    }
}

impl fmt::Display for Missing {
    /// `150 `keyword` values` (`1 `keyword` value`) or `the rows from offset
    /// 20 on: up to 40 rows in 4 pages`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Missing::Inputs { param, values, .. } => {
                let noun = if values.len() == 1 { "value" } else { "values" };
                write!(f, "{} `{param}` {noun}", values.len())
            }
            Missing::Rows {
                offset,
                rows,
                pages,
                ..
            } => {
                let plural = |n: usize, one, many| if n == 1 { one } else { many };
                write!(
                    f,
                    "the rows from offset {offset} on: up to {rows} {} in {pages} {}",
                    plural(*rows, "row", "rows"),
                    plural(*pages, "page", "pages"),
                )
            }
        }
    }
}

/// A job that failed or was stopped after some of its requests were
/// answered ([`ErrorKind::Partial`]): the merged result of the answered
/// requests with the run's figures, what is missing, and the error that
/// stopped the job.
///
/// A batched job stops sending at its first failure; requests already in
/// flight are awaited, since the service may have charged them, and their
/// rows kept. A paged job stops at its first failed page, with the rows of
/// the pages before.
///
/// ```no_run
/// use seozoom::{Client, types::KeywordMetrics};
///
/// # async fn run(client: Client, keywords: Vec<String>) {
/// match client.keywords().metrics(keywords).send_all().await {
///     Ok(metrics) => println!("{} rows", metrics.response.len()),
///     Err(error) => match error.into_partial() {
///         Ok(partial) => {
///             eprintln!("{partial}");
///             // The type is the one `send_all` returns.
///             if let Ok((received, missing, _cause)) = partial.into_parts::<Vec<KeywordMetrics>>() {
///                 println!("{} rows kept, {} keywords to send again", received.response.len(), missing.values().len());
///             }
///         }
///         Err(other) => eprintln!("{other}"),
///     },
/// }
/// # }
/// ```
pub struct Partial {
    operation: String,
    received: Box<dyn Any + Send + Sync>,
    received_type: &'static str,
    result_rows: i64,
    figures: Figures,
    requests: usize,
    missing: Missing,
    cause: Error,
}

impl Partial {
    /// The part of a job of `requests` requests that was answered, with the
    /// figures of the run so far.
    pub(crate) fn new<T: Send + Sync + 'static>(
        operation: String,
        received: Outcome<T>,
        requests: usize,
        missing: Missing,
        cause: Error,
    ) -> Self {
        let Outcome { envelope, figures } = received;
        Partial {
            operation,
            result_rows: envelope.result_rows,
            figures,
            received: Box::new(envelope),
            received_type: std::any::type_name::<T>(),
            requests,
            missing,
            cause,
        }
    }

    /// `group action` of the job.
    pub fn operation(&self) -> &str {
        &self.operation
    }

    /// The merged result of the answered requests, as the job would have
    /// returned it (rows in input order, `result_rows` and `units_used` summed),
    /// when `T` is the type the job was run with; `None` for another type.
    pub fn received<T: 'static>(&self) -> Option<&Envelope<T>> {
        self.received.downcast_ref()
    }

    /// The received result, what is missing and the error that stopped the job,
    /// when `T` is the type the job was run with; the `Partial` itself back
    /// otherwise.
    ///
    /// It takes the box [`ErrorKind::Partial`] holds, and gives it back.
    ///
    /// # Errors
    ///
    /// The `Partial` itself, unchanged, when `T` is not the type the job was run with.
    pub fn into_parts<T: 'static>(
        self: Box<Self>,
    ) -> Result<(Envelope<T>, Missing, Error), Box<Self>> {
        self.into_outcome::<T>()
            .map(|(outcome, missing, cause)| (outcome.envelope, missing, cause))
    }

    /// The received result with the run's figures, what is missing and the
    /// error that stopped the job, when `T` is the type the job was run
    /// with; the `Partial` itself back otherwise.
    ///
    /// # Errors
    ///
    /// The `Partial` itself, unchanged, when `T` is not the type the job was run with.
    pub fn into_outcome<T: 'static>(
        self: Box<Self>,
    ) -> Result<(Outcome<T>, Missing, Error), Box<Self>> {
        let Partial {
            operation,
            received,
            received_type,
            result_rows,
            figures,
            requests,
            missing,
            cause,
        } = *self;
        match received.downcast::<Envelope<T>>() {
            Ok(envelope) => Ok((
                Outcome {
                    envelope: *envelope,
                    figures,
                },
                missing,
                cause,
            )),
            Err(received) => Err(Box::new(Partial {
                operation,
                received,
                received_type,
                result_rows,
                figures,
                requests,
                missing,
                cause,
            })),
        }
    }

    /// `ResultRows` of the received result.
    pub fn result_rows(&self) -> i64 {
        self.result_rows
    }

    /// Units charged for the answered requests.
    pub fn units_used(&self) -> i64 {
        self.figures.units_used
    }

    /// The figures of the run up to where it stopped: what it sent, what the
    /// cache answered, what it was charged.
    pub fn figures(&self) -> &Figures {
        &self.figures
    }

    /// Requests the job had in all (for a paged job: the pages answered and
    /// the most still missing).
    pub fn requests(&self) -> usize {
        self.requests
    }

    /// The inputs without an answer.
    pub fn missing(&self) -> &Missing {
        &self.missing
    }

    /// The error that stopped the job: the first failed request's, in input
    /// order.
    pub fn cause(&self) -> &Error {
        &self.cause
    }

    /// What is missing, in words: ``150 `keyword` values (2 of 3 requests)``
    /// for a batched job, [`Missing`]'s own words for a paged job.
    pub fn missing_summary(&self) -> String {
        match &self.missing {
            Missing::Inputs {
                param,
                values,
                requests,
            } => format!(
                "{} `{param}` {} ({requests} of {} requests)",
                values.len(),
                if values.len() == 1 { "value" } else { "values" },
                self.requests,
            ),
            rows @ Missing::Rows { .. } => rows.to_string(),
        }
    }
}

impl fmt::Display for Partial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let answered = self.requests.saturating_sub(self.missing.requests());
        write!(
            f,
            "{}: the job stopped after {answered} of {} requests ({} rows kept, {} units used); ",
            self.operation, self.requests, self.result_rows, self.figures.units_used,
        )?;
        match &self.missing {
            Missing::Inputs { requests, .. } => write!(
                f,
                "{} missing ({requests} requests): {}",
                self.missing, self.cause
            ),
            Missing::Rows { .. } => write!(f, "missing {}: {}", self.missing, self.cause),
        }
    }
}

/// The rows are left out: a job's result may be megabytes.
impl fmt::Debug for Partial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Partial")
            .field("operation", &self.operation)
            .field("received", &self.received_type)
            .field("result_rows", &self.result_rows)
            .field("figures", &self.figures)
            .field("requests", &self.requests)
            .field("missing_values", &self.missing.values().len())
            .field("missing_requests", &self.missing.requests())
            .field("cause", &self.cause)
            .finish()
    }
}

impl std::error::Error for Partial {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.cause)
    }
}
