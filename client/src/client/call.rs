//! One call: a generic request validated, priced against the budget, sent
//! under the rate limits with retries, and decoded into a typed result. Every
//! entry point (the generated builders' `send`, batched and paged jobs) ends
//! here.

use std::sync::Arc;
use std::time::Instant;

use reqwest::header::HeaderMap;
use serde::de::DeserializeOwned;
use tracing::Instrument;

use super::store_use::{CacheFor, Figures, items_of};
use super::{Client, JobHold, REDACTED, Stop, WindowHold};
use crate::charge::{BodyUnits, Charge, read_units};
use crate::decode::{Decoder, decode_rows, decode_typed};
use crate::envelope::Envelope;
use crate::error::{Error, ErrorKind};
use crate::operation_table::Operation;
use crate::request::{Request, encode_value, push_query};
use crate::retry::{Decision, Outcome, Spent, Verdict, classify};
use crate::store::{LedgerEntry, now_ms};
use crate::units::{Estimate, Ledger, Reservation, estimate, estimate_learned};
use crate::wait::{Cause, Waits};

/// A request checked and ready to go.
pub(crate) struct Prepared {
    pub(crate) op: &'static Operation,
    pub(crate) database: String,
    url: String,
    pub(crate) estimate: Estimate,
    /// The validated query, without the key.
    pub(crate) query: Vec<(&'static str, String)>,
    /// What its answer is cached under: the base URL's origin, the
    /// operation and the query, without the key.
    pub(crate) cache_key: String,
}

/// A step of a call that its generic code (the part that decodes) awaits:
/// boxed, and built by a function that is never inlined.
///
/// An `async fn`'s body is compiled where its future is polled, and in a
/// release build a crate that awaits one from another crate compiles its own
/// copy; boxed behind `dyn Future`, it is compiled once, here, and a crate that
/// makes a call compiles only its decoder and the few lines of [`Client::call`].
pub(crate) type Step<'a, T> = futures_util::future::BoxFuture<'a, T>;

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
        let mut cache_key = format!("{} {}?", self.inner.origin, op.path);
        push_query(&mut cache_key, &query, service.list_separator);
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
        self.call(request, decode_typed::<T>, None).await
    }

    /// [`execute`](Self::execute) decoded by `decode`. `Client::execute_json`
    /// (generated) hands it the table's decoder of every operation.
    #[doc(hidden)]
    pub async fn execute_decoded<T>(
        &self,
        request: Request,
        decode: Decoder<T>,
    ) -> Result<Envelope<T>, Error> {
        self.call(request, decode, None).await
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
        self.call(request, decode_rows::<R>, None).await
    }

    /// [`execute_rows`](Self::execute_rows) for a page of a job, reserving from
    /// its hold.
    pub(crate) async fn execute_rows_in<R: DeserializeOwned>(
        &self,
        request: Request,
        job: Arc<JobHold>,
    ) -> Result<Envelope<Vec<R>>, Error> {
        self.call(request, decode_rows::<R>, Some(&job)).await
    }

    /// [`execute`](Self::execute) for a call of a job, reserving from its hold.
    pub(crate) async fn execute_in<T: DeserializeOwned>(
        &self,
        request: Request,
        job: Arc<JobHold>,
    ) -> Result<Envelope<T>, Error> {
        self.call(request, decode_typed::<T>, Some(&job)).await
    }

    /// [`execute_decoded`](Self::execute_decoded) for a call of a job,
    /// reserving from its hold.
    pub(crate) async fn execute_decoded_in<T>(
        &self,
        request: Request,
        decode: Decoder<T>,
        job: Arc<JobHold>,
    ) -> Result<Envelope<T>, Error> {
        self.call(request, decode, Some(&job)).await
    }

    /// One call, decoded by `decode`.
    ///
    /// Only the decoding depends on `T`; every other step is a [`Step`],
    /// compiled once in this crate rather than once per result type in every
    /// crate that makes a call.
    async fn call<T>(
        &self,
        request: Request,
        decode: impl Fn(&Operation, u16, &[u8]) -> Result<Envelope<T>, Error>,
        job: Option<&JobHold>,
    ) -> Result<Envelope<T>, Error> {
        let prepared = self.prepare(&request)?;
        let span = call_span(&prepared);
        async {
            let started = Instant::now();
            let freshness = self.freshness(prepared.op, &prepared.query);
            // A fresh answer in the cache: nothing is sent or charged.
            if let Some(answer) = self.cached_answer(&prepared, freshness).await? {
                let decoded = decode(prepared.op, 200, &answer.body);
                if let Some(envelope) = self
                    .serve_cached(&request, &prepared, answer, decoded)
                    .await
                {
                    return Ok(envelope);
                }
            }
            let stop = job.and_then(JobHold::stop);
            if stop.is_some_and(Stop::is_stopped) {
                return Err(stopped(prepared.op));
            }
            let sending = self.start_sending(&prepared, job, started).await?;
            let (sent, earlier) = self.send(&prepared, items_of(&request), stop).await;
            let (status, body) = match sent {
                Ok(answer) => answer,
                // Refused (a rate-limit slot) before any attempt: nothing
                // sent. Otherwise the request may have reached the service.
                Err(error) if error.is_refused() => return Err(self.failed(sending, error).await),
                // Every answered attempt is charged in `earlier`.
                Err(error) if matches!(error.kind(), ErrorKind::WaitedTooLong { .. }) => {
                    let error = error.with_charge(earlier);
                    return Err(self.failed(sending, error).await);
                }
                Err(error) => {
                    let error = error.with_charge(earlier.plus(Charge::Unknown));
                    return Err(self.failed(sending, error).await);
                }
            };
            tracing::Span::current().record("status", status);
            match decode(prepared.op, status, &body) {
                Ok(mut envelope) => {
                    let answered = Answered {
                        figures: (&envelope).into(),
                        body,
                    };
                    envelope.units_remaining = self
                        .answered(sending, &request, &prepared, answered, freshness)
                        .await;
                    Ok(envelope)
                }
                Err(error) => {
                    let answer = Unread {
                        status,
                        body: &body,
                        earlier,
                    };
                    Err(self
                        .answered_unread(sending, &request, &prepared, answer, error)
                        .await)
                }
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

    /// A call the service answered: the ledger settled, the answer remembered,
    /// the call's own hold released. Returns the balance to report, which for
    /// "no data" (the service reports none) is the last one known.
    #[inline(never)]
    fn answered<'a>(
        &'a self,
        sending: Sending<'a>,
        request: &'a Request,
        prepared: &'a Prepared,
        answered: Answered,
        freshness: CacheFor,
    ) -> Step<'a, i64> {
        Box::pin(async move {
            let span = tracing::Span::current();
            span.record("latency_ms", sending.started.elapsed().as_millis() as u64);
            let Answered { figures, body } = answered;
            let reported = (!figures.no_data).then_some(figures.units_remaining);
            sending.reservation.settle(figures.units_used, reported);
            self.remember(request, prepared, figures, body, sending.hold, freshness)
                .await;
            // Recorded (the ledger counts it now): the hold goes.
            if let Some(own_hold) = &sending.own_hold {
                own_hold.release().await;
            }
            let units_remaining = match figures.no_data {
                true => self.units().remaining.unwrap_or(0),
                false => figures.units_remaining,
            };
            span.record("units_used", figures.units_used);
            span.record("units_remaining", units_remaining);
            units_remaining
        })
    }

    /// A call the service answered with what cannot be decoded (an error, a
    /// body cut short): charged all the same, so it goes to the ledger with
    /// the units read leniently from the body (or marked unknown), shrinking
    /// its hold; the error says what was charged.
    #[inline(never)]
    fn answered_unread<'a>(
        &'a self,
        sending: Sending<'a>,
        request: &'a Request,
        prepared: &'a Prepared,
        answer: Unread<'a>,
        error: Error,
    ) -> Step<'a, Error> {
        Box::pin(async move {
            let units = self.body_units(answer.body);
            // "No data found!" for a single object: the service charges none.
            let charge = match error.kind() {
                ErrorKind::NoData => Charge::Units(0),
                _ => units.charge(),
            };
            let Sending {
                started,
                reservation,
                own_hold,
                hold,
            } = sending;
            let used = match charge {
                Charge::Units(n) => n,
                _ => 0,
            };
            reservation.settle(used, units.remaining);
            tracing::Span::current().record("units_used", used);
            // A paid answer that does not decode at all is kept, until a
            // client built from a fixed spec decodes it.
            let kept = match error.answer() {
                Some(_) if (200..300).contains(&answer.status) => {
                    self.kept_undecoded(prepared, answer.body, used, units.remaining)
                }
                _ => Vec::new(),
            };
            let entry =
                self.answer_entry(prepared, items_of(request), charge, units.remaining, hold);
            self.record_with(entry, kept).await;
            tracing::debug!(status = answer.status, charged = %charge, "the answer was recorded though it does not decode");
            let sending = Sending {
                started,
                reservation: self.inner.ledger.nothing_reserved(),
                own_hold,
                hold: None,
            };
            let error = error.with_charge(answer.earlier.plus(charge));
            self.failed(sending, error).await
        })
    }

    /// `UnitsUsed` and `UnitsRemaining` read from a body whatever else it is.
    fn body_units(&self, body: &[u8]) -> BodyUnits {
        let service = self.inner.service;
        read_units(
            body,
            service.envelope_units_used,
            service.envelope_units_remaining,
        )
    }

    /// An answered attempt that did not decode into the call's result (an
    /// error, an attempt retried, a body cut short), in the ledger: its units,
    /// or `-1` for a charge that cannot be read (stores count it as 0 units,
    /// and as a call).
    async fn record_answer(
        &self,
        prepared: &Prepared,
        items: i64,
        charge: Charge,
        balance: Option<i64>,
        hold: Option<(String, i64)>,
    ) {
        let entry = self.answer_entry(prepared, items, charge, balance, hold);
        self.record(entry).await;
    }

    /// The ledger row of an answered attempt that did not decode.
    fn answer_entry(
        &self,
        prepared: &Prepared,
        items: i64,
        charge: Charge,
        balance: Option<i64>,
        hold: Option<(String, i64)>,
    ) -> LedgerEntry {
        LedgerEntry {
            at_ms: now_ms(),
            group: prepared.op.group.to_owned(),
            action: prepared.op.action.to_owned(),
            db: prepared.database.clone(),
            items,
            rows: 0,
            units_used: match charge {
                Charge::Units(n) => n,
                Charge::None => 0,
                Charge::Unknown => UNKNOWN_CHARGE,
            },
            balance,
            cache_hit: false,
            units_saved: 0,
            hold,
        }
    }

    /// A call that failed after it was admitted: the call's own hold released
    /// and the error returned without the key.
    #[inline(never)]
    fn failed<'a>(&'a self, sending: Sending<'a>, error: Error) -> Step<'a, Error> {
        Box::pin(async move {
            let span = tracing::Span::current();
            span.record("latency_ms", sending.started.elapsed().as_millis() as u64);
            if let Some(own_hold) = &sending.own_hold {
                own_hold.release().await;
            }
            let error = self.inner.key.hide(error);
            tracing::debug!(%error, "call failed");
            error
        })
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
    /// Every attempt that was answered and then retried is recorded in the
    /// ledger here (the service may have charged it); the second value is
    /// what those attempts were charged.
    ///
    /// A job's `stop`, once given, ends the wait for a slot or a retry: what
    /// was not sent is not sent (the last answer, if there was one, is the
    /// call's).
    #[inline(never)]
    fn send<'a>(
        &'a self,
        prepared: &'a Prepared,
        items: i64,
        stop: Option<&'a Stop>,
    ) -> Step<'a, Sent> {
        Box::pin(async move {
            let op = prepared.op;
            let mut previous = None;
            let mut attempt = 0;
            let mut earlier = Charge::None;
            let mut spent = Spent::new(self.inner.rate_limits.window());
            let mut waits = Waits::new(op.label(), self.inner.max_wait);
            loop {
                attempt += 1;
                let taken = match stop {
                    Some(stop) => {
                        tokio::select! {
                            biased;
                            () = stop.stopped() => None,
                            taken = self.take_slot(op, &mut waits, attempt) => Some(taken),
                        }
                    }
                    None => Some(self.take_slot(op, &mut waits, attempt).await),
                };
                let slot = match taken {
                    Some(Ok(slot)) if !stop.is_some_and(Stop::is_stopped) => slot,
                    Some(Ok(slot)) => {
                        // Given as the signal came: not used, so it goes back.
                        self.settle_slot(op, slot).await;
                        return (previous.unwrap_or_else(|| Err(stopped(op))), earlier);
                    }
                    Some(Err(too_long))
                        if matches!(too_long.kind(), ErrorKind::WaitedTooLong { .. }) =>
                    {
                        return (Err(too_long), earlier);
                    }
                    Some(Err(refused)) => return (previous.unwrap_or(Err(refused)), earlier),
                    None => return (previous.unwrap_or_else(|| Err(stopped(op))), earlier),
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
                        _ => {
                            return (attempted.map(|(status, _, body)| (status, body)), earlier);
                        }
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
                        let charge = match &result {
                            Ok((_, body)) => {
                                let units = self.body_units(body);
                                let charge = units.charge();
                                // Counted by this client too (a budget must
                                // see what a retried attempt was charged).
                                if let Charge::Units(used) = charge {
                                    self.inner.ledger.record(used, units.remaining);
                                }
                                self.record_answer(prepared, items, charge, units.remaining, None)
                                    .await;
                                charge
                            }
                            Err(_) => Charge::Unknown,
                        };
                        earlier = earlier.plus(charge);
                        previous = Some(result);
                        let waited = match stop {
                            Some(stop) => {
                                tokio::select! {
                                    () = stop.stopped() => {
                                        return (previous.unwrap_or_else(|| Err(stopped(op))), earlier);
                                    }
                                    waited = waits.wait(delay, cause, &reason, attempt + 1) => waited,
                                }
                            }
                            None => waits.wait(delay, cause, &reason, attempt + 1).await,
                        };
                        if let Err(too_long) = waited {
                            return (Err(too_long), earlier);
                        }
                    }
                    Decision::Accept | Decision::Stop => return (result, earlier),
                }
            }
        })
    }

    /// One attempt: status, headers and body, or a transport error without the URL.
    async fn attempt(&self, op: &Operation, url: &str) -> Result<(u16, HeaderMap, Vec<u8>), Error> {
        // The key is hidden when the call returns ([`ApiKey::hide`]).
        let transport = |e: reqwest::Error| {
            let kind = ErrorKind::Transport {
                timeout: e.is_timeout(),
                message: error_chain(&e.without_url()),
            };
            Error::new(op.label(), kind)
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

/// A call admitted and about to be sent: what it holds until it ends.
struct Sending<'a> {
    /// When the call began (its cache lookup included), for its latency.
    started: Instant,
    /// Its maximum, reserved in the ledger; released when this is dropped.
    reservation: Reservation<'a>,
    /// Its own hold on the store's budget window, when it is not a job's call.
    own_hold: Option<WindowHold>,
    /// The window hold its ledger row shrinks: its own or its job's, and the
    /// units it holds for this call.
    hold: Option<(String, i64)>,
}

/// The last attempt's status and body (or why there is none), and what the
/// attempts answered before it were charged.
type Sent = (Result<(u16, Vec<u8>), Error>, Charge);

/// An answer that did not decode: its status and body, and what the call's
/// earlier attempts were charged.
struct Unread<'a> {
    status: u16,
    body: &'a [u8],
    earlier: Charge,
}

/// What a ledger row says of a charge that cannot be read: stores count it as
/// a call of 0 units (they count no negative charge).
const UNKNOWN_CHARGE: i64 = -1;

/// What an answered call leaves once decoded: its figures and its body (for
/// the cache).
struct Answered {
    figures: Figures,
    body: Vec<u8>,
}

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
