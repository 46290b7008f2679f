//! Whether a failed attempt is tried again: one classifier that judges what
//! an attempt came to ([`classify`]), and the policy that turns its verdict
//! into what the call does next ([`RetryPolicy::decide`]), in the manner of
//! smithy-rs's `ClassifyRetry` and `ShouldAttempt`. The call loop in
//! `client::call` and [`Error::is_retryable`](crate::Error::is_retryable) both
//! ask the classifier, so the retryable statuses are written once, here.
//!
//! A retried call may be charged twice: when the service did its work but the
//! answer was lost (a timeout, a reset), the retry is a second, billable call.
//! Retries are bounded ([`RetryPolicy::max_attempts`]) and can be switched off.

use std::time::Duration;

use reqwest::header::{HeaderMap, RETRY_AFTER};

/// HTTP statuses worth another attempt: too many requests, and the server
/// errors that say "not now" rather than "never" (not 501 or 505).
const RETRYABLE_STATUSES: [u16; 5] = [429, 500, 502, 503, 504];

/// What one attempt came to, as far as the retry decision needs to know.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Outcome<'a> {
    /// The service answered (any status, success included).
    Answered {
        /// HTTP status.
        status: u16,
        /// The answer's headers (for `Retry-After`).
        headers: &'a HeaderMap,
    },
    /// The request did not complete: no connection, a reset, a timeout.
    Failed {
        /// Whether it was a timeout. Retried all the same: the service may
        /// have been slow only this once (and may charge twice, see above).
        timeout: bool,
    },
}

/// The classifier's verdict on an outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The outcome is the call's result: a success, or an error that the same
    /// request again would meet again.
    Final,
    /// Another attempt may succeed; the service may say how long to wait.
    Retryable {
        /// The wait a `Retry-After` header asks for.
        asked: Option<Duration>,
    },
}

/// What the call does after an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decision {
    /// The outcome is the call's result.
    Accept,
    /// Try again after this delay.
    RetryAfter(Duration),
    /// Another attempt might succeed but the policy allows none: the outcome
    /// is the call's result.
    Stop,
}

/// Whether an attempt's outcome is worth another attempt.
pub(crate) fn classify(outcome: &Outcome<'_>) -> Verdict {
    match *outcome {
        Outcome::Failed { .. } => Verdict::Retryable { asked: None },
        Outcome::Answered { status, headers } if RETRYABLE_STATUSES.contains(&status) => {
            Verdict::Retryable {
                asked: retry_after(headers),
            }
        }
        Outcome::Answered { .. } => Verdict::Final,
    }
}

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

    /// What to do after `attempts` attempts (the first included) came to
    /// `outcome`: accept it as the call's result, try again after a delay,
    /// or stop with it because attempts are used up or the service asks for
    /// a longer wait than the policy allows.
    pub(crate) fn decide(&self, attempts: u32, outcome: &Outcome<'_>) -> Decision {
        let Verdict::Retryable { asked } = classify(outcome) else {
            return Decision::Accept;
        };
        if attempts >= self.max_attempts {
            return Decision::Stop;
        }
        match asked {
            Some(wait) if wait > self.max_retry_after => Decision::Stop,
            Some(wait) => Decision::RetryAfter(wait),
            None => Decision::RetryAfter(self.backoff(attempts)),
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

/// The delay a `Retry-After` header asks for: seconds, or an HTTP date.
///
/// A number of seconds too large for a `u64` is a wait longer than any policy
/// allows ([`Duration::MAX`]), not a header to ignore. Anything else that is
/// neither (a negative number, a fraction, a word) is ignored: the policy's
/// own backoff applies.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        let seconds = value.parse::<u64>().unwrap_or(u64::MAX);
        return Some(Duration::from_secs(seconds));
    }
    crate::http_date::wait_until(value, std::time::SystemTime::now())
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
        let soon = std::time::SystemTime::now() + Duration::from_secs(30);
        let text = crate::http_date::imf_fixdate(soon);
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
        assert!(retry_after(&headers).is_some_and(|d| d > RetryPolicy::default().max_retry_after));
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

    fn answered(status: u16, headers: &HeaderMap) -> Outcome<'_> {
        Outcome::Answered { status, headers }
    }

    #[test]
    fn the_classifier_retries_failures_and_passing_statuses_only() {
        let none = HeaderMap::new();
        for status in [429, 500, 502, 503, 504] {
            assert_eq!(
                classify(&answered(status, &none)),
                Verdict::Retryable { asked: None },
                "{status}"
            );
        }
        for status in [200, 204, 301, 400, 401, 403, 404, 418, 501, 505, 599] {
            assert_eq!(
                classify(&answered(status, &none)),
                Verdict::Final,
                "{status}"
            );
        }
        for timeout in [false, true] {
            assert_eq!(
                classify(&Outcome::Failed { timeout }),
                Verdict::Retryable { asked: None },
                "timeout {timeout}"
            );
        }
    }

    #[test]
    fn the_classifier_reads_retry_after_only_on_a_retryable_answer() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, "7".parse().unwrap());
        assert_eq!(
            classify(&answered(503, &headers)),
            Verdict::Retryable {
                asked: Some(Duration::from_secs(7))
            }
        );
        assert_eq!(classify(&answered(200, &headers)), Verdict::Final);
        assert_eq!(classify(&answered(400, &headers)), Verdict::Final);
    }

    #[test]
    fn the_policy_accepts_final_outcomes_at_once() {
        let none = HeaderMap::new();
        let policy = RetryPolicy::default();
        assert_eq!(policy.decide(1, &answered(200, &none)), Decision::Accept);
        assert_eq!(policy.decide(1, &answered(404, &none)), Decision::Accept);
        assert_eq!(
            RetryPolicy::none().decide(1, &answered(200, &none)),
            Decision::Accept
        );
    }

    #[test]
    fn retries_stop_when_attempts_are_used_or_the_wait_is_too_long() {
        let none = HeaderMap::new();
        let policy = RetryPolicy::default();
        let failed = Outcome::Failed { timeout: true };
        assert!(
            matches!(policy.decide(1, &failed), Decision::RetryAfter(d) if d <= policy.initial_backoff)
        );
        assert!(matches!(
            policy.decide(2, &answered(500, &none)),
            Decision::RetryAfter(_)
        ));
        assert_eq!(policy.decide(3, &failed), Decision::Stop);
        assert_eq!(policy.decide(3, &answered(503, &none)), Decision::Stop);
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, "2".parse().unwrap());
        assert_eq!(
            policy.decide(1, &answered(429, &headers)),
            Decision::RetryAfter(Duration::from_secs(2))
        );
        headers.insert(RETRY_AFTER, "3600".parse().unwrap());
        assert_eq!(policy.decide(1, &answered(429, &headers)), Decision::Stop);
        assert_eq!(RetryPolicy::none().decide(1, &failed), Decision::Stop);
    }
}
