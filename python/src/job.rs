//! A call from Python run by the library's one runner, `Client::run`: the
//! operation table decides whether it is one call, a batched job or a paged
//! job (`max_rows`), and the runner keeps what a job that stops part-way
//! received, and the run's exact figures. This module only picks the
//! operation's typed result (`typed::for_operation`) and turns the runner's
//! outcome into an [`Outcome`], or its error into a [`Failure`].

use futures_util::future::BoxFuture;
use seozoom::error::ErrorKind;
use seozoom::job::{Missing as Absent, Output, Row, RunOptions, Stop};
use seozoom::request::Request;
use seozoom::types::ByKey;
use seozoom::{Client, Error};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::typed::{self, Outcome, Response, ResultType, Typed};

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

/// Run the call: `max_rows` pages a paged operation (cut to what the budget
/// covers with `fit`); `stop`, once given, ends every wait at once and sends
/// nothing more (a request on the wire is let finish, its answer kept).
pub async fn run(
    (client, request): (Client, Request),
    (max_rows, fit): (Option<usize>, bool),
    stop: Stop,
) -> Result<Outcome, Failure> {
    let mut options = RunOptions::new().stop(stop).fit_budget(fit);
    if let Some(rows) = max_rows {
        options = options.max_rows(rows);
    }
    let op = request.operation();
    let call = Call(client, request, options);
    typed::for_operation(op, call).await
}

/// A call waiting for its operation's typed result.
struct Call(Client, Request, RunOptions);

type Run = BoxFuture<'static, Result<Outcome, Failure>>;

impl ResultType for Call {
    type Output = Run;

    fn rows<R: Row + DeserializeOwned + Serialize + Send + Sync + 'static>(self) -> Run {
        self.run::<Vec<R>>(|rows| Box::new(Typed(Some(rows))))
    }

    fn map<V: DeserializeOwned + Serialize + Send + Sync + 'static>(self) -> Run {
        self.run::<ByKey<V>>(|map| Box::new(Typed(Some(map))))
    }

    fn one<T: DeserializeOwned + Serialize + Send + Sync + 'static>(self) -> Run {
        // `None`: "no data found" for an operation that answers one object.
        self.run::<Option<T>>(|one| Box::new(Typed(one)))
    }
}

impl Call {
    /// The run, its result of type `T` boxed for Python by `body`; a job
    /// stopped part-way keeps what it received.
    fn run<T: Output>(self, body: fn(T) -> Box<dyn Response>) -> Run {
        Box::pin(async move {
            let Call(client, request, options) = self;
            let op = request.operation();
            let error = match client.run::<T>(request, options).await {
                Ok(outcome) => return Ok(Outcome::of(outcome.envelope, outcome.figures, body)),
                Err(error) => error,
            };
            let partial = error.into_partial().map_err(Failure::Error)?;
            let (received, missing, cause) = partial
                .into_outcome::<T>()
                .map_err(|partial| Failure::Error(Error::from(partial)))?;
            let missing = match missing {
                Absent::Inputs { param, values, .. } => Missing::Inputs {
                    param: op.param(param).map_or(param, |p| p.rust),
                    values,
                },
                Absent::Rows { offset, rows, .. } => Missing::Rows { offset, rows },
                // A kind this package does not know yet: nothing to resume from.
                _ => Missing::Rows { offset: 0, rows: 0 },
            };
            Err(Failure::Stopped {
                received: Outcome::of(received.envelope, received.figures, body),
                missing,
                // Stopped by the caller: interrupted, not failed.
                cause: (!matches!(cause.kind(), ErrorKind::Stopped)).then_some(cause),
            })
        })
    }
}
