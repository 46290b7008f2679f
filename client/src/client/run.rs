//! The way to run a job: [`Client::run`] (or [`Client::run_each`], the rows
//! handed over as they come). The operation table says which kind it is
//! ([`Job::of_run`]): a paged job when a row cap is given, a batched job for
//! an operation with a batch parameter, one call otherwise. Whatever the
//! kind, a run is three steps: the plan ([`Client::plan`]: what to send, what
//! the cache answers, the estimate), carried out under one hold on the budget
//! (`batch` for requests, `paged_run` for pages), then reduced to one result
//! (`reduce`). "No data found" is an empty result, a job that stops part-way
//! keeps what it paid for ([`Partial`](crate::job::Partial)), and the outcome
//! carries the run's exact figures ([`Figures`](crate::job::Figures)).

use std::ops::ControlFlow;

use futures_util::future::BoxFuture;

use super::Client;
use super::job::Job;
use super::output::{Erased, Output, Part, typed};
use super::paged_run::Sink;
use super::pages::plan_pages;
use super::plan::{Purpose, Sends};
use super::progress::Progress;
use super::reduce::{Failed, Ran};
use super::run_options::RunOptions;
use crate::error::{Error, InvalidInput};
use crate::operation_table::Service;
use crate::outcome::Outcome;
use crate::request::Request;

impl Job {
    /// The job a run of `request` is, with a row cap of `max_rows`: the
    /// operation table decides. With a cap, pages of the request's limit
    /// (else the most rows one request returns,
    /// [`Paging::most_per_page`](super::pages::Paging::most_per_page));
    /// without, a batched job, which is one request for an operation that
    /// does not batch.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidInput`](crate::error::ErrorKind::InvalidInput) (parameter `max_rows`) when a cap is given
    /// for an operation that does not page, or the request's limit is not a
    /// whole number (or is not given and the table states no most rows a
    /// request returns).
    ///
    /// # Examples
    ///
    /// ```
    /// use seozoom::Job;
    /// use seozoom::types::KeywordType;
    ///
    /// let client = seozoom::Client::new("YOUR-KEY")?;
    /// let rows = client.domains().keywords("example.it", KeywordType::Best, 100).request();
    /// assert_eq!(
    ///     Job::of(&rows, Some(250))?,
    ///     Job::Pages { page_size: 100, max_rows: Some(250) }
    /// );
    /// let metrics = client.keywords().metrics(["mutuo"]).request();
    /// assert_eq!(Job::of(&metrics, None)?, Job::Batched);
    /// assert!(Job::of(&metrics, Some(10)).is_err(), "it does not page");
    /// # Ok::<(), seozoom::Error>(())
    /// ```
    pub fn of(request: &Request, max_rows: Option<usize>) -> Result<Job, Error> {
        let Some(max_rows) = max_rows else {
            return Ok(Job::Batched);
        };
        let op = request.operation();
        let refuse = |problem: &str| {
            Error::from(InvalidInput {
                operation: op.label(),
                param: "max_rows".into(),
                value: max_rows.to_string(),
                problem: problem.into(),
            })
        };
        let paging = op
            .paging()
            .ok_or_else(|| refuse("this operation does not page"))?;
        let limit = paging.limit.wire;
        let page_size = match request.get(limit) {
            Some([one]) => one.trim().parse::<i64>().ok(),
            Some(_) => None,
            // The most one request returns: the fewest requests.
            None => paging.most_per_page().ok_or_else(|| {
                refuse(&format!(
                    "give the page size, `{limit}`: the spec states no most rows a request returns"
                ))
            })
            .map(Some)?,
        };
        let page_size = page_size.ok_or_else(|| {
            refuse(&format!(
                "the page size, `{limit}`, must be one whole number"
            ))
        })?;
        Ok(Job::Pages {
            page_size,
            max_rows: Some(max_rows),
        })
    }

    /// The job a run of `request` with `options` is: [`Job::One`] when it
    /// asks for [`RunOptions::one_request`], else as [`Job::of`] says.
    ///
    /// # Errors
    ///
    /// As [`Job::of`], and [`ErrorKind::InvalidInput`](crate::error::ErrorKind::InvalidInput) (parameter
    /// `max_rows`) when one request is asked for with a row cap.
    pub fn of_run(request: &Request, options: &RunOptions) -> Result<Job, Error> {
        match (options.one_request, options.max_rows) {
            (false, rows) => Job::of(request, rows),
            (true, None) => Ok(Job::One),
            (true, Some(rows)) => Err(InvalidInput {
                operation: request.operation().label(),
                param: "max_rows".into(),
                value: rows.to_string(),
                problem: "one request is asked for, and one request does not page".into(),
            }
            .into()),
        }
    }

    /// Check the requests this job of `request` sends against the spec
    /// (`service`'s rules, `default_database` when the request names none),
    /// without a client: every batch of a batched job, or the full page and
    /// the last one of a paged job. For a caller that reports a bad
    /// parameter before anything else (a missing key); a run checks them
    /// again.
    ///
    /// # Errors
    ///
    /// The first request's refusal: the parameter, the value and the limit.
    pub fn validate(
        self,
        request: &Request,
        service: &Service,
        default_database: &str,
    ) -> Result<(), InvalidInput> {
        match self {
            Job::Pages {
                page_size,
                max_rows,
            } => {
                let cap = max_rows.unwrap_or(usize::MAX);
                let plan = plan_pages(request, page_size, max_rows)?;
                let full = plan.page(request, plan.start(), page_size);
                full.validate(service, default_database)?;
                let size = usize::try_from(page_size.max(1)).unwrap_or(usize::MAX);
                let last = i64::try_from(cap % size).unwrap_or(0);
                if last > 0 {
                    let last = plan.page(request, plan.start(), last);
                    last.validate(service, default_database)?;
                }
            }
            Job::One => {
                request.validate(service, default_database)?;
            }
            _ => {
                for batch in request.batches() {
                    batch.validate(service, default_database)?;
                }
            }
        }
        Ok(())
    }
}

impl Client {
    /// Run any job and give its typed result: one call, a batched job or a
    /// paged job, as the operation table says ([`Job::of_run`]), with the
    /// caller's [`RunOptions`] (the most rows, fitting to the budget, a stop
    /// signal, a progress callback, the most time to wait).
    ///
    /// - **One call** for an operation without a batch parameter, or exactly
    ///   the request given with [`RunOptions::one_request`].
    /// - **A batched job** for one with a batch parameter: the inputs without
    ///   repeats, those the cache answers item by item not asked again, the
    ///   rest in the fewest requests (at most
    ///   [`BATCH_CONCURRENCY`](super::BATCH_CONCURRENCY) in flight), merged
    ///   in input order.
    /// - **A paged job** with [`RunOptions::max_rows`]: pages one after
    ///   another until a short page or the cap ([`Client::pages`]).
    ///
    /// The result type says what the operation answers: `Vec<R>` of records,
    /// [`ByKey<V>`](crate::types::ByKey), `Option<T>` for one object, or
    /// [`serde_json::Value`] for any operation alike ([`Output`]). "No data found!" is the empty result (an empty list
    /// or map, `None`) with [`Figures::no_data`](crate::job::Figures::no_data) set, whatever the kind of
    /// job and whether the answer is fresh or from the cache. Every request
    /// is validated and the whole job's maximum cost held against the budget
    /// before the first is sent.
    ///
    /// # Errors
    ///
    /// Refused before anything is sent ([`Error::is_refused`]): a broken limit
    /// or rule (including a row cap for an operation that does not page), a
    /// job over the budget, a used-up rate limit in refuse mode, a store that
    /// fails, or a stop given before the first request
    /// ([`ErrorKind::Stopped`](crate::error::ErrorKind::Stopped)). After some requests were answered, a job
    /// that fails or is stopped is [`ErrorKind::Partial`](crate::error::ErrorKind::Partial): the rows received
    /// with the run's figures ([`Partial::into_outcome`](crate::job::Partial::into_outcome)), what is missing
    /// ([`Missing::Inputs`](crate::job::Missing::Inputs) or [`Missing::Rows`](crate::job::Missing::Rows)) and the cause. Otherwise
    /// the error of the one failed request: the service's
    /// ([`ErrorKind::Service`](crate::error::ErrorKind::Service), [`ErrorKind::OutOfUnits`](crate::error::ErrorKind::OutOfUnits)), a transport
    /// failure after the retries, an answer that does not decode, or a wait
    /// past [`RunOptions::max_wait`] ([`ErrorKind::WaitedTooLong`](crate::error::ErrorKind::WaitedTooLong)). Each
    /// error says what it was charged ([`Error::charged`]).
    ///
    /// # Examples
    ///
    #[cfg_attr(feature = "sandbox", doc = "```")]
    #[cfg_attr(not(feature = "sandbox"), doc = "```ignore")]
    /// use seozoom::job::RunOptions;
    /// use seozoom::sandbox::Sandbox;
    /// use seozoom::types::{DomainKeyword, KeywordMetrics, KeywordType};
    /// use seozoom::Client;
    ///
    /// # #[tokio::main] async fn main() -> Result<(), seozoom::Error> {
    /// let sandbox = Sandbox::start().await?;
    /// let client = Client::builder()
    ///     .api_key(Sandbox::API_KEY)
    ///     .base_url(sandbox.base_url())
    ///     .build()?;
    ///
    /// // A batched job: 150 keywords in two requests.
    /// let keywords = client.keywords().metrics((0..150).map(|i| format!("keyword {i}")));
    /// let metrics = client
    ///     .run::<Vec<KeywordMetrics>>(keywords.request(), RunOptions::new())
    ///     .await?;
    /// assert_eq!(metrics.envelope.response.len(), 150);
    /// assert_eq!(metrics.figures.requests_sent, 2);
    ///
    /// // A paged job: up to 250 rows, 100 a page.
    /// let rows = client.domains().keywords("example.it", KeywordType::Best, 100);
    /// let options = RunOptions::new().max_rows(250);
    /// let paged = client.run::<Vec<DomainKeyword>>(rows.request(), options).await?;
    /// assert!(paged.envelope.response.len() <= 250);
    ///
    /// // Nothing found: an empty result, not an error.
    /// let none = client.keywords().metrics(["zzz nothing"]).request();
    /// let none = client.run::<Vec<KeywordMetrics>>(none, RunOptions::new()).await?;
    /// assert!(none.figures.no_data && none.envelope.response.is_empty());
    /// # Ok(()) }
    /// ```
    pub async fn run<T: Output>(
        &self,
        request: Request,
        options: RunOptions,
    ) -> Result<Outcome<T>, Error> {
        let op = request.operation();
        let ran = self.run_erased(request, &options, Erased::of::<T>(), None);
        self.reduce(op, ran.await)
    }

    /// [`run`](Self::run) with the rows handed to `each` as they come
    /// instead of kept: each page of a paged job (so that memory stays one
    /// page's), the whole result of any other job. The outcome's response is
    /// then empty; its figures are the run's. When `each` breaks, the run
    /// stops as if its stop were given.
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run).
    pub async fn run_each<T: Output>(
        &self,
        request: Request,
        options: RunOptions,
        mut each: impl FnMut(T) -> ControlFlow<()> + Send,
    ) -> Result<Outcome<T>, Error> {
        let op = request.operation();
        let mut sink = |part: Part| each(typed::<T>(part, op));
        let ran = self.run_erased(request, &options, Erased::of::<T>(), Some(&mut sink));
        self.reduce(op, ran.await)
    }

    /// A run, whatever its result type: planned, held against the budget,
    /// carried out; its rows kept, or handed to `sink` (page by page for a
    /// paged job, whole for any other).
    ///
    /// Boxed behind `dyn Future`, and built by a function never inlined: an
    /// `async fn` awaited in another crate is compiled there, so unboxed,
    /// the whole run is compiled again into every user's binary (the
    /// build-cost consumer's IR: 132k lines, not 72k; BENCHMARKS.md).
    #[inline(never)]
    fn run_erased<'a>(
        &'a self,
        request: Request,
        options: &'a RunOptions,
        erased: Erased,
        sink: Option<Sink<'a>>,
    ) -> BoxFuture<'a, Result<Ran<Part>, Failed<Part>>> {
        Box::pin(self.run_planned(request, options, erased, sink))
    }

    /// [`run_erased`](Self::run_erased)'s steps.
    async fn run_planned(
        &self,
        request: Request,
        options: &RunOptions,
        erased: Erased,
        sink: Option<Sink<'_>>,
    ) -> Result<Ran<Part>, Failed<Part>> {
        let op = request.operation();
        let plan = self.plan_run(&request, options, Purpose::Run).await?;
        if let Some(fitted) = plan.fitted {
            options.tell(Progress::Fitted(fitted));
        }
        let hold = match self.hold(op, &plan, options.bounds()).await {
            Ok(hold) => hold,
            Err(error) => return Err(self.refused(&request, error).into()),
        };
        if let Sends::Pages { .. } = plan.kind {
            // The pages go to the sink as they come.
            let job = (hold, options);
            return self.run_pages((request, plan), job, erased, sink).await;
        }
        let mut ran = self.run_requests(op, plan, (hold, options), erased).await?;
        // A job that is not paged hands its whole result at once.
        if let Some(sink) = sink {
            let nothing = (erased.nothing)(op);
            let whole = std::mem::replace(&mut ran.envelope.response, nothing);
            let _ = sink(whole);
        }
        Ok(ran)
    }
}
