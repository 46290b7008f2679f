//! Rate-limit slots shared by every process on a store: the internal
//! [`SharedSlots`] trait, which the stores that outlive a process implement
//! (a SQLite file, a Redis server), and the helpers they share.
//!
//! A store of one process (`memory`, `none`) has no slots of its own
//! ([`Backend::shared_slots`](super::Backend::shared_slots) is `None`): its
//! client keeps the in-process limits of `crate::rate_limits`, the one
//! limiter of a process, which also stands in when a shared store fails.

use std::time::Duration;

use super::{Scope, StoreFuture};

/// Rate-limit slots counted across every process on the store. Every method
/// is atomic on its own; none takes or sees the API key (only its [`Scope`]).
pub(crate) trait SharedSlots: Send + Sync {
    /// Take a slot for one request of `operation`, or say how long to wait
    /// before asking again: at most `figure` requests in any rolling `window`,
    /// counted across every process on the store.
    ///
    /// The service counts a request when it arrives, not when it leaves, so a
    /// slot is held while its request is in flight (for at most `in_flight`,
    /// after which a crashed holder's slot is dated as if answered then), and
    /// counts for a window from its answer
    /// ([`settle_slot`](Self::settle_slot)). The slot's id is returned.
    fn take_slot<'a>(
        &'a self,
        scope: &'a Scope,
        operation: &'a str,
        figure: i64,
        window: Duration,
        in_flight: Duration,
    ) -> StoreFuture<'a, Result<String, Duration>>;

    /// The request of slot `id` was answered: the slot counts for `window`
    /// from now.
    fn settle_slot<'a>(
        &'a self,
        scope: &'a Scope,
        operation: &'a str,
        id: &'a str,
        window: Duration,
    ) -> StoreFuture<'a, ()>;
}

/// How long a caller waits before asking for a slot again when every slot is
/// held by a request still in flight (when one is answered is not known): a
/// tenth of the window, within 10 ms and 1 s.
#[cfg(any(feature = "sqlite", feature = "redis"))]
pub(crate) fn poll_interval(window: Duration) -> Duration {
    (window / 10).clamp(Duration::from_millis(10), Duration::from_secs(1))
}

/// A new slot id: random, so that two processes never pick the same one.
#[cfg(any(feature = "sqlite", feature = "redis"))]
pub(crate) fn slot_id() -> String {
    format!("{:016x}{:016x}", fastrand::u64(..), fastrand::u64(..))
}

/// How long to wait for a slot of a full window whose slots are `(settled,
/// until_ms)`: until the first answered one frees, or a poll interval while
/// every one is in flight.
#[cfg(feature = "sqlite")]
pub(crate) fn wait_for(
    slots: impl Iterator<Item = (bool, i64)>,
    now: i64,
    window: Duration,
) -> Duration {
    let first_free = slots
        .filter(|(settled, _)| *settled)
        .map(|(_, until)| until)
        .min();
    match first_free {
        Some(until) => Duration::from_millis(u64::try_from((until - now).max(1)).unwrap_or(1))
            .min(window.max(Duration::from_millis(1))),
        None => poll_interval(window),
    }
}
