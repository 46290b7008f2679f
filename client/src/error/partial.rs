//! What a batched job that stopped part-way hands back: the rows its answered
//! requests paid for, in input order, the inputs that got no answer, and why.
//!
//! A job's requests are charged one by one, so a failure on the 21st request of
//! a job must not throw away what the first 20 bought. The job keeps the rows in
//! the type it decoded them to (a `Vec` of records, a [`ByKey`](crate::types::ByKey)
//! map, or JSON for the untyped entry points); [`Error`] is not generic, so the
//! envelope is held as `dyn Any` and given back by [`Partial::received`] and
//! [`Partial::into_parts`] for the type the job was run with.

use std::any::Any;
use std::fmt;

use crate::envelope::Envelope;
use crate::error::Error;
#[cfg(doc)]
use crate::error::ErrorKind;

/// The inputs of a batched job that got no answer: those of the request that
/// failed, of any other that failed with it, and of the requests never sent.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Missing {
    /// Wire name of the job's batch parameter (`keyword`, `url`, ...).
    pub param: &'static str,
    /// The values without an answer, in input order (repeats already removed,
    /// each as it would have been sent), ready to be sent again.
    pub values: Vec<String>,
    /// Requests of the job without an answer: failed or never sent.
    pub requests: usize,
}

/// A batched job that failed after some of its requests were answered
/// ([`ErrorKind::Partial`]): the merged result of the answered requests, what is
/// missing, and the error that stopped the job.
///
/// The job stops sending at its first failure; requests already in flight are
/// awaited, since the service may have charged them, and their rows kept.
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
///                 println!("{} rows kept, {} keywords to send again", received.response.len(), missing.values.len());
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
    units_used: i64,
    requests: usize,
    missing: Missing,
    cause: Error,
}

impl Partial {
    /// The part of a job of `requests` requests that was answered.
    pub(crate) fn new<T: Send + Sync + 'static>(
        operation: String,
        received: Envelope<T>,
        requests: usize,
        missing: Missing,
        cause: Error,
    ) -> Self {
        Partial {
            operation,
            result_rows: received.result_rows,
            units_used: received.units_used,
            received: Box::new(received),
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
        let Partial {
            operation,
            received,
            received_type,
            result_rows,
            units_used,
            requests,
            missing,
            cause,
        } = *self;
        match received.downcast::<Envelope<T>>() {
            Ok(envelope) => Ok((*envelope, missing, cause)),
            Err(received) => Err(Box::new(Partial {
                operation,
                received,
                received_type,
                result_rows,
                units_used,
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
        self.units_used
    }

    /// Requests the job had in all.
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

    /// What is missing, in words: ``150 `keyword` values (2 of 3 requests)``.
    pub fn missing_summary(&self) -> String {
        let values = self.missing.values.len();
        format!(
            "{values} `{}` {} ({} of {} requests)",
            self.missing.param,
            if values == 1 { "value" } else { "values" },
            self.missing.requests,
            self.requests,
        )
    }
}

impl fmt::Display for Partial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let answered = self.requests.saturating_sub(self.missing.requests);
        write!(
            f,
            "{}: the job stopped after {answered} of {} requests ({} rows kept, {} units used); \
             {} `{}` values missing ({} requests): {}",
            self.operation,
            self.requests,
            self.result_rows,
            self.units_used,
            self.missing.values.len(),
            self.missing.param,
            self.missing.requests,
            self.cause
        )
    }
}

/// The rows are left out: a job's result may be megabytes.
impl fmt::Debug for Partial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Partial")
            .field("operation", &self.operation)
            .field("received", &self.received_type)
            .field("result_rows", &self.result_rows)
            .field("units_used", &self.units_used)
            .field("requests", &self.requests)
            .field("missing_param", &self.missing.param)
            .field("missing_values", &self.missing.values.len())
            .field("missing_requests", &self.missing.requests)
            .field("cause", &self.cause)
            .finish()
    }
}

impl std::error::Error for Partial {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.cause)
    }
}
