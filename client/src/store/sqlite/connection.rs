//! Running a store call on one of the store's connections: on the calling
//! thread when that costs no waiting, else on tokio's blocking pool.
//!
//! A store call takes a few microseconds: a point read, or one small
//! transaction that syncs nothing (WAL with `synchronous=NORMAL` syncs only at
//! checkpoints, which run elsewhere: [`Checkpoints`]). A hop to the
//! blocking pool and back costs more than that, and three such hops per call
//! made a cache hit slower than a loopback round trip. So a call first runs
//! right here, with no waiting allowed: the connection's mutex is tried, not
//! waited for, and SQLite's busy timeout is zero. Only when that would wait
//! (another task of this process is on the connection, or another process holds
//! the write lock) does the call go to the blocking pool, to wait there as long
//! as the store's busy timeout allows.
//!
//! A call may so run twice. That is safe because every call is one transaction
//! or one statement, and SQLite reports "busy" before it changes anything.

use std::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::Duration;

use futures_util::FutureExt;
use rusqlite::{Connection, ErrorCode};

use super::failure::failure;
use crate::store::{StoreError, StoreFuture};

/// A connection that calls share, one at a time.
pub(super) type SharedConnection = Arc<Mutex<Connection>>;

/// How a call may run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Hop {
    /// Here first, on the blocking pool only if it would wait.
    WhenWaiting,
    /// On the blocking pool at once: the call may take long whatever the
    /// locks (a scan of the ledger, megabytes of cache entries).
    Always,
}

/// The connection's lock, even if a panicking call poisoned it: an unfinished
/// transaction is rolled back as it is dropped, so the connection is sound.
fn lock(connection: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    connection.lock().unwrap_or_else(PoisonError::into_inner)
}

fn try_lock(connection: &Mutex<Connection>) -> Option<MutexGuard<'_, Connection>> {
    match connection.try_lock() {
        Ok(guard) => Some(guard),
        Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
        Err(TryLockError::WouldBlock) => None,
    }
}

fn is_busy(error: &rusqlite::Error) -> bool {
    matches!(
        error.sqlite_error_code(),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
    )
}

/// What a store needs to run its calls: its name and busy timeout for
/// messages and waiting.
#[derive(Debug, Clone)]
pub(super) struct Runner {
    pub name: String,
    pub busy_timeout: Duration,
}

impl Runner {
    /// Run `call` on `connection`, as `hop` allows. Each way sets the wait it
    /// allows before the call: none here, the busy timeout on the pool. `what`
    /// says what was being done, for errors.
    pub(super) fn run<'a, T, F>(
        &'a self,
        connection: &SharedConnection,
        hop: Hop,
        what: &'static str,
        call: F,
    ) -> StoreFuture<'a, T>
    where
        T: Send + 'static,
        F: Fn(&mut Connection) -> rusqlite::Result<T> + Send + 'static,
    {
        if hop == Hop::WhenWaiting
            && let Some(mut guard) = try_lock(connection)
        {
            let attempt = || {
                guard.busy_timeout(Duration::ZERO)?;
                call(&mut guard)
            };
            match catch_unwind(AssertUnwindSafe(attempt)) {
                Ok(Err(error)) if is_busy(&error) => {}
                Ok(outcome) => {
                    let outcome = outcome.map_err(|e| self.failure(what, e));
                    return futures_util::future::ready(outcome).boxed();
                }
                Err(_) => return futures_util::future::ready(Err(self.panicked(what))).boxed(),
            }
        }
        let connection = Arc::clone(connection);
        let busy_timeout = self.busy_timeout;
        async move {
            let outcome = tokio::task::spawn_blocking(move || {
                let mut guard = lock(&connection);
                guard.busy_timeout(busy_timeout)?;
                call(&mut guard)
            })
            .await;
            match outcome {
                Ok(outcome) => outcome.map_err(|e| self.failure(what, e)),
                Err(_) => Err(self.panicked(what)),
            }
        }
        .boxed()
    }

    /// Run `call` on `connection` on this thread, waiting as long as the busy
    /// timeout allows: for when there is no runtime to hop to (a store being
    /// dropped).
    pub(super) fn run_here<T>(
        &self,
        connection: &Mutex<Connection>,
        what: &'static str,
        call: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        let mut guard = lock(connection);
        guard
            .busy_timeout(self.busy_timeout)
            .and_then(|()| call(&mut guard))
            .map_err(|e| self.failure(what, e))
    }

    /// A SQLite failure as this store's error.
    pub(super) fn failure(&self, what: &str, error: rusqlite::Error) -> StoreError {
        failure(&self.name, self.busy_timeout, what, error)
    }

    fn panicked(&self, what: &str) -> StoreError {
        StoreError::new(
            self.name.clone(),
            format!("{what}: the store call did not finish (it panicked)"),
        )
    }
}

/// WAL pages after which a passive checkpoint runs, and again each time as
/// many more have been added: SQLite's own automatic checkpoint comes every
/// 1,000 pages.
pub(super) const PASSIVE_EVERY: u32 = 1_000;

/// WAL pages after which a checkpoint holds writers back until it is done.
pub(super) const RESTART_AT: u32 = 8_000;

/// WAL checkpoints, off the callers' path.
///
/// A checkpoint copies the WAL into the database file and syncs both: two
/// `fsync`s, milliseconds on most disks, which SQLite's automatic checkpoint
/// would put inside whichever commit crossed its threshold, on the calling
/// thread. The writer connection reports the WAL's length after each commit
/// instead (its WAL hook, which also turns the automatic checkpoint off), and
/// checkpoints run on the blocking pool:
///
/// - every [`PASSIVE_EVERY`] pages, a passive one, on a connection of its own:
///   it neither waits for nor blocks anyone. When no write lands while it runs
///   (there are pauses between calls that wait for the service), the next
///   write starts the WAL afresh.
/// - at [`RESTART_AT`] pages (writes never paused long enough), a `TRUNCATE`
///   one on the writer connection: the write that crossed the mark waits for
///   it (and this process's other writes on the connection's mutex), and it
///   waits for another process's writer of the moment; the WAL is then
///   emptied, and the next write starts it afresh.
///
/// What one process leaves in the WAL is checkpointed by the next one's, or by
/// SQLite when the last connection to the file closes.
#[derive(Debug)]
pub(super) struct Checkpoints {
    checkpointer: SharedConnection,
    /// Pages in the WAL after the writer's last commit.
    pages: Arc<AtomicU32>,
    /// The WAL's length when the last checkpoint began.
    checkpointed_at: AtomicU32,
    running: Arc<AtomicBool>,
}

impl Checkpoints {
    /// Checkpoints of the file `writer` writes, made on `checkpointer` (or on
    /// `writer` when writes must wait).
    pub(super) fn new(
        writer: &mut Connection,
        checkpointer: Connection,
    ) -> rusqlite::Result<Checkpoints> {
        let pages = Arc::new(AtomicU32::new(0));
        let reported = Arc::clone(&pages);
        writer.wal_hook(Some(
            move |_: &mut rusqlite::hooks::Wal, wal_pages: c_int| {
                reported.store(u32::try_from(wal_pages).unwrap_or(0), Ordering::Relaxed);
                Ok(())
            },
        ))?;
        Ok(Checkpoints {
            checkpointer: Arc::new(Mutex::new(checkpointer)),
            pages,
            checkpointed_at: AtomicU32::new(0),
            running: Arc::new(AtomicBool::new(false)),
        })
    }

    /// Pages in the WAL after the writer's last commit.
    #[cfg(test)]
    pub(super) fn wal_pages(&self) -> u32 {
        self.pages.load(Ordering::Relaxed)
    }

    /// The WAL's length when the last checkpoint began, and whether one is running.
    #[cfg(test)]
    pub(super) fn last_checkpoint(&self) -> (u32, bool) {
        (
            self.checkpointed_at.load(Ordering::Relaxed),
            self.running.load(Ordering::Acquire),
        )
    }

    /// A write on `writer` was committed: checkpoint if the WAL is long enough.
    /// Past [`RESTART_AT`] the checkpoint's handle is returned, and the write
    /// that crossed it waits for it: writes that never pause are held back
    /// until the WAL is emptied, however busy the blocking pool or the
    /// passive checkpoint of the moment.
    pub(super) fn committed(
        &self,
        writer: &SharedConnection,
        busy_timeout: Duration,
    ) -> Option<tokio::task::JoinHandle<()>> {
        let pages = self.pages.load(Ordering::Relaxed);
        let last = self.checkpointed_at.load(Ordering::Relaxed);
        // A WAL started afresh is shorter than at the last checkpoint.
        let last = if pages < last { 0 } else { last };
        let holds_writes_back = pages >= RESTART_AT;
        let (mode, connection) = if holds_writes_back {
            ("TRUNCATE", writer)
        } else if pages >= last.saturating_add(PASSIVE_EVERY) {
            ("PASSIVE", &self.checkpointer)
        } else {
            self.checkpointed_at.store(last, Ordering::Relaxed);
            return None;
        };
        // Only one passive checkpoint at a time; the one that holds writes
        // back runs whatever else is running (it waits on SQLite's own lock).
        if !holds_writes_back && self.running.swap(true, Ordering::AcqRel) {
            return None;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            if !holds_writes_back {
                self.running.store(false, Ordering::Release);
            }
            return None;
        };
        self.checkpointed_at.store(pages, Ordering::Relaxed);
        let connection = Arc::clone(connection);
        let running = (!holds_writes_back).then(|| Arc::clone(&self.running));
        let checkpoint = runtime.spawn_blocking(move || {
            let guard = lock(&connection);
            let outcome = guard.busy_timeout(busy_timeout).and_then(|()| {
                guard.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |_| Ok(()))
            });
            drop(guard);
            if let Err(error) = outcome {
                tracing::debug!(%error, "a WAL checkpoint of the SQLite store failed; the next one will try again");
            }
            if let Some(running) = running {
                running.store(false, Ordering::Release);
            }
        });
        holds_writes_back.then_some(checkpoint)
    }
}
