//! Stopping a call or job from outside: [`Stop`], for a caller whose own
//! caller gave up (an MCP client's cancel, a closed connection, Ctrl-C).
//!
//! Dropping a job's future would also stop it, but would throw away a request
//! already on the wire, which the service charges: the job would lose rows it
//! paid for. A stopped job instead sends nothing more, lets the request in
//! flight finish, and returns what it received as a
//! [`Partial`](crate::job::Partial) whose cause is
//! [`ErrorKind::Stopped`](crate::error::ErrorKind::Stopped).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

/// A signal that stops a run before its next request, whatever the kind of
/// job: one call, batched or paged
/// ([`RunOptions::stop`](crate::job::RunOptions::stop)).
///
/// Clones share the signal. Every wait ends at once (for a rate-limit slot,
/// a `Retry-After`, a 429's window, a backoff) and its request is not sent;
/// a request in flight is let finish and its rows kept. The requests never
/// sent are not charged, and their share of the budget the job held is given
/// back.
///
/// # Examples
///
/// ```
/// let stop = seozoom::job::Stop::new();
/// let handle = stop.clone();
/// assert!(!stop.is_stopped());
/// handle.stop();
/// assert!(stop.is_stopped());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Stop {
    inner: Arc<StopState>,
}

#[derive(Debug, Default)]
struct StopState {
    stopped: AtomicBool,
    notify: Notify,
}

impl Stop {
    /// A signal not yet given.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Give the signal: the job sends no further request.
    pub fn stop(&self) {
        self.inner.stopped.store(true, Ordering::SeqCst);
        self.inner.notify.notify_waiters();
    }

    /// Whether the signal was given.
    pub fn is_stopped(&self) -> bool {
        self.inner.stopped.load(Ordering::SeqCst)
    }

    /// Wait until the signal is given.
    pub async fn stopped(&self) {
        loop {
            let notified = self.inner.notify.notified();
            let mut notified = std::pin::pin!(notified);
            // Registered before the flag is read, so a signal given between
            // the two is not missed.
            notified.as_mut().enable();
            if self.is_stopped() {
                return;
            }
            notified.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_waiter_wakes_and_a_late_one_returns_at_once() {
        let stop = Stop::new();
        let (a, b) = (stop.clone(), stop.clone());
        let waiters = tokio::spawn(async move { tokio::join!(a.stopped(), b.stopped()) });
        tokio::task::yield_now().await;
        stop.stop();
        waiters.await.unwrap();
        stop.stopped().await;
    }
}
