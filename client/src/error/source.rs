//! The error a failure came from, kept so that [`std::error::Error::source`]
//! gives it: a caller can ask a transport failure whether it was a refused
//! connection or a TLS error, or a store failure for its I/O or SQLite error,
//! without parsing text.
//!
//! What is kept never holds the API key: a transport error is kept without
//! its URL (the only place the key is), and a store's errors never see the
//! key (the store is keyed by a fingerprint of it).

use std::error::Error as StdError;
use std::fmt;
use std::sync::Arc;

/// A kept cause. Shared, so that the errors holding it stay `Clone`; two are
/// equal when they read the same, so that those errors stay comparable.
#[derive(Clone)]
pub(crate) struct ErrorSource(Arc<dyn StdError + Send + Sync + 'static>);

impl ErrorSource {
    pub(crate) fn new(error: impl StdError + Send + Sync + 'static) -> Self {
        ErrorSource(Arc::new(error))
    }

    /// The error itself, as `source()` gives it.
    pub(crate) fn get(&self) -> &(dyn StdError + 'static) {
        &*self.0
    }
}

impl fmt::Debug for ErrorSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl PartialEq for ErrorSource {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.to_string() == other.0.to_string()
    }
}

impl Eq for ErrorSource {}
