//! Strict mode: the spec's requests-per-minute figures enforced as a service
//! that counts a rolling window enforces them, per operation and per API key.
//! A request over the figure is answered 429 with `Retry-After` (whole seconds,
//! rounded up, until the oldest request counted leaves the window), so that a
//! client, or a script under test, can be seen never to trip it
//! ([`Sandbox::rate_limited`](super::Sandbox::rate_limited) counts them).
//!
//! Only answered requests count: a refused one takes no slot, as a client that
//! retries must not push its own window further.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

use crate::operation_table::Operation;

use super::encode_quirks;
use super::seed::Seed;

/// Message of a request over the figure, as the service words a 429.
const TOO_MANY_REQUESTS: &str = "Too Many Requests";

/// Whose window a request counts in: a key's hash (the sandbox holds no
/// key), the operation's group and action.
type CountedCall = (u64, &'static str, &'static str);

/// The rolling windows of a strict sandbox.
#[derive(Debug)]
pub(super) struct Strict {
    window: Duration,
    /// When each request counted arrived, per key and operation, oldest first.
    sent: Mutex<HashMap<CountedCall, VecDeque<Instant>>>,
    /// Requests answered 429.
    refused: AtomicU64,
}

impl Strict {
    /// Figures held over `window` (a minute, unless a test says otherwise).
    pub(super) fn new(window: Duration) -> Self {
        Strict {
            window,
            sent: Mutex::new(HashMap::new()),
            refused: AtomicU64::new(0),
        }
    }

    /// Requests answered 429 so far.
    pub(super) fn refused(&self) -> u64 {
        self.refused.load(Ordering::SeqCst)
    }

    /// `None` when a request of `op` with `key` fits its window now (it is
    /// then counted), else the 429 to answer.
    pub(super) fn admit(&self, op: &'static Operation, key: &str) -> Option<Response> {
        // No figure (zero or less) is no limit, as in the client.
        let figure = usize::try_from(op.cost.requests_per_minute.value)
            .ok()
            .filter(|&figure| figure > 0)?;
        let wait = self.take(op, key, figure, Instant::now())?;
        self.refused.fetch_add(1, Ordering::SeqCst);
        Some(too_many(wait))
    }

    /// Count a request at `now`, or say how long until the oldest one counted
    /// leaves the window.
    fn take(
        &self,
        op: &'static Operation,
        key: &str,
        figure: usize,
        now: Instant,
    ) -> Option<Duration> {
        let id = (Seed::root().child(key).value(), op.group, op.action);
        // A poisoned lock only means a thread panicked holding it; the times
        // in it are still times.
        let mut sent = self
            .sent
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let times = sent.entry(id).or_default();
        while times
            .front()
            .is_some_and(|&t| now.duration_since(t) >= self.window)
        {
            times.pop_front();
        }
        if times.len() < figure {
            times.push_back(now);
            return None;
        }
        let oldest = times.front().copied().unwrap_or(now);
        Some(self.window.saturating_sub(now.duration_since(oldest)))
    }
}

/// A 429 asking to come back after `wait`, in whole seconds rounded up (at
/// least 1: a client that came back at once would be refused again).
fn too_many(wait: Duration) -> Response {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    let mut response = encode_quirks::error(StatusCode::TOO_MANY_REQUESTS, TOO_MANY_REQUESTS);
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(seconds.max(1)));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::OPERATIONS;

    fn op() -> &'static Operation {
        OPERATIONS[0]
    }

    #[test]
    fn the_figure_holds_in_any_window_per_key_and_operation() {
        let window = Duration::from_secs(60);
        let strict = Strict::new(window);
        let start = Instant::now();
        let at = |s: u64| start + Duration::from_secs(s);
        for s in 0..3 {
            assert_eq!(strict.take(op(), "a", 3, at(s)), None);
        }
        assert_eq!(
            strict.take(op(), "a", 3, at(10)),
            Some(Duration::from_secs(50))
        );
        // Another key, another operation: windows of their own.
        assert_eq!(strict.take(op(), "b", 3, at(10)), None);
        assert_eq!(strict.take(OPERATIONS[1], "a", 3, at(10)), None);
        // The request of 0 s leaves the window at 60 s; the refused one took no slot.
        assert_eq!(
            strict.take(op(), "a", 3, at(59)),
            Some(Duration::from_secs(1))
        );
        assert_eq!(strict.take(op(), "a", 3, at(60)), None);
        assert_eq!(
            strict.take(op(), "a", 3, at(60)),
            Some(Duration::from_secs(1))
        );
    }

    #[test]
    fn retry_after_is_whole_seconds_rounded_up() {
        let header = |wait| {
            too_many(wait).headers()[header::RETRY_AFTER]
                .to_str()
                .unwrap()
                .to_owned()
        };
        assert_eq!(header(Duration::from_millis(1_200)), "2");
        assert_eq!(header(Duration::from_secs(3)), "3");
        assert_eq!(header(Duration::ZERO), "1");
        assert_eq!(
            too_many(Duration::ZERO).status(),
            StatusCode::TOO_MANY_REQUESTS
        );
    }
}
