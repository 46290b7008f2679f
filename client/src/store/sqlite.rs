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
//! rusqlite is blocking. A store has three connections rather than a pool:
//! one for writes (SQLite lets one writer in at a time anyway), one for reads
//! (in WAL mode they never wait for the writer), one for checkpoints. Calls run
//! on the calling thread when that costs no waiting, else on tokio's blocking
//! pool ([`connection`]); cache hits' ledger rows are written in batches
//! ([`hits`]).
//!
//! Schema versions are kept in `PRAGMA user_version`, and the file is marked as
//! this store's with `PRAGMA application_id`: a file that is not SQLite, that
//! belongs to something else, or that a newer seozoom wrote, is refused when the
//! store is opened, before anything is sent.

mod connection;
mod drift;
mod failure;
mod hits;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use futures_util::FutureExt;
use rusqlite::{
    Connection, OpenFlags, OptionalExtension, Transaction, TransactionBehavior, params,
};

use self::connection::{Checkpoints, Hop, Runner, SharedConnection};
use self::hits::{Next, PendingHits};
use super::backend::duration_ms;
use super::file_access;
use super::slots::{slot_id, wait_for};
use super::{
    Admission, Backend, Balance, CacheEntry, Hold, LedgerEntry, Lookup, Scope, SharedSlots,
    StoreError, StoreFuture, Usage, fingerprint, now_ms,
};
use crate::drift::Observation;

const DAY_MS: i64 = 86_400_000;

/// How long a call waits for another process's write lock before failing.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// `PRAGMA application_id` of a seozoom store ("SZst").
const APPLICATION_ID: i32 = 0x535A_7374;

/// The schema this build writes and reads.
const SCHEMA_VERSION: i32 = 1;

/// Schema 1. The ledger keeps every call (a row each) for `usage` and budget
/// windows, on `ledger_window`. `balance` keeps the last balance reported per
/// key, one row each, so that a cache hit reads it at the cost of a point
/// lookup (most ledger rows, cache hits among them, report none).
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
CREATE TABLE balance (
    scope TEXT PRIMARY KEY,
    units_remaining INTEGER NOT NULL,
    at_ms INTEGER NOT NULL
) WITHOUT ROWID;
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
    inner: Arc<SqliteInner>,
}

/// The store's connections and what waits to be written; shared with the
/// task that writes hits later.
struct SqliteInner {
    runner: Runner,
    writer: SharedConnection,
    reader: SharedConnection,
    checkpoints: Checkpoints,
    hits: PendingHits,
}

/// The largest cache write made on the calling thread; a bigger one (a page
/// of thousands of rows) goes to the blocking pool.
const INLINE_BYTES: usize = 64 * 1024;

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
        // For the user alone: what is in it was paid for. SQLite gives its
        // `-wal`, `-shm` and `-journal` files the file's permissions.
        if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
            file_access::create_private_dir(dir).map_err(|e| {
                error(format!(
                    "cannot create the directory `{}`: {e}",
                    dir.display()
                ))
                .caused_by(e)
            })?;
        }
        if file.is_dir() {
            return Err(error("is a directory, not a file".to_owned()));
        }
        file_access::create_private_file(&file)
            .map_err(|e| error(format!("cannot create it: {e}")).caused_by(e))?;
        let runner = Runner {
            name: name.clone(),
            busy_timeout,
        };
        let connect =
            || connect(&file, busy_timeout).map_err(|e| runner.failure("cannot open it", e));
        let mut writer = connect()?;
        prepare(&mut writer)
            .map_err(|e| runner.failure("cannot use it", e))?
            .map_err(error)?;
        let reader = connect()?;
        let checkpoints = Checkpoints::new(&mut writer, connect()?)
            .map_err(|e| runner.failure("cannot open it", e))?;
        Ok(Sqlite {
            inner: Arc::new(SqliteInner {
                runner,
                writer: Arc::new(Mutex::new(writer)),
                reader: Arc::new(Mutex::new(reader)),
                checkpoints,
                hits: PendingHits::default(),
            }),
        })
    }

    /// Run a write on the writer connection; count it for checkpoints.
    fn write<T, F>(&self, hop: Hop, what: &'static str, call: F) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        F: Fn(&mut Connection) -> rusqlite::Result<T> + Send + 'static,
    {
        let inner = &self.inner;
        async move {
            let outcome = inner.runner.run(&inner.writer, hop, what, call).await;
            if outcome.is_ok()
                && let Some(held_back) = inner
                    .checkpoints
                    .committed(&inner.writer, inner.runner.busy_timeout)
            {
                // The write that took the WAL past its bound waits for the
                // checkpoint that empties it (its failure is only logged).
                let _ = held_back.await;
            }
            outcome
        }
        .boxed()
    }

    /// Run a read on the reader connection.
    fn read<T, F>(&self, hop: Hop, what: &'static str, call: F) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        F: Fn(&mut Connection) -> rusqlite::Result<T> + Send + 'static,
    {
        self.inner.runner.run(&self.inner.reader, hop, what, call)
    }

    /// Write the hit rows waiting, if any.
    async fn flush_hits(&self) -> Result<(), StoreError> {
        let rows = self.inner.hits.take();
        if rows.is_empty() {
            return Ok(());
        }
        self.write_hits(rows).await
    }

    fn write_hits(&self, rows: Vec<(Scope, LedgerEntry)>) -> StoreFuture<'_, ()> {
        self.write(
            Hop::WhenWaiting,
            "recording cache hits",
            move |connection| insert_hits(connection, &rows),
        )
    }

    /// Write the hit rows waiting [`hits::FLUSH_AFTER`] from now, unless the
    /// store is gone by then (it writes them as it is dropped).
    fn schedule_hits(&self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let inner: Weak<SqliteInner> = Arc::downgrade(&self.inner);
        runtime.spawn(async move {
            tokio::time::sleep(hits::FLUSH_AFTER).await;
            let Some(inner) = inner.upgrade() else {
                return;
            };
            let store = Sqlite { inner };
            if let Err(error) = store.flush_hits().await {
                tracing::warn!(store = %error.store, error = %error.message, "cannot record cache hits in the ledger");
            }
        });
    }
}

impl Drop for SqliteInner {
    fn drop(&mut self) {
        let rows = self.hits.take();
        if rows.is_empty() {
            return;
        }
        let written = self
            .runner
            .run_here(&self.writer, "recording cache hits", |connection| {
                insert_hits(connection, &rows)
            });
        if let Err(error) = written {
            tracing::warn!(store = %error.store, error = %error.message, "cannot record cache hits in the ledger");
        }
    }
}

/// A connection to the file with the store's settings. It waits up to
/// `busy_timeout` for locks until a call sets the wait it allows
/// ([`connection`]).
fn connect(file: &Path, busy_timeout: Duration) -> rusqlite::Result<Connection> {
    // No `SQLITE_OPEN_URI`: the path is a file name, whatever it looks like.
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let connection = Connection::open_with_flags(file, flags)?;
    connection.busy_timeout(busy_timeout)?;
    connection.pragma_update(None, "synchronous", "NORMAL")?;
    Ok(connection)
}

/// One ledger row.
fn insert_row(
    transaction: &Transaction<'_>,
    scope: &Scope,
    entry: &LedgerEntry,
) -> rusqlite::Result<()> {
    transaction
        .prepare_cached(
            "INSERT INTO ledger (scope, at_ms, grp, action, db, items, rows, units_used, \
             balance, cache_hit, units_saved) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?
        .execute(params![
            scope.0,
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
    Ok(())
}

/// Hits' ledger rows, in one transaction.
fn insert_hits(connection: &mut Connection, rows: &[(Scope, LedgerEntry)]) -> rusqlite::Result<()> {
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    for (scope, entry) in rows {
        insert_row(&transaction, scope, entry)?;
    }
    transaction.commit()
}

/// A call's ledger row, and its hold shrunk and renewed, in one step: a
/// crash between them must not count the units twice (in the ledger and the
/// hold).
fn record_call(
    transaction: &Transaction<'_>,
    scope: &Scope,
    entry: &LedgerEntry,
) -> rusqlite::Result<()> {
    insert_row(transaction, scope, entry)?;
    if let Some(balance) = entry.balance {
        // The latest report wins, whatever order processes record them in.
        transaction
            .prepare_cached(
                "INSERT INTO balance (scope, units_remaining, at_ms) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (scope) DO UPDATE SET units_remaining = excluded.units_remaining, \
                 at_ms = excluded.at_ms WHERE excluded.at_ms >= balance.at_ms",
            )?
            .execute(params![scope.0, balance, entry.at_ms])?;
    }
    if let Some((id, reserved)) = &entry.hold {
        transaction
            .prepare_cached(
                "UPDATE holds SET units = max(units - ?3, 0), until_ms = ?4 + lease_ms \
                 WHERE scope = ?1 AND id = ?2",
            )?
            .execute(params![scope.0, id, reserved, now_ms()])?;
    }
    drift::record(transaction, scope, &entry.drift)?;
    Ok(())
}

/// Cache entries put, replacing any under the same keys.
fn put_entries(
    transaction: &Transaction<'_>,
    scope: &Scope,
    entries: &[CacheEntry],
) -> rusqlite::Result<()> {
    let now = now_ms();
    let mut statement = transaction.prepare_cached(
        "INSERT OR REPLACE INTO cache (scope, key, bytes, keep_until) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (key, bytes, keep) in entries {
        let until = keep.map(|d| now.saturating_add(duration_ms(d)));
        statement.execute(params![scope.0, key, bytes, until])?;
    }
    // Expired entries go now and then, on the writer's time.
    if fastrand::u8(..) == 0 {
        transaction.execute(
            "DELETE FROM cache WHERE keep_until IS NOT NULL AND keep_until <= ?1",
            params![now],
        )?;
    }
    Ok(())
}

/// `read` in one read transaction. Its `BEGIN` and `COMMIT` are cached
/// statements: a cache hit is little more than this, and rusqlite's
/// `Transaction` parses both anew each time.
fn read_transaction<T>(
    connection: &Connection,
    read: impl FnOnce(&Connection) -> rusqlite::Result<T>,
) -> rusqlite::Result<T> {
    connection.prepare_cached("BEGIN")?.execute([])?;
    match read(connection) {
        Ok(value) => {
            connection.prepare_cached("COMMIT")?.execute([])?;
            Ok(value)
        }
        Err(error) => {
            // Nothing was written: ending the transaction cannot lose anything.
            let _ = connection.execute_batch("ROLLBACK");
            Err(error)
        }
    }
}

/// The balance last reported.
fn last_balance(connection: &Connection, scope: &str) -> rusqlite::Result<Option<Balance>> {
    connection
        .prepare_cached("SELECT units_remaining, at_ms FROM balance WHERE scope = ?1")?
        .query_row(params![scope], |row| {
            Ok(Balance {
                units_remaining: row.get(0)?,
                at_ms: row.get(1)?,
            })
        })
        .optional()
}

/// Where a write of cache entries runs: a big one on the blocking pool.
fn hop_for(entries: &[CacheEntry]) -> Hop {
    let bytes: usize = entries
        .iter()
        .map(|(key, bytes, _)| key.len() + bytes.len())
        .sum();
    if bytes > INLINE_BYTES {
        Hop::Always
    } else {
        Hop::WhenWaiting
    }
}

/// Settings, then the schema checked or created and a first write, in one
/// `BEGIN IMMEDIATE` transaction (so that two processes creating the file at
/// once do not both create the schema). The outer error is SQLite's; the inner
/// one says why the file is not a store this build can use.
fn prepare(connection: &mut Connection) -> rusqlite::Result<Result<(), String>> {
    // The first statement that reads the file: "not a database" shows here.
    let mode: String = connection.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        // Some file systems cannot share WAL's memory map; the rollback
        // journal is as safe, only slower with many readers.
        tracing::debug!(journal_mode = %mode, "the SQLite store is not in WAL mode");
    }
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
    // Added to schema 1 after its first files were written (before any
    // release); such a file learns the balance at its next call.
    transaction.execute_batch(
        "CREATE TABLE IF NOT EXISTS balance (scope TEXT PRIMARY KEY, \
         units_remaining INTEGER NOT NULL, at_ms INTEGER NOT NULL) WITHOUT ROWID;",
    )?;
    transaction.execute_batch(drift::TABLE)?;
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

/// Where a day starts (ms): usage and budget windows count whole UTC days, as
/// every store does.
fn day_start(at_ms: i64) -> i64 {
    at_ms.div_euclid(DAY_MS) * DAY_MS
}

impl Backend for Sqlite {
    fn name(&self) -> &str {
        &self.inner.runner.name
    }

    fn scope(&self, api_key: &str) -> Scope {
        fingerprint::scope(api_key)
    }

    fn shared_slots(&self) -> Option<&dyn SharedSlots> {
        Some(self)
    }

    fn cache_get<'a>(&'a self, scope: &'a Scope, keys: &'a [String]) -> StoreFuture<'a, Lookup> {
        let scope = scope.0.clone();
        let keys = keys.to_vec();
        self.read(Hop::WhenWaiting, "reading the cache", move |connection| {
            let now = now_ms();
            // One read transaction: the entries and the balance seen at one moment.
            read_transaction(connection, |connection| {
                let entries = {
                    let mut statement = connection.prepare_cached(
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
                let balance = last_balance(connection, &scope)?;
                Ok(Lookup { entries, balance })
            })
        })
    }

    fn cache_put<'a>(&'a self, scope: &'a Scope, entries: Vec<CacheEntry>) -> StoreFuture<'a, ()> {
        let scope = scope.clone();
        self.write(hop_for(&entries), "writing the cache", move |connection| {
            let transaction =
                connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
            put_entries(&transaction, &scope, &entries)?;
            transaction.commit()
        })
    }

    fn record<'a>(&'a self, scope: &'a Scope, entry: LedgerEntry) -> StoreFuture<'a, ()> {
        if entry.cache_hit && entry.hold.is_none() {
            return match self.inner.hits.add(scope.clone(), entry) {
                Next::Nothing => futures_util::future::ready(Ok(())).boxed(),
                Next::Schedule => {
                    self.schedule_hits();
                    futures_util::future::ready(Ok(())).boxed()
                }
                Next::Write(rows) => self.write_hits(rows),
            };
        }
        self.remember(scope, entry, Vec::new())
    }

    fn remember<'a>(
        &'a self,
        scope: &'a Scope,
        entry: LedgerEntry,
        entries: Vec<CacheEntry>,
    ) -> StoreFuture<'a, ()> {
        let scope = scope.clone();
        self.write(hop_for(&entries), "recording the call", move |connection| {
            let transaction =
                connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
            record_call(&transaction, &scope, &entry)?;
            put_entries(&transaction, &scope, &entries)?;
            transaction.commit()
        })
    }

    fn usage<'a>(&'a self, scope: &'a Scope, since_ms: i64) -> StoreFuture<'a, Vec<Usage>> {
        let scope = scope.0.clone();
        async move {
            // What this process has not written yet counts too.
            self.flush_hits().await?;
            self.read(Hop::Always, "reading the ledger", move |connection| {
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
            .await
        }
        .boxed()
    }

    fn last_balance<'a>(&'a self, scope: &'a Scope) -> StoreFuture<'a, Option<Balance>> {
        let scope = scope.0.clone();
        self.read(Hop::WhenWaiting, "reading the ledger", move |connection| {
            last_balance(connection, &scope)
        })
    }

    fn drift<'a>(&'a self, scope: &'a Scope) -> StoreFuture<'a, Vec<Observation>> {
        let scope = scope.0.clone();
        self.read(Hop::Always, "reading the drift", move |connection| {
            drift::read(connection, &scope)
        })
    }

    fn admit<'a>(&'a self, scope: &'a Scope, hold: Hold) -> StoreFuture<'a, Admission> {
        let scope = scope.0.clone();
        // A month's ledger may be long to sum: on the blocking pool.
        self.write(Hop::Always, "holding budget units", move |connection| {
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
        self.write(
            Hop::WhenWaiting,
            "releasing budget units",
            move |connection| {
                connection
                    .prepare_cached("DELETE FROM holds WHERE scope = ?1 AND id = ?2")?
                    .execute(params![scope, id])?;
                Ok(())
            },
        )
    }
}

impl SharedSlots for Sqlite {
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
        self.write(Hop::WhenWaiting, "taking a rate-limit slot", move |connection| {
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
        self.write(Hop::WhenWaiting, "settling a rate-limit slot", move |connection| {
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
