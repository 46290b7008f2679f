//! The one way to run a job: [`Client::run`]. The operation table says
//! which kind it is ([`Job::of`]): a paged job when a row cap is given, a
//! batched job for an operation with a batch parameter, one call otherwise.
//! Whatever the kind, "no data found" is an empty result, a job that stops
//! part-way keeps what it paid for ([`Partial`]), and the outcome carries the
//! run's exact figures ([`Figures`]).

use std::ops::ControlFlow;
use std::sync::Arc;

use super::job::Job;
use super::output::{Output, TypedOutput};
use super::pages::{Cut, Fetch, plan_pages};
use super::progress::Progress;
use super::run_options::RunOptions;
use super::{Bounds, Client, InputOrder};
use crate::charge::Charge;
use crate::decode::Decoder;
use crate::envelope::Envelope;
use crate::error::partial::{Missing, Partial};
use crate::error::{Error, ErrorKind, InvalidInput};
use crate::operation_table::Service;
use crate::outcome::{Figures, Outcome};
use crate::request::Request;

/// What a job's requests came to, before its figures are made.
pub(crate) struct Ran<T> {
    /// The result, merged.
    pub(crate) envelope: Envelope<T>,
    /// The latest balance an answer of the job reported (a "no data" answer
    /// reports none).
    pub(crate) reported: Option<i64>,
    /// Requests that reached the service.
    pub(crate) requests_sent: usize,
    /// Inputs answered from the cache item by item.
    pub(crate) cached_items: usize,
    /// Requests answered whole from the cache.
    pub(crate) cached_requests: usize,
}

/// A job that did not end with its whole result.
pub(crate) enum Failed<T> {
    /// Nothing received: the error itself.
    Error(Error),
    /// Stopped part-way: what was received, what is missing, the job's
    /// requests in all, and why.
    Part {
        received: Ran<T>,
        missing: Missing,
        requests: usize,
        cause: Error,
    },
}

impl<T> From<Error> for Failed<T> {
    fn from(error: Error) -> Self {
        Failed::Error(error)
    }
}

/// What a run keeps when its rows are handed over: nothing.
type Keep<T> = fn(T) -> ControlFlow<()>;

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
    /// [`ErrorKind::InvalidInput`] (parameter `max_rows`) when a cap is given
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
    /// paged job, as the operation table says ([`Job::of`]), with the
    /// caller's [`RunOptions`] (the most rows, fitting to the budget, a stop
    /// signal, a progress callback, the most time to wait).
    ///
    /// - **One call** for an operation without a batch parameter.
    /// - **A batched job** for one with a batch parameter: the inputs without
    ///   repeats, those the cache answers item by item not asked again, the
    ///   rest in the fewest requests, merged in input order
    ///   ([`Client::execute_batched`]).
    /// - **A paged job** with [`RunOptions::max_rows`]: pages one after
    ///   another until a short page or the cap ([`Client::pages`]).
    ///
    /// The result type says what the operation answers: `Vec<R>` of records,
    /// [`ByKey<V>`](crate::types::ByKey), or `Option<T>` for one object
    /// ([`TypedOutput`]). "No data found!" is the empty result (an empty list
    /// or map, `None`) with [`Figures::no_data`] set, whatever the kind of
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
    /// ([`ErrorKind::Stopped`]). After some requests were answered, a job
    /// that fails or is stopped is [`ErrorKind::Partial`]: the rows received
    /// with the run's figures ([`Partial::into_outcome`]), what is missing
    /// ([`Missing::Inputs`] or [`Missing::Rows`]) and the cause. Otherwise
    /// the error of the one failed request, as [`execute`](Self::execute)
    /// gives it (a wait past [`RunOptions::max_wait`] is
    /// [`ErrorKind::WaitedTooLong`]).
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
    pub async fn run<T: TypedOutput>(
        &self,
        request: Request,
        options: RunOptions,
    ) -> Result<Outcome<T>, Error> {
        self.run_decoded(request, options, T::decoder()).await
    }

    /// [`run`](Self::run) with each answer decoded by `decode`.
    /// `Client::run_json` (generated) hands it the table's decoder of every
    /// operation.
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run).
    #[doc(hidden)]
    pub async fn run_decoded<T: Output>(
        &self,
        request: Request,
        options: RunOptions,
        decode: Decoder<T::Answer>,
    ) -> Result<Outcome<T>, Error> {
        self.run_into(request, &options, decode, None::<Keep<T>>)
            .await
    }

    /// [`run_decoded`](Self::run_decoded) with the rows handed to `each` as
    /// they come instead of kept: each page of a paged job (so that memory
    /// stays one page's), the whole result of any other job. The outcome's
    /// response is then empty; its figures are the run's. When `each`
    /// breaks, the run stops as if its stop were given. `Client::run_json_each`
    /// (generated) hands it the table's decoder.
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run).
    #[doc(hidden)]
    pub async fn run_decoded_each<T: Output>(
        &self,
        request: Request,
        options: RunOptions,
        decode: Decoder<T::Answer>,
        each: impl FnMut(T) -> ControlFlow<()>,
    ) -> Result<Outcome<T>, Error> {
        self.run_into(request, &options, decode, Some(each)).await
    }

    /// A run whose rows are kept, or handed to `sink` (page by page for a
    /// paged job).
    async fn run_into<T: Output, S: FnMut(T) -> ControlFlow<()>>(
        &self,
        request: Request,
        options: &RunOptions,
        decode: Decoder<T::Answer>,
        mut sink: Option<S>,
    ) -> Result<Outcome<T>, Error> {
        let op = request.operation();
        let job = Job::of(&request, options.max_rows)?;
        let ran = match job {
            Job::Pages {
                page_size,
                max_rows,
            } => {
                let max_rows = max_rows.unwrap_or(usize::MAX);
                // The pages go to the sink as they come.
                let sink = sink.take();
                self.run_pages(request, options, (page_size, max_rows), decode, sink)
                    .await
            }
            _ if op.batch_param().is_some() => {
                self.run_batched(
                    request,
                    |done, total| options.tell(Progress::Requests { done, total }),
                    options.bounds(),
                    |op, status, body| decode(op, status, body).map(|e| e.map(T::from_answer)),
                    |batch, job| async move {
                        let answer = self.execute_decoded_in(batch, decode, job).await;
                        answer.map(|e| e.map(T::from_answer))
                    },
                )
                .await
            }
            _ => self.run_single(request, &options.bounds(), decode).await,
        };
        match ran {
            Ok(ran) => {
                let mut outcome = self.outcome(ran);
                // A job that is not paged hands its whole result at once.
                if let Some(mut sink) = sink {
                    let whole = std::mem::replace(&mut outcome.envelope.response, T::nothing(op));
                    let _ = sink(whole);
                }
                Ok(outcome)
            }
            Err(failed) => Err(self.failure(op.label(), failed)),
        }
    }

    /// One call, "no data found" for one object made the empty result.
    async fn run_single<T: Output>(
        &self,
        request: Request,
        bounds: &Bounds,
        decode: Decoder<T::Answer>,
    ) -> Result<Ran<T>, Failed<T>> {
        let op = request.operation();
        match self.execute_bounded(request, decode, bounds).await {
            Ok(envelope) => {
                let cached = envelope.fetched_at.is_some();
                Ok(Ran {
                    reported: envelope.units_remaining.filter(|_| !envelope.no_data),
                    requests_sent: usize::from(!cached),
                    cached_items: 0,
                    cached_requests: usize::from(cached),
                    envelope: envelope.map(T::from_answer),
                })
            }
            // One object asked for, none found: the empty result. The
            // service was asked, and charged nothing.
            Err(error) if matches!(error.kind(), ErrorKind::NoData) => {
                let known = self.units().remaining;
                Ok(Ran {
                    envelope: Envelope::no_data(T::nothing(op), known),
                    reported: None,
                    requests_sent: 1,
                    cached_items: 0,
                    cached_requests: 0,
                })
            }
            Err(error) => Err(Failed::Error(error)),
        }
    }

    /// A paged job: pages one after another until a short page, the cap, a
    /// failure or the stop; each page kept, or handed to `sink`.
    async fn run_pages<T: Output>(
        &self,
        request: Request,
        options: &RunOptions,
        (page_size, asked): (i64, usize),
        decode: Decoder<T::Answer>,
        mut sink: Option<impl FnMut(T) -> ControlFlow<()>>,
    ) -> Result<Ran<T>, Failed<T>> {
        let op = request.operation();
        let mut max_rows = asked;
        if options.fit_budget {
            let fitted = self.fit_rows(&request, page_size, asked).await?;
            options.tell(Progress::Fitted(fitted));
            // None fits: the job goes as asked, and is refused with the reason.
            if fitted.rows > 0 {
                max_rows = fitted.rows;
            }
        }
        let start = plan_pages(&request, page_size, Some(max_rows))
            .map_err(Error::from)?
            .start();
        let fetch: Fetch<T> = Arc::new(move |client, page, job| {
            Box::pin(async move {
                let answer = client.execute_decoded_in(page, decode, job).await;
                answer.map(|e| e.map(T::from_answer))
            })
        });
        let cut: Cut<T> = |page, rows| {
            page.truncate(rows);
            page.rows()
        };
        let mut pager = self.pager(
            request,
            (page_size, Some(max_rows)),
            (fetch, cut),
            options.bounds(),
        );
        let mut kept = Vec::new();
        let mut ran = Ran {
            envelope: Envelope::no_data(T::nothing(op), None),
            reported: None,
            requests_sent: 0,
            cached_items: 0,
            cached_requests: 0,
        };
        let (mut rows, mut units, mut failure) = (0usize, 0i64, None);
        let mut unknown_balance = false;
        while let Some(page) = pager.next_page().await {
            let page = match page {
                Ok(page) => page,
                Err(error) => {
                    failure = Some(error);
                    break;
                }
            };
            match page.fetched_at {
                Some(at) => {
                    ran.cached_requests += 1;
                    let oldest = ran.envelope.fetched_at.map_or(at, |old| old.min(at));
                    ran.envelope.fetched_at = Some(oldest);
                }
                None => ran.requests_sent += 1,
            }
            match page.units_remaining {
                _ if page.no_data => {}
                Some(balance) => ran.reported = Some(balance),
                None => unknown_balance = true,
            }
            ran.envelope.unreported.units_used |= page.unreported.units_used;
            ran.envelope.extras.extend(page.extras);
            ran.envelope.raw_rows.extend(page.raw_rows);
            units = units.saturating_add(page.units_used.max(0));
            rows = rows.saturating_add(page.response.rows());
            options.tell(Progress::Rows {
                done: rows,
                max: max_rows,
            });
            let broke = match sink.as_mut() {
                Some(sink) => sink(page.response).is_break(),
                None => {
                    kept.push(page.response);
                    false
                }
            };
            if broke && pager.has_more() {
                // The caller will take no more: stopped, as by its stop.
                failure = Some(Error::new(op.label(), ErrorKind::Stopped));
                break;
            }
        }
        // The job has ended (its holds are given back) before it is reported.
        pager.end().await;
        let answered = ran.requests_sent + ran.cached_requests;
        // A failed page was sent unless nothing was charged for it (refused,
        // or stopped before it went out).
        if failure
            .as_ref()
            .is_some_and(|e| e.charged() != Charge::None)
        {
            ran.requests_sent += 1;
        }
        ran.envelope.result_rows = i64::try_from(rows).unwrap_or(i64::MAX);
        ran.envelope.units_used = units;
        // A page that did not report the balance leaves it unknown unless a
        // later one did; a job that asked nothing new has the last one known.
        ran.envelope.units_remaining = match unknown_balance {
            true => ran.reported,
            false => ran.reported.or(self.units().remaining),
        };
        // Nothing found and nothing paid: "no data found", or no page at all.
        ran.envelope.no_data = rows == 0 && units == 0;
        if !kept.is_empty() {
            ran.envelope.response = T::merge(kept, &InputOrder::default());
        }
        let Some(cause) = failure else {
            return Ok(ran);
        };
        if answered == 0 {
            return Err(Failed::Error(cause));
        }
        let size = usize::try_from(page_size.max(1)).unwrap_or(usize::MAX);
        let left = max_rows.saturating_sub(rows);
        let pages = left.div_ceil(size);
        let missing = Missing::Rows {
            param: op.paging().map_or("", |p| p.offset.wire),
            // Every page before was full: the next starts after them.
            offset: start.saturating_add(i64::try_from(rows).unwrap_or(i64::MAX)),
            rows: left,
            pages,
        };
        // Interrupted or failed, the result is no "no data": rows may follow.
        ran.envelope.no_data = false;
        Err(Failed::Part {
            received: ran,
            missing,
            requests: answered + pages,
            cause,
        })
    }

    /// A job's figures, from what its requests came to.
    pub(crate) fn outcome<T>(&self, ran: Ran<T>) -> Outcome<T> {
        let Ran {
            envelope,
            reported,
            requests_sent,
            cached_items,
            cached_requests,
        } = ran;
        let figures = Figures {
            requests_sent,
            from_cache: requests_sent == 0 && cached_items + cached_requests > 0,
            cached_items,
            cached_requests,
            units_used: envelope.units_used,
            units_remaining: reported.or(self.units().remaining),
            no_data: envelope.no_data,
        };
        Outcome { envelope, figures }
    }

    /// The error of a job that did not end with its whole result: its own,
    /// or [`ErrorKind::Partial`] with what it received.
    pub(crate) fn failure<T: Send + Sync + 'static>(
        &self,
        operation: String,
        failed: Failed<T>,
    ) -> Error {
        match failed {
            Failed::Error(error) => error,
            Failed::Part {
                received,
                missing,
                requests,
                cause,
            } => {
                let received = self.outcome(received);
                let partial = Partial::new(operation.clone(), received, requests, missing, cause);
                Error::new(operation, ErrorKind::Partial(Box::new(partial)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operation_table::Operation;

    fn op(group: &str, action: &str) -> &'static Operation {
        Operation::find(group, action).unwrap()
    }

    #[test]
    fn the_table_says_which_job_a_run_is() {
        let keywords = op("domains", "keywords");
        let mut paged = Request::new(keywords, None);
        paged.one("domain", &"example.it".to_owned());
        assert_eq!(
            Job::of(&paged, Some(10)).unwrap(),
            Job::Pages {
                page_size: 10_000,
                max_rows: Some(10)
            },
            "without a limit, the most rows one request returns"
        );
        paged.one("limit", &50i64);
        assert_eq!(
            Job::of(&paged, Some(10)).unwrap(),
            Job::Pages {
                page_size: 50,
                max_rows: Some(10)
            }
        );
        assert_eq!(Job::of(&paged, None).unwrap(), Job::Batched);
        paged.set("limit", vec!["fifty".into()]);
        let error = Job::of(&paged, Some(10)).unwrap_err();
        assert!(error.to_string().contains("`limit`"), "{error}");
        let not_paged = Request::new(op("keywords", "metrics"), None);
        let error = Job::of(&not_paged, Some(10)).unwrap_err();
        assert!(error.is_refused());
        assert!(
            error
                .to_string()
                .contains("`max_rows` = 10: this operation does not page"),
            "{error}"
        );
    }

    #[test]
    fn a_paged_job_without_a_page_size_asks_for_the_most_rows_a_request_returns() {
        use crate::operation_table::Counts;
        let paged: Vec<_> = crate::operations::OPERATIONS
            .iter()
            .filter(|op| op.paging().is_some())
            .collect();
        assert!(!paged.is_empty());
        for op in paged {
            let request = Request::new(op, None);
            let Job::Pages { page_size, .. } = Job::of(&request, Some(1)).unwrap() else {
                panic!("{} pages", op.label());
            };
            // The cost's per-request figure is the rows a request returns.
            assert_eq!(op.cost.per_request_counts, Counts::Rows, "{}", op.label());
            assert_eq!(page_size, op.cost.per_request.value, "{}", op.label());
        }
    }
}
