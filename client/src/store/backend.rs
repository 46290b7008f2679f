//! What every store backend implements (the internal [`Backend`] trait, and
//! [`SharedSlots`] for the stores shared by processes) and the types they
//! speak in, with the helpers the backends share.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::FutureExt;
use futures_util::future::BoxFuture;

use crate::drift::Observation;
use crate::error::{ConfigError, Error, ErrorKind, ErrorSource};

/// A store URL as it may be shown: a password (`redis://user:secret@host`)
/// hidden.
pub(crate) fn shown_store_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    match rest.split_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _password)) => format!("{scheme}://{user}:<hidden>@{host}"),
            None => format!("{scheme}://<hidden>@{host}"),
        },
        None => url.to_owned(),
    }
}

/// A store that failed: which one (its URL shown, never a password or the
/// API key), what it said, and the error it came from (I/O, SQLite, Redis).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoreError {
    pub(crate) store: String,
    pub(crate) message: String,
    pub(crate) source: Option<ErrorSource>,
}

impl StoreError {
    pub(crate) fn new(store: impl Into<String>, message: impl Into<String>) -> Self {
        StoreError {
            store: store.into(),
            message: message.into(),
            source: None,
        }
    }

    /// The same failure, come from `cause` (what the file and server stores
    /// fail with; the memory store fails with nothing of its own).
    #[cfg(any(feature = "sqlite", feature = "redis"))]
    pub(crate) fn caused_by(self, cause: impl std::error::Error + Send + Sync + 'static) -> Self {
        StoreError {
            source: Some(ErrorSource::new(cause)),
            ..self
        }
    }

    /// As a configuration error (a store that cannot be opened).
    pub(crate) fn into_error(self) -> Error {
        Error::from(ConfigError::Store {
            store: self.store,
            reason: self.message,
        })
        .with_source(self.source)
    }

    /// As the error of `what` (an operation, or a job), refused because the
    /// store failed.
    pub(crate) fn into_call_error(self, what: &str) -> Error {
        let kind = ErrorKind::Store {
            store: self.store,
            message: self.message,
        };
        Error::new(what, kind).with_source(self.source)
    }
}

/// The fingerprint of an API key, under which a store keeps that key's state.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Scope(pub(crate) String);

/// A future a backend returns.
pub(crate) type StoreFuture<'a, T> = BoxFuture<'a, Result<T, StoreError>>;

/// What a cache lookup finds, read at one moment: the entries asked for, in
/// order (`None` where there is none), and the balance last reported, which
/// an answer from the cache shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Lookup {
    pub entries: Vec<Option<Vec<u8>>>,
    pub balance: Option<Balance>,
}

/// A cache entry to keep: its key, its bytes, and how long to keep it
/// (`None`: for good).
pub(crate) type CacheEntry = (String, Vec<u8>, Option<Duration>);

/// One call recorded in the ledger: one that reached the service, or one
/// answered from the cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LedgerEntry {
    /// When, in milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// The operation's group and action (wire names).
    pub group: String,
    /// The operation's action.
    pub action: String,
    /// The database asked.
    pub db: String,
    /// Input items sent (values of the batch parameter; 1 for other calls).
    pub items: i64,
    /// Rows answered.
    pub rows: i64,
    /// Units the service charged (0 for a cache hit).
    pub units_used: i64,
    /// The balance the service reported, if it did.
    pub balance: Option<i64>,
    /// Answered from the cache, sending nothing.
    pub cache_hit: bool,
    /// Units a cache hit saved: what the answer cost when it was fetched.
    pub units_saved: i64,
    /// The budget hold the call was admitted under, and how many units of it
    /// the call had reserved: the hold shrinks by that much as the call is
    /// recorded (its units now counted in the ledger), in the same atomic step,
    /// and its lease is renewed.
    pub hold: Option<(String, i64)>,
    /// What the answer held that the spec does not say, added to the drift
    /// the store keeps in the same step (empty almost always: then nothing
    /// more is written).
    pub drift: Vec<Observation>,
}

/// What the ledger holds for one operation (serialized with these names:
/// the one form of a usage line in every face).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Usage {
    /// The operation's group (wire name).
    pub group: String,
    /// The operation's action (wire name).
    pub action: String,
    /// Calls that reached the service.
    pub calls: i64,
    /// Calls answered from the cache.
    pub cache_hits: i64,
    /// Units the service charged.
    pub units_used: i64,
    /// Units cache hits saved.
    pub units_saved: i64,
    /// Rows the calls that reached the service were answered with.
    pub rows: i64,
}

/// The balance the service last reported, and when (serialized with these
/// names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Balance {
    /// Units left on the account.
    pub units_remaining: i64,
    /// When it was reported, in milliseconds since the Unix epoch.
    pub at_ms: i64,
}

/// A job (or single call) asking to hold units of a budget window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hold {
    /// Unique among live holds (random).
    pub id: String,
    /// Units to hold: the job's maximum estimate.
    pub units: i64,
    /// The window's budget.
    pub budget: i64,
    /// Where the window starts (ms since the epoch): what the ledger holds
    /// from then on counts.
    pub window_start_ms: i64,
    /// How long the hold lives unless renewed (a crashed holder's hold
    /// expires after this).
    pub lease: Duration,
}

/// Whether a hold was admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Admission {
    /// Held: the units are the job's until it releases them.
    Admitted,
    /// Refused: what the window has spent and what other live holds hold.
    Refused {
        /// Units the ledger records in the window.
        spent: i64,
        /// Units live holds hold.
        held: i64,
    },
}

/// What every store does. Every method is atomic on its own; none takes or
/// sees the API key (only its [`Scope`]).
pub(crate) trait Backend: Send + Sync + 'static {
    /// How the store is shown in messages: its URL, any password hidden.
    fn name(&self) -> &str;

    /// The scope of an API key: a one-way fingerprint. Persistent stores use a
    /// cryptographic hash.
    fn scope(&self, api_key: &str) -> Scope;

    /// The rate-limit slots the store shares with every process on it;
    /// `None` for a store of one process, whose client keeps its limits in
    /// process (the default).
    fn shared_slots(&self) -> Option<&dyn SharedSlots> {
        None
    }

    /// The cache entries under `keys`, and the last balance, in one read.
    /// Entries are opaque bytes ([`CachedAnswer::encode`]); whether one is
    /// fresh is the client's decision.
    fn cache_get<'a>(&'a self, scope: &'a Scope, keys: &'a [String]) -> StoreFuture<'a, Lookup>;

    /// Keep cache entries. A later put under the same key replaces the entry.
    fn cache_put<'a>(&'a self, scope: &'a Scope, entries: Vec<CacheEntry>) -> StoreFuture<'a, ()>;

    /// Record a call (and shrink and renew its hold, if any). A store may
    /// write a cache hit's row a little later (in a batch), but before its
    /// [`usage`](Self::usage) reads the ledger.
    fn record<'a>(&'a self, scope: &'a Scope, entry: LedgerEntry) -> StoreFuture<'a, ()>;

    /// Record an answered call and keep its answers in the cache: one step
    /// where the store can make it one (SQLite: one transaction), else the two
    /// one after the other.
    fn remember<'a>(
        &'a self,
        scope: &'a Scope,
        entry: LedgerEntry,
        entries: Vec<CacheEntry>,
    ) -> StoreFuture<'a, ()> {
        async move {
            self.record(scope, entry).await?;
            if entries.is_empty() {
                return Ok(());
            }
            self.cache_put(scope, entries).await
        }
        .boxed()
    }

    /// What the ledger holds per operation from `since_ms` on, ordered by
    /// group and action.
    fn usage<'a>(&'a self, scope: &'a Scope, since_ms: i64) -> StoreFuture<'a, Vec<Usage>>;

    /// The balance last reported.
    fn last_balance<'a>(&'a self, scope: &'a Scope) -> StoreFuture<'a, Option<Balance>>;

    /// The drift recorded for the key, each observation summed over the calls
    /// that saw it, ordered by origin, operation, record, member and kind.
    fn drift<'a>(&'a self, scope: &'a Scope) -> StoreFuture<'a, Vec<Observation>>;

    /// Admit a hold if the window's spending, the live holds and it fit the
    /// budget; in one atomic step, so that parallel jobs cannot overspend.
    fn admit<'a>(&'a self, scope: &'a Scope, hold: Hold) -> StoreFuture<'a, Admission>;

    /// Give back what is left of a hold.
    fn release<'a>(&'a self, scope: &'a Scope, hold_id: &'a str) -> StoreFuture<'a, ()>;
}

/// Rate-limit slots counted across every process on the store. Every method
/// is atomic on its own; none takes or sees the API key (only its [`Scope`]).
pub(crate) trait SharedSlots: Send + Sync {
    /// Take a slot for one request of `operation`, or say how long to wait
    /// before asking again: at most `figure` requests in any rolling `window`,
    /// counted across every process on the store.
    ///
    /// The service counts a request when it arrives, not when it leaves, so a
    /// slot is held while its request is in flight (for at most `in_flight`,
    /// after which a crashed holder's slot is dated as if answered then), and
    /// counts for a window from its answer
    /// ([`settle_slot`](Self::settle_slot)). The slot's id is returned.
    fn take_slot<'a>(
        &'a self,
        scope: &'a Scope,
        operation: &'a str,
        figure: i64,
        window: Duration,
        in_flight: Duration,
    ) -> StoreFuture<'a, Result<String, Duration>>;

    /// The request of slot `id` was answered: the slot counts for `window`
    /// from now.
    fn settle_slot<'a>(
        &'a self,
        scope: &'a Scope,
        operation: &'a str,
        id: &'a str,
        window: Duration,
    ) -> StoreFuture<'a, ()>;
}

/// A duration in whole milliseconds, saturating.
pub(crate) fn duration_ms(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// Milliseconds since the Unix epoch, now.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_in_a_store_url_is_hidden() {
        assert_eq!(
            shown_store_url("redis://user:s3cret@localhost:6379/0"),
            "redis://user:<hidden>@localhost:6379/0"
        );
        assert_eq!(
            shown_store_url("redis://:s3cret@localhost/1"),
            "redis://:<hidden>@localhost/1"
        );
        assert_eq!(
            shown_store_url("redis://localhost:6379/0"),
            "redis://localhost:6379/0"
        );
    }
}
