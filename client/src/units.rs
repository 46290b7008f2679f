//! Units: the running ledger a client keeps, the cost estimate of a request
//! before it is sent, and the budget guard. All figures come from the operation
//! table; nothing here names an action.

use std::sync::Mutex;

use crate::error::Error;
use crate::table::{Charged, Operation, ParamKind, Source};

/// The cost range of a request, from the spec's figures, before it is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    /// The least it may cost (no rows returned, or the single per-call figure).
    pub min: i64,
    /// The most it may cost.
    pub max: i64,
}

impl Estimate {
    /// The sum of two estimates (for a job of several requests).
    pub fn plus(self, other: Estimate) -> Estimate {
        Estimate {
            min: self.min.saturating_add(other.min),
            max: self.max.saturating_add(other.max),
        }
    }
}

/// Most rows a validated request can return: the smallest of the number of list
/// items, any integer parameter whose maximum is the inferred per-request figure
/// (the `limit`), and the per-request figure itself.
fn max_rows(op: &Operation, query: &[(&'static str, String)], separator: char) -> i64 {
    let mut rows = op.cost.per_request.value;
    for param in op.params {
        let Some((_, value)) = query.iter().find(|(wire, _)| *wire == param.wire) else {
            continue;
        };
        if param.list {
            rows = rows.min(value.matches(separator).count() as i64 + 1);
        }
        let bounds_rows = param.max.is_some_and(|max| {
            max.source == Source::Inferred && max.value == op.cost.per_request.value
        });
        if param.kind == ParamKind::Integer && bounds_rows {
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
        Charged::PerCall => Estimate {
            min: low,
            max: high,
        },
        _ => {
            let rows = max_rows(op, query, separator);
            let rows = if op.cost.units.len() > 1 {
                rows + 1
            } else {
                rows
            };
            Estimate {
                min: 0,
                max: high.saturating_mul(rows),
            }
        }
    }
}

/// What a client has spent, as the service reported it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Units {
    /// Units charged by all calls so far (sum of `UnitsUsed`).
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

    /// Hold `max` units against the budget for a call about to be sent, or refuse it.
    pub(crate) fn reserve(&self, what: &str, max: i64) -> Result<Reservation<'_>, Error> {
        let mut state = self.lock();
        if let Some(budget) = self.budget {
            let left = budget - state.units.used - state.reserved;
            if max > left {
                return Err(Error::OverBudget {
                    operation: what.to_owned(),
                    estimate_max: max,
                    budget_left: left.max(0),
                    budget,
                });
            }
        }
        state.reserved += max;
        Ok(Reservation { ledger: self, max })
    }

    fn record(&self, used: i64, remaining: Option<i64>) {
        let mut state = self.lock();
        state.units.used = state.units.used.saturating_add(used);
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
        self.ledger.lock().reserved -= self.max;
    }
}
