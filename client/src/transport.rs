//! Sending: client-side rate limits per operation, and bounded retries with
//! exponential backoff, jitter and `Retry-After`.
//!
//! A retried call may be charged twice: when the service did its work but the
//! answer was lost (a timeout, a reset), the retry is a second, billable call.
//! Retries are bounded ([`RetryPolicy::max_attempts`]) and can be switched off.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use reqwest::header::{HeaderMap, RETRY_AFTER};

use crate::error::Error;
use crate::operations::OPERATIONS;
use crate::table::Operation;

/// When and how often a failed call is tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included (1 = no retries).
    pub max_attempts: u32,
    /// Delay before the first retry; doubled for each further one.
    pub initial_backoff: Duration,
    /// Upper bound of the backoff delay.
    pub max_backoff: Duration,
    /// Longest `Retry-After` the client will wait; a longer one ends the call
    /// with the service's error instead.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    /// 3 attempts, 500 ms doubling up to 8 s, `Retry-After` honoured up to 60 s.
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// No retries: every call is tried once.
    pub fn none() -> Self {
        RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        }
    }

    /// Backoff before retry number `retry` (1-based): exponential, capped, with
    /// jitter in its upper half so that clients do not retry in step.
    fn backoff(&self, retry: u32) -> Duration {
        let factor = 2u32.saturating_pow(retry.saturating_sub(1));
        let full = self
            .initial_backoff
            .saturating_mul(factor)
            .min(self.max_backoff);
        full.mul_f64(0.5 + fastrand::f64() / 2.0)
    }
}

/// What the client does when an operation's requests-per-minute figure is used up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum RateLimitMode {
    /// Wait for the next slot (the default).
    #[default]
    Wait,
    /// Refuse the call with [`Error::RateLimited`], sending nothing.
    Refuse,
    /// No client-side limit.
    Off,
}

/// One limiter per operation, built from the spec's requests-per-minute figures and
/// shared by every clone of a client.
pub(crate) struct RateLimits {
    mode: RateLimitMode,
    limiters: HashMap<(&'static str, &'static str), (i64, DefaultDirectRateLimiter)>,
    clock: DefaultClock,
}

impl RateLimits {
    /// `window` is the period the per-minute figures apply to (a minute, unless a
    /// test or a proxy with its own limits says otherwise).
    pub(crate) fn new(mode: RateLimitMode, window: Duration) -> Self {
        let limiters = OPERATIONS
            .iter()
            .filter_map(|op| {
                let figure = op.cost.requests_per_minute.value;
                let burst = NonZeroU32::new(u32::try_from(figure).ok()?)?;
                let quota = Quota::with_period(window / burst.get())?.allow_burst(burst);
                Some(((op.group, op.action), (figure, RateLimiter::direct(quota))))
            })
            .collect();
        RateLimits {
            mode,
            limiters,
            clock: DefaultClock::default(),
        }
    }

    /// Take a slot for one request of `op`: wait for it, or refuse, per the mode.
    pub(crate) async fn acquire(&self, op: &Operation) -> Result<(), Error> {
        if self.mode == RateLimitMode::Off {
            return Ok(());
        }
        let Some((figure, limiter)) = self.limiters.get(&(op.group, op.action)) else {
            return Ok(());
        };
        loop {
            match limiter.check() {
                Ok(()) => return Ok(()),
                Err(not_until) => {
                    let wait = not_until.wait_time_from(self.clock.now());
                    if self.mode == RateLimitMode::Refuse {
                        return Err(Error::RateLimited {
                            operation: op.label(),
                            per_minute: *figure,
                            retry_in: wait,
                        });
                    }
                    tracing::debug!(operation = %op.label(), wait_ms = wait.as_millis() as u64, "waiting for a rate-limit slot");
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }
}

/// The delay a `Retry-After` header asks for: seconds, or an HTTP date.
///
/// A number of seconds too large for a `u64` is a wait longer than any policy
/// allows ([`Duration::MAX`]), not a header to ignore. Anything else that is
/// neither (a negative number, a fraction, a word) is ignored: the policy's
/// own backoff applies.
pub(crate) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        let seconds = value.parse::<u64>().unwrap_or(u64::MAX);
        return Some(Duration::from_secs(seconds));
    }
    // The weekday is redundant; a wrong one does not make the date unreadable.
    let parser = jiff::fmt::rfc2822::DateTimeParser::new().relaxed_weekday(true);
    let Ok(when) = parser.parse_zoned(value) else {
        return beyond_timestamps(value).then_some(Duration::MAX);
    };
    let wait = jiff::Timestamp::now().duration_until(when.timestamp());
    Some(Duration::try_from(wait).unwrap_or(Duration::ZERO))
}

/// Whether `value` is a well-formed HTTP date that no timestamp can hold (the
/// last hours of the year 9999): a wait longer than any policy allows.
fn beyond_timestamps(value: &str) -> bool {
    let date = value.split_once(", ").map_or(value, |(_, date)| date);
    jiff::civil::DateTime::strptime("%d %b %Y %H:%M:%S GMT", date).is_ok()
}

/// Whether an answer with this status is worth another attempt.
pub(crate) fn retryable_status(status: u16) -> bool {
    matches!(status, 429 | 500 | 502 | 503 | 504)
}

/// The delay before retry number `retry`, or `None` when the call should stop:
/// attempts used up, or a `Retry-After` longer than the policy allows.
pub(crate) fn next_delay(
    policy: &RetryPolicy,
    retry: u32,
    asked: Option<Duration>,
) -> Option<Duration> {
    if retry >= policy.max_attempts {
        return None;
    }
    match asked {
        Some(wait) if wait > policy.max_retry_after => None,
        Some(wait) => Some(wait),
        None => Some(policy.backoff(retry)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_is_capped_and_jittered() {
        let policy = RetryPolicy::default();
        for retry in 1..10 {
            let full = policy
                .initial_backoff
                .saturating_mul(2u32.pow(retry - 1))
                .min(policy.max_backoff);
            let d = policy.backoff(retry);
            assert!(
                d >= full / 2 && d <= full,
                "retry {retry}: {d:?} not in [{:?}, {full:?}]",
                full / 2
            );
        }
    }

    #[test]
    fn retry_after_in_seconds_and_as_a_date() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, "7".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(7)));
        headers.insert(
            RETRY_AFTER,
            "Sun, 06 Nov 1994 08:49:37 GMT".parse().unwrap(),
        );
        assert_eq!(
            retry_after(&headers),
            Some(Duration::ZERO),
            "a date in the past means now"
        );
        let soon = jiff::Timestamp::now() + jiff::SignedDuration::from_secs(30);
        let text = jiff::fmt::rfc2822::to_string(&soon.to_zoned(jiff::tz::TimeZone::UTC)).unwrap();
        headers.insert(RETRY_AFTER, text.parse().unwrap());
        let wait = retry_after(&headers).unwrap();
        assert!(
            wait > Duration::from_secs(25) && wait <= Duration::from_secs(30),
            "{wait:?}"
        );
        headers.insert(RETRY_AFTER, "soon".parse().unwrap());
        assert_eq!(retry_after(&headers), None);
        for ignored in ["-5", "1.5", "+3", "", "1e3"] {
            headers.insert(RETRY_AFTER, ignored.parse().unwrap());
            assert_eq!(retry_after(&headers), None, "{ignored:?}");
        }
        headers.insert(RETRY_AFTER, "99999999999999999999999".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(u64::MAX)));
        headers.insert(
            RETRY_AFTER,
            "Fri, 31 Dec 9999 23:59:59 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&headers), Some(Duration::MAX));
        // 2094-11-06 is a Saturday.
        headers.insert(
            RETRY_AFTER,
            "Sun, 06 Nov 2094 08:49:37 GMT".parse().unwrap(),
        );
        assert!(retry_after(&headers).is_some_and(|d| d > Duration::from_secs(3600)));
        headers.insert(
            RETRY_AFTER,
            "Sun, 99 Foo 2094 08:49:37 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&headers), None);
    }

    #[test]
    fn retries_stop_when_attempts_are_used_or_the_wait_is_too_long() {
        let policy = RetryPolicy::default();
        assert!(next_delay(&policy, 1, None).is_some());
        assert!(next_delay(&policy, 3, None).is_none());
        assert_eq!(
            next_delay(&policy, 1, Some(Duration::from_secs(2))),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            next_delay(&policy, 1, Some(Duration::from_secs(3600))),
            None
        );
        assert!(next_delay(&RetryPolicy::none(), 1, None).is_none());
    }
}
