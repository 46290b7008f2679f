//! The store a client is given: [`Store`], opened by URL.

use std::fmt;
use std::sync::Arc;

use super::backend::{Backend, StoreError, shown_store_url};
use crate::error::{ConfigError, Error};

/// Where a client keeps what outlives one call: chosen by URL
/// ([`Store::open`]), or [`Store::memory`] (the default) or [`Store::none`].
/// Cheap to clone; clones share the store.
#[derive(Clone)]
pub struct Store {
    backend: Arc<dyn Backend>,
    /// The file a SQLite store keeps its state in.
    #[cfg(feature = "sqlite")]
    file: Option<Arc<std::path::Path>>,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Store").field(&self.backend.name()).finish()
    }
}

impl Default for Store {
    fn default() -> Self {
        Store::memory()
    }
}

impl Store {
    /// Memory of this process only: a cache, a ledger and limits shared by a
    /// client and its clones (and by other clients given the same store), lost
    /// when the process ends.
    pub fn memory() -> Store {
        Store::of(super::memory::Memory::default())
    }

    /// No memory at all: nothing is cached or recorded. Rate limits still hold
    /// within the process; budgets per day or month cannot be kept.
    pub fn none() -> Store {
        Store::of(super::memory::Nothing)
    }

    /// A store of `backend`, kept in no file.
    fn of(backend: impl Backend) -> Store {
        Store {
            backend: Arc::new(backend),
            #[cfg(feature = "sqlite")]
            file: None,
        }
    }

    /// The store a URL names: `memory`, `none`, `sqlite:PATH` or
    /// `redis://HOST:PORT/N`. A SQLite file is created on first use, with its
    /// directory, for the user alone (`0600` and `0700` on Unix); a file that
    /// exists keeps its permissions ([`readable_by_others`](Self::readable_by_others)
    /// says when others may read it). A Redis server is connected to when
    /// first needed.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Config`](crate::error::ErrorKind::Config)
    /// ([`ConfigError::Store`](crate::error::ConfigError::Store)) for a URL of no known kind,
    /// or of a kind whose feature (`sqlite`, `redis`) is not built, or a SQLite file that
    /// cannot be opened.
    pub fn open(url: &str) -> Result<Store, Error> {
        let url = url.trim();
        match url {
            "memory" => return Ok(Store::memory()),
            "none" => return Ok(Store::none()),
            _ => {}
        }
        let unusable = |reason: &str| ConfigError::Store {
            store: shown_store_url(url),
            reason: reason.to_owned(),
        };
        if let Some(path) = url.strip_prefix("sqlite:") {
            if path.is_empty() {
                return Err(unusable("no file path after `sqlite:`").into());
            }
            return open_sqlite(path).map_err(|e| e.into_error());
        }
        if url.starts_with("redis://") || url.starts_with("rediss://") {
            return open_redis(url).map_err(|e| e.into_error());
        }
        Err(unusable(
            "not a store URL: use `memory`, `none`, `sqlite:PATH` or `redis://HOST:PORT/N`",
        )
        .into())
    }

    /// How the store is shown in messages: its URL, any password hidden.
    pub fn name(&self) -> &str {
        self.backend.name()
    }

    pub(crate) fn backend(&self) -> &dyn Backend {
        &*self.backend
    }

    /// The store's files that users other than their owner may read (on
    /// Unix): a SQLite store's file, or its `-wal`, `-shm` or `-journal`,
    /// made by an earlier version or changed since. The cache and the ledger
    /// in them were paid for. Empty for a store kept in no file, and on
    /// other systems.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn warn(store: &seozoom::store::Store) {
    /// for file in store.readable_by_others() {
    ///     // `PATH` can be read by other users (mode 0644): `chmod 600 PATH` ...
    ///     eprintln!("warning: {file}");
    /// }
    /// # }
    /// ```
    #[cfg(feature = "sqlite")]
    pub fn readable_by_others(&self) -> Vec<super::ReadableByOthers> {
        self.file
            .as_deref()
            .map_or_else(Vec::new, super::file_access::readable_by_others)
    }
}

#[cfg(feature = "sqlite")]
fn open_sqlite(path: &str) -> Result<Store, StoreError> {
    Ok(Store {
        backend: Arc::new(super::sqlite::Sqlite::open(path)?),
        file: Some(std::path::Path::new(path).into()),
    })
}

#[cfg(not(feature = "sqlite"))]
fn open_sqlite(path: &str) -> Result<Store, StoreError> {
    Err(StoreError::new(
        format!("sqlite:{path}"),
        "this build of seozoom has no SQLite store (feature `sqlite`)",
    ))
}

#[cfg(feature = "redis")]
fn open_redis(url: &str) -> Result<Store, StoreError> {
    Ok(Store::of(super::redis::Redis::open(url)?))
}

#[cfg(not(feature = "redis"))]
fn open_redis(url: &str) -> Result<Store, StoreError> {
    Err(StoreError::new(
        shown_store_url(url),
        "this build of seozoom has no Redis store (feature `redis`)",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_store_urls_are_refused_with_the_forms_that_work() {
        let error = Store::open("postgres://db").unwrap_err().to_string();
        assert!(error.contains("postgres://db"), "{error}");
        assert!(error.contains("sqlite:PATH"), "{error}");
        let error = Store::open("sqlite:").unwrap_err().to_string();
        assert!(error.contains("no file path"), "{error}");
    }

    #[test]
    fn memory_and_none_open_by_name() {
        assert_eq!(Store::open("memory").unwrap().name(), "memory");
        assert_eq!(Store::open(" none ").unwrap().name(), "none");
    }
}
