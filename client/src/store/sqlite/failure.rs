//! A SQLite failure in words: what the store reports when the file is busy,
//! damaged or not a database.

use std::time::Duration;

use rusqlite::ErrorCode;

use crate::store::StoreError;

/// A SQLite failure as the store's error: what was being done and what is
/// wrong with the file, in words.
pub(super) fn failure(
    name: &str,
    busy_timeout: Duration,
    what: &str,
    error: rusqlite::Error,
) -> StoreError {
    let code = error.sqlite_error_code();
    let message = match code {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => format!(
            "{what}: the file is locked by another process (waited {} ms); try again when it \
             is done",
            busy_timeout.as_millis()
        ),
        Some(ErrorCode::NotADatabase) => {
            format!("{what}: not a SQLite file (or a damaged one): give another path")
        }
        Some(ErrorCode::DatabaseCorrupt) => {
            format!("{what}: the file is damaged ({error}): move it away to start afresh")
        }
        Some(ErrorCode::ReadOnly | ErrorCode::PermissionDenied) => {
            format!("{what}: the file or its directory cannot be written ({error})")
        }
        Some(ErrorCode::CannotOpen) => format!(
            "{what}: the file cannot be opened or created ({error}); its directory must be \
             writable"
        ),
        Some(ErrorCode::DiskFull) => format!("{what}: the disk is full"),
        _ => format!("{what}: {error}"),
    };
    StoreError::new(name.to_owned(), message).caused_by(error)
}
