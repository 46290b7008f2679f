//! What the stores that outlive a process (a SQLite file, a Redis server)
//! share in implementing the rate-limit slots shared by every process on
//! them ([`SharedSlots`](super::SharedSlots), declared with the `Backend`
//! trait in `backend`).
//!
//! A store of one process (`memory`, `none`) has no slots of its own
//! ([`Backend::shared_slots`](super::Backend::shared_slots) is `None`): its
//! client keeps the in-process limits of `crate::rate_limits`, the one
//! limiter of a process, which also stands in when a shared store fails.

use std::time::Duration;

/// How long a caller waits before asking for a slot again when every slot is
/// held by a request still in flight (when one is answered is not known): a
/// tenth of the window, within 10 ms and 1 s.
pub(crate) fn poll_interval(window: Duration) -> Duration {
    (window / 10).clamp(Duration::from_millis(10), Duration::from_secs(1))
}

/// A new slot id: random, so that two processes never pick the same one.
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
