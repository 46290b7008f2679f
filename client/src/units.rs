//! Units: the running ledger a client keeps, the cost estimate of a request
//! before it is sent, and the budget guard. All figures come from the operation
//! table; nothing here names an action.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use crate::error::{Error, ErrorKind};
use crate::table::{Charged, Operation, Role};

/// The cost range of a request, from the spec's figures, before it is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    /// The least it may cost (no rows returned, or the single per-call figure).
    pub min: i64,
    /// The most it may cost; `i64::MAX` when the cost is unknown.
    pub max: i64,
    /// The spec gives no unit cost for (some of) the requests: the range says
    /// nothing, and no budget can cover them.
    pub unknown: bool,
}

impl Estimate {
    /// Nothing: the start of a sum.
    pub const ZERO: Estimate = Estimate::range(0, 0);

    /// A request whose cost the spec does not know.
    pub const UNKNOWN: Estimate = Estimate {
        min: 0,
        max: i64::MAX,
        unknown: true,
    };

    /// A known range.
    pub const fn range(min: i64, max: i64) -> Estimate {
        Estimate {
            min,
            max,
            unknown: false,
        }
    }

    /// The sum of two estimates (for a job of several requests); unknown when
    /// either is.
    pub fn plus(self, other: Estimate) -> Estimate {
        Estimate {
            min: self.min.saturating_add(other.min),
            max: self.max.saturating_add(other.max),
            unknown: self.unknown || other.unknown,
        }
    }
}

impl std::fmt::Display for Estimate {
    /// `10..200 units`, or `unknown (the spec gives no unit cost)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.unknown {
            f.write_str("unknown (the reference prints no unit cost)")
        } else {
            write!(f, "{}..{} units", self.min, self.max)
        }
    }
}

/// Most rows a validated request can return: the smallest of the number of list
/// items, the page size (the parameter with the `page_size` role), and the
/// per-request figure itself.
fn max_rows(op: &Operation, query: &[(&'static str, String)], separator: char) -> i64 {
    let mut rows = op.cost.per_request.value;
    for param in op.params {
        let Some((_, value)) = query.iter().find(|(wire, _)| *wire == param.wire) else {
            continue;
        };
        if param.list {
            rows = rows.min(value.matches(separator).count() as i64 + 1);
        }
        if param.role == Some(Role::PageSize) {
            rows = rows.min(value.parse().unwrap_or(rows));
        }
    }
    rows.max(0)
}

/// The cost range of a validated request (its query pairs).
///
/// - Per call: the printed figure, whatever the rows.
/// - Per row, one figure: 0 (nothing found) to figure x most rows.
/// - Per row, two figures (their reading is not shown): low x 0 to high x (most
///   rows + 1), which covers both "high per row" and "high per call plus low per row".
pub(crate) fn estimate(
    op: &Operation,
    query: &[(&'static str, String)],
    separator: char,
) -> Estimate {
    let low = op.cost.units.iter().copied().min().unwrap_or(0);
    let high = op.cost.units.iter().copied().max().unwrap_or(0);
    match op.cost.charged {
        Charged::Unknown => Estimate::UNKNOWN,
        Charged::PerCall => Estimate::range(low, high),
        _ => {
            let rows = max_rows(op, query, separator);
            let rows = if op.cost.units.len() > 1 {
                rows + 1
            } else {
                rows
            };
            Estimate::range(0, high.saturating_mul(rows))
        }
    }
}

/// What a client has spent, as the service reported it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Units {
    /// Units charged by all calls so far (sum of `UnitsUsed`; a negative
    /// figure counts as 0, so that it frees no budget).
    pub used: i64,
    /// `UnitsRemaining` of the latest answer, if any call has reported one.
    pub remaining: Option<i64>,
    /// Calls answered with an envelope.
    pub calls: u64,
}

#[derive(Debug, Default)]
struct LedgerState {
    units: Units,
    /// Maximum estimates of calls in flight, held against the budget.
    reserved: i64,
}

/// The ledger shared by all clones of a client.
#[derive(Debug, Default)]
pub(crate) struct Ledger {
    state: Mutex<LedgerState>,
    budget: Option<i64>,
}

impl Ledger {
    pub(crate) fn new(budget: Option<i64>) -> Self {
        Ledger {
            state: Mutex::default(),
            budget,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LedgerState> {
        // A panic while holding the lock cannot leave the numbers half-updated.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn snapshot(&self) -> Units {
        self.lock().units
    }

    pub(crate) fn budget(&self) -> Option<i64> {
        self.budget
    }

    /// Hold `max` units against the budget for a call about to be sent, or refuse
    /// it. For a call of a job, as much of `max` as the job still holds is taken
    /// from its hold (already counted against the budget), and only the rest is
    /// held anew.
    pub(crate) fn reserve_in(
        &self,
        job: Option<&JobHold>,
        what: &str,
        max: i64,
    ) -> Result<Reservation<'_>, Error> {
        let mut state = self.lock();
        let held = job.map_or(0, |job| job.left(&state));
        let from_job = max.clamp(0, held);
        let extra = max - from_job;
        self.check(&state, what, max, held)?;
        state.reserved = state.reserved.saturating_add(extra);
        if let Some(job) = job {
            job.set_left(&mut state, held - from_job);
        }
        Ok(Reservation { ledger: self, max })
    }

    /// Hold a whole job's maximum estimate against the budget until the job ends,
    /// or refuse the job. Its calls take their reservations from the hold
    /// ([`reserve_in`](Self::reserve_in)), so other calls and jobs on this client
    /// and its clones cannot spend what the job was admitted with. Without a
    /// budget nothing is held.
    pub(crate) fn hold_job(self: &Arc<Self>, what: &str, max: i64) -> Result<JobHold, Error> {
        let mut state = self.lock();
        let held = match self.budget {
            Some(_) => {
                self.check(&state, what, max, 0)?;
                state.reserved = state.reserved.saturating_add(max);
                max
            }
            None => 0,
        };
        Ok(JobHold {
            ledger: Arc::clone(self),
            window: None,
            left: AtomicI64::new(held),
        })
    }

    /// Refuse a call or job whose cost is unknown when there is a budget: no
    /// budget can cover a cost nobody can bound.
    pub(crate) fn admit(&self, what: &str, estimate: Estimate) -> Result<(), Error> {
        match self.budget {
            Some(budget) if estimate.unknown => {
                Err(Error::new(what, ErrorKind::UnknownCost { budget }))
            }
            _ => Ok(()),
        }
    }

    /// Refuse a call or job of up to `max` units that would take the spending
    /// past the budget; `held` of them are already held for it (by its job).
    fn check(&self, state: &LedgerState, what: &str, max: i64, held: i64) -> Result<(), Error> {
        let Some(budget) = self.budget else {
            return Ok(());
        };
        // Saturating: the service's figures may be anything up to i64::MAX.
        let left = budget
            .saturating_sub(state.units.used)
            .saturating_sub(state.reserved)
            .saturating_add(held);
        if max > left {
            let kind = ErrorKind::OverBudget {
                estimate_max: max,
                budget_left: left.max(0),
                budget,
            };
            return Err(Error::new(what, kind));
        }
        Ok(())
    }

    fn record(&self, used: i64, remaining: Option<i64>) {
        let mut state = self.lock();
        // A negative charge from the service frees no budget.
        state.units.used = state.units.used.saturating_add(used.max(0));
        if remaining.is_some() {
            state.units.remaining = remaining;
        }
        state.units.calls += 1;
    }
}

/// Units held for a call in flight; released when it ends.
pub(crate) struct Reservation<'a> {
    ledger: &'a Ledger,
    max: i64,
}

impl Reservation<'_> {
    /// The call was answered with an envelope: record what it reported.
    pub(crate) fn settle(self, used: i64, remaining: Option<i64>) {
        self.ledger.record(used, remaining);
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        let mut state = self.ledger.lock();
        state.reserved = state.reserved.saturating_sub(self.max);
    }
}

/// The units a job was admitted with and has not yet handed to its calls, held
/// against the budget until the job ends (when this is dropped).
pub(crate) struct JobHold {
    ledger: Arc<Ledger>,
    /// The job's hold on the budget window in the store, if there is one.
    window: Option<crate::client::WindowHold>,
    /// Read and written only under the ledger's lock (the accessors take its
    /// state as proof), so that it and the ledger's `reserved` always change
    /// together; atomic only so that the hold can be shared.
    left: AtomicI64,
}

impl std::fmt::Debug for JobHold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobHold")
            .field("left", &self.left.load(Ordering::Relaxed))
            .field("window", &self.window_id())
            .finish()
    }
}

impl JobHold {
    /// The job's hold on the budget window, taken before it starts.
    pub(crate) fn with_window(mut self, window: Option<crate::client::WindowHold>) -> Self {
        self.window = window;
        self
    }

    /// The id of the job's hold on the budget window, if it has one.
    pub(crate) fn window_id(&self) -> Option<&str> {
        self.window.as_ref().map(|w| w.id.as_str())
    }

    fn left(&self, _ledger: &LedgerState) -> i64 {
        self.left.load(Ordering::Relaxed)
    }

    fn set_left(&self, _ledger: &mut LedgerState, left: i64) {
        self.left.store(left, Ordering::Relaxed);
    }
}

impl Drop for JobHold {
    fn drop(&mut self) {
        let mut state = self.ledger.lock();
        let left = self.left(&state);
        state.reserved = state.reserved.saturating_sub(left);
        self.set_left(&mut state, 0);
    }
}
