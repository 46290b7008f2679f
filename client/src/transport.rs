//! Client-side rate limits per operation, from the spec's requests-per-minute
//! figures. (Whether a failed attempt is tried again is `retry`'s decision.)

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

use crate::error::{Error, ErrorKind};
use crate::table::Operation;

/// What the client does when an operation's requests-per-minute figure is used up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum RateLimitMode {
    /// Wait for the next slot (the default).
    #[default]
    Wait,
    /// Refuse the call with [`ErrorKind::RateLimited`](crate::ErrorKind::RateLimited), sending nothing.
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
    pub(crate) fn new(
        operations: &[&'static Operation],
        mode: RateLimitMode,
        window: Duration,
    ) -> Self {
        let limiters = operations
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
                        return Err(Error::new(
                            op.label(),
                            ErrorKind::RateLimited {
                                per_minute: *figure,
                                retry_in: wait,
                            },
                        ));
                    }
                    tracing::debug!(operation = %op.label(), wait_ms = wait.as_millis() as u64, "waiting for a rate-limit slot");
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }
}
