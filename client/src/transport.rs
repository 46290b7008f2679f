//! Client-side rate limits per operation, from the spec's requests-per-minute
//! figures. (Whether a failed attempt is tried again is `retry`'s decision.)
//!
//! The figures hold in any rolling window, as a service that counts a rolling
//! minute counts them: the limiter remembers when each request of the last
//! window left, and a request leaves only while fewer than the figure did. (A
//! token bucket with a burst of the whole figure lets up to twice the figure,
//! less one, leave in the first minute.)

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::error::{Error, ErrorKind};
use crate::table::Operation;

/// What the client does when an operation's requests-per-minute figure is used up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum RateLimitMode {
    /// Wait for the next slot (the default).
    #[default]
    Wait,
    /// Refuse the call with [`ErrorKind::RateLimited`](crate::error::ErrorKind::RateLimited), sending nothing.
    Refuse,
    /// No client-side limit.
    Off,
}

/// One rolling window per operation, sized by the spec's requests-per-minute
/// figures and shared by every clone of a client.
pub(crate) struct RateLimits {
    mode: RateLimitMode,
    window: Duration,
    windows: HashMap<(&'static str, &'static str), Window>,
}

/// The send times of one operation's requests within the last window.
struct Window {
    figure: i64,
    sent: Mutex<VecDeque<Instant>>,
}

impl Window {
    /// Take a slot at `now`, or say how long until the oldest one frees.
    fn try_take(&self, now: Instant, window: Duration) -> Result<(), Duration> {
        // A poisoned lock only means another thread panicked while holding it;
        // the times in it are still times.
        let mut sent = self.sent.lock().unwrap_or_else(|e| e.into_inner());
        while sent
            .front()
            .is_some_and(|&t| now.duration_since(t) >= window)
        {
            sent.pop_front();
        }
        if (sent.len() as i64) < self.figure {
            sent.push_back(now);
            return Ok(());
        }
        let oldest = *sent.front().expect("a full window holds a time");
        Err(window.saturating_sub(now.duration_since(oldest)))
    }
}

impl RateLimits {
    /// `window` is the period the per-minute figures apply to (a minute, unless a
    /// test or a proxy with its own limits says otherwise).
    pub(crate) fn new(
        operations: &[&'static Operation],
        mode: RateLimitMode,
        window: Duration,
    ) -> Self {
        let windows = operations
            .iter()
            .filter(|op| op.cost.requests_per_minute.value > 0)
            .map(|op| {
                let figure = op.cost.requests_per_minute.value;
                let sent = Mutex::new(VecDeque::with_capacity(figure.clamp(1, 1024) as usize));
                ((op.group, op.action), Window { figure, sent })
            })
            .collect();
        RateLimits {
            mode,
            window,
            windows,
        }
    }

    /// The period the per-minute figures apply to: also how long a call
    /// answered 429 without `Retry-After` waits for the service's window.
    pub(crate) fn window(&self) -> Duration {
        self.window
    }

    /// Take a slot for one request of `op`: wait for it, or refuse, per the mode.
    pub(crate) async fn acquire(&self, op: &Operation) -> Result<(), Error> {
        if self.mode == RateLimitMode::Off {
            return Ok(());
        }
        let Some(window) = self.windows.get(&(op.group, op.action)) else {
            return Ok(());
        };
        loop {
            let Err(wait) = window.try_take(Instant::now(), self.window) else {
                return Ok(());
            };
            if self.mode == RateLimitMode::Refuse {
                return Err(Error::new(
                    op.label(),
                    ErrorKind::RateLimited {
                        per_minute: window.figure,
                        retry_in: wait,
                    },
                ));
            }
            tracing::debug!(operation = %op.label(), wait_ms = wait.as_millis() as u64, "waiting for a rate-limit slot");
            tokio::time::sleep(wait).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(figure: i64) -> Window {
        Window {
            figure,
            sent: Mutex::new(VecDeque::new()),
        }
    }

    #[test]
    fn a_full_window_frees_a_slot_when_its_oldest_request_is_a_window_old() {
        let minute = Duration::from_secs(60);
        let w = window(3);
        let start = Instant::now();
        for s in [0, 10, 20] {
            assert_eq!(w.try_take(start + Duration::from_secs(s), minute), Ok(()));
        }
        // Full: the next slot frees when the request sent at 0 s is a minute old.
        assert_eq!(
            w.try_take(start + Duration::from_secs(30), minute),
            Err(Duration::from_secs(30))
        );
        assert_eq!(
            w.try_take(start + Duration::from_secs(59), minute),
            Err(Duration::from_secs(1))
        );
        assert_eq!(w.try_take(start + Duration::from_secs(60), minute), Ok(()));
        // The one sent at 10 s still counts until 70 s.
        assert_eq!(
            w.try_take(start + Duration::from_secs(65), minute),
            Err(Duration::from_secs(5))
        );
    }

    /// Whatever the arrival times, no window-long interval holds more
    /// requests than the figure (a token bucket with a full burst lets 2N-1
    /// through in the first minute).
    #[test]
    fn no_rolling_window_holds_more_than_the_figure() {
        let minute = Duration::from_secs(60);
        let figure = 5;
        let w = window(figure);
        let start = Instant::now();
        let mut now = start;
        let mut sent = Vec::new();
        let mut rng = fastrand::Rng::with_seed(11);
        while sent.len() < 60 {
            match w.try_take(now, minute) {
                Ok(()) => {
                    sent.push(now);
                    now += Duration::from_millis(rng.u64(0..4_000));
                }
                Err(wait) => {
                    assert!(wait > Duration::ZERO && wait <= minute, "{wait:?}");
                    now += wait;
                }
            }
        }
        for (i, &t) in sent.iter().enumerate() {
            let within = sent[i..]
                .iter()
                .take_while(|&&later| later.duration_since(t) < minute)
                .count();
            assert!(
                within as i64 <= figure,
                "{within} requests within a minute of request {i}"
            );
        }
        // And it does not hold back more than it must: the figure is reached.
        let first_minute = sent
            .iter()
            .take_while(|&&t| t.duration_since(start) < minute)
            .count();
        assert_eq!(first_minute as i64, figure);
    }
}
