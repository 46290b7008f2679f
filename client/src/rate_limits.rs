//! Client-side rate limits per operation, from the spec's requests-per-minute
//! figures: the one limiter of a process, shared by a client and its clones.
//! A store shared by processes counts slots across them instead
//! (`store::slots`), with this limiter standing in when that store fails.
//! (Whether a failed attempt is tried again is `retry`'s decision.)
//!
//! The figures hold in any rolling window, as a service that counts a rolling
//! minute counts them: the limiter remembers the requests of the last window,
//! and a request leaves only while fewer than the figure did. (A token bucket
//! with a burst of the whole figure lets up to twice the figure, less one,
//! leave in the first minute.)
//!
//! A request holds its slot from when it leaves until a window after its
//! answer came back. The service counts a request when it arrives, somewhere
//! between the two; dating the slot by the answer keeps any window the service
//! counts within the figure, however long a request took to get there (a new
//! connection, a busy machine). Dating it by the departure would let a request
//! that arrived late share a window with the next window's first ones.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::error::{Error, ErrorKind};
use crate::operation_table::Operation;
use crate::wait::{WaitCause, Waits};

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

/// The slots of one operation's window.
struct Window {
    figure: i64,
    slots: Mutex<Slots>,
}

/// The requests that count in a window: each until a window after its answer
/// (`Some`), or for as long as it is in flight (`None`).
#[derive(Default)]
struct Slots {
    next_id: u64,
    held: Vec<(u64, Option<Instant>)>,
}

impl Window {
    fn lock(&self) -> std::sync::MutexGuard<'_, Slots> {
        // A poisoned lock only means another thread panicked while holding it;
        // the times in it are still times.
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Take a slot at `now` (its id), or say how long to wait before asking
    /// again: until the first held slot frees, or a whole window when every
    /// one is in flight (an answer may come back meanwhile).
    fn try_take(&self, now: Instant, window: Duration) -> Result<u64, Duration> {
        let mut slots = self.lock();
        slots
            .held
            .retain(|(_, until)| until.is_none_or(|t| t > now));
        if (slots.held.len() as i64) < self.figure {
            let id = slots.next_id;
            slots.next_id += 1;
            slots.held.push((id, None));
            return Ok(id);
        }
        let first_free = slots.held.iter().filter_map(|(_, until)| *until).min();
        Err(first_free.map_or(window, |t| t.saturating_duration_since(now)))
    }

    /// The request of slot `id` got its answer at `at`: it counts a window more.
    fn release(&self, id: u64, at: Instant, window: Duration) {
        let mut slots = self.lock();
        if let Some(slot) = slots.held.iter_mut().find(|(held, _)| *held == id) {
            slot.1 = Some(at + window);
        }
    }
}

/// A request's place in its operation's window, from when it leaves until it
/// is dropped (when its answer came back, or it failed or was abandoned): the
/// slot then counts for one more window.
pub(crate) struct Slot<'a> {
    held: Option<(&'a Window, u64, Duration)>,
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        if let Some((window, id, length)) = self.held {
            window.release(id, Instant::now(), length);
        }
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
                let held = Vec::with_capacity(figure.clamp(1, 1024) as usize);
                let slots = Mutex::new(Slots { next_id: 0, held });
                ((op.group, op.action), Window { figure, slots })
            })
            .collect();
        RateLimits {
            mode,
            window,
            windows,
        }
    }

    /// What the client does when a figure is used up.
    pub(crate) fn mode(&self) -> RateLimitMode {
        self.mode
    }

    /// The period the figures apply to.
    pub(crate) fn window(&self) -> Duration {
        self.window
    }

    /// Take a slot for one request of `op`: wait for it, or refuse, per the
    /// mode. Hold it until the request's answer has come back.
    pub(crate) async fn acquire(
        &self,
        op: &Operation,
        waits: &mut Waits,
        attempt: u32,
    ) -> Result<Slot<'_>, Error> {
        let free = Slot { held: None };
        if self.mode == RateLimitMode::Off {
            return Ok(free);
        }
        let Some(window) = self.windows.get(&(op.group, op.action)) else {
            return Ok(free);
        };
        loop {
            let wait = match window.try_take(Instant::now(), self.window) {
                Ok(id) => {
                    return Ok(Slot {
                        held: Some((window, id, self.window)),
                    });
                }
                Err(wait) => wait,
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
            let reason = format!("{} requests a minute", window.figure);
            waits
                .wait(wait, WaitCause::RateLimit, &reason, attempt)
                .await?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(figure: i64) -> Window {
        Window {
            figure,
            slots: Mutex::new(Slots::default()),
        }
    }

    /// Take a slot at `at` whose answer comes back at once.
    fn sent(w: &Window, at: Instant, window: Duration) -> Result<(), Duration> {
        let id = w.try_take(at, window)?;
        w.release(id, at, window);
        Ok(())
    }

    #[test]
    fn a_full_window_frees_a_slot_when_its_oldest_request_is_a_window_old() {
        let minute = Duration::from_secs(60);
        let w = window(3);
        let start = Instant::now();
        for s in [0, 10, 20] {
            assert_eq!(sent(&w, start + Duration::from_secs(s), minute), Ok(()));
        }
        // Full: the next slot frees when the request sent at 0 s is a minute old.
        assert_eq!(
            sent(&w, start + Duration::from_secs(30), minute),
            Err(Duration::from_secs(30))
        );
        assert_eq!(
            sent(&w, start + Duration::from_secs(59), minute),
            Err(Duration::from_secs(1))
        );
        assert_eq!(sent(&w, start + Duration::from_secs(60), minute), Ok(()));
        // The one sent at 10 s still counts until 70 s.
        assert_eq!(
            sent(&w, start + Duration::from_secs(65), minute),
            Err(Duration::from_secs(5))
        );
    }

    /// A request counts from when it leaves until a window after its answer:
    /// one that took 5 s to be answered frees its slot at 65 s, not 60 s.
    #[test]
    fn a_slot_is_held_in_flight_and_dated_by_the_answer() {
        let minute = Duration::from_secs(60);
        let w = window(1);
        let start = Instant::now();
        let at = |s: u64| start + Duration::from_secs(s);
        let id = w.try_take(at(0), minute).unwrap();
        // In flight: no time is known yet, so a whole window is the wait.
        assert_eq!(w.try_take(at(3), minute), Err(minute));
        w.release(id, at(5), minute);
        assert_eq!(w.try_take(at(60), minute), Err(Duration::from_secs(5)));
        assert!(w.try_take(at(65), minute).is_ok());
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
        let mut times = Vec::new();
        let mut rng = fastrand::Rng::with_seed(11);
        while times.len() < 60 {
            match sent(&w, now, minute) {
                Ok(()) => {
                    times.push(now);
                    now += Duration::from_millis(rng.u64(0..4_000));
                }
                Err(wait) => {
                    assert!(wait > Duration::ZERO && wait <= minute, "{wait:?}");
                    now += wait;
                }
            }
        }
        for (i, &t) in times.iter().enumerate() {
            let within = times[i..]
                .iter()
                .take_while(|&&later| later.duration_since(t) < minute)
                .count();
            assert!(
                within as i64 <= figure,
                "{within} requests within a minute of request {i}"
            );
        }
        // And it does not hold back more than it must: the figure is reached.
        let first_minute = times
            .iter()
            .take_while(|&&t| t.duration_since(start) < minute)
            .count();
        assert_eq!(first_minute as i64, figure);
    }
}
