//! The cache's part of a call: a fresh answer instead of a request (whole,
//! or item by item for a batched one), and the answers kept once received,
//! whole and per item. Freshness comes from the spec, per operation.

use std::time::Duration;

use super::{AnswerFigures, RowExtras, items_of, time_of};
use crate::client::output::Part;
use crate::client::prepared::Prepared;
use crate::client::{Client, InputOrder, Tell, items};
use crate::date::Date;
use crate::envelope::Envelope;
use crate::error::{Error, ErrorKind};
use crate::operation_table::{Fresh, Operation};
use crate::request::Request;
use crate::store::{CacheEntry, CachedAnswer, LedgerEntry, now_ms};

/// How long an answer is cached: `None` when it is not cached at all.
pub(crate) type CacheFor = Option<Fresh>;

/// Whether a cached answer says the service found nothing for its query: no
/// rows, and nothing charged for them. "No data found!" itself is never
/// cached, but an input's share of a batched answer is, and an input
/// without rows in a batch is what "No data found!" says of it asked alone:
/// so an answer from the cache is "no data" exactly when the same answer
/// fresh would be.
pub(crate) fn found_nothing<T>(envelope: &Envelope<T>, answer: &CachedAnswer) -> bool {
    envelope.result_rows == 0 && answer.units_used == 0
}

/// The error of a stored answer this build cannot read (a store written by
/// a build with another spec): it was paid for, so it is not bought again
/// behind the caller's back; the error says so and how to send it again on
/// purpose. Decoding from the store is as lenient as from the wire, so an
/// answer that decoded once decodes again.
pub(crate) fn unreadable_stored(error: Error) -> Error {
    const AGAIN: &str = "this answer is in the store, paid for, and this build cannot read it \
        (a store written by a build with another spec): nothing was sent; to buy it again on \
        purpose, refresh: `--refresh` (command line), `refresh=True` (Python), \
        `ClientBuilder::refresh(true)` (Rust)";
    tracing::warn!(%error, "a stored answer does not decode: nothing sent");
    let label = error.operation().map(str::to_owned).unwrap_or_default();
    let error = match error.into_kind() {
        ErrorKind::Decode {
            path,
            message,
            body,
            answer,
        } => {
            let message = format!("{message}; {AGAIN}");
            Error::new(
                label,
                ErrorKind::Decode {
                    path,
                    message,
                    body,
                    answer,
                },
            )
        }
        other => Error::new(label, other),
    };
    error.with_charge(crate::charge::Charge::None)
}

/// How long the store keeps a paid answer that could not be decoded, for a
/// client built from a fixed spec to decode at no cost (decided: a month is
/// time enough to notice the failure, fix the spec and rebuild).
const KEEP_UNDELIVERED: Duration = Duration::from_secs(30 * 24 * 3600);

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

impl Client {
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
    /// or foreign entry is left out and logged. Each answer's `units_remaining`
    /// is the balance to show: the last one reported on the key, read with
    /// the entries (else this process's, else the answer's own).
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
        let lookup = match memory.store.backend().cache_get(&memory.scope, keys).await {
            Ok(lookup) => lookup,
            Err(error) if memory.fallback => {
                tracing::warn!(store = %error.store, error = %error.message, "the store failed: no cache read for this call (store fallback)");
                return Ok(vec![None; keys.len()]);
            }
            Err(error) => return Err(self.store_error(what, error)),
        };
        let now = now_ms();
        // The store's last balance is this client's too when it knows none
        // (a run answered wholly from the cache).
        if let Some(stored) = lookup.balance {
            self.inner.ledger.know_remaining(stored.units_remaining);
        }
        let balance = lookup
            .balance
            .map(|b| b.units_remaining)
            .or(self.units().remaining);
        Ok(lookup
            .entries
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
                let answer = CachedAnswer {
                    units_remaining: balance.or(answer.units_remaining),
                    ..answer
                };
                // An answer kept undecoded was never delivered: it is the
                // answer to the call whatever its age, once it decodes.
                let fresh = answer.undelivered || is_fresh(fresh, answer.fetched_at_ms, now);
                fresh.then_some(answer)
            })
            .collect())
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
        let entry = self.hit_entry(op, db, items, rows, saved);
        self.record(entry).await
    }

    /// The ledger row of a cache hit: `items` answered, `saved` units.
    fn hit_entry(
        &self,
        op: &Operation,
        db: &str,
        items: i64,
        rows: i64,
        saved: i64,
    ) -> LedgerEntry {
        LedgerEntry {
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
            drift: Vec::new(),
        }
    }

    /// The cache entry that keeps a paid answer which could not be decoded
    /// (a JSON body: one that is not even that will never decode), under the
    /// call's own key.
    pub(crate) fn kept_undecoded(
        &self,
        prepared: &Prepared,
        body: &[u8],
        units_used: i64,
        units_remaining: Option<i64>,
    ) -> Vec<CacheEntry> {
        if serde_json::from_slice::<serde::de::IgnoredAny>(body).is_err() {
            return Vec::new();
        }
        let answer = CachedAnswer {
            fetched_at_ms: now_ms(),
            units_used,
            units_remaining: units_remaining.or(self.units().remaining),
            body: body.to_vec(),
            undelivered: true,
        };
        let bytes = answer.encode(&prepared.cache_key);
        vec![(prepared.cache_key.clone(), bytes, Some(KEEP_UNDELIVERED))]
    }

    /// Answers as the store keeps them: encoded, each with its keeping time.
    fn encoded(entries: Vec<(String, CachedAnswer)>, fresh: Fresh) -> Vec<CacheEntry> {
        let keep_for = keep_for(fresh);
        entries
            .into_iter()
            .map(|(key, answer)| {
                let bytes = answer.encode(&key);
                (key, bytes, keep_for)
            })
            .collect()
    }

    /// The per-item cache entries of a batched answer, when it can be cut.
    pub(crate) fn item_entries(
        &self,
        order: &InputOrder,
        item_keys: &[String],
        body: &[u8],
        fetched_at_ms: i64,
        units_remaining: Option<i64>,
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
                    undelivered: false,
                };
                Some((key, answer))
            })
            .collect()
    }

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
    /// would be, with nothing charged; the hit is recorded in the ledger and
    /// told to the caller's progress callback (`tell`).
    ///
    /// # Errors
    ///
    /// An answer this build cannot read ([`unreadable_stored`]).
    pub(crate) async fn serve_cached(
        &self,
        request: &Request,
        prepared: &Prepared,
        answer: CachedAnswer,
        decoded: Result<Envelope<Part>, Error>,
        tell: &Tell,
    ) -> Result<Envelope<Part>, Error> {
        let mut envelope = decoded.map_err(unreadable_stored)?;
        envelope.no_data |= found_nothing(&envelope, &answer);
        // Nothing charged now, and the balance is the one last reported.
        envelope.units_used = 0;
        envelope.units_remaining = answer.units_remaining;
        envelope.unreported = Default::default();
        let fetched_at = time_of(answer.fetched_at_ms);
        envelope.fetched_at = Some(fetched_at);
        self.record_cached_hit(request, prepared, answer, envelope.result_rows)
            .await;
        let items = usize::try_from(items_of(request)).unwrap_or(0);
        tell.cached(prepared.op, 1, items, fetched_at);
        Ok(envelope)
    }

    /// A cached answer served with `rows` rows, in the ledger (and, delivered
    /// now for the first time, in the cache as delivered).
    async fn record_cached_hit(
        &self,
        request: &Request,
        prepared: &Prepared,
        answer: CachedAnswer,
        rows: i64,
    ) {
        tracing::Span::current().record("cached", true);
        let items = items_of(request);
        if answer.undelivered {
            // Delivered now: from here on it is a cached answer like any other.
            tracing::info!(
                fetched_at_ms = answer.fetched_at_ms,
                "an answer kept because it could not be decoded decodes now: served at no cost"
            );
            let entry = self.hit_entry(
                prepared.op,
                &prepared.database,
                items,
                rows,
                answer.units_used,
            );
            let delivered = CachedAnswer {
                undelivered: false,
                ..answer
            };
            let bytes = delivered.encode(&prepared.cache_key);
            let fresh = self
                .freshness(prepared.op, &prepared.query)
                .unwrap_or(Fresh::ForGood);
            self.record_with(
                entry,
                vec![(prepared.cache_key.clone(), bytes, keep_for(fresh))],
            )
            .await;
        } else {
            self.record_hit(
                prepared.op,
                &prepared.database,
                items,
                rows,
                answer.units_used,
            )
            .await;
        }
    }

    /// An answered call: its ledger row (shrinking its budget hold, with the
    /// drift it saw), and its answer in the cache, whole and, for a batched
    /// operation, per item.
    pub(crate) async fn remember(
        &self,
        request: &Request,
        prepared: &Prepared,
        (envelope, body): (AnswerFigures, Vec<u8>),
        row: RowExtras,
        freshness: CacheFor,
    ) {
        let RowExtras { hold, drift } = row;
        let op = prepared.op;
        let now = now_ms();
        let balance = envelope.balance();
        let entry = LedgerEntry {
            at_ms: now,
            group: op.group.to_owned(),
            action: op.action.to_owned(),
            db: prepared.database.clone(),
            items: items_of(request),
            rows: envelope.result_rows,
            units_used: crate::client::accounting::row_units(envelope.charge()),
            balance,
            cache_hit: false,
            units_saved: 0,
            hold,
            drift,
        };
        // "No data" is not kept: the next call asks again.
        let answers = match freshness {
            Some(fresh) if !envelope.no_data => {
                let mut answers =
                    self.per_item_entries(request, &body, now, envelope.units_remaining);
                answers.push((
                    prepared.cache_key.clone(),
                    CachedAnswer {
                        fetched_at_ms: now,
                        units_used: envelope.units_used,
                        units_remaining: envelope.units_remaining,
                        body,
                        undelivered: false,
                    },
                ));
                Client::encoded(answers, fresh)
            }
            _ => Vec::new(),
        };
        let memory = &self.inner.memory;
        // One step where the store can: the row and the answers land together.
        if let Err(error) = memory
            .store
            .backend()
            .remember(&memory.scope, entry, answers)
            .await
        {
            tracing::warn!(store = %error.store, error = %error.message, "cannot record a call in the ledger or keep its answer in the cache");
        }
    }

    /// The cache keys of each value of a batched request's batch parameter
    /// asked on its own, and the order to match rows to them; `None` for an
    /// operation that does not batch, and for values that are not distinct
    /// inputs (a call sent as given with one input twice: whose rows are
    /// whose cannot be told).
    pub(crate) fn item_keys(&self, request: &Request) -> Option<(Vec<String>, InputOrder)> {
        let op = request.operation();
        let param = op.batch_param()?;
        let values = request.get(param.wire)?;
        if param.distinct(values).len() != values.len() {
            return None;
        }
        let keys = values
            .iter()
            .map(|value| {
                let mut one = request.clone();
                one.set(param.wire, vec![value.clone()]);
                Some(self.prepare(&one).ok()?.cache_key)
            })
            .collect::<Option<Vec<String>>>()?;
        let order = InputOrder::new(param, values, op.key_field(self.inner.records));
        Some((keys, order))
    }

    fn per_item_entries(
        &self,
        request: &Request,
        body: &[u8],
        now: i64,
        units_remaining: Option<i64>,
    ) -> Vec<(String, CachedAnswer)> {
        match self.item_keys(request) {
            Some((keys, order)) if keys.len() > 1 => {
                self.item_entries(&order, &keys, body, now, units_remaining)
            }
            _ => Vec::new(),
        }
    }

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
            let unique = param.distinct(request.get(param.wire).unwrap_or_default());
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

#[cfg(all(test, feature = "sandbox"))]
mod tests {
    use super::*;
    use crate::sandbox::Sandbox;
    use crate::store::Store;

    fn one() -> crate::client::RunOptions {
        crate::client::RunOptions::one_request()
    }

    /// A damaged entry, or one written under another key (a foreign one), is
    /// never returned: the call is sent.
    #[tokio::test]
    async fn a_damaged_or_foreign_entry_is_a_miss() {
        let sandbox = Sandbox::start().await.unwrap();
        let store = Store::memory();
        let client = Client::builder()
            .api_key(Sandbox::API_KEY)
            .base_url(sandbox.base_url())
            .store(store.clone())
            .build()
            .unwrap();
        let request = client.domains().authority(["a.it"]).request();
        let key = client.prepare(&request).unwrap().cache_key;
        let answer = CachedAnswer {
            fetched_at_ms: now_ms(),
            units_used: 10,
            units_remaining: Some(1),
            body: br#"{"ResultRows":0,"UnitsUsed":0,"UnitsRemaining":1,"response":[]}"#.to_vec(),
            undelivered: false,
        };
        let foreign = answer.encode("domains authority of another request");
        let mut damaged = answer.encode(&key);
        damaged[12] ^= 1;
        for (n, bytes) in [foreign, damaged].into_iter().enumerate() {
            let scope = &client.inner.memory.scope;
            store
                .backend()
                .cache_put(scope, vec![(key.clone(), bytes, None)])
                .await
                .unwrap();
            let envelope = client
                .run::<serde_json::Value>(request.clone(), one())
                .await;
            let envelope = envelope.unwrap().envelope;
            assert_eq!(envelope.fetched_at, None, "entry {n} was returned");
            assert_eq!(sandbox.requests(), n as u64 + 1);
        }
        // And the answer it then fetched is a hit.
        let hit = client.run::<serde_json::Value>(request, one()).await;
        let hit = hit.unwrap().envelope;
        assert!(hit.fetched_at.is_some());
        assert_eq!(sandbox.requests(), 2);
    }
}
