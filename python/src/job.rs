//! One call from Python, run by the library's runner (`Client::run`, which
//! decides from the operation table whether it is one call, a batched job or
//! a paged one) as the operation's typed result (`typed::for_operation`),
//! kept until the GIL is taken: an [`Outcome`], or a [`Failure`] that keeps
//! what a job that stopped part-way received.

use futures_util::future::BoxFuture;
use seozoom::job::{Missing, Row, RunOptions, Stop, TypedOutput};
use seozoom::request::Request;
use seozoom::types::ByKey;
use seozoom::{Client, Error};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::typed::{self, Outcome, Response, ResultType, Typed};

/// Why a call ended without its whole result.
pub enum Failure {
    /// Nothing received: the error itself.
    Error(Error),
    /// Part of the job was answered (and paid for): kept here, with what is
    /// missing and why (`Stopped` when the caller interrupted it).
    Stopped {
        received: Outcome,
        missing: Missing,
        cause: Error,
    },
}

/// Run the call, with a row cap when given (fitted to the budget with
/// `fit`); `stop` stops it.
pub async fn run(
    client: Client,
    request: Request,
    (max_rows, fit): (Option<usize>, bool),
    stop: Stop,
) -> Result<Outcome, Failure> {
    let mut options = RunOptions::new().stop(stop).fit_budget(fit);
    if let Some(max_rows) = max_rows {
        options = options.max_rows(max_rows);
    }
    let op = request.operation();
    let call = Call {
        client,
        request,
        options,
    };
    typed::for_operation(op, call).await
}

/// A call waiting for its operation's typed result.
struct Call {
    client: Client,
    request: Request,
    options: RunOptions,
}

type Run = BoxFuture<'static, Result<Outcome, Failure>>;

impl ResultType for Call {
    type Output = Run;

    fn rows<R>(self) -> Run
    where
        R: Row + DeserializeOwned + Serialize + Send + Sync + 'static,
    {
        self.run::<Vec<R>, _>(|rows| Typed(Some(rows)))
    }

    fn map<V>(self) -> Run
    where
        V: DeserializeOwned + Serialize + Send + Sync + 'static,
    {
        self.run::<ByKey<V>, _>(|map| Typed(Some(map)))
    }

    fn one<T>(self) -> Run
    where
        T: DeserializeOwned + Serialize + Send + Sync + 'static,
    {
        self.run::<Option<T>, _>(Typed)
    }
}

impl Call {
    /// The run as result type `T`, kept as `body` makes it.
    fn run<T: TypedOutput, B: Response + 'static>(self, body: fn(T) -> B) -> Run {
        Box::pin(async move {
            let error = match self.client.run::<T>(self.request, self.options).await {
                Ok(outcome) => return Ok(Outcome::of(outcome, body)),
                Err(error) => error,
            };
            let partial = error.into_partial().map_err(Failure::Error)?;
            match partial.into_outcome::<T>() {
                Ok((received, missing, cause)) => Err(Failure::Stopped {
                    received: Outcome::of(received, body),
                    missing,
                    cause,
                }),
                Err(partial) => Err(Failure::Error(Error::from(partial))),
            }
        })
    }
}
