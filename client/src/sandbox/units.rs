//! Units: what a request costs by the spec's figures, and the balance it is
//! charged against.

use std::sync::atomic::{AtomicI64, Ordering};

use crate::operation_table::Operation;
use crate::units::{UnitParts, unit_parts};

/// What the sandbox charges per row for an operation whose cost the spec does
/// not know: some figure has to stand for the service's.
pub(super) const UNKNOWN_COST_PER_ROW: i64 = 1;

/// What an answered request costs: the part per request of an operation
/// charged per call, or the highest figure per row times the rows returned
/// ([`unit_parts`]): one reading within the client's estimate, which adds the
/// part per request that the other reading of two figures may charge; an
/// operation whose cost is unknown, [`UNKNOWN_COST_PER_ROW`] per row.
pub(super) fn cost(op: &Operation, rows: i64) -> i64 {
    let rows = rows.max(0);
    match unit_parts(op) {
        None => UNKNOWN_COST_PER_ROW.saturating_mul(rows),
        Some(UnitParts {
            per_row: Some((_, high)),
            ..
        }) => high.saturating_mul(rows),
        Some(UnitParts { per_request, .. }) => per_request.unwrap_or(0),
    }
}

/// An account balance shared by every connection of a sandbox.
#[derive(Debug)]
pub(super) struct Account(AtomicI64);

impl Account {
    /// A balance holding `units`.
    pub(super) fn new(units: i64) -> Self {
        Account(AtomicI64::new(units))
    }

    /// Units left.
    pub(super) fn remaining(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }

    /// Take `units` if the balance covers them: the balance after, or `None`
    /// (and nothing taken) when it does not.
    pub(super) fn spend(&self, units: i64) -> Option<i64> {
        let units = units.max(0);
        self.0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| {
                (left >= units).then(|| left - units)
            })
            .ok()
            .map(|before| before - units)
    }
}

#[cfg(test)]
mod tests {
    use super::Account;

    #[test]
    fn spends_only_what_is_covered() {
        let balance = Account::new(100);
        assert_eq!(balance.spend(60), Some(40));
        assert_eq!(balance.spend(41), None);
        assert_eq!(balance.remaining(), 40);
        assert_eq!(balance.spend(40), Some(0));
        assert_eq!(balance.spend(0), Some(0));
    }
}
