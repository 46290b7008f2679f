//! The SQLite store (`sqlite:PATH`): one file shared by the processes of one
//! machine, in WAL mode (readers never wait for the writer).
//!
//! Every method is one SQLite transaction, so it is atomic across processes:
//! the ones that read before they write ([`admit`](Backend::admit),
//! [`take_slot`](Backend::take_slot), [`record`](Backend::record)) start with
//! `BEGIN IMMEDIATE`, which takes the file's write lock first, so that two
//! processes cannot both read the same free slot or budget and then both take
//! it. A process killed (`kill -9`) in the middle of a write loses that one
//! transaction and nothing else: SQLite rolls an unfinished transaction back
//! when the file is next opened, and `synchronous=NORMAL` in WAL mode still
//! makes every committed transaction survive the process (only a power cut can
//! lose the last ones, never damage the file).
//!
//! rusqlite is blocking: each call runs on tokio's blocking pool. A store has
//! one connection behind a mutex rather than a pool: each call takes a few
//! microseconds to a millisecond against HTTP round trips of tens of
//! milliseconds or more, and SQLite lets one writer at a time in anyway, so
//! more connections would add file handles and page caches, not throughput.
//!
//! Schema versions are kept in `PRAGMA user_version`, and the file is marked as
//! this store's with `PRAGMA application_id`: a file that is not SQLite, that
//! belongs to something else, or that a newer seozoom wrote, is refused when the
//! store is opened, before anything is sent.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures_util::FutureExt;
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior, params};

use super::memory::{duration_ms, wait_for};
use super::{
    Admission, Backend, Balance, Hold, LedgerEntry, Scope, StoreError, StoreFuture, Usage,
    fingerprint, now_ms, slot_id,
};

const DAY_MS: i64 = 86_400_000;

/// How long a call waits for another process's write lock before failing.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// `PRAGMA application_id` of a seozoom store ("SZst").
const APPLICATION_ID: i32 = 0x535A_7374;

/// The schema this build writes and reads.
const SCHEMA_VERSION: i32 = 1;

/// Schema 1. The ledger keeps every call (a row each) for `usage` and budget
/// windows; its index serves both, and "the last balance".
const SCHEMA: &str = "
CREATE TABLE cache (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    bytes BLOB NOT NULL,
    keep_until INTEGER,
    PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE INDEX cache_expiry ON cache (keep_until) WHERE keep_until IS NOT NULL;
CREATE TABLE ledger (
    scope TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    grp TEXT NOT NULL,
    action TEXT NOT NULL,
    db TEXT NOT NULL,
    items INTEGER NOT NULL,
    rows INTEGER NOT NULL,
    units_used INTEGER NOT NULL,
    balance INTEGER,
    cache_hit INTEGER NOT NULL,
    units_saved INTEGER NOT NULL
);
CREATE INDEX ledger_window ON ledger (scope, at_ms);
CREATE TABLE holds (
    scope TEXT NOT NULL,
    id TEXT NOT NULL,
    units INTEGER NOT NULL,
    until_ms INTEGER NOT NULL,
    lease_ms INTEGER NOT NULL,
    PRIMARY KEY (scope, id)
) WITHOUT ROWID;
CREATE TABLE slots (
    scope TEXT NOT NULL,
    op TEXT NOT NULL,
    id TEXT NOT NULL,
    until_ms INTEGER NOT NULL,
    settled INTEGER NOT NULL,
    PRIMARY KEY (scope, op, id)
) WITHOUT ROWID;
CREATE INDEX slots_window ON slots (scope, op, until_ms);
";

/// A SQLite store.
pub(crate) struct Sqlite {
    /// `sqlite:PATH`, as given.
    name: String,
    busy_timeout: Duration,
    connection: Arc<Mutex<Connection>>,
}

impl Sqlite {
    /// Open (or create) the store in the file at `path`, waiting at most
    /// [`BUSY_TIMEOUT`] for another process's lock.
    pub(crate) fn open(path: &str) -> Result<Sqlite, StoreError> {
        Sqlite::open_waiting(path, BUSY_TIMEOUT)
    }

    /// Open (or create) the store, waiting at most `busy_timeout` for a lock,
    /// now and in every later call. Checks the file at once: that it is this
    /// store's (or new) and that it can be written.
    pub(crate) fn open_waiting(path: &str, busy_timeout: Duration) -> Result<Sqlite, StoreError> {
        let name = format!("sqlite:{path}");
        let file = PathBuf::from(path);
        let error = |message: String| StoreError::new(name.clone(), message);
        if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                error(format!(
                    "cannot create the directory `{}`: {e}",
                    dir.display()
                ))
            })?;
        }
        if file.is_dir() {
            return Err(error("is a directory, not a file".to_owned()));
        }
        // No `SQLITE_OPEN_URI`: the path is a file name, whatever it looks like.
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut connection = Connection::open_with_flags(&file, flags)
            .map_err(|e| failure(&name, busy_timeout, "cannot open it", &e))?;
        prepare(&mut connection, busy_timeout)
            .map_err(|e| failure(&name, busy_timeout, "cannot use it", &e))?
            .map_err(error)?;
        Ok(Sqlite {
            name,
            busy_timeout,
            connection: Arc::new(Mutex::new(connection)),
        })
    }

    /// Run `call` on the connection, on the blocking pool.
    fn run<T, F>(&self, what: &'static str, call: F) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> rusqlite::Result<T> + Send + 'static,
    {
        let connection = Arc::clone(&self.connection);
        async move {
            let outcome = tokio::task::spawn_blocking(move || {
                // A panic in a call leaves the connection usable: an unfinished
                // transaction is rolled back as it is dropped.
                let mut connection = connection.lock().unwrap_or_else(PoisonError::into_inner);
                call(&mut connection)
            })
            .await;
            match outcome {
                Ok(Ok(value)) => Ok(value),
                Ok(Err(e)) => Err(failure(&self.name, self.busy_timeout, what, &e)),
                Err(e) => Err(StoreError::new(
                    self.name.clone(),
                    format!("{what}: the store call did not finish ({e})"),
                )),
            }
        }
        .boxed()
    }
}

/// Settings, then the schema checked or created and a first write, in one
/// `BEGIN IMMEDIATE` transaction (so that two processes creating the file at
/// once do not both create the schema). The outer error is SQLite's; the inner
/// one says why the file is not a store this build can use.
fn prepare(
    connection: &mut Connection,
    busy_timeout: Duration,
) -> rusqlite::Result<Result<(), String>> {
    connection.busy_timeout(busy_timeout)?;
    // The first statement that reads the file: "not a database" shows here.
    let mode: String = connection.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        // Some file systems cannot share WAL's memory map; the rollback
        // journal is as safe, only slower with many readers.
        tracing::debug!(journal_mode = %mode, "the SQLite store is not in WAL mode");
    }
    connection.pragma_update(None, "synchronous", "NORMAL")?;
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let application_id: i32 =
        transaction.query_row("PRAGMA application_id", [], |row| row.get(0))?;
    let version: i32 = transaction.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    let objects: i64 =
        transaction.query_row("SELECT count(*) FROM sqlite_master", [], |row| row.get(0))?;
    if application_id == 0 && version == 0 && objects == 0 {
        transaction.execute_batch(SCHEMA)?;
        transaction.pragma_update(None, "application_id", APPLICATION_ID)?;
        transaction.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    } else if application_id != APPLICATION_ID {
        return Ok(Err(
            "a SQLite file of something else, not a seozoom store: give another path".to_owned(),
        ));
    } else if version > SCHEMA_VERSION {
        return Ok(Err(format!(
            "written by a newer seozoom (store schema {version}; this build reads up to \
             {SCHEMA_VERSION}): upgrade, or give another path"
        )));
    } else if version < SCHEMA_VERSION {
        return Ok(Err(format!(
            "store schema {version} is unknown to this build (it reads {SCHEMA_VERSION}): \
             give another path"
        )));
    }
    // Housekeeping, and the write that proves the file can be written.
    let now = now_ms();
    transaction.execute("DELETE FROM slots WHERE until_ms <= ?1", params![now])?;
    transaction.execute(
        "DELETE FROM cache WHERE keep_until IS NOT NULL AND keep_until <= ?1",
        params![now],
    )?;
    transaction.execute("DELETE FROM holds WHERE until_ms <= ?1", params![now])?;
    transaction.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    transaction.commit()?;
    Ok(Ok(()))
}

/// A SQLite failure as the store's error: what was being done and what is
/// wrong with the file, in words.
fn failure(name: &str, busy_timeout: Duration, what: &str, error: &rusqlite::Error) -> StoreError {
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
    StoreError::new(name.to_owned(), message)
}

/// Where a day starts (ms): usage and budget windows count whole UTC days, as
/// every store does.
fn day_start(at_ms: i64) -> i64 {
    at_ms.div_euclid(DAY_MS) * DAY_MS
}

impl Backend for Sqlite {
    fn name(&self) -> &str {
        &self.name
    }

    fn scope(&self, api_key: &str) -> Scope {
        fingerprint::scope(api_key)
    }

    fn shares_limits(&self) -> bool {
        true
    }

    fn cache_get<'a>(
        &'a self,
        scope: &'a Scope,
        keys: &'a [String],
    ) -> StoreFuture<'a, Vec<Option<Vec<u8>>>> {
        let scope = scope.0.clone();
        let keys = keys.to_vec();
        self.run("reading the cache", move |connection| {
            let now = now_ms();
            // One read transaction: every key seen at one moment.
            let transaction = connection.transaction()?;
            let found = {
                let mut statement = transaction.prepare_cached(
                    "SELECT bytes FROM cache WHERE scope = ?1 AND key = ?2 \
                     AND (keep_until IS NULL OR keep_until > ?3)",
                )?;
                keys.iter()
                    .map(|key| {
                        statement
                            .query_row(params![scope, key, now], |row| row.get(0))
                            .optional()
                    })
                    .collect::<rusqlite::Result<Vec<_>>>()?
            };
            transaction.commit()?;
            Ok(found)
        })
    }

    fn cache_put<'a>(
        &'a self,
        scope: &'a Scope,
        entries: Vec<(String, Vec<u8>, Option<Duration>)>,
    ) -> StoreFuture<'a, ()> {
        let scope = scope.0.clone();
        self.run("writing the cache", move |connection| {
            let now = now_ms();
            let transaction =
                connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
            {
                let mut statement = transaction.prepare_cached(
                    "INSERT OR REPLACE INTO cache (scope, key, bytes, keep_until) \
                     VALUES (?1, ?2, ?3, ?4)",
                )?;
                for (key, bytes, keep) in &entries {
                    let until = keep.map(|d| now.saturating_add(duration_ms(d)));
                    statement.execute(params![scope, key, bytes, until])?;
                }
            }
            // Expired entries go now and then, on the writer's time.
            if fastrand::u8(..) == 0 {
                transaction.execute(
                    "DELETE FROM cache WHERE keep_until IS NOT NULL AND keep_until <= ?1",
                    params![now],
                )?;
            }
            transaction.commit()
        })
    }

    fn record<'a>(&'a self, scope: &'a Scope, entry: LedgerEntry) -> StoreFuture<'a, ()> {
        let scope = scope.0.clone();
        self.run("recording the call", move |connection| {
            // The row and the hold's shrinking are one step: a crash between
            // them must not count the units twice (in the ledger and the hold).
            let transaction =
                connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
            transaction
                .prepare_cached(
                    "INSERT INTO ledger (scope, at_ms, grp, action, db, items, rows, units_used, \
                     balance, cache_hit, units_saved) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                )?
                .execute(params![
                    scope,
                    entry.at_ms,
                    entry.group,
                    entry.action,
                    entry.db,
                    entry.items,
                    entry.rows,
                    entry.units_used,
                    entry.balance,
                    entry.cache_hit,
                    entry.units_saved,
                ])?;
            if let Some((id, reserved)) = &entry.hold {
                transaction
                    .prepare_cached(
                        "UPDATE holds SET units = max(units - ?3, 0), until_ms = ?4 + lease_ms \
                         WHERE scope = ?1 AND id = ?2",
                    )?
                    .execute(params![scope, id, reserved, now_ms()])?;
            }
            transaction.commit()
        })
    }

    fn usage<'a>(&'a self, scope: &'a Scope, since_ms: i64) -> StoreFuture<'a, Vec<Usage>> {
        let scope = scope.0.clone();
        self.run("reading the ledger", move |connection| {
            let mut statement = connection.prepare_cached(
                "SELECT grp, action, \
                 sum(cache_hit = 0), sum(cache_hit != 0), \
                 sum(CASE WHEN cache_hit = 0 THEN max(units_used, 0) ELSE 0 END), \
                 sum(CASE WHEN cache_hit != 0 THEN units_saved ELSE 0 END), \
                 sum(CASE WHEN cache_hit = 0 THEN max(rows, 0) ELSE 0 END) \
                 FROM ledger WHERE scope = ?1 AND at_ms >= ?2 \
                 GROUP BY grp, action ORDER BY grp, action",
            )?;
            let rows = statement.query_map(params![scope, day_start(since_ms)], |row| {
                Ok(Usage {
                    group: row.get(0)?,
                    action: row.get(1)?,
                    calls: row.get(2)?,
                    cache_hits: row.get(3)?,
                    units_used: row.get(4)?,
                    units_saved: row.get(5)?,
                    rows: row.get(6)?,
                })
            })?;
            rows.collect()
        })
    }

    fn last_balance<'a>(&'a self, scope: &'a Scope) -> StoreFuture<'a, Option<Balance>> {
        let scope = scope.0.clone();
        self.run("reading the ledger", move |connection| {
            connection
                .prepare_cached(
                    "SELECT balance, at_ms FROM ledger \
                     WHERE scope = ?1 AND balance IS NOT NULL \
                     ORDER BY at_ms DESC, rowid DESC LIMIT 1",
                )?
                .query_row(params![scope], |row| {
                    Ok(Balance {
                        units_remaining: row.get(0)?,
                        at_ms: row.get(1)?,
                    })
                })
                .optional()
        })
    }

    fn admit<'a>(&'a self, scope: &'a Scope, hold: Hold) -> StoreFuture<'a, Admission> {
        let scope = scope.0.clone();
        self.run("holding budget units", move |connection| {
            let now = now_ms();
            let transaction =
                connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
            transaction
                .prepare_cached("DELETE FROM holds WHERE scope = ?1 AND until_ms <= ?2")?
                .execute(params![scope, now])?;
            let held: i64 = transaction
                .prepare_cached("SELECT coalesce(sum(units), 0) FROM holds WHERE scope = ?1")?
                .query_row(params![scope], |row| row.get(0))?;
            let spent: i64 = transaction
                .prepare_cached(
                    "SELECT coalesce(sum(max(units_used, 0)), 0) FROM ledger \
                     WHERE scope = ?1 AND at_ms >= ?2 AND cache_hit = 0",
                )?
                .query_row(params![scope, day_start(hold.window_start_ms)], |row| {
                    row.get(0)
                })?;
            if spent.saturating_add(held).saturating_add(hold.units) > hold.budget {
                return Ok(Admission::Refused { spent, held });
            }
            let lease = duration_ms(hold.lease);
            transaction
                .prepare_cached(
                    "INSERT OR REPLACE INTO holds (scope, id, units, until_ms, lease_ms) \
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(params![
                    scope,
                    hold.id,
                    hold.units,
                    now.saturating_add(lease),
                    lease
                ])?;
            transaction.commit()?;
            Ok(Admission::Admitted)
        })
    }

    fn release<'a>(&'a self, scope: &'a Scope, hold_id: &'a str) -> StoreFuture<'a, ()> {
        let scope = scope.0.clone();
        let id = hold_id.to_owned();
        self.run("releasing budget units", move |connection| {
            connection
                .prepare_cached("DELETE FROM holds WHERE scope = ?1 AND id = ?2")?
                .execute(params![scope, id])?;
            Ok(())
        })
    }

    fn take_slot<'a>(
        &'a self,
        scope: &'a Scope,
        operation: &'a str,
        figure: i64,
        window: Duration,
        in_flight: Duration,
    ) -> StoreFuture<'a, Result<String, Duration>> {
        let scope = scope.0.clone();
        let operation = operation.to_owned();
        let held_ms = duration_ms(in_flight).saturating_add(duration_ms(window));
        self.run("taking a rate-limit slot", move |connection| {
            let now = now_ms();
            let transaction =
                connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
            transaction
                .prepare_cached("DELETE FROM slots WHERE scope = ?1 AND op = ?2 AND until_ms <= ?3")?
                .execute(params![scope, operation, now])?;
            let slots: Vec<(bool, i64)> = transaction
                .prepare_cached("SELECT settled, until_ms FROM slots WHERE scope = ?1 AND op = ?2")?
                .query_map(params![scope, operation], |row| Ok((row.get(0)?, row.get(1)?)))?
                .collect::<Result<_, _>>()?;
            let taken = if (slots.len() as i64) < figure {
                let id = slot_id();
                transaction
                    .prepare_cached(
                        "INSERT INTO slots (scope, op, id, until_ms, settled) VALUES (?1, ?2, ?3, ?4, 0)",
                    )?
                    .execute(params![scope, operation, id, now.saturating_add(held_ms)])?;
                Ok(id)
            } else {
                Err(wait_for(slots.into_iter(), now, window))
            };
            transaction.commit()?;
            Ok(taken)
        })
    }

    fn settle_slot<'a>(
        &'a self,
        scope: &'a Scope,
        operation: &'a str,
        id: &'a str,
        window: Duration,
    ) -> StoreFuture<'a, ()> {
        let (scope, operation, id) = (scope.0.clone(), operation.to_owned(), id.to_owned());
        let window_ms = duration_ms(window);
        self.run("settling a rate-limit slot", move |connection| {
            connection
                .prepare_cached(
                    "UPDATE slots SET until_ms = ?4, settled = 1 WHERE scope = ?1 AND op = ?2 AND id = ?3",
                )?
                .execute(params![scope, operation, id, now_ms().saturating_add(window_ms)])?;
            Ok(())
        })
    }
}

#[cfg(all(test, feature = "sqlite"))]
mod tests;
