//! The running ledger a client keeps, and the budget guard: reservations of
//! calls in flight and the holds of jobs.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;

use super::estimate::{Estimate, Learned};
use crate::error::{Error, ErrorKind};

/// What a client has spent, as the service reported it (serialized with
/// these names; `remaining` `null` before any balance is known).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Units {
    /// Units charged by all calls so far (sum of `UnitsUsed`; a negative
    /// figure counts as 0, so that it frees no budget).
    pub used: i64,
    /// `UnitsRemaining` of the latest answer, if any call has reported one;
    /// else the last balance the store holds for the key, once a lookup of
    /// its cache has read it.
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
        job: Option<&BudgetHold>,
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
    pub(crate) fn hold_job(self: &Arc<Self>, what: &str, max: i64) -> Result<BudgetHold, Error> {
        let mut state = self.lock();
        let held = match self.budget {
            Some(_) => {
                self.check(&state, what, max, 0)?;
                state.reserved = state.reserved.saturating_add(max);
                max
            }
            None => 0,
        };
        Ok(BudgetHold {
            ledger: Arc::clone(self),
            learned: None,
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

    pub(crate) fn record(&self, used: i64, remaining: Option<i64>) {
        let mut state = self.lock();
        // A negative charge from the service frees no budget.
        state.units.used = state.units.used.saturating_add(used.max(0));
        if remaining.is_some() {
            state.units.remaining = remaining;
        }
        state.units.calls += 1;
    }
}

impl Ledger {
    /// What is left of the budget: less what was spent and what calls and
    /// jobs in flight hold; `None` without a budget.
    pub(crate) fn left(&self) -> Option<i64> {
        let state = self.lock();
        self.budget.map(|budget| {
            budget
                .saturating_sub(state.units.used)
                .saturating_sub(state.reserved)
                .max(0)
        })
    }

    /// The balance read from the store, when no call of this client has
    /// reported one yet.
    pub(crate) fn know_remaining(&self, remaining: i64) {
        let mut state = self.lock();
        if state.units.remaining.is_none() {
            state.units.remaining = Some(remaining);
        }
    }
}

/// Units held for a call in flight; released when it ends.
pub(crate) struct Reservation<'a> {
    ledger: &'a Ledger,
    max: i64,
}

impl Reservation<'_> {
    /// The call was answered: record what it reported.
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
pub(crate) struct BudgetHold {
    ledger: Arc<Ledger>,
    /// What the ledger had learned of the operation's charge when the job was
    /// estimated: its calls are estimated with the same figure, so that each
    /// fits the hold the job was admitted with (and the ledger is read once).
    learned: Option<Learned>,
    /// Read and written only under the ledger's lock (the accessors take its
    /// state as proof), so that it and the ledger's `reserved` always change
    /// together; atomic only so that the hold can be shared.
    left: AtomicI64,
}

impl std::fmt::Debug for BudgetHold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BudgetHold")
            .field("left", &self.left.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl BudgetHold {
    /// The figure the job was estimated with ([`BudgetHold::learned`]).
    pub(crate) fn with_learned(mut self, learned: Option<Learned>) -> Self {
        self.learned = learned;
        self
    }

    /// What the ledger had learned of the operation's charge when the job was
    /// estimated.
    pub(crate) fn learned(&self) -> Option<Learned> {
        self.learned
    }

    fn left(&self, _ledger: &LedgerState) -> i64 {
        self.left.load(Ordering::Relaxed)
    }

    fn set_left(&self, _ledger: &mut LedgerState, left: i64) {
        self.left.store(left, Ordering::Relaxed);
    }
}

impl Drop for BudgetHold {
    fn drop(&mut self) {
        let mut state = self.ledger.lock();
        let left = self.left(&state);
        state.reserved = state.reserved.saturating_sub(left);
        self.set_left(&mut state, 0);
    }
}
