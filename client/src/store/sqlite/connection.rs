//! Running a store call on one of the store's connections: on the calling
//! thread when that costs no waiting, else on tokio's blocking pool.
//!
//! A store call takes a few microseconds: a point read, or one small
//! transaction that syncs nothing (WAL with `synchronous=NORMAL` syncs only at
//! checkpoints, which run elsewhere, see [`Checkpoints`]). A hop to the
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

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::Duration;

use futures_util::FutureExt;
use rusqlite::{Connection, ErrorCode};

use super::failure;
use crate::store::{StoreError, StoreFuture};

/// A connection that calls share, one at a time.
pub(super) type Shared = Arc<Mutex<Connection>>;

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
    /// Run `call` on `connection` (whose resting busy timeout is zero), as
    /// `hop` allows. `what` says what was being done, for errors.
    pub(super) fn run<'a, T, F>(
        &'a self,
        connection: &Shared,
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
            match catch_unwind(AssertUnwindSafe(|| call(&mut guard))) {
                Ok(Err(error)) if is_busy(&error) => {}
                Ok(outcome) => {
                    let outcome = outcome.map_err(|e| self.failure(what, &e));
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
                let outcome = call(&mut guard);
                guard.busy_timeout(Duration::ZERO)?;
                outcome
            })
            .await;
            match outcome {
                Ok(outcome) => outcome.map_err(|e| self.failure(what, &e)),
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
        let outcome = guard
            .busy_timeout(self.busy_timeout)
            .and_then(|()| call(&mut guard));
        let _ = guard.busy_timeout(Duration::ZERO);
        outcome.map_err(|e| self.failure(what, &e))
    }

    fn failure(&self, what: &str, error: &rusqlite::Error) -> StoreError {
        failure(&self.name, self.busy_timeout, what, error)
    }

    fn panicked(&self, what: &str) -> StoreError {
        StoreError::new(
            self.name.clone(),
            format!("{what}: the store call did not finish (it panicked)"),
        )
    }
}

/// How many commits pass between two checkpoints. Each commit adds a few
/// pages to the WAL; SQLite's own automatic checkpoint comes every 1,000
/// pages, so this keeps the WAL about as short.
const COMMITS_PER_CHECKPOINT: u32 = 300;

/// WAL checkpoints, off the callers' path.
///
/// A checkpoint copies the WAL into the database file and syncs both: two
/// `fsync`s, milliseconds on most disks, which SQLite's automatic checkpoint
/// would put inside whichever commit crossed its threshold, on the calling
/// thread. The store's connections turn it off, and every
/// [`COMMITS_PER_CHECKPOINT`] commits this runs one on the blocking pool, on a
/// connection of its own. It is a `RESTART` checkpoint: it waits for the
/// writer of the moment, holds new writers back while it copies (they wait on
/// the blocking pool too), and so lets the next write start the WAL afresh. A
/// passive one would not: with writes going on beside it, it never catches up
/// with the WAL's end, and the WAL grows without bound. What one process
/// leaves in the WAL is checkpointed by the next one's, or by SQLite when the
/// last connection to the file closes.
#[derive(Debug)]
pub(super) struct Checkpoints {
    connection: Shared,
    commits: AtomicU32,
    running: Arc<AtomicBool>,
}

impl Checkpoints {
    /// Checkpoints on `connection`, which waits up to `busy_timeout` for the
    /// writer of the moment.
    pub(super) fn new(
        connection: Connection,
        busy_timeout: Duration,
    ) -> rusqlite::Result<Checkpoints> {
        connection.busy_timeout(busy_timeout)?;
        Ok(Checkpoints {
            connection: Arc::new(Mutex::new(connection)),
            commits: AtomicU32::new(0),
            running: Arc::new(AtomicBool::new(false)),
        })
    }

    /// A write was committed: checkpoint when enough have been.
    pub(super) fn committed(&self) {
        let commits = self.commits.fetch_add(1, Ordering::Relaxed) + 1;
        if !commits.is_multiple_of(COMMITS_PER_CHECKPOINT)
            || self.running.swap(true, Ordering::AcqRel)
        {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            self.running.store(false, Ordering::Release);
            return;
        };
        let connection = Arc::clone(&self.connection);
        let running = Arc::clone(&self.running);
        runtime.spawn_blocking(move || {
            let outcome = lock(&connection).query_row("PRAGMA wal_checkpoint(RESTART)", [], |_| Ok(()));
            if let Err(error) = outcome {
                tracing::debug!(%error, "a WAL checkpoint of the SQLite store failed; the next one will try again");
            }
            running.store(false, Ordering::Release);
        });
    }
}
