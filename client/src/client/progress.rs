//! What a run's progress callback is told ([`Progress`]): how far a job is,
//! a row cap fitted to the budget, and every wait, retry and cache hit of its
//! calls, each with the one line people read (its `Display`), so that every
//! face (command line, MCP server) says it alike. The library's `tracing`
//! events stay its log; the faces announce from these.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use super::fitted_rows::FittedRows;
use crate::operation_table::Operation;
use crate::shown_duration::shown;
use crate::wait::{OnWait, Wait, WaitTold, Waited};

/// How a run goes, as its [`RunOptions::on_progress`](super::RunOptions::on_progress)
/// callback is told.
///
/// Its `Display` is the line people read, naming the operation by its label
/// (`keywords metrics: waiting 60 s for the service's rate window (HTTP 429
/// without Retry-After) before attempt 2`); [`Progress::line_naming`] names it
/// otherwise (as a face knows it).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Progress {
    /// The row cap was fitted to the budget ([`RunOptions::fit_budget`](super::RunOptions::fit_budget)),
    /// before the first request: the job fetches up to `fitted.rows` rows
    /// (when none fits, the job goes as asked and is refused over the
    /// budget).
    Fitted(FittedRows),
    /// `done` of a batched job's `total` requests answered (whatever their
    /// order), by the service or whole from the cache.
    Requests {
        /// Requests answered so far.
        done: usize,
        /// Requests the job sends in all.
        total: usize,
    },
    /// A paged job's page came: `done` rows so far, of at most `max`.
    Rows {
        /// Rows received so far.
        done: usize,
        /// The row cap.
        max: usize,
    },
    /// A call begins to wait (a wait of no time is none, and is not told).
    /// [`Progress::Waited`] follows when it is over.
    Waiting(Wait),
    /// A call's wait is over, waited out or cut short by the caller's stop.
    Waited(Waited),
    /// An attempt of a call failed in a way that is tried again, after a
    /// wait ([`Progress::Waiting`], unless it would pass the bound on waits
    /// or the caller stopped).
    Retrying(Retry),
    /// Requests or items answered from the cache: not sent, not charged.
    Cached(CacheHit),
}

impl Progress {
    /// The line people read, naming the operation `operation` (a face's own
    /// name for it, as the MCP server's tool names) where `Display` names it
    /// by its label.
    pub fn line_naming(&self, operation: &str) -> String {
        match self {
            Progress::Fitted(fitted) => format!(
                "the row cap is {} of the {} rows asked: what the budget covers at worst ({} units)",
                fitted.rows, fitted.asked, fitted.estimate.max
            ),
            Progress::Requests { done, total } => format!("{done} of {total} requests done"),
            Progress::Rows { done, max } => format!("{done} of {max} rows done"),
            Progress::Waiting(wait) => wait.line_naming(operation),
            Progress::Waited(waited) => waited.line_naming(operation),
            Progress::Retrying(retry) => format!(
                "{operation}: retrying in {} (attempt {} failed: {})",
                shown(retry.delay),
                retry.attempt.saturating_sub(1),
                retry.reason
            ),
            Progress::Cached(hit) if hit.requests > 0 => {
                format!("{operation}: answered from the cache, not charged")
            }
            Progress::Cached(hit) => format!(
                "{operation}: {} {} answered from the cache, not charged",
                hit.items,
                if hit.items == 1 { "input" } else { "inputs" }
            ),
        }
    }

    /// The label of the operation told of (`keywords metrics`), for the
    /// events of a call: waits, retries, cache hits.
    pub fn operation(&self) -> Option<&str> {
        match self {
            Progress::Waiting(wait) => Some(&wait.operation),
            Progress::Waited(waited) => Some(&waited.operation),
            Progress::Retrying(retry) => Some(&retry.operation),
            Progress::Cached(hit) => Some(&hit.operation),
            Progress::Fitted(_) | Progress::Requests { .. } | Progress::Rows { .. } => None,
        }
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line_naming(self.operation().unwrap_or_default()))
    }
}

/// An attempt tried again ([`Progress::Retrying`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Retry {
    /// The operation's label (`keywords metrics`).
    pub operation: String,
    /// The attempt that comes next (2 after the first failed).
    pub attempt: u32,
    /// Why the attempt before failed, for people: `HTTP 500`, `a timeout`,
    /// `HTTP 429, Retry-After: 60`.
    pub reason: String,
    /// The wait before the next attempt.
    pub delay: Duration,
}

/// Answers from the cache ([`Progress::Cached`]): a whole request's, or the
/// items of a batched job the cache answers one by one.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CacheHit {
    /// The operation's label (`keywords metrics`).
    pub operation: String,
    /// Whole requests answered (1 for a call's answer, 0 for items).
    pub requests: usize,
    /// The inputs answered: a whole request's, or the items answered one by
    /// one.
    pub items: usize,
    /// When the oldest of these answers was fetched from the service.
    pub fetched_at: SystemTime,
}

impl CacheHit {
    /// How old the oldest of these answers is now.
    pub fn age(&self) -> Duration {
        SystemTime::now()
            .duration_since(self.fetched_at)
            .unwrap_or_default()
    }
}

/// The callback a run's calls tell their progress to, if the caller gave
/// one. The progress is made only when there is a callback: a call without
/// one pays nothing for it.
#[derive(Clone, Default)]
pub(crate) struct Tell(Option<Arc<dyn Fn(Progress) + Send + Sync>>);

impl fmt::Debug for Tell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "Tell(callback)"
        } else {
            "Tell(none)"
        })
    }
}

impl Tell {
    /// Telling `callback`.
    pub(crate) fn new(callback: impl Fn(Progress) + Send + Sync + 'static) -> Tell {
        Tell(Some(Arc::new(callback)))
    }

    /// Tell the progress `made` makes, when there is a callback.
    pub(crate) fn tell(&self, made: impl FnOnce() -> Progress) {
        if let Some(callback) = &self.0 {
            callback(made());
        }
    }

    /// An attempt of `op` is tried again as attempt `attempt`, after
    /// `delay`, because of `reason`.
    pub(crate) fn retrying(&self, op: &Operation, attempt: u32, reason: &str, delay: Duration) {
        self.tell(|| {
            Progress::Retrying(Retry {
                operation: op.label(),
                attempt,
                reason: reason.to_owned(),
                delay,
            })
        });
    }

    /// What a call's waits tell ([`Waits`](crate::wait::Waits)): this
    /// callback, if there is one, told each as a [`Progress`].
    pub(crate) fn on_wait(&self) -> Option<OnWait> {
        let callback = self.0.clone()?;
        Some(Arc::new(move |told| {
            callback(match told {
                WaitTold::Begins(wait) => Progress::Waiting(wait),
                WaitTold::Over(waited) => Progress::Waited(waited),
            });
        }))
    }

    /// `requests` whole requests or `items` items of `op` answered from the
    /// cache, the oldest fetched at `fetched_at`.
    pub(crate) fn cached(
        &self,
        op: &Operation,
        requests: usize,
        items: usize,
        fetched_at: SystemTime,
    ) {
        self.tell(|| {
            Progress::Cached(CacheHit {
                operation: op.label(),
                requests,
                items,
                fetched_at,
            })
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wait::WaitCause;

    #[test]
    fn each_event_reads_as_one_line_naming_its_operation() {
        let wait = Progress::Waiting(Wait {
            operation: "keywords metrics".into(),
            cause: WaitCause::RateWindow,
            wait: Duration::from_secs(60),
            attempt: 2,
            reason: "HTTP 429 without Retry-After".into(),
            waited_before: Duration::ZERO,
            max_wait: Duration::from_secs(300),
        });
        assert_eq!(
            wait.to_string(),
            "keywords metrics: waiting 60 s for the service's rate window (HTTP 429 without Retry-After) before attempt 2"
        );
        let retry = Progress::Retrying(Retry {
            operation: "keywords metrics".into(),
            attempt: 2,
            reason: "HTTP 500".into(),
            delay: Duration::from_millis(386),
        });
        assert_eq!(
            retry.line_naming("keywords_metrics"),
            "keywords_metrics: retrying in 386 ms (attempt 1 failed: HTTP 500)"
        );
        let items = Progress::Cached(CacheHit {
            operation: "keywords metrics".into(),
            requests: 0,
            items: 2,
            fetched_at: SystemTime::now(),
        });
        assert_eq!(
            items.to_string(),
            "keywords metrics: 2 inputs answered from the cache, not charged"
        );
        let stopped = Progress::Waited(Waited {
            operation: "keywords metrics".into(),
            cause: WaitCause::Backoff,
            wait: Duration::from_secs(2),
            waited: Duration::from_millis(1_500),
            stopped: true,
        });
        assert_eq!(
            stopped.to_string(),
            "keywords metrics: stopped waiting after 1.5 s (the caller stopped the call)"
        );
    }

    #[test]
    fn nothing_is_made_without_a_callback() {
        let made = std::sync::atomic::AtomicBool::new(false);
        Tell::default().tell(|| {
            made.store(true, std::sync::atomic::Ordering::Relaxed);
            Progress::Rows { done: 1, max: 2 }
        });
        assert!(!made.load(std::sync::atomic::Ordering::Relaxed));
    }
}
