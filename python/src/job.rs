//! A call from Python run by the library's one runner, [`Client::run`]: the
//! operation table decides whether it is one call, a batched job or a paged
//! job (`max_rows`), and the runner keeps what a job that stops part-way
//! received, and the run's exact figures ([`Figures`]). This module only
//! picks the operation's typed result (`typed::for_operation`) and turns the
//! runner's outcome into an [`Outcome`], or its error into a [`Failure`].

use futures_util::future::BoxFuture;
use seozoom::error::ErrorKind;
use seozoom::job::{Figures, Missing as Absent, Row, RunOptions, Stop, TypedOutput};
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
    /// Rows in the result (a list's items, a map's members).
    pub rows: usize,
    /// What the run sent, what the cache answered, what it was charged.
    pub figures: Figures,
    /// The rows that could not be typed, kept as the service sent them.
    pub raw_rows: Vec<RawRow>,
}

impl Outcome {
    /// The outcome of a body decoded on its own (`seozoom.decode`): nothing
    /// sent, nothing from the cache, the figures the body says.
    pub fn from_envelope<T: Serialize + Send + 'static>(
        envelope: Envelope<T>,
        count: fn(&T) -> usize,
    ) -> Self {
        let mut figures = Figures::default();
        figures.units_used = envelope.units_used;
        figures.units_remaining = (!envelope.no_data).then_some(envelope.units_remaining);
        figures.no_data = envelope.no_data;
        Outcome {
            rows: count(&envelope.response),
            figures,
            raw_rows: envelope.raw_rows,
            body: Box::new(Typed(Some(envelope.response))),
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
        /// `None` when the caller stopped the job (Ctrl-C, a cancel).
        cause: Option<Error>,
    },
}

/// Run the call: `max_rows` pages a paged operation; `stop`, once given,
/// ends every wait at once and sends nothing more (a request on the wire is
/// let finish, its answer kept).
pub async fn run(
    client: Client,
    request: Request,
    max_rows: Option<usize>,
    stop: Stop,
) -> Result<Outcome, Failure> {
    let op = request.operation();
    let mut options = RunOptions::new().stop(stop);
    if let Some(rows) = max_rows {
        options = options.max_rows(rows);
    }
    typed::for_operation(
        op,
        Call {
            client,
            request,
            options,
        },
    )
    .await
}

/// A call waiting for its operation's typed result.
struct Call {
    client: Client,
    request: Request,
    options: RunOptions,
}

type Run = BoxFuture<'static, Result<Outcome, Failure>>;

impl Call {
    /// The run, its result of type `T` boxed for Python by `body`.
    fn run<T>(self, body: fn(T) -> Box<dyn Response>) -> Run
    where
        T: TypedOutput,
    {
        Box::pin(async move {
            let op = self.request.operation();
            match self.client.run::<T>(self.request, self.options).await {
                Ok(outcome) => Ok(outcome_of(outcome.envelope, outcome.figures, body)),
                Err(error) => Err(failure(op, error, body)),
            }
        })
    }
}

impl ResultType for Call {
    type Output = Run;

    fn rows<R>(self) -> Run
    where
        R: Row + DeserializeOwned + Serialize + Send + Sync + 'static,
    {
        self.run::<Vec<R>>(|rows| Box::new(Typed(Some(rows))))
    }

    fn map<V>(self) -> Run
    where
        V: DeserializeOwned + Serialize + Send + Sync + 'static,
    {
        self.run::<ByKey<V>>(|map| Box::new(Typed(Some(map))))
    }

    fn one<T>(self) -> Run
    where
        T: DeserializeOwned + Serialize + Send + Sync + 'static,
    {
        // `None`: "no data found" for an operation that answers one object.
        self.run::<Option<T>>(|one| Box::new(Typed(one)))
    }
}

fn outcome_of<T: TypedOutput>(
    envelope: Envelope<T>,
    figures: Figures,
    body: fn(T) -> Box<dyn Response>,
) -> Outcome {
    Outcome {
        rows: envelope.response.rows(),
        figures,
        raw_rows: envelope.raw_rows,
        body: body(envelope.response),
    }
}

/// The runner's error as a failure: a job stopped part-way keeps what it
/// received; a stop given before anything was received is the error
/// `Stopped`, which the caller turns into its own interrupt.
fn failure<T: TypedOutput>(
    op: &Operation,
    error: Error,
    body: fn(T) -> Box<dyn Response>,
) -> Failure {
    let partial = match error.into_partial() {
        Ok(partial) => partial,
        Err(error) => return Failure::Error(error),
    };
    match partial.into_outcome::<T>() {
        Ok((received, missing, cause)) => Failure::Stopped {
            received: outcome_of(received.envelope, received.figures, body),
            missing: match missing {
                Absent::Inputs { param, values, .. } => Missing::Inputs {
                    param: op.param(param).map_or(param, |p| p.rust),
                    values,
                },
                Absent::Rows { offset, rows, .. } => Missing::Rows { offset, rows },
                // A kind of missing part this package does not know yet:
                // nothing to resume from.
                _ => Missing::Rows { offset: 0, rows: 0 },
            },
            // Stopped by the caller: interrupted, not failed.
            cause: (!matches!(cause.kind(), ErrorKind::Stopped)).then_some(cause),
        },
        // The job ran on `T`: this cannot differ; kept as an error.
        Err(partial) => Failure::Error(Error::from(partial)),
    }
}
