//! Key-wide memory: the response cache, the ledger of calls, budget windows
//! and rate limits shared by every process on one key, kept in one [`Store`]
//! chosen by URL.
//!
//! | URL | Where | Shared by |
//! |---|---|---|
//! | `memory` (the default) | this process | the client and its clones |
//! | `none` | nowhere: nothing is remembered | nothing |
//! | `sqlite:PATH` (feature `sqlite`) | one SQLite file, in WAL mode, for the user alone | the processes of one machine |
//! | `redis://HOST:PORT/N` (feature `redis`) | one Redis database | processes on any machine |
//!
//! All state is kept under a fingerprint of the API key (a one-way hash):
//! two keys never share state, and no store ever holds the key itself.
//!
//! The store knows nothing of operations: the client hands it opaque cache
//! entries under text keys, ledger rows and slot requests, and decides
//! everything else (freshness, what to charge, what to cache) itself. Each
//! backend implements the (internal) `Backend` trait, and the stores shared
//! by processes also `SharedSlots` (both in `backend`); `conformance` holds the behaviour
//! every backend must show, run against each of them.

mod backend;
mod budget;
#[cfg(test)]
pub(crate) mod conformance;
#[cfg(feature = "sqlite")]
mod default_url;
mod entry;
#[cfg(feature = "sqlite")]
mod file_access;
#[cfg(any(feature = "sqlite", feature = "redis"))]
mod fingerprint;
mod handle;
mod memory;
#[cfg(feature = "redis")]
mod redis;
#[cfg(any(feature = "sqlite", feature = "redis"))]
mod slots;
#[cfg(feature = "sqlite")]
mod sqlite;

pub use crate::budget_window::BudgetWindow;
#[cfg(any(feature = "sqlite", feature = "redis", test))]
pub(crate) use backend::SharedSlots;
pub(crate) use backend::{
    Admission, Backend, CacheEntry, Hold, LedgerEntry, Lookup, Scope, StoreError, StoreFuture,
    now_ms,
};
pub use backend::{Balance, Usage};
pub use budget::{Budget, BudgetSyntaxError};
#[cfg(feature = "sqlite")]
pub use default_url::default_url;
pub(crate) use entry::CachedAnswer;
#[cfg(feature = "sqlite")]
pub use file_access::ReadableByOthers;
pub use handle::Store;
