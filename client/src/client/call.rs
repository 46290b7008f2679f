//! One request of a job carried out: answered from the cache when the plan
//! found it there, else sent under the rate limits with retries, accounted
//! for and decoded. Every run's requests end here.

use std::sync::Arc;
use std::time::Instant;

use reqwest::header::HeaderMap;
use tracing::Instrument;

use super::accounting::{Attempts, Last, Sending};
use super::output::Part;
use super::prepared::Prepared;
use super::store_use::items_of;
use super::{Bounds, Client, JobHold, REDACTED};
use crate::charge::{BodyUnits, read_units};
use crate::decode::Decoder;
use crate::envelope::Envelope;
use crate::error::{Error, ErrorKind, ErrorSource};
use crate::operation_table::Operation;
use crate::request::{Request, encode_value, push_query};
use crate::retry::{Attempted, Decision, Spent, Verdict, classify};
use crate::store::CachedAnswer;
use crate::units::{Estimate, Ledger, estimate};
use crate::wait::WaitCause as Cause;

impl Client {
    /// The cost range of a request, from the spec's figures, without sending it.
    /// Validates first, so an invalid request gives its error here. For an
    /// operation whose cost the spec leaves open, what the store's ledger
    /// learned of it is in the [`plan`](Self::plan) of its run.
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

    /// A request's fresh answer in the store's cache, if it has one: the one
    /// place a whole request is looked up (a plan looks up each request it
    /// plans, a paged job each page as it comes to it).
    pub(crate) async fn look_up(&self, prepared: &Prepared) -> Result<Option<CachedAnswer>, Error> {
        let freshness = self.freshness(prepared.op, &prepared.query);
        self.cached_answer(prepared, freshness).await
    }

    /// One request of a job, decoded by `decode`: the cache's answer when
    /// the plan found one (nothing is sent or charged), else the call. Each
    /// is a span `seozoom.call`.
    pub(crate) async fn answer(
        &self,
        (request, prepared): (Request, Prepared),
        hit: Option<CachedAnswer>,
        decode: Decoder<Part>,
        job: &JobHold,
    ) -> Result<Envelope<Part>, Error> {
        let span = call_span(&prepared);
        async {
            let Some(hit) = hit else {
                return self.call(&request, &prepared, decode, job).await;
            };
            let decoded = decode(prepared.op, 200, &hit.body);
            self.serve_cached(&request, &prepared, hit, decoded, &job.bounds().tell)
                .await
                .map_err(|error| self.failed(error))
        }
        .instrument(span)
        .await
    }

    /// A request refused before it was sent (its job did not fit the
    /// budget): told in a span of its own, as a call is.
    pub(crate) fn refused(&self, request: &Request, error: Error) -> Error {
        if let Ok(prepared) = self.prepare(request) {
            let _call = call_span(&prepared).entered();
            tracing::debug!(%error, "refused before it was sent");
        }
        error
    }

    /// One call of a job, decoded by `decode`, kept to the job's bounds:
    /// nothing is sent once the stop is given, and no wait is longer than
    /// the bound. The job's plan has looked up the cache and its hold has
    /// admitted it against the budget.
    async fn call(
        &self,
        request: &Request,
        prepared: &Prepared,
        decode: Decoder<Part>,
        job: &JobHold,
    ) -> Result<Envelope<Part>, Error> {
        let bounds = job.bounds();
        if bounds.stopped() {
            return Err(stopped(prepared.op));
        }
        let sending = self.start_sending(prepared, job).await?;
        let mut attempts = Attempts::new(self, prepared, items_of(request));
        let (result, body, seen) = match self.send(prepared, bounds, &mut attempts).await {
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
            .account(sending, request, prepared, attempts, last)
            .await;
        match result {
            Ok(mut envelope) => {
                envelope.units_remaining = accounted.units_remaining;
                Ok(envelope)
            }
            Err(error) => Err(self.failed(error.with_charge(accounted.charged))),
        }
    }

    /// The budget's part before a call is sent: its maximum reserved from
    /// its job's hold in the ledger (the job was admitted whole).
    async fn start_sending<'a>(
        &'a self,
        prepared: &'a Prepared,
        job: &'a JobHold,
    ) -> Result<Sending<'a>, Error> {
        let started = Instant::now();
        let estimate = self.budget_estimate(prepared, job);
        let label = prepared.op.label();
        let ledger = &self.inner.ledger;
        let reservation = ledger.reserve_in(Some(job.budget()), &label, estimate.max)?;
        let hold = job.window_id().map(|id| (id.to_owned(), estimate.max));
        Ok(Sending {
            started,
            reservation,
            hold,
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

    /// The estimate a call reserves: the spec's, or for an unknown cost
    /// under a budget, the one made from what the ledger had learned when its
    /// job was planned.
    fn budget_estimate(&self, prepared: &Prepared, job: &JobHold) -> Estimate {
        self.estimate_of(prepared, job.learned())
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
    async fn send(
        &self,
        prepared: &Prepared,
        bounds: &Bounds,
        attempts: &mut Attempts,
    ) -> LastAttempt {
        let op = prepared.op;
        // The answer of the attempt last tried again: the call's, should
        // its retry be refused a rate-limit slot.
        let mut previous: Option<LastAttempt> = None;
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
                Ok((status, headers, _)) => Attempted::Answered {
                    status: *status,
                    headers,
                },
                Err(error) => match error.kind() {
                    ErrorKind::Transport { timeout, .. } => Attempted::Failed { timeout: *timeout },
                    _ => return attempted.map(|(status, _, body)| (status, body)),
                },
            };
            let decision = self.inner.retry.decide(&mut spent, &outcome);
            let timed_out = matches!(outcome, Attempted::Failed { timeout: true });
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
fn why_wait(outcome: &Attempted<'_>) -> (Cause, String) {
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
            Attempted::Answered { status, headers },
        ) => (
            Cause::RetryAfter,
            format!(
                "HTTP {status}, Retry-After: {}",
                asked(headers).unwrap_or_default()
            ),
        ),
        (Verdict::WindowFull { asked: None }, Attempted::Answered { status, headers }) => {
            let reason = match asked(headers) {
                Some(text) => format!("HTTP {status} with an unreadable Retry-After ({text})"),
                None => format!("HTTP {status} without Retry-After"),
            };
            (Cause::RateWindow, reason)
        }
        (_, Attempted::Answered { status, .. }) => (Cause::Backoff, format!("HTTP {status}")),
        (_, Attempted::Failed { timeout: true }) => (Cause::Backoff, "a timeout".to_owned()),
        (_, Attempted::Failed { .. }) => (Cause::Backoff, "a transport failure".to_owned()),
    }
}

/// The end of a call whose retry is refused a rate-limit slot: the answer of
/// the attempt last tried again, which is the call's last after all, or
/// `why` when there was none.
fn not_sent(previous: Option<LastAttempt>, attempts: &mut Attempts, why: Error) -> LastAttempt {
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
type LastAttempt = Result<(u16, Vec<u8>), Error>;

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
