//! Fault injection: a sandbox started with [`FaultPlan`] answers some requests
//! with what a real service and network do on a bad day instead of its data,
//! so that retries, timeouts, partial jobs and error handling can be exercised
//! over real HTTP.
//!
//! A fault is chosen for a request in two ways:
//!
//! - **On an input** ([`FaultPlan::on`]): every request carrying a given value of a
//!   parameter (a list item counts) gets that fault. Deterministic: a test can
//!   make the second request of a batched job fail.
//! - **At random** ([`FaultPlan::random`]): each request gets a fault with the given
//!   probability, the kind drawn from [`FaultPlan::kinds`], from a seeded generator
//!   (runs with the same seed and the same order of requests inject the same
//!   faults).
//!
//! Faults answered before any work ([`Fault::RateLimited`],
//! [`Fault::RateLimitedRetryAfter`], [`Fault::ServerError`], [`Fault::Reset`],
//! [`Fault::NoData`]) are not charged; [`Fault::Slow`] and
//! [`Fault::Truncated`] deliver (or cut) the real answer, so they are charged,
//! as the service would have done the work.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

use crate::operation_table::Service;

use super::encode_quirks;

/// Message of an injected 429.
const TOO_MANY_REQUESTS: &str = "Too Many Requests";
/// Message of an injected 500.
const SERVER_ERROR: &str = "Internal Server Error";
/// The most a truncated body can be read to cut it (any sandbox body is far
/// smaller).
const MAX_BODY: usize = 256 << 20;

/// One way of answering a request badly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Fault {
    /// HTTP 429 `Too Many Requests` with `Retry-After` ([`FaultPlan::retry_after`]
    /// seconds).
    RateLimitedRetryAfter,
    /// HTTP 429 `Too Many Requests` without `Retry-After`.
    RateLimited,
    /// HTTP 500 `Internal Server Error`.
    ServerError,
    /// The connection is reset (TCP RST) before any answer.
    Reset,
    /// The real answer, after a delay drawn up to [`FaultPlan::slow`].
    Slow,
    /// The real answer with its body cut short; its `Content-Length` is that
    /// of the cut body, so only the JSON shows it.
    Truncated,
    /// The service's "No data found!" answer, whatever the inputs.
    NoData,
}

impl Fault {
    /// Every fault, in declaration order.
    pub const ALL: [Fault; 7] = [
        Fault::RateLimitedRetryAfter,
        Fault::RateLimited,
        Fault::ServerError,
        Fault::Reset,
        Fault::Slow,
        Fault::Truncated,
        Fault::NoData,
    ];

    fn index(self) -> usize {
        Fault::ALL.iter().position(|f| *f == self).unwrap_or(0)
    }
}

/// Which requests a sandbox answers with a [`Fault`], given to
/// [`SandboxBuilder::faults`](super::SandboxBuilder::faults).
///
/// ```no_run
/// use std::time::Duration;
/// use seozoom::sandbox::{Fault, FaultPlan, Sandbox};
///
/// # async fn run() -> std::io::Result<()> {
/// // One request in five goes wrong, in any of the ways, the same ways each run.
/// let flaky = Sandbox::builder()
///     .faults(FaultPlan::random(0.2).seed(7).slow(Duration::from_millis(300)))
///     .start()
///     .await?;
/// // Every request carrying the keyword `boom` is answered 429.
/// let strict = Sandbox::builder()
///     .faults(FaultPlan::none().on("keyword", "boom", Fault::RateLimited))
///     .start()
///     .await?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FaultPlan {
    rate: f64,
    kinds: Vec<Fault>,
    seed: u64,
    retry_after: u64,
    slow: Duration,
    on: Vec<(String, String, Fault)>,
}

impl FaultPlan {
    /// No random faults (add some with [`on`](Self::on)).
    pub fn none() -> Self {
        FaultPlan {
            rate: 0.0,
            kinds: Fault::ALL.to_vec(),
            seed: 0,
            retry_after: 1,
            slow: Duration::from_secs(1),
            on: Vec::new(),
        }
    }

    /// Each request gets a fault with probability `rate` (clamped to 0..=1), of
    /// a kind drawn evenly from every [`Fault`] (see [`kinds`](Self::kinds)).
    /// Seed 0, `Retry-After: 1`, slow answers up to 1 s, unless set.
    pub fn random(rate: f64) -> Self {
        FaultPlan {
            rate: if rate.is_nan() {
                0.0
            } else {
                rate.clamp(0.0, 1.0)
            },
            ..FaultPlan::none()
        }
    }

    /// Draw random faults from these kinds only (none given: every kind).
    pub fn kinds(mut self, kinds: &[Fault]) -> Self {
        self.kinds = if kinds.is_empty() {
            Fault::ALL.to_vec()
        } else {
            kinds.to_vec()
        };
        self
    }

    /// The seed of the random draws.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The `Retry-After` of [`Fault::RateLimitedRetryAfter`], in whole seconds
    /// (0: retry at once), as the header carries it.
    pub fn retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = seconds;
        self
    }

    /// The longest delay of [`Fault::Slow`]; each delay is drawn evenly up to
    /// it. Set it above a client's timeout to make some attempts time out.
    pub fn slow(mut self, longest: Duration) -> Self {
        self.slow = longest;
        self
    }

    /// Every request whose parameter `param` (wire name) has the value `value`,
    /// or a list item equal to it, gets `fault`, whatever the random draw.
    pub fn on(mut self, param: &str, value: &str, fault: Fault) -> Self {
        self.on.push((param.to_owned(), value.to_owned(), fault));
        self
    }
}

/// The faults of a running sandbox: its configuration, its generator and what
/// it injected.
#[derive(Debug)]
pub(super) struct Injector {
    /// The "no data" answer and list separator of the API.
    service: &'static Service,
    faults: FaultPlan,
    rng: Mutex<fastrand::Rng>,
    injected: [AtomicU64; Fault::ALL.len()],
}

impl Injector {
    pub(super) fn new(faults: FaultPlan, service: &'static Service) -> Self {
        Injector {
            service,
            rng: Mutex::new(fastrand::Rng::with_seed(faults.seed)),
            faults,
            injected: Default::default(),
        }
    }

    /// FaultPlan injected so far, by kind (kinds never injected are left out).
    pub(super) fn injected(&self) -> BTreeMap<Fault, u64> {
        Fault::ALL
            .iter()
            .map(|f| (*f, self.injected[f.index()].load(Ordering::Relaxed)))
            .filter(|(_, n)| *n > 0)
            .collect()
    }

    fn rng(&self) -> std::sync::MutexGuard<'_, fastrand::Rng> {
        // The generator has no invariant a panic could break.
        self.rng
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The fault for a request with these decoded query pairs, if any.
    pub(super) fn pick(&self, pairs: &[(String, String)]) -> Option<Fault> {
        let separator = self.service.list_separator;
        let chosen = self.faults.on.iter().find_map(|(param, value, fault)| {
            pairs
                .iter()
                .any(|(name, given)| name == param && given.split(separator).any(|v| v == value))
                .then_some(*fault)
        });
        let fault = chosen.or_else(|| {
            let mut rng = self.rng();
            let hit = self.faults.rate > 0.0 && rng.f64() < self.faults.rate;
            let kinds = &self.faults.kinds;
            hit.then(|| kinds.get(rng.usize(..kinds.len().max(1))).copied())
                .flatten()
        })?;
        self.injected[fault.index()].fetch_add(1, Ordering::Relaxed);
        Some(fault)
    }

    /// The answer a request gets under `fault`; `real` makes the sandbox's own
    /// answer (and charges it) for the faults that deliver it.
    pub(super) async fn answer(&self, fault: Fault, real: impl FnOnce() -> Response) -> Response {
        match fault {
            Fault::RateLimitedRetryAfter => {
                let mut response =
                    encode_quirks::error(StatusCode::TOO_MANY_REQUESTS, TOO_MANY_REQUESTS);
                response.headers_mut().insert(
                    header::RETRY_AFTER,
                    HeaderValue::from(self.faults.retry_after),
                );
                response
            }
            Fault::RateLimited => {
                encode_quirks::error(StatusCode::TOO_MANY_REQUESTS, TOO_MANY_REQUESTS)
            }
            Fault::ServerError => {
                encode_quirks::error(StatusCode::INTERNAL_SERVER_ERROR, SERVER_ERROR)
            }
            Fault::NoData => {
                let status = StatusCode::from_u16(self.service.no_data_status)
                    .unwrap_or(StatusCode::BAD_REQUEST);
                encode_quirks::error(status, self.service.no_data_message)
            }
            Fault::Reset => reset(),
            Fault::Slow => {
                let longest = u64::try_from(self.faults.slow.as_micros()).unwrap_or(u64::MAX);
                let delay = Duration::from_micros(self.rng().u64(..=longest));
                tokio::time::sleep(delay).await;
                real()
            }
            Fault::Truncated => self.truncated(real()).await,
        }
    }

    /// `response` with its body cut at a random point before its end.
    async fn truncated(&self, response: Response) -> Response {
        let (mut parts, body) = response.into_parts();
        let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
            return reset();
        };
        let cut = self.rng().usize(..bytes.len().max(1));
        let cut: Bytes = bytes.slice(..cut.min(bytes.len()));
        parts.headers.remove(header::CONTENT_LENGTH);
        Response::from_parts(parts, Body::from(cut))
    }
}

/// An answer whose body fails before its first byte: the server drops the
/// connection, and since a sandbox with faults closes its sockets with
/// `SO_LINGER` 0, the client sees a reset.
fn reset() -> Response {
    let failing = futures_util::stream::once(async {
        Err::<Bytes, std::io::Error>(std::io::Error::other("injected reset"))
    });
    Response::new(Body::from_stream(failing))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(query: &[(&str, &str)]) -> Vec<(String, String)> {
        query
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn inputs_pick_their_fault_and_nothing_else_does_without_a_rate() {
        let injector = Injector::new(
            FaultPlan::none().on("keyword", "boom", Fault::Reset),
            &crate::operations::SERVICE,
        );
        assert_eq!(
            injector.pick(&pairs(&[("keyword", "a|boom|c")])),
            Some(Fault::Reset)
        );
        assert_eq!(injector.pick(&pairs(&[("keyword", "a|boomer")])), None);
        assert_eq!(injector.pick(&pairs(&[("domain", "boom")])), None);
        assert_eq!(injector.injected(), BTreeMap::from([(Fault::Reset, 1)]));
    }

    #[test]
    fn random_faults_follow_the_rate_the_kinds_and_the_seed() {
        let draw = |faults: FaultPlan| {
            let injector = Injector::new(faults, &crate::operations::SERVICE);
            (0..2000).map(|_| injector.pick(&[])).collect::<Vec<_>>()
        };
        let always = draw(FaultPlan::random(1.0).kinds(&[Fault::NoData, Fault::Slow]));
        assert!(
            always
                .iter()
                .all(|f| matches!(f, Some(Fault::NoData | Fault::Slow)))
        );
        assert!(always.contains(&Some(Fault::NoData)) && always.contains(&Some(Fault::Slow)));
        let some = draw(FaultPlan::random(0.25).seed(3));
        let hits = some.iter().filter(|f| f.is_some()).count();
        assert!((400..600).contains(&hits), "{hits} of 2000 at 0.25");
        assert_eq!(some, draw(FaultPlan::random(0.25).seed(3)), "the same seed");
        assert_ne!(some, draw(FaultPlan::random(0.25).seed(4)));
        assert!(
            draw(FaultPlan::random(f64::NAN))
                .iter()
                .all(Option::is_none)
        );
    }
}
