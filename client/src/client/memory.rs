//! A call's use of the store ([`crate::store`]): a fresh cached answer instead
//! of a request, the budget window's hold, the rate-limit slot shared by every
//! process on the key, and, once answered, the ledger row and the cache entry.
//!
//! Store failures before a request is sent refuse the call
//! ([`ErrorKind::Store`]); after it was answered they are logged and the
//! answer is returned all the same, since it was paid for.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::Client;
use super::call::Prepared;
use super::items;
use crate::Envelope;
use crate::client::InputOrder;
use crate::date::Date;
use crate::error::{Error, ErrorKind};
use crate::request::Request;
use crate::store::{
    Admission, BudgetWindow, CachedAnswer, Hold, LedgerEntry, Scope, Store, StoreError, now_ms,
};
use crate::table::{Fresh, Operation};
use crate::transport::{RateLimitMode, Slot};
use crate::units::Estimate;

/// How long a hold of a budget window lives unless its job renews it (each
/// recorded call does): a crashed job's hold is free again after this.
const HOLD_LEASE: Duration = Duration::from_secs(15 * 60);

/// How long an answer is cached: `None` when it is not cached at all.
pub(crate) type CacheFor = Option<Fresh>;

/// How long the store keeps an entry: a week past its freshness at least, so
/// that a caller who lengthens the time to live still finds it.
fn keep_for(fresh: Fresh) -> Option<Duration> {
    const AT_LEAST: Duration = Duration::from_secs(7 * 24 * 3600);
    match fresh {
        Fresh::For(ttl) => Some(ttl.max(AT_LEAST)),
        Fresh::ForGood => None,
    }
}

/// Whether an answer fetched at `fetched_at_ms` is still fresh at `now` (one
/// dated in the future, by a clock that was ahead, is not).
fn is_fresh(fresh: Fresh, fetched_at_ms: i64, now: i64) -> bool {
    let Ok(age) = u64::try_from(now.saturating_sub(fetched_at_ms)) else {
        return false;
    };
    fresh.holds_after(Duration::from_millis(age))
}

/// What the client's store settings are.
#[derive(Debug, Clone)]
pub(crate) struct Memory {
    pub store: Store,
    pub scope: Scope,
    /// Skip cache reads (answers are still cached).
    pub refresh: bool,
    /// The caller's time to live for live data, instead of the spec's.
    pub ttl: Option<Duration>,
    /// A budget per UTC day or month, kept in the store's ledger.
    pub window: Option<(i64, BudgetWindow)>,
    /// The longest a request may be in flight (connect and read timeouts):
    /// how long a shared rate-limit slot is held for a holder that never
    /// says its request was answered.
    pub in_flight: Duration,
}

/// A hold on the budget window, released when dropped (or by its lease, if
/// the process dies first).
pub(crate) struct WindowHold {
    store: Store,
    scope: Scope,
    pub(crate) id: String,
}

impl Drop for WindowHold {
    fn drop(&mut self) {
        let (store, scope, id) = (self.store.clone(), self.scope.clone(), self.id.clone());
        // Outside a runtime (a client dropped after its runtime), the lease
        // frees the hold instead.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Err(error) = store.backend().release(&scope, &id).await {
                    tracing::warn!(store = %error.store, error = %error.message, "cannot release a budget hold; its lease will");
                }
            });
        }
    }
}

impl Client {
    fn store_error(&self, what: &str, error: StoreError) -> Error {
        let error = Error::new(
            what,
            ErrorKind::Store {
                store: error.store,
                message: error.message,
            },
        );
        self.inner.key.hide(error)
    }

    /// How long an answer to this query of `op` stays fresh: the spec's
    /// freshness of the operation (for good, for a past day's history), with
    /// the caller's time to live for live data instead of the spec's.
    pub(crate) fn freshness(&self, op: &Operation, query: &[(&str, String)]) -> CacheFor {
        let today = Date::today_utc().to_string();
        match (op.fresh_for(query, &today), self.inner.memory.ttl) {
            (Fresh::ForGood, _) => Some(Fresh::ForGood),
            (Fresh::For(_), Some(Duration::ZERO)) => None,
            (Fresh::For(_), Some(ttl)) | (Fresh::For(ttl), None) => Some(Fresh::For(ttl)),
        }
    }

    /// Fresh cached answers for `keys`, in order, each checked whole; a damaged
    /// or foreign entry is left out and logged.
    pub(crate) async fn cached(
        &self,
        what: &str,
        keys: &[String],
        freshness: CacheFor,
    ) -> Result<Vec<Option<CachedAnswer>>, Error> {
        let memory = &self.inner.memory;
        let Some(fresh) = freshness.filter(|_| !memory.refresh) else {
            return Ok(vec![None; keys.len()]);
        };
        let found = memory
            .store
            .backend()
            .cache_get(&memory.scope, keys)
            .await
            .map_err(|e| self.store_error(what, e))?;
        let now = now_ms();
        Ok(found
            .into_iter()
            .zip(keys)
            .map(|(bytes, key)| {
                let answer = match CachedAnswer::decode(&bytes?, key) {
                    Ok(answer) => answer,
                    Err(why) => {
                        tracing::warn!(store = memory.store.name(), why, "ignoring a cache entry");
                        return None;
                    }
                };
                is_fresh(fresh, answer.fetched_at_ms, now).then_some(answer)
            })
            .collect())
    }

    /// The balance last reported on the key (the store's, else `fallback`).
    pub(crate) async fn balance_or(&self, fallback: i64) -> i64 {
        let memory = &self.inner.memory;
        match memory.store.backend().last_balance(&memory.scope).await {
            Ok(Some(balance)) => balance.units_remaining,
            Ok(None) => self.units().remaining.unwrap_or(fallback),
            Err(error) => {
                tracing::warn!(store = %error.store, error = %error.message, "cannot read the last balance");
                self.units().remaining.unwrap_or(fallback)
            }
        }
    }

    /// Record a cache hit in the ledger: `items` answered, `saved` units.
    pub(crate) async fn record_hit(
        &self,
        op: &Operation,
        db: &str,
        items: i64,
        rows: i64,
        saved: i64,
    ) {
        let entry = LedgerEntry {
            at_ms: now_ms(),
            group: op.group.to_owned(),
            action: op.action.to_owned(),
            db: db.to_owned(),
            items,
            rows,
            units_used: 0,
            balance: None,
            cache_hit: true,
            units_saved: saved,
            hold: None,
        };
        self.record(entry).await;
    }

    /// Record a call in the ledger; a failure is logged (the call was made).
    pub(crate) async fn record(&self, entry: LedgerEntry) {
        let memory = &self.inner.memory;
        if let Err(error) = memory.store.backend().record(&memory.scope, entry).await {
            tracing::warn!(store = %error.store, error = %error.message, "cannot record a call in the ledger");
        }
    }

    /// Keep answers in the cache; a failure is logged (the answers are
    /// returned all the same).
    pub(crate) async fn keep(&self, entries: Vec<(String, CachedAnswer)>, freshness: CacheFor) {
        let Some(fresh) = freshness.filter(|_| !entries.is_empty()) else {
            return;
        };
        let memory = &self.inner.memory;
        let keep_for = keep_for(fresh);
        let entries = entries
            .into_iter()
            .map(|(key, answer)| {
                let bytes = answer.encode(&key);
                (key, bytes, keep_for)
            })
            .collect();
        if let Err(error) = memory
            .store
            .backend()
            .cache_put(&memory.scope, entries)
            .await
        {
            tracing::warn!(store = %error.store, error = %error.message, "cannot keep an answer in the cache");
        }
    }

    /// The per-item cache entries of a batched answer, when it can be cut.
    pub(crate) fn item_entries(
        &self,
        order: &InputOrder,
        item_keys: &[String],
        body: &[u8],
        fetched_at_ms: i64,
        units_remaining: i64,
    ) -> Vec<(String, CachedAnswer)> {
        let Some(items) = items::split(self.inner.service, order, item_keys.len(), body) else {
            return Vec::new();
        };
        items
            .into_iter()
            .filter_map(|item| {
                let key = item_keys.get(item.index)?.clone();
                let answer = CachedAnswer {
                    fetched_at_ms,
                    units_used: item.units_used,
                    units_remaining,
                    body: item.body,
                };
                Some((key, answer))
            })
            .collect()
    }

    /// Hold the maximum of `estimate` in the budget window, if there is one,
    /// or refuse.
    pub(crate) async fn hold_window(
        &self,
        what: &str,
        estimate: Estimate,
    ) -> Result<Option<WindowHold>, Error> {
        let memory = &self.inner.memory;
        let Some((budget, window)) = memory.window else {
            return Ok(None);
        };
        if estimate.unknown {
            return Err(Error::new(what, ErrorKind::UnknownCost { budget }));
        }
        let units = estimate.max;
        let id = format!("{:016x}{:016x}", fastrand::u64(..), fastrand::u64(..));
        let hold = Hold {
            id: id.clone(),
            units,
            budget,
            window_start_ms: window.start_ms(now_ms()),
            lease: HOLD_LEASE,
        };
        let admission = memory
            .store
            .backend()
            .admit(&memory.scope, hold)
            .await
            .map_err(|e| self.store_error(what, e))?;
        match admission {
            Admission::Admitted => Ok(Some(WindowHold {
                store: memory.store.clone(),
                scope: memory.scope.clone(),
                id,
            })),
            Admission::Refused { spent, held } => Err(Error::new(
                what,
                ErrorKind::OverWindowBudget {
                    estimate_max: units,
                    spent,
                    held,
                    budget,
                    window,
                },
            )),
        }
    }

    /// Take a rate-limit slot: shared by every process on the store, when the
    /// store shares them; else this process's. Hold it until the request's
    /// answer is in ([`settle_slot`](Self::settle_slot)).
    pub(crate) async fn take_slot(&self, op: &Operation) -> Result<Taken<'_>, Error> {
        let memory = &self.inner.memory;
        let limits = &self.inner.rate_limits;
        let figure = op.cost.requests_per_minute.value;
        if !memory.store.backend().shares_limits()
            || limits.mode() == RateLimitMode::Off
            || figure <= 0
        {
            return limits.acquire(op).await.map(Taken::Local);
        }
        let label = op.label();
        loop {
            let taken = memory
                .store
                .backend()
                .take_slot(
                    &memory.scope,
                    &label,
                    figure,
                    limits.window(),
                    memory.in_flight,
                )
                .await
                .map_err(|e| self.store_error(&label, e))?;
            let wait = match taken {
                Ok(id) => return Ok(Taken::Shared(id)),
                Err(wait) => wait,
            };
            if limits.mode() == RateLimitMode::Refuse {
                return Err(Error::new(
                    label,
                    ErrorKind::RateLimited {
                        per_minute: figure,
                        retry_in: wait,
                    },
                ));
            }
            tracing::debug!(operation = %label, wait_ms = wait.as_millis() as u64, "waiting for a shared rate-limit slot");
            tokio::time::sleep(wait).await;
        }
    }

    /// The request of a slot was answered (or failed): the slot counts for a
    /// window from now. A store failure here is logged; the slot then ends on
    /// its own, after its longest time in flight.
    pub(crate) async fn settle_slot(&self, op: &Operation, taken: Taken<'_>) {
        let id = match taken {
            Taken::Local(slot) => return drop(slot),
            Taken::Shared(id) => id,
        };
        let memory = &self.inner.memory;
        let window = self.inner.rate_limits.window();
        if let Err(error) = memory
            .store
            .backend()
            .settle_slot(&memory.scope, &op.label(), &id, window)
            .await
        {
            tracing::warn!(store = %error.store, error = %error.message, "cannot settle a rate-limit slot");
        }
    }
}

/// A rate-limit slot taken for one request.
pub(crate) enum Taken<'a> {
    /// This process's.
    Local(Slot<'a>),
    /// The store's, by id.
    Shared(String),
}

impl Client {
    /// A fresh cached answer to the request, if the cache has one.
    pub(crate) async fn cached_answer(
        &self,
        prepared: &Prepared,
        freshness: CacheFor,
    ) -> Result<Option<CachedAnswer>, Error> {
        let keys = [prepared.cache_key.clone()];
        let found = self.cached(&prepared.op.label(), &keys, freshness).await?;
        Ok(found.into_iter().next().flatten())
    }

    /// A cached answer as the call's result, decoded as the service's own
    /// would be, with nothing charged; the hit is recorded in the ledger. An
    /// answer that no longer decodes (the spec changed) is `None`: a miss.
    pub(crate) async fn serve_cached<T>(
        &self,
        request: &Request,
        prepared: &Prepared,
        answer: CachedAnswer,
        decoded: Result<Envelope<T>, Error>,
    ) -> Option<Envelope<T>> {
        let mut envelope = match decoded {
            Ok(envelope) => envelope,
            Err(error) => {
                tracing::warn!(%error, "ignoring a cache entry that no longer decodes");
                return None;
            }
        };
        envelope.units_used = 0;
        envelope.units_remaining = self.balance_or(answer.units_remaining).await;
        envelope.fetched_at = Some(time_of(answer.fetched_at_ms));
        self.record_hit(
            prepared.op,
            &prepared.database,
            items_of(request),
            envelope.result_rows,
            answer.units_used,
        )
        .await;
        Some(envelope)
    }

    /// An answered call: its ledger row (shrinking its budget hold), and its
    /// answer in the cache, whole and, for a batched operation, per item.
    pub(crate) async fn remember(
        &self,
        request: &Request,
        prepared: &Prepared,
        envelope: Figures,
        body: Vec<u8>,
        hold: Option<(String, i64)>,
        freshness: CacheFor,
    ) {
        let op = prepared.op;
        let now = now_ms();
        let balance = (!envelope.no_data).then_some(envelope.units_remaining);
        self.record(LedgerEntry {
            at_ms: now,
            group: op.group.to_owned(),
            action: op.action.to_owned(),
            db: prepared.database.clone(),
            items: items_of(request),
            rows: envelope.result_rows,
            units_used: envelope.units_used,
            balance,
            cache_hit: false,
            units_saved: 0,
            hold,
        })
        .await;
        if envelope.no_data || freshness.is_none() {
            return;
        }
        let mut entries = self.per_item_entries(request, &body, now, envelope.units_remaining);
        entries.push((
            prepared.cache_key.clone(),
            CachedAnswer {
                fetched_at_ms: now,
                units_used: envelope.units_used,
                units_remaining: envelope.units_remaining,
                body,
            },
        ));
        self.keep(entries, freshness).await;
    }

    /// The cache keys of each value of a batched request's batch parameter
    /// asked on its own, and the order to match rows to them; `None` for a
    /// request of one value or an operation that does not batch.
    pub(crate) fn item_keys(&self, request: &Request) -> Option<(Vec<String>, InputOrder)> {
        let op = request.operation();
        let param = op.batch_param()?;
        let values = request.get(param.wire)?;
        let keys = values
            .iter()
            .map(|value| {
                let mut one = request.clone();
                one.set(param.wire, vec![value.clone()]);
                Some(self.prepare(&one).ok()?.cache_key)
            })
            .collect::<Option<Vec<String>>>()?;
        let order = InputOrder::new(values, op.key_field(self.inner.records));
        Some((keys, order))
    }

    fn per_item_entries(
        &self,
        request: &Request,
        body: &[u8],
        now: i64,
        units_remaining: i64,
    ) -> Vec<(String, CachedAnswer)> {
        match self.item_keys(request) {
            Some((keys, order)) if keys.len() > 1 => {
                self.item_entries(&order, &keys, body, now, units_remaining)
            }
            _ => Vec::new(),
        }
    }
}

impl Client {
    /// The items of a batched request that the cache answers fresh, and the
    /// request for the others (`None` when the cache answers them all). A
    /// request of one item, or of an operation that does not batch, is
    /// returned as it is: the call's own lookup covers it.
    pub(crate) async fn cached_items(
        &self,
        request: Request,
        freshness: CacheFor,
    ) -> Result<(Option<Request>, Vec<CachedAnswer>), Error> {
        let op = request.operation();
        let mut request = request;
        if let Some(param) = op.batch_param() {
            let unique = super::batch::dedupe(request.get(param.wire).unwrap_or_default());
            request.set(param.wire, unique);
        }
        let (Some(param), Some((keys, _))) = (op.batch_param(), self.item_keys(&request)) else {
            return Ok((Some(request), Vec::new()));
        };
        if keys.len() < 2 {
            return Ok((Some(request), Vec::new()));
        }
        let found = self.cached(&op.label(), &keys, freshness).await?;
        let values = request.get(param.wire).unwrap_or_default();
        let mut rest = Vec::new();
        let mut hits = Vec::new();
        for (value, answer) in values.iter().zip(found) {
            match answer {
                Some(answer) => hits.push(answer),
                None => rest.push(value.clone()),
            }
        }
        if rest.is_empty() {
            return Ok((None, hits));
        }
        request.set(param.wire, rest);
        Ok((Some(request), hits))
    }
}

/// What the ledger and the cache keep of an envelope (not the envelope itself,
/// whose rows need not be shareable between threads).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Figures {
    pub no_data: bool,
    pub result_rows: i64,
    pub units_used: i64,
    pub units_remaining: i64,
}

impl<T> From<&Envelope<T>> for Figures {
    fn from(envelope: &Envelope<T>) -> Self {
        Figures {
            no_data: envelope.no_data,
            result_rows: envelope.result_rows,
            units_used: envelope.units_used,
            units_remaining: envelope.units_remaining,
        }
    }
}

/// The input items a request asks for: its batch parameter's values, else 1.
fn items_of(request: &Request) -> i64 {
    let op = request.operation();
    op.batch_param()
        .and_then(|p| request.get(p.wire))
        .map_or(1, |values| values.len() as i64)
}

/// `ms` since the epoch as a time.
pub(crate) fn time_of(ms: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}
