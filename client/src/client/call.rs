//! One call: a generic request validated, priced against the budget, sent
//! under the rate limits with retries, and decoded into a typed result. Every
//! entry point (the generated builders' `send`, batched and paged jobs) ends
//! here.

use std::sync::Arc;
use std::time::Instant;

use reqwest::header::HeaderMap;
use serde::de::DeserializeOwned;
use tracing::Instrument;

use super::accounting::{Attempts, Last, Sending};
use super::prepared::{Prepared, Step};
use super::store_use::items_of;
use super::{Bounds, Client, JobHold, REDACTED};
use crate::charge::{BodyUnits, read_units};
use crate::decode::{Decoder, decode_rows, decode_typed};
use crate::envelope::Envelope;
use crate::error::{Error, ErrorKind, ErrorSource};
use crate::operation_table::Operation;
use crate::request::{Request, encode_value, push_query};
use crate::retry::{Decision, Outcome, Spent, Verdict, classify};
use crate::units::{Estimate, Ledger, estimate, estimate_learned};
use crate::wait::WaitCause as Cause;

impl Client {
    /// The cost range of a request, from the spec's figures, without sending it.
    /// Validates first, so an invalid request gives its error here. For an
    /// operation whose cost the spec leaves open, what the store's ledger
    /// learned of it is in [`estimate_observed`](Self::estimate_observed).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidInput`] when the request breaks a limit or rule of the spec.
    pub fn estimate(&self, request: &Request) -> Result<Estimate, Error> {
        Ok(self.prepare(request)?.estimate)
    }

    /// The URL a request would be sent to, with the key shown as `<redacted>`.
    /// Validates first, so an invalid request gives its error here.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidInput`] when the request breaks a limit or rule of the spec.
    pub fn redacted_url(&self, request: &Request) -> Result<String, Error> {
        let op = request.operation();
        let query = self.validate(request)?;
        Ok(self.url(op, &query, REDACTED))
    }

    fn url(&self, op: &Operation, query: &[(&str, String)], key: &str) -> String {
        let key = if key == REDACTED {
            key.to_owned()
        } else {
            encode_value(key)
        };
        let service = self.inner.service;
        let mut url = format!(
            "{}{}?{}={key}&",
            self.inner.base_url, op.path, service.key.wire
        );
        push_query(&mut url, query, service.list_separator);
        url
    }

    /// The request's query, checked against the spec; a refusal shows the
    /// values as given, so it is scrubbed of the key like every other error.
    fn validate(&self, request: &Request) -> Result<Vec<(&'static str, String)>, Error> {
        request
            .validate(self.inner.service, self.inner.database)
            .map_err(|error| self.inner.key.hide(error.into()))
    }

    pub(crate) fn prepare(&self, request: &Request) -> Result<Prepared, Error> {
        let op = request.operation();
        let service = self.inner.service;
        let query = self.validate(request)?;
        let database = query
            .iter()
            .find(|(wire, _)| *wire == service.database.wire)
            .map_or_else(|| self.inner.database.to_owned(), |(_, db)| db.clone());
        // Scoped by origin: an answer of a test double, a proxy or a staging
        // server is never served as another's. Keys written before the origin
        // was part of them start with the path, so they are never found.
        // Under its inputs as compared: the same inputs, however written, find
        // the same answer.
        let mut cache_key = format!("{} {}?", self.inner.origin, op.path);
        let compared = op.compared_query(&query, service.list_separator);
        push_query(&mut cache_key, &compared, service.list_separator);
        Ok(Prepared {
            op,
            database,
            url: self.url(op, &query, &self.inner.key.0),
            estimate: estimate(op, &query, service.list_separator),
            query,
            cache_key,
        })
    }

    /// Validate, send and decode a request into the typed result `T`. Generated
    /// builders call this; it is public for tools that build requests from the
    /// operation table.
    ///
    /// "No data found!" gives an empty result for list and map operations
    /// ([`Envelope::no_data`] is then `true`) and [`ErrorKind::NoData`] for operations
    /// that return one object.
    ///
    /// # Errors
    ///
    /// Refused before sending (nothing charged, [`Error::is_refused`]): a broken limit or rule
    /// ([`ErrorKind::InvalidInput`]), an insecure base URL, a call over the budget or of
    /// unknown cost under one, a used-up rate limit in refuse mode, a store that fails. Failed
    /// after sending: the service's error ([`ErrorKind::Service`], [`ErrorKind::OutOfUnits`],
    /// [`ErrorKind::NoData`] for a single object), a transport failure after the retries, an
    /// answer that does not decode, or waits that would pass
    /// [`ClientBuilder::max_wait`](crate::ClientBuilder::max_wait). Each [`ErrorKind`] says
    /// what it was charged.
    pub async fn execute<T: DeserializeOwned>(
        &self,
        request: Request,
    ) -> Result<Envelope<T>, Error> {
        self.call(request, decode_typed::<T>, None, &Bounds::default())
            .await
    }

    /// [`execute`](Self::execute) decoded by `decode`. `Client::execute_json`
    /// (generated) hands it the table's decoder of every operation.
    #[doc(hidden)]
    pub async fn execute_decoded<T>(
        &self,
        request: Request,
        decode: Decoder<T>,
    ) -> Result<Envelope<T>, Error> {
        self.call(request, decode, None, &Bounds::default()).await
    }

    /// [`execute`](Self::execute) for an operation that answers a list of rows:
    /// the same result, decoded with the rows' `Vec` reserved from the
    /// envelope's `ResultRows` (bounded by the body's size) rather than grown by
    /// doubling, which keeps the peak memory of a large page near the size of
    /// its rows. Generated builders of list operations call this.
    ///
    /// # Errors
    ///
    /// As [`execute`](Self::execute).
    pub async fn execute_rows<R: DeserializeOwned>(
        &self,
        request: Request,
    ) -> Result<Envelope<Vec<R>>, Error> {
        self.call(request, decode_rows::<R>, None, &Bounds::default())
            .await
    }

    /// [`execute_rows`](Self::execute_rows) for a page of a job, reserving from
    /// its hold.
    pub(crate) async fn execute_rows_in<R: DeserializeOwned>(
        &self,
        request: Request,
        job: Arc<JobHold>,
    ) -> Result<Envelope<Vec<R>>, Error> {
        self.call(request, decode_rows::<R>, Some(&job), job.bounds())
            .await
    }

    /// [`execute`](Self::execute) for a call of a job, reserving from its hold.
    pub(crate) async fn execute_in<T: DeserializeOwned>(
        &self,
        request: Request,
        job: Arc<JobHold>,
    ) -> Result<Envelope<T>, Error> {
        self.call(request, decode_typed::<T>, Some(&job), job.bounds())
            .await
    }

    /// [`execute_decoded`](Self::execute_decoded) for a call of a job,
    /// reserving from its hold.
    pub(crate) async fn execute_decoded_in<T>(
        &self,
        request: Request,
        decode: Decoder<T>,
        job: Arc<JobHold>,
    ) -> Result<Envelope<T>, Error> {
        self.call(request, decode, Some(&job), job.bounds()).await
    }

    /// [`execute_decoded`](Self::execute_decoded) for a call on its own that
    /// keeps to its caller's `bounds` (a run of one request).
    pub(crate) async fn execute_bounded<T>(
        &self,
        request: Request,
        decode: Decoder<T>,
        bounds: &Bounds,
    ) -> Result<Envelope<T>, Error> {
        self.call(request, decode, None, bounds).await
    }

    /// One call, decoded by `decode`, of a job (`job`) or on its own, kept to
    /// its caller's `bounds`: nothing is sent once the stop is given, and no
    /// wait is longer than the bound.
    ///
    /// Only the decoding depends on `T`; every other step is a [`Step`],
    /// compiled once in this crate rather than once per result type in every
    /// crate that makes a call.
    async fn call<T>(
        &self,
        request: Request,
        decode: impl Fn(&Operation, u16, &[u8]) -> Result<Envelope<T>, Error>,
        job: Option<&JobHold>,
        bounds: &Bounds,
    ) -> Result<Envelope<T>, Error> {
        let prepared = self.prepare(&request)?;
        let span = call_span(&prepared);
        async {
            let started = Instant::now();
            let freshness = self.freshness(prepared.op, &prepared.query);
            // A fresh answer in the cache: nothing is sent or charged.
            if let Some(answer) = self.cached_answer(&prepared, freshness).await? {
                let decoded = decode(prepared.op, 200, &answer.body);
                return self
                    .serve_cached(&request, &prepared, answer, decoded, &bounds.tell)
                    .await
                    .map_err(|error| self.failed(error));
            }
            if bounds.stopped() {
                return Err(stopped(prepared.op));
            }
            let sending = self.start_sending(&prepared, job, started).await?;
            let mut attempts = Attempts::new(self, &prepared, items_of(&request));
            let (result, body, seen) = match self.send(&prepared, bounds, &mut attempts).await {
                Ok((status, body)) => {
                    tracing::Span::current().record("status", status);
                    // What the decode meets that the spec does not say.
                    let (decoded, seen) =
                        crate::drift::seen::watch(|| decode(prepared.op, status, &body));
                    (decoded, Some(body), seen)
                }
                Err(error) => (Err(error), None, Vec::new()),
            };
            let last = match (&result, body) {
                (Ok(envelope), body) => Last::Decoded {
                    figures: envelope.into(),
                    body: body.unwrap_or_default(),
                    seen,
                },
                (Err(error), Some(body)) => Last::Unread { body, error, seen },
                (Err(error), None) => Last::Unanswered { error },
            };
            let accounted = self
                .account(sending, &request, &prepared, attempts, last, freshness)
                .await;
            match result {
                Ok(mut envelope) => {
                    envelope.units_remaining = accounted.units_remaining;
                    Ok(envelope)
                }
                Err(error) => Err(self.failed(error.with_charge(accounted.charged))),
            }
        }
        .instrument(span)
        .await
    }

    /// The budget's part before a call is sent: the call admitted against the
    /// budget, its maximum reserved in the ledger and, for a call on its own,
    /// held in the store's budget window.
    #[inline(never)]
    fn start_sending<'a>(
        &'a self,
        prepared: &'a Prepared,
        job: Option<&'a JobHold>,
        started: Instant,
    ) -> Step<'a, Result<Sending<'a>, Error>> {
        Box::pin(async move {
            let estimate = self.budget_estimate(prepared, job).await;
            let label = prepared.op.label();
            let ledger = &self.inner.ledger;
            ledger.admit(&label, estimate)?;
            let reservation = ledger.reserve_in(job.map(JobHold::budget), &label, estimate.max)?;
            // The budget window: the job's hold covers its calls; a call on its
            // own holds its maximum until it is recorded.
            let own_hold = match job.and_then(JobHold::window_id) {
                Some(_) => None,
                None => self.hold_window(&label, estimate).await?,
            };
            let hold = job
                .and_then(JobHold::window_id)
                .or(own_hold.as_ref().map(|h| h.id.as_str()))
                .map(|id| (id.to_owned(), estimate.max));
            Ok(Sending {
                started,
                reservation,
                own_hold,
                hold,
            })
        })
    }

    /// `UnitsUsed` and `UnitsRemaining` read from a body whatever else it is.
    pub(super) fn body_units(&self, body: &[u8]) -> BodyUnits {
        let service = self.inner.service;
        read_units(
            body,
            service.envelope_units_used,
            service.envelope_units_remaining,
        )
    }

    /// A call that failed after it was admitted (its attempts accounted for):
    /// the error returned without the key.
    fn failed(&self, error: Error) -> Error {
        let error = self.inner.key.hide(error);
        tracing::debug!(%error, "call failed");
        error
    }

    /// The estimate the budget checks see: the spec's, or for an unknown cost
    /// under a budget, the one made from what the ledger learned (a job's call
    /// with the figure its job was admitted with).
    async fn budget_estimate(&self, prepared: &Prepared, job: Option<&JobHold>) -> Estimate {
        let learned = match job {
            Some(job) => job.learned(),
            None => self.learned_for_budget(prepared.op).await,
        };
        match learned {
            None => prepared.estimate,
            Some(_) => estimate_learned(
                prepared.op,
                &prepared.query,
                self.inner.service.list_separator,
                learned,
            ),
        }
    }

    /// Send with rate limiting and retries; the status and body of the last attempt.
    ///
    /// When the client refuses rather than waits for a rate-limit slot, a retry that
    /// finds none ends the call with the answer it has: the call was sent, so it
    /// must not be reported as refused.
    ///
    /// Every attempt tried again is noted in `attempts` (the service may have
    /// charged it), for [`Client::account`] to write to the ledgers once the
    /// call has ended; nothing here writes to them.
    ///
    /// The caller's stop (`bounds`), once given, ends any wait (for a slot,
    /// a `Retry-After`, a 429's window, a backoff) and sends nothing more:
    /// the call ends with [`ErrorKind::Stopped`], charged what its attempts
    /// before were. Its waits together are bounded by the shorter of the
    /// client's and the caller's bound.
    #[inline(never)]
    fn send<'a>(
        &'a self,
        prepared: &'a Prepared,
        bounds: &'a Bounds,
        attempts: &'a mut Attempts,
    ) -> Step<'a, Sent> {
        Box::pin(async move {
            let op = prepared.op;
            // The answer of the attempt last tried again: the call's, should
            // its retry be refused a rate-limit slot.
            let mut previous: Option<Sent> = None;
            let mut attempt = 0;
            let mut spent = Spent::new(self.inner.rate_limits.window());
            let max_wait = bounds.max_wait(self.inner.max_wait);
            let mut waits = bounds.waits(op.label(), max_wait);
            loop {
                attempt += 1;
                let slot = match self.take_slot(op, &mut waits, attempt).await {
                    Ok(slot) if !bounds.stopped() => slot,
                    Ok(slot) => {
                        // Given as the signal came: not used, so it goes back.
                        self.settle_slot(op, slot).await;
                        return Err(stopped(op));
                    }
                    Err(ended)
                        if matches!(
                            ended.kind(),
                            ErrorKind::WaitedTooLong { .. } | ErrorKind::Stopped
                        ) =>
                    {
                        return Err(ended);
                    }
                    Err(refused) => return not_sent(previous, attempts, refused),
                };
                tracing::Span::current().record("attempts", attempt);
                let attempted = self.attempt(op, &prepared.url).await;
                // The answer is in: the slot counts a window from now.
                self.settle_slot(op, slot).await;
                let outcome = match &attempted {
                    Ok((status, headers, _)) => Outcome::Answered {
                        status: *status,
                        headers,
                    },
                    Err(error) => match error.kind() {
                        ErrorKind::Transport { timeout, .. } => {
                            Outcome::Failed { timeout: *timeout }
                        }
                        _ => return attempted.map(|(status, _, body)| (status, body)),
                    },
                };
                let decision = self.inner.retry.decide(&mut spent, &outcome);
                let timed_out = matches!(outcome, Outcome::Failed { timeout: true });
                let (cause, reason) = why_wait(&outcome);
                let result = attempted.map(|(status, _, body)| (status, body));
                match decision {
                    Decision::RetryAfter(delay) => {
                        let delay_ms = delay.as_millis() as u64;
                        tracing::debug!(
                            attempt,
                            timed_out,
                            delay_ms,
                            reason = reason.as_str(),
                            "retrying"
                        );
                        let answered = result.as_ref().ok().map(|(_, body)| self.body_units(body));
                        attempts.retried(answered);
                        bounds.tell.retrying(op, attempt + 1, &reason, delay);
                        previous = Some(result);
                        // Past the bound, or stopped by the caller: the
                        // call ends here, sending nothing more (the attempts
                        // before are noted).
                        waits.wait(delay, cause, &reason, attempt + 1).await?;
                    }
                    Decision::Accept | Decision::Stop => return result,
                }
            }
        })
    }

    /// One attempt: status, headers and body, or a transport error without the URL.
    async fn attempt(&self, op: &Operation, url: &str) -> Result<(u16, HeaderMap, Vec<u8>), Error> {
        // The key is hidden when the call returns ([`ApiKey::hide`]).
        let transport = |e: reqwest::Error| {
            // Kept as the source without its URL, where the key is.
            let e = e.without_url();
            let kind = ErrorKind::Transport {
                timeout: e.is_timeout(),
                message: error_chain(&e),
            };
            Error::new(op.label(), kind).with_source(Some(ErrorSource::new(e)))
        };
        let mut response = self.inner.http.get(url).send().await.map_err(transport)?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = read_body(&mut response).await.map_err(transport)?;
        Ok((status, headers, body))
    }
}

/// Why a call waits after an attempt came to `outcome`: its cause, and the
/// reason for people (`HTTP 429 with an unreadable Retry-After (soon)`).
fn why_wait(outcome: &Outcome<'_>) -> (Cause, String) {
    let asked = |headers: &HeaderMap| {
        headers.get(reqwest::header::RETRY_AFTER).map(|v| {
            String::from_utf8_lossy(v.as_bytes())
                .chars()
                .take(40)
                .collect::<String>()
        })
    };
    match (classify(outcome), outcome) {
        (
            Verdict::WindowFull { asked: Some(_) } | Verdict::Retryable { asked: Some(_) },
            Outcome::Answered { status, headers },
        ) => (
            Cause::RetryAfter,
            format!(
                "HTTP {status}, Retry-After: {}",
                asked(headers).unwrap_or_default()
            ),
        ),
        (Verdict::WindowFull { asked: None }, Outcome::Answered { status, headers }) => {
            let reason = match asked(headers) {
                Some(text) => format!("HTTP {status} with an unreadable Retry-After ({text})"),
                None => format!("HTTP {status} without Retry-After"),
            };
            (Cause::RateWindow, reason)
        }
        (_, Outcome::Answered { status, .. }) => (Cause::Backoff, format!("HTTP {status}")),
        (_, Outcome::Failed { timeout: true }) => (Cause::Backoff, "a timeout".to_owned()),
        (_, Outcome::Failed { .. }) => (Cause::Backoff, "a transport failure".to_owned()),
    }
}

/// The end of a call whose retry is refused a rate-limit slot: the answer of
/// the attempt last tried again, which is the call's last after all, or
/// `why` when there was none.
fn not_sent(previous: Option<Sent>, attempts: &mut Attempts, why: Error) -> Sent {
    match previous {
        Some(answer) => {
            attempts.not_retried();
            answer
        }
        None => Err(why),
    }
}

/// The error of a job's request that its caller's stop kept from being sent.
fn stopped(op: &Operation) -> Error {
    Error::new(op.label(), ErrorKind::Stopped)
}

/// The span a call runs in; the figures are recorded as they become known.
fn call_span(prepared: &Prepared) -> tracing::Span {
    tracing::info_span!(
        "seozoom.call",
        operation = %prepared.op.label(),
        db = %prepared.database,
        status = tracing::field::Empty,
        attempts = tracing::field::Empty,
        units_used = tracing::field::Empty,
        units_remaining = tracing::field::Empty,
        latency_ms = tracing::field::Empty,
        cached = tracing::field::Empty,
    )
}

/// The last attempt's status and body, or why there is none.
type Sent = Result<(u16, Vec<u8>), Error>;

/// The most a body's `Content-Length` may reserve up front (64 MiB); a longer
/// body still arrives whole, growing the buffer as it comes.
const MAX_RESERVED_BODY: u64 = 64 << 20;

/// The whole body in one buffer, reserved from `Content-Length` when it is given.
/// Each chunk is copied once as it arrives, so a large page is held once rather
/// than as its chunks, then a joined copy, then a `Vec` copy of that.
async fn read_body(response: &mut reqwest::Response) -> Result<Vec<u8>, reqwest::Error> {
    let reserve = response
        .content_length()
        .unwrap_or(0)
        .min(MAX_RESERVED_BODY);
    let mut body = Vec::with_capacity(usize::try_from(reserve).unwrap_or(0));
    while let Some(chunk) = response.chunk().await? {
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// An error and its sources, on one line.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}

impl Client {
    /// The units ledger shared by this client and its clones (for bulk jobs,
    /// which hold a whole job's estimate against the budget while they run).
    pub(super) fn ledger(&self) -> &Arc<Ledger> {
        &self.inner.ledger
    }
}
