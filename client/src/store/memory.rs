//! The stores of one process: [`Memory`] (the default) and [`Nothing`] (`none`).
//!
//! The memory ledger keeps totals per key, UTC day and operation rather than
//! every call, so that a long-lived process does not grow with its calls;
//! usage and budget windows start on a UTC day, so day totals answer both.
//!
//! Neither keeps rate-limit slots: a client on a store of one process counts
//! its requests with the process's own limiter (`crate::rate_limits`).

use futures_util::FutureExt;
use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Mutex, MutexGuard};

use super::backend::duration_ms;
use super::{
    Admission, Backend, Balance, CacheEntry, Hold, LedgerEntry, Lookup, Scope, StoreError,
    StoreFuture, Usage, now_ms,
};
use crate::drift::{DriftKey, Observation};
use crate::order::stable_order;

const DAY_MS: i64 = 86_400_000;

/// This process's memory.
#[derive(Default)]
pub(crate) struct Memory {
    /// Fingerprints are only compared within this process: a per-store random
    /// hash is enough, and keeps the key out of the state.
    hasher: RandomState,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Entry bytes and when they may be dropped (ms; `None`: never).
    cache: HashMap<(Scope, String), (Vec<u8>, Option<i64>)>,
    /// Totals per key, day and (group, action). Hash maps here, not ordered
    /// maps: a B-tree of each key type would be compiled into every build
    /// of the crate; what is read back in order is sorted when read.
    days: HashMap<(Scope, i64, String, String), Usage>,
    balance: HashMap<Scope, Balance>,
    /// Units and lease end (ms) of live holds.
    holds: HashMap<(Scope, String), (i64, i64)>,
    /// The drift observed, summed per key and thing observed.
    drift: HashMap<(Scope, DriftKey), Observation>,
}

impl Memory {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves whole values behind: each
        // method changes the state in one step.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn ready<'a, T: Send + 'a>(value: T) -> StoreFuture<'a, T> {
    std::future::ready(Ok(value)).boxed()
}

impl State {
    fn live_holds(&mut self, scope: &Scope, now: i64) -> i64 {
        self.holds.retain(|_, (_, until)| *until > now);
        self.holds
            .iter()
            .filter(|((s, _), _)| s == scope)
            .map(|(_, (units, _))| *units)
            .sum()
    }

    fn spent_since(&self, scope: &Scope, since_ms: i64) -> i64 {
        let first_day = since_ms.div_euclid(DAY_MS);
        self.days
            .iter()
            .filter(|((s, day, ..), _)| s == scope && *day >= first_day)
            .map(|(_, usage)| usage.units_used)
            .sum()
    }
}

impl Backend for Memory {
    fn name(&self) -> &str {
        "memory"
    }

    fn scope(&self, api_key: &str) -> Scope {
        Scope(format!("{:016x}", self.hasher.hash_one(api_key)))
    }

    fn cache_get<'a>(&'a self, scope: &'a Scope, keys: &'a [String]) -> StoreFuture<'a, Lookup> {
        let now = now_ms();
        let mut state = self.lock();
        let entries = keys
            .iter()
            .map(|key| {
                let slot = (scope.clone(), key.clone());
                match state.cache.get(&slot) {
                    Some((_, Some(until))) if *until <= now => {
                        state.cache.remove(&slot);
                        None
                    }
                    Some((bytes, _)) => Some(bytes.clone()),
                    None => None,
                }
            })
            .collect();
        let balance = state.balance.get(scope).copied();
        ready(Lookup { entries, balance })
    }

    fn cache_put<'a>(&'a self, scope: &'a Scope, entries: Vec<CacheEntry>) -> StoreFuture<'a, ()> {
        let now = now_ms();
        let mut state = self.lock();
        for (key, bytes, keep) in entries {
            let until = keep.map(|d| now.saturating_add(duration_ms(d)));
            state.cache.insert((scope.clone(), key), (bytes, until));
        }
        ready(())
    }

    fn record<'a>(&'a self, scope: &'a Scope, entry: LedgerEntry) -> StoreFuture<'a, ()> {
        let mut state = self.lock();
        let day = entry.at_ms.div_euclid(DAY_MS);
        let usage = state
            .days
            .entry((
                scope.clone(),
                day,
                entry.group.clone(),
                entry.action.clone(),
            ))
            .or_insert_with(|| Usage {
                group: entry.group.clone(),
                action: entry.action.clone(),
                calls: 0,
                cache_hits: 0,
                units_used: 0,
                units_saved: 0,
                rows: 0,
            });
        if entry.cache_hit {
            usage.cache_hits += 1;
            usage.units_saved = usage.units_saved.saturating_add(entry.units_saved);
        } else {
            usage.calls += 1;
            usage.units_used = usage.units_used.saturating_add(entry.units_used.max(0));
            usage.rows = usage.rows.saturating_add(entry.rows.max(0));
        }
        if let Some(units_remaining) = entry.balance {
            state.balance.insert(
                scope.clone(),
                Balance {
                    units_remaining,
                    at_ms: entry.at_ms,
                },
            );
        }
        if let Some((id, reserved)) = entry.hold
            && let Some((units, _)) = state.holds.get_mut(&(scope.clone(), id))
        {
            *units = (*units - reserved).max(0);
        }
        for observed in entry.drift {
            state
                .drift
                .entry((scope.clone(), observed.key()))
                .and_modify(|known| known.merge(&observed))
                .or_insert(observed);
        }
        ready(())
    }

    fn usage<'a>(&'a self, scope: &'a Scope, since_ms: i64) -> StoreFuture<'a, Vec<Usage>> {
        let first_day = since_ms.div_euclid(DAY_MS);
        let state = self.lock();
        let days: Vec<&Usage> = state
            .days
            .iter()
            .filter(|((s, day, ..), _)| s == scope && *day >= first_day)
            .map(|(_, usage)| usage)
            .collect();
        // Summed in operation order, not in a map keyed by operation:
        // another B-tree type would be compiled into every build of the crate.
        let order = stable_order(days.len(), &mut |a, b| {
            (&days[a].group, &days[a].action).cmp(&(&days[b].group, &days[b].action))
        });
        let mut totals: Vec<Usage> = Vec::new();
        for usage in order.into_iter().map(|i| days[i]) {
            match totals.last_mut() {
                Some(total) if total.group == usage.group && total.action == usage.action => {
                    add_usage(total, usage);
                }
                _ => {
                    let mut total = Usage {
                        calls: 0,
                        cache_hits: 0,
                        units_used: 0,
                        units_saved: 0,
                        rows: 0,
                        ..usage.clone()
                    };
                    add_usage(&mut total, usage);
                    totals.push(total);
                }
            }
        }
        ready(totals)
    }

    fn last_balance<'a>(&'a self, scope: &'a Scope) -> StoreFuture<'a, Option<Balance>> {
        ready(self.lock().balance.get(scope).copied())
    }

    fn drift<'a>(&'a self, scope: &'a Scope) -> StoreFuture<'a, Vec<Observation>> {
        let state = self.lock();
        let observed: Vec<&Observation> = state
            .drift
            .iter()
            .filter(|((s, _), _)| s == scope)
            .map(|(_, observed)| observed)
            .collect();
        // In the order reports list them (origin, operation, record,
        // member, kind); each is the only one of its key.
        let order = stable_order(observed.len(), &mut |a, b| {
            drift_order(observed[a]).cmp(&drift_order(observed[b]))
        });
        ready(order.into_iter().map(|i| observed[i].clone()).collect())
    }

    fn admit<'a>(&'a self, scope: &'a Scope, hold: Hold) -> StoreFuture<'a, Admission> {
        let now = now_ms();
        let mut state = self.lock();
        let held = state.live_holds(scope, now);
        let spent = state.spent_since(scope, hold.window_start_ms);
        let admission = if spent.saturating_add(held).saturating_add(hold.units) > hold.budget {
            Admission::Refused { spent, held }
        } else {
            let until = now.saturating_add(duration_ms(hold.lease));
            state
                .holds
                .insert((scope.clone(), hold.id), (hold.units, until));
            Admission::Admitted
        };
        ready(admission)
    }

    fn release<'a>(&'a self, scope: &'a Scope, hold_id: &'a str) -> StoreFuture<'a, ()> {
        self.lock()
            .holds
            .remove(&(scope.clone(), hold_id.to_owned()));
        ready(())
    }
}

/// What orders the drift read back: origin, group, action, record, member,
/// kind (an [`Observation::key`] without copies).
fn drift_order(o: &Observation) -> (&str, &str, &str, &str, &str, crate::drift::DriftKind) {
    (&o.origin, &o.group, &o.action, &o.record, &o.member, o.kind)
}

/// `usage`'s counts added to `total`'s.
fn add_usage(total: &mut Usage, usage: &Usage) {
    total.calls += usage.calls;
    total.cache_hits += usage.cache_hits;
    total.units_used = total.units_used.saturating_add(usage.units_used);
    total.units_saved = total.units_saved.saturating_add(usage.units_saved);
    total.rows = total.rows.saturating_add(usage.rows);
}

/// The `none` store: remembers nothing.
pub(crate) struct Nothing;

impl Backend for Nothing {
    fn name(&self) -> &str {
        "none"
    }

    fn scope(&self, _api_key: &str) -> Scope {
        Scope(String::new())
    }

    fn cache_get<'a>(&'a self, _scope: &'a Scope, keys: &'a [String]) -> StoreFuture<'a, Lookup> {
        ready(Lookup {
            entries: vec![None; keys.len()],
            balance: None,
        })
    }

    fn cache_put<'a>(
        &'a self,
        _scope: &'a Scope,
        _entries: Vec<CacheEntry>,
    ) -> StoreFuture<'a, ()> {
        ready(())
    }

    fn record<'a>(&'a self, _scope: &'a Scope, _entry: LedgerEntry) -> StoreFuture<'a, ()> {
        ready(())
    }

    fn usage<'a>(&'a self, _scope: &'a Scope, _since_ms: i64) -> StoreFuture<'a, Vec<Usage>> {
        ready(Vec::new())
    }

    fn last_balance<'a>(&'a self, _scope: &'a Scope) -> StoreFuture<'a, Option<Balance>> {
        ready(None)
    }

    fn drift<'a>(&'a self, _scope: &'a Scope) -> StoreFuture<'a, Vec<Observation>> {
        ready(Vec::new())
    }

    fn admit<'a>(&'a self, _scope: &'a Scope, _hold: Hold) -> StoreFuture<'a, Admission> {
        std::future::ready(Err(StoreError::new(
            "none",
            "a budget per day or month needs a store that remembers: use `memory`, `sqlite:PATH` or `redis://...`",
        )))
        .boxed()
    }

    fn release<'a>(&'a self, _scope: &'a Scope, _hold_id: &'a str) -> StoreFuture<'a, ()> {
        ready(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn memory_behaves_as_every_store_must() {
        super::super::conformance::check(&Memory::default()).await;
    }

    /// One limiter per process: a client on a store of one process counts
    /// its requests with the process's own (`crate::rate_limits`).
    #[test]
    fn stores_of_one_process_keep_no_rate_limit_slots() {
        assert!(Memory::default().shared_slots().is_none());
        assert!(Nothing.shared_slots().is_none());
    }

    #[tokio::test]
    async fn nothing_remembers_nothing() {
        let store = Nothing;
        let scope = store.scope("key");
        let keys = vec!["k".to_owned()];
        store
            .cache_put(&scope, vec![("k".into(), b"x".to_vec(), None)])
            .await
            .unwrap();
        assert_eq!(
            store.cache_get(&scope, &keys).await.unwrap().entries,
            [None]
        );
        assert!(store.usage(&scope, 0).await.unwrap().is_empty());
    }
}
