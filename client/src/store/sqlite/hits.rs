//! Cache hits' ledger rows, written in batches.
//!
//! A hit sends nothing and costs nothing; its ledger row only says which
//! units it saved. Written one by one, each would be a transaction of its own
//! and make a hit several times slower than the read that answers it. So hit
//! rows wait here and are written together: [`FLUSH_AFTER`] after the first of
//! them, or at once when [`FLUSH_AT`] are waiting, before the ledger is read
//! for `usage`, and when the store is dropped. A process killed (`kill -9`)
//! loses the hits of its last second at most: rows of units saved, never of
//! units spent (every call that reached the service is written before its
//! answer is returned).

use std::mem;
use std::sync::Mutex;
use std::time::Duration;

use crate::store::{LedgerEntry, Scope};

/// How long a hit's row may wait to be written.
pub(super) const FLUSH_AFTER: Duration = Duration::from_secs(1);

/// How many rows may wait before they are written at once.
pub(super) const FLUSH_AT: usize = 256;

/// Hit rows not yet written, and whether a write of them is on its way.
#[derive(Debug, Default)]
pub(super) struct PendingHits {
    state: Mutex<HitRows>,
}

/// The rows waiting, and whether their write is scheduled.
#[derive(Debug, Default)]
struct HitRows {
    rows: Vec<(Scope, LedgerEntry)>,
    flush_scheduled: bool,
}

/// What adding a row asks of the caller.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Next {
    /// Nothing: a write is already on its way.
    Nothing,
    /// Schedule a write [`FLUSH_AFTER`] from now.
    Schedule,
    /// Write these rows now.
    Write(Vec<(Scope, LedgerEntry)>),
}

impl PendingHits {
    fn state(&self) -> std::sync::MutexGuard<'_, HitRows> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keep a hit's row until the next write.
    pub(super) fn add(&self, scope: Scope, entry: LedgerEntry) -> Next {
        let mut state = self.state();
        state.rows.push((scope, entry));
        if state.rows.len() >= FLUSH_AT {
            return Next::Write(mem::take(&mut state.rows));
        }
        if mem::replace(&mut state.flush_scheduled, true) {
            Next::Nothing
        } else {
            Next::Schedule
        }
    }

    /// The rows waiting, taken to be written; a scheduled write that finds
    /// none has nothing to do.
    pub(super) fn take(&self) -> Vec<(Scope, LedgerEntry)> {
        let mut state = self.state();
        state.flush_scheduled = false;
        mem::take(&mut state.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(n: i64) -> LedgerEntry {
        LedgerEntry {
            at_ms: n,
            group: "g".into(),
            action: "a".into(),
            db: "it".into(),
            items: 1,
            rows: 1,
            units_used: 0,
            balance: None,
            cache_hit: true,
            units_saved: n,
            hold: None,
            drift: Vec::new(),
        }
    }

    #[test]
    fn the_first_row_schedules_a_write_and_a_full_batch_is_written_at_once() {
        let pending = PendingHits::default();
        let scope = Scope("s".into());
        assert_eq!(pending.add(scope.clone(), hit(0)), Next::Schedule);
        for n in 1..FLUSH_AT - 1 {
            assert_eq!(pending.add(scope.clone(), hit(n as i64)), Next::Nothing);
        }
        let Next::Write(rows) = pending.add(scope.clone(), hit(99)) else {
            panic!("a full batch is not written");
        };
        assert_eq!(rows.len(), FLUSH_AT);
        assert_eq!(rows.last().unwrap().1.units_saved, 99, "in the order added");
        // The write still scheduled finds nothing and clears the schedule.
        assert!(pending.take().is_empty());
        assert_eq!(pending.add(scope, hit(1)), Next::Schedule);
        assert_eq!(pending.take().len(), 1);
    }
}
