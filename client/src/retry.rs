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
//!
//! A 429 is not a failure of that kind: it says the service's rate window is
//! full, and that a later request will be answered. So it is retried once the
//! window has room, after the `Retry-After` the service gives, or else after a
//! whole rate window (the client's `rate_window`), and such retries do not use
//! up the attempts. They are bounded all the same, by the time waited
//! ([`RetryPolicy::max_rate_limited_windows`]), so that a service that refuses
//! for good still ends the call.

use std::time::Duration;

use reqwest::header::{HeaderMap, RETRY_AFTER};

/// HTTP statuses worth another attempt: too many requests, and the server
/// errors that say "not now" rather than "never" (not 501 or 505).
const RETRYABLE_STATUSES: [u16; 5] = [TOO_MANY_REQUESTS, 500, 502, 503, 504];

/// The status of an answer refused because the rate window is full.
const TOO_MANY_REQUESTS: u16 = 429;

/// What one attempt came to, as far as the retry decision needs to know.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Attempted<'a> {
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
    /// The service's rate window is full (429): the same request will be
    /// answered once it has room.
    WindowFull {
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
pub(crate) fn classify(outcome: &Attempted<'_>) -> Verdict {
    match *outcome {
        Attempted::Failed { .. } => Verdict::Retryable { asked: None },
        Attempted::Answered { status, headers } if status == TOO_MANY_REQUESTS => {
            Verdict::WindowFull {
                asked: retry_after(headers),
            }
        }
        Attempted::Answered { status, headers } if RETRYABLE_STATUSES.contains(&status) => {
            Verdict::Retryable {
                asked: retry_after(headers),
            }
        }
        Attempted::Answered { .. } => Verdict::Final,
    }
}

/// When and how often a failed call is tried again.
///
/// Two kinds of answer are retried, each with its own bound:
/// - a failure that may not happen again (a connection error, a timeout, HTTP
///   500, 502, 503 or 504): up to [`max_attempts`](Self::max_attempts)
///   attempts, with exponential backoff;
/// - HTTP 429, the service's rate window is full: after its `Retry-After`, or
///   else after a whole rate window, for at most
///   [`max_rate_limited_windows`](Self::max_rate_limited_windows) rate windows
///   of waiting in all. These retries do not use up `max_attempts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all against failures, the first included (1 = no retries
    /// of any kind).
    pub max_attempts: u32,
    /// Delay before the first retry; doubled for each further one. Also the
    /// shortest wait after a 429, whatever its `Retry-After`.
    pub initial_backoff: Duration,
    /// Upper bound of the backoff delay.
    pub max_backoff: Duration,
    /// Longest `Retry-After` the client will wait; a longer one ends the call
    /// with the service's error instead.
    pub max_retry_after: Duration,
    /// How long a call answered 429 waits for the service's rate window, in
    /// all, counted in rate windows (the client's
    /// [`rate_window`](crate::ClientBuilder::rate_window), a minute by
    /// default). A 429 whose wait would go past it ends the call with the
    /// service's error.
    pub max_rate_limited_windows: u32,
}

impl Default for RetryPolicy {
    /// 3 attempts, 500 ms doubling up to 8 s, `Retry-After` honoured up to
    /// 60 s; after 429 answers, at most 3 rate windows of waiting.
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
            max_rate_limited_windows: 3,
        }
    }
}

/// What a call's retries have used so far, against the policy's bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Spent {
    /// The rate window a 429 without `Retry-After` waits for.
    window: Duration,
    /// Attempts that came to a failure, counted against `max_attempts`.
    failures: u32,
    /// Time waited after 429 answers.
    rate_limited: Duration,
    /// 429 answers so far.
    limited: u32,
}

impl Spent {
    /// Nothing spent yet, for a client whose rate window is `window`.
    pub(crate) fn new(window: Duration) -> Self {
        Spent {
            window,
            failures: 0,
            rate_limited: Duration::ZERO,
            limited: 0,
        }
    }
}

impl RetryPolicy {
    /// No retries: every call is tried once, whatever it is answered.
    pub fn none() -> Self {
        RetryPolicy {
            max_attempts: 1,
            max_rate_limited_windows: 0,
            ..RetryPolicy::default()
        }
    }

    /// What to do after an attempt came to `outcome`, given what the call's
    /// retries have `spent` (updated here): accept it as the call's result,
    /// try again after a delay, or stop with it because the bounds are
    /// reached or the service asks for a longer wait than the policy allows.
    pub(crate) fn decide(&self, spent: &mut Spent, outcome: &Attempted<'_>) -> Decision {
        match classify(outcome) {
            Verdict::Final => Decision::Accept,
            Verdict::Retryable { asked } => {
                spent.failures += 1;
                if spent.failures >= self.max_attempts {
                    return Decision::Stop;
                }
                match asked {
                    Some(wait) if wait > self.max_retry_after => Decision::Stop,
                    Some(wait) => Decision::RetryAfter(wait),
                    None => Decision::RetryAfter(self.backoff(spent.failures)),
                }
            }
            Verdict::WindowFull { asked } => {
                if self.max_attempts <= 1 {
                    return Decision::Stop;
                }
                // A `Retry-After` shorter than the initial backoff (`0`,
                // over and over) is waited a growing backoff instead, so that
                // it neither hammers the service nor keeps the call from its
                // bound.
                spent.limited += 1;
                let floor = self.backoff(spent.limited);
                let wait = match asked {
                    Some(wait) if wait > self.max_retry_after => return Decision::Stop,
                    Some(wait) if wait >= self.initial_backoff => wait,
                    Some(_) => floor,
                    None => spent.window.max(floor),
                };
                let bound = spent.window.saturating_mul(self.max_rate_limited_windows);
                let waited = spent.rate_limited.saturating_add(wait);
                if waited > bound || wait.is_zero() {
                    return Decision::Stop;
                }
                spent.rate_limited = waited;
                Decision::RetryAfter(wait)
            }
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
    // RFC 9110's three forms (IMF-fixdate, RFC 850, asctime); a date past is now.
    let when = httpdate::parse_http_date(value).ok()?;
    Some(
        when.duration_since(std::time::SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
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
        let text = httpdate::fmt_http_date(soon);
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
        // RFC 9110's obsolete forms, which a recipient must still read.
        for future in [
            "Sat, 06 Nov 2094 08:49:37 GMT",
            "Saturday, 06-Nov-60 08:49:37 GMT",
            "Sat Nov  6 08:49:37 2094",
        ] {
            headers.insert(RETRY_AFTER, future.parse().unwrap());
            assert!(
                retry_after(&headers).is_some_and(|d| d > Duration::from_secs(3600)),
                "{future}"
            );
        }
        for past in [
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
            "Thu, 01 Jan 1970 00:00:00 GMT",
        ] {
            headers.insert(RETRY_AFTER, past.parse().unwrap());
            assert_eq!(retry_after(&headers), Some(Duration::ZERO), "{past}");
        }
        for not_a_date in [
            "Sun, 06 Nov 1994 08:49:37 CET",
            "Sun, 06 Nov 1994 08:49 GMT",
            "Sun, 31 Nov 1994 08:49:37 GMT",
            "2026-11-23T18:00:00Z",
        ] {
            headers.insert(RETRY_AFTER, not_a_date.parse().unwrap());
            assert_eq!(retry_after(&headers), None, "{not_a_date}");
        }
        headers.insert(
            RETRY_AFTER,
            "Sun, 99 Foo 2094 08:49:37 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&headers), None);
    }

    fn answered(status: u16, headers: &HeaderMap) -> Attempted<'_> {
        Attempted::Answered { status, headers }
    }

    #[test]
    fn the_classifier_retries_failures_and_passing_statuses_only() {
        let none = HeaderMap::new();
        for status in [500, 502, 503, 504] {
            assert_eq!(
                classify(&answered(status, &none)),
                Verdict::Retryable { asked: None },
                "{status}"
            );
        }
        assert_eq!(
            classify(&answered(429, &none)),
            Verdict::WindowFull { asked: None }
        );
        for status in [200, 204, 301, 400, 401, 403, 404, 418, 501, 505, 599] {
            assert_eq!(
                classify(&answered(status, &none)),
                Verdict::Final,
                "{status}"
            );
        }
        for timeout in [false, true] {
            assert_eq!(
                classify(&Attempted::Failed { timeout }),
                Verdict::Retryable { asked: None },
                "timeout {timeout}"
            );
        }
    }

    #[test]
    fn the_classifier_reads_retry_after_only_on_a_retryable_answer() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, "7".parse().unwrap());
        let seven = Some(Duration::from_secs(7));
        assert_eq!(
            classify(&answered(503, &headers)),
            Verdict::Retryable { asked: seven }
        );
        assert_eq!(
            classify(&answered(429, &headers)),
            Verdict::WindowFull { asked: seven }
        );
        assert_eq!(classify(&answered(200, &headers)), Verdict::Final);
        assert_eq!(classify(&answered(400, &headers)), Verdict::Final);
    }

    const MINUTE: Duration = Duration::from_secs(60);

    #[test]
    fn the_policy_accepts_final_outcomes_at_once() {
        let none = HeaderMap::new();
        let policy = RetryPolicy::default();
        let mut spent = Spent::new(MINUTE);
        assert_eq!(
            policy.decide(&mut spent, &answered(200, &none)),
            Decision::Accept
        );
        assert_eq!(
            policy.decide(&mut spent, &answered(404, &none)),
            Decision::Accept
        );
        assert_eq!(
            RetryPolicy::none().decide(&mut spent, &answered(200, &none)),
            Decision::Accept
        );
        assert_eq!(spent, Spent::new(MINUTE), "nothing spent on final answers");
    }

    #[test]
    fn retries_stop_when_attempts_are_used_or_the_wait_is_too_long() {
        let none = HeaderMap::new();
        let policy = RetryPolicy::default();
        let failed = Attempted::Failed { timeout: true };
        let mut spent = Spent::new(MINUTE);
        assert!(
            matches!(policy.decide(&mut spent, &failed), Decision::RetryAfter(d) if d <= policy.initial_backoff)
        );
        assert!(matches!(
            policy.decide(&mut spent, &answered(500, &none)),
            Decision::RetryAfter(_)
        ));
        assert_eq!(
            policy.decide(&mut spent, &answered(503, &none)),
            Decision::Stop
        );
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, "3600".parse().unwrap());
        assert_eq!(
            policy.decide(&mut Spent::new(MINUTE), &answered(503, &headers)),
            Decision::Stop
        );
        assert_eq!(
            policy.decide(&mut Spent::new(MINUTE), &answered(429, &headers)),
            Decision::Stop
        );
        assert_eq!(
            RetryPolicy::none().decide(&mut Spent::new(MINUTE), &failed),
            Decision::Stop
        );
    }

    #[test]
    fn a_429_waits_for_its_retry_after_without_using_up_attempts() {
        let policy = RetryPolicy::default();
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, "2".parse().unwrap());
        let mut spent = Spent::new(MINUTE);
        // Far more 429s than attempts: each is waited for.
        for _ in 0..10 {
            assert_eq!(
                policy.decide(&mut spent, &answered(429, &headers)),
                Decision::RetryAfter(Duration::from_secs(2))
            );
        }
        // The failures still have all their attempts.
        let failed = Attempted::Failed { timeout: false };
        assert!(matches!(
            policy.decide(&mut spent, &failed),
            Decision::RetryAfter(_)
        ));
        assert!(matches!(
            policy.decide(&mut spent, &failed),
            Decision::RetryAfter(_)
        ));
        assert_eq!(policy.decide(&mut spent, &failed), Decision::Stop);
    }

    #[test]
    fn a_429_without_retry_after_waits_a_whole_window() {
        let policy = RetryPolicy::default();
        let none = HeaderMap::new();
        let window = Duration::from_secs(5);
        let mut spent = Spent::new(window);
        assert_eq!(
            policy.decide(&mut spent, &answered(429, &none)),
            Decision::RetryAfter(window)
        );
    }

    #[test]
    fn waits_after_429_are_bounded_in_rate_windows() {
        let policy = RetryPolicy {
            max_rate_limited_windows: 2,
            ..RetryPolicy::default()
        };
        let none = HeaderMap::new();
        let window = Duration::from_secs(10);
        let mut spent = Spent::new(window);
        for _ in 0..2 {
            assert_eq!(
                policy.decide(&mut spent, &answered(429, &none)),
                Decision::RetryAfter(window)
            );
        }
        assert_eq!(
            policy.decide(&mut spent, &answered(429, &none)),
            Decision::Stop
        );

        // `Retry-After: 0` over and over is waited for a growing backoff
        // each time, and so reaches the bound too, in a few retries.
        let mut zero = HeaderMap::new();
        zero.insert(RETRY_AFTER, "0".parse().unwrap());
        let mut spent = Spent::new(window);
        let mut waits = Vec::new();
        while let Decision::RetryAfter(wait) = policy.decide(&mut spent, &answered(429, &zero)) {
            assert!(wait >= policy.initial_backoff / 2, "{wait:?}");
            waits.push(wait);
            assert!(waits.len() <= 40, "unbounded");
        }
        let waited: Duration = waits.iter().sum();
        assert!(waited <= window * 2, "within the bound: {waited:?}");
        assert!(
            waited > window * 2 - policy.max_backoff,
            "up to the bound: {waited:?}"
        );
        assert!(
            waits.len() < 10,
            "a growing backoff, not 500 ms steps: {waits:?}"
        );

        // Without any wait to add up, it stops at once rather than spin.
        let instant = RetryPolicy {
            initial_backoff: Duration::ZERO,
            ..policy
        };
        assert_eq!(
            instant.decide(&mut Spent::new(window), &answered(429, &zero)),
            Decision::Stop
        );
    }

    #[test]
    fn no_retries_means_none_for_429_either() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, "1".parse().unwrap());
        assert_eq!(
            RetryPolicy::none().decide(&mut Spent::new(MINUTE), &answered(429, &headers)),
            Decision::Stop
        );
    }
}
