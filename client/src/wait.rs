//! A call's waits: for a rate-limit slot, a `Retry-After`, a 429's rate
//! window, a backoff. Each is told to the run's progress callback as it
//! starts and when it ends ([`Progress::Waiting`](crate::job::Progress::Waiting),
//! [`Progress::Waited`](crate::job::Progress::Waited): what the command line
//! and the MCP server announce), and logged through `tracing`; all of a
//! call's waits together are bounded
//! ([`ClientBuilder::max_wait`](crate::ClientBuilder::max_wait), or a run's
//! [`RunOptions::max_wait`](crate::job::RunOptions::max_wait)): a wait that
//! would pass the bound is not begun, and the call stops with
//! [`ErrorKind::WaitedTooLong`] naming it. Every wait ends early when the
//! caller's [`Stop`] is given: the call then stops with
//! [`ErrorKind::Stopped`], sending nothing more.
//!
//! # The log events
//!
//! Logs for a program that has no progress callback (a run without
//! [`RunOptions::on_progress`](crate::job::RunOptions::on_progress), or a
//! generated builder's `send`) or reads its logs: target [`WAIT_TARGET`]
//! (`seozoom::wait`), level `INFO`, for every wait longer than
//! [`ANNOUNCED_WAIT`] (2 s); shorter ones are `DEBUG` events of the call's
//! span. Fields:
//!
//! | field | type | what |
//! |---|---|---|
//! | `event` | text | `start` as the wait begins, `end` when it is over |
//! | `operation` | text | `group action` |
//! | `cause` | text | `rate_limit` (the spec's requests-per-minute figure), `retry_after` (the service's `Retry-After`), `rate_window` (a 429 without a readable `Retry-After`), `backoff` (after a failure) |
//! | `reason` | text | why, for people: `HTTP 429 with an unreadable Retry-After (soon)`, ... |
//! | `wait_ms` | integer | how long this wait is |
//! | `attempt` | integer | the attempt that comes after the wait (1 is the first) |
//! | `waited_ms` | integer | the call's waits before this one |
//! | `max_wait_ms` | integer | the bound on all of a call's waits |
//!
//! The message is one line that says it all:
//! `keywords metrics: waiting 60 s for the service's rate window (HTTP 429 with an unreadable Retry-After (soon)) before attempt 2`.

use std::sync::Arc;
use std::time::Duration;

use crate::error::{Error, ErrorKind};
use crate::shown_duration::shown;
use crate::stop::Stop;

/// The `tracing` target of wait events.
pub const WAIT_TARGET: &str = "seozoom::wait";

/// Waits longer than this are logged as `INFO` events of [`WAIT_TARGET`], and
/// shown on stderr by the command line.
pub const ANNOUNCED_WAIT: Duration = Duration::from_secs(2);

/// Why a call waits ([`Wait::cause`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum WaitCause {
    /// For a slot of the spec's requests-per-minute figure.
    RateLimit,
    /// For the service's `Retry-After`.
    RetryAfter,
    /// A 429 without a readable `Retry-After`: a whole rate window.
    RateWindow,
    /// Backoff after a failure.
    Backoff,
}

impl WaitCause {
    /// Its name in the log events (`rate_limit`, `retry_after`,
    /// `rate_window`, `backoff`).
    pub fn name(self) -> &'static str {
        match self {
            WaitCause::RateLimit => "rate_limit",
            WaitCause::RetryAfter => "retry_after",
            WaitCause::RateWindow => "rate_window",
            WaitCause::Backoff => "backoff",
        }
    }

    /// What is waited for, for people (`the service's rate window`).
    pub fn waited_for(self) -> &'static str {
        match self {
            WaitCause::RateLimit => "a rate-limit slot",
            WaitCause::RetryAfter => "the time the service asked for",
            WaitCause::RateWindow => "the service's rate window",
            WaitCause::Backoff => "a backoff before trying again",
        }
    }
}

/// A wait that begins, as a run's progress callback is told it
/// ([`Progress::Waiting`](crate::job::Progress::Waiting)).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Wait {
    /// The operation's label (`keywords metrics`).
    pub operation: String,
    /// What is waited for.
    pub cause: WaitCause,
    /// How long the wait is.
    pub wait: Duration,
    /// The attempt that comes after the wait (1 is the first).
    pub attempt: u32,
    /// Why, for people: `20 requests a minute`, `HTTP 429, Retry-After: 60`,
    /// `HTTP 429 without Retry-After`, `HTTP 500`, `a timeout`.
    pub reason: String,
    /// The call's waits before this one.
    pub waited_before: Duration,
    /// The bound on all of the call's waits.
    pub max_wait: Duration,
}

/// A wait that is over, as a run's progress callback is told it
/// ([`Progress::Waited`](crate::job::Progress::Waited)).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Waited {
    /// The operation's label (`keywords metrics`).
    pub operation: String,
    /// What was waited for.
    pub cause: WaitCause,
    /// How long the wait was to be (as [`Wait::wait`] said).
    pub wait: Duration,
    /// How long it was waited: the whole wait, or until the stop.
    pub waited: Duration,
    /// Whether the caller's stop cut it short (the call then ends, sending
    /// nothing more).
    pub stopped: bool,
}

impl Wait {
    /// The line people read, naming the operation `operation`:
    /// `keywords metrics: waiting 60 s for the service's rate window (HTTP 429
    /// without Retry-After) before attempt 2`.
    pub(crate) fn line_naming(&self, operation: &str) -> String {
        format!(
            "{operation}: waiting {} for {} ({}) before attempt {}",
            shown(self.wait),
            self.cause.waited_for(),
            self.reason,
            self.attempt
        )
    }
}

impl Waited {
    /// The line people read, naming the operation `operation`:
    /// `keywords metrics: waited 60 s`.
    pub(crate) fn line_naming(&self, operation: &str) -> String {
        match self.stopped {
            true => format!(
                "{operation}: stopped waiting after {} (the caller stopped the call)",
                shown(self.waited)
            ),
            false => format!("{operation}: waited {}", shown(self.waited)),
        }
    }
}

/// What a call's waits tell its caller's progress callback.
pub(crate) enum WaitTold {
    /// A wait begins.
    Begins(Wait),
    /// A wait is over.
    Over(Waited),
}

/// The callback a call's waits are told to.
pub(crate) type OnWait = Arc<dyn Fn(WaitTold) + Send + Sync>;

/// The waits of one call, against its bound, ended early by its caller's
/// stop, told to its caller's progress callback.
pub(crate) struct Waits {
    operation: String,
    max: Duration,
    waited: Duration,
    stop: Option<Stop>,
    on_wait: Option<OnWait>,
}

impl Waits {
    /// No waits yet for a call of `operation`, bounded by `max` in all,
    /// ended by `stop` when it is given, and told to `on_wait` when there is
    /// one.
    pub(crate) fn new(
        operation: String,
        max: Duration,
        stop: Option<Stop>,
        on_wait: Option<OnWait>,
    ) -> Self {
        Waits {
            operation,
            max,
            waited: Duration::ZERO,
            stop,
            on_wait,
        }
    }

    /// Wait `wait` for `cause` (`reason` says why, for people) before
    /// attempt `attempt`: told to the progress callback as it starts and
    /// ends (unless it is no wait at all), logged as it starts and ends when
    /// it is long, refused when it would take the call's waits past the bound, and cut
    /// short by the caller's stop ([`ErrorKind::Stopped`], also when the stop
    /// was given before the wait).
    pub(crate) async fn wait(
        &mut self,
        wait: Duration,
        cause: WaitCause,
        reason: &str,
        attempt: u32,
    ) -> Result<(), Error> {
        if self.stop.as_ref().is_some_and(Stop::is_stopped) {
            return Err(Error::new(self.operation.clone(), ErrorKind::Stopped));
        }
        if self.waited.saturating_add(wait) > self.max {
            let kind = ErrorKind::WaitedTooLong {
                wait,
                waited: self.waited,
                max_wait: self.max,
                waiting_for: format!("{} ({reason}) before attempt {attempt}", cause.waited_for()),
            };
            return Err(Error::new(self.operation.clone(), kind));
        }
        // One event for the progress callback and the log's line alike.
        let starts = Wait {
            operation: self.operation.clone(),
            cause,
            wait,
            attempt,
            reason: reason.to_owned(),
            waited_before: self.waited,
            max_wait: self.max,
        };
        let line = starts.line_naming(&self.operation);
        // A wait of no time is no wait: not told.
        let on_wait = self.on_wait.clone().filter(|_| !wait.is_zero());
        if let Some(on_wait) = &on_wait {
            on_wait(WaitTold::Begins(starts));
        }
        let announced = wait > ANNOUNCED_WAIT;
        let (wait_ms, waited_ms, max_wait_ms) = (
            wait.as_millis() as u64,
            self.waited.as_millis() as u64,
            self.max.as_millis() as u64,
        );
        if announced {
            tracing::info!(
                target: WAIT_TARGET,
                event = "start",
                operation = %self.operation,
                cause = cause.name(),
                reason,
                wait_ms,
                attempt,
                waited_ms,
                max_wait_ms,
                "{line}"
            );
        } else {
            tracing::debug!(cause = cause.name(), reason, wait_ms, attempt, "{line}");
        }
        let slept = match &self.stop {
            Some(stop) => {
                let started = tokio::time::Instant::now();
                tokio::select! {
                    () = tokio::time::sleep(wait) => None,
                    () = stop.stopped() => Some(started.elapsed()),
                }
            }
            None => {
                tokio::time::sleep(wait).await;
                None
            }
        };
        // `slept`: how long the wait ran before the stop cut it short, if it did.
        self.waited = self.waited.saturating_add(slept.unwrap_or(wait));
        let ends = Waited {
            operation: self.operation.clone(),
            cause,
            wait,
            waited: slept.unwrap_or(wait),
            stopped: slept.is_some(),
        };
        let line = ends.line_naming(&self.operation);
        if let Some(on_wait) = on_wait {
            on_wait(WaitTold::Over(ends));
        }
        if announced {
            tracing::info!(
                target: WAIT_TARGET,
                event = "end",
                operation = %self.operation,
                cause = cause.name(),
                reason,
                wait_ms,
                attempt,
                waited_ms = self.waited.as_millis() as u64,
                max_wait_ms,
                "{line}"
            );
        }
        if slept.is_some() {
            return Err(Error::new(self.operation.clone(), ErrorKind::Stopped));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_wait_past_the_bound_is_refused_and_named() {
        let mut waits = Waits::new(
            "keywords metrics".into(),
            Duration::from_millis(90),
            None,
            None,
        );
        waits
            .wait(
                Duration::from_millis(60),
                WaitCause::RateWindow,
                "HTTP 429",
                2,
            )
            .await
            .unwrap();
        let error = waits
            .wait(
                Duration::from_millis(60),
                WaitCause::RateWindow,
                "HTTP 429",
                3,
            )
            .await
            .unwrap_err();
        let text = error.to_string();
        assert!(
            text.contains("the service's rate window (HTTP 429) before attempt 3"),
            "{text}"
        );
        assert!(text.contains("90 ms"), "{text}");
        assert!(!error.is_retryable() && !error.is_refused());
    }

    #[tokio::test]
    async fn a_stop_ends_a_wait_at_once_and_refuses_the_next() {
        let stop = Stop::new();
        let mut waits = Waits::new(
            "keywords metrics".into(),
            Duration::from_secs(600),
            Some(stop.clone()),
            None,
        );
        let started = std::time::Instant::now();
        let waiting = waits.wait(
            Duration::from_secs(60),
            WaitCause::RetryAfter,
            "HTTP 429",
            2,
        );
        let (waited, ()) = tokio::join!(waiting, async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            stop.stop();
        });
        let error = waited.unwrap_err();
        assert!(matches!(error.kind(), ErrorKind::Stopped), "{error}");
        assert!(started.elapsed() < Duration::from_secs(5));
        let again = waits.wait(Duration::from_millis(1), WaitCause::Backoff, "HTTP 500", 3);
        assert!(matches!(
            again.await.unwrap_err().kind(),
            ErrorKind::Stopped
        ));
    }
}
