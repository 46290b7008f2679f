//! The SQLite store on real files in a scratch directory.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rusqlite::Connection;

use super::super::{Backend, LedgerEntry, SharedSlots, conformance, now_ms};
use super::Sqlite;

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "seozoom-sqlite-{}-{}",
            std::process::id(),
            fastrand::u64(..)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn file(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn open_error(path: &str) -> String {
    match Sqlite::open_waiting(path, Duration::from_millis(200)) {
        Ok(_) => panic!("{path} opened"),
        Err(e) => e.into_error().to_string(),
    }
}

/// The error a user gets opening the store at `path`
/// ([`Store::open`](crate::store::Store::open)).
fn open_failure(path: &str) -> crate::Error {
    match crate::store::Store::open(&format!("sqlite:{path}")) {
        Ok(_) => panic!("{path} opened"),
        Err(error) => error,
    }
}

#[tokio::test]
async fn sqlite_behaves_as_every_store_must() {
    let scratch = Scratch::new();
    // In a directory that does not exist yet: it is created.
    let store = Sqlite::open(&scratch.file("new/dir/store.sqlite3")).unwrap();
    conformance::check(&store).await;
}

/// Paid data is the user's alone: a new store's directory is `0700`, and its
/// file and SQLite's own `-wal` and `-shm` files beside it are `0600`,
/// whatever the umask lets other files be. (They were `0755` and `0644`.)
#[cfg(unix)]
#[tokio::test]
async fn a_new_store_is_readable_by_its_user_alone() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    let scratch = Scratch::new();
    let path = scratch.file("new/store.sqlite3");
    let store = Sqlite::open(&path).unwrap();
    let scope = store.scope("key");
    store
        .cache_put(&scope, vec![("k".into(), b"v".to_vec(), None)])
        .await
        .unwrap();
    let dir = scratch.0.join("new");
    assert_eq!(mode(&dir), 0o700, "the directory");
    let mut files: Vec<(String, u32)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, mode(&path))
        })
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            ("store.sqlite3".to_owned(), 0o600),
            ("store.sqlite3-shm".to_owned(), 0o600),
            ("store.sqlite3-wal".to_owned(), 0o600),
        ]
    );
    assert_eq!(
        crate::store::file_access::readable_by_others(Path::new(&path)),
        []
    );
}

/// A store file that exists keeps its permissions, and is reported (with the
/// files SQLite makes beside it) when others may read it.
#[cfg(unix)]
#[tokio::test]
async fn an_existing_store_file_keeps_its_permissions_and_is_reported() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = Scratch::new();
    let path = scratch.file("store.sqlite3");
    drop(Sqlite::open(&path).unwrap());
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let store = crate::store::Store::open(&format!("sqlite:{path}")).unwrap();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o644, "left alone");
    // SQLite made the file's `-wal` and `-shm` as it opened it, with the
    // file's permissions.
    let reported: Vec<(String, u32)> = store
        .readable_by_others()
        .into_iter()
        .map(|file| (file.path.display().to_string(), file.mode))
        .collect();
    let named = |suffix: &str| (format!("{path}{suffix}"), 0o644);
    assert_eq!(reported, [named(""), named("-wal"), named("-shm")]);
    assert!(
        crate::store::Store::memory()
            .readable_by_others()
            .is_empty()
    );
}

#[tokio::test]
async fn state_outlives_the_store_and_is_shared_by_every_store_on_the_file() {
    let scratch = Scratch::new();
    let path = scratch.file("store.sqlite3");
    let first = Sqlite::open(&path).unwrap();
    let second = Sqlite::open(&path).unwrap();
    let scope = first.scope("shared key");
    first
        .cache_put(&scope, vec![("k".into(), b"v".to_vec(), None)])
        .await
        .unwrap();
    drop(first);
    assert_eq!(
        second
            .cache_get(&scope, &["k".to_owned()])
            .await
            .unwrap()
            .entries,
        [Some(b"v".to_vec())]
    );

    // Twenty requests at once from two stores (two connections, as two
    // processes have): exactly the figure get a slot.
    let third = Sqlite::open(&path).unwrap();
    let window = Duration::from_secs(60);
    let takes = (0..20).map(|i| {
        let store = if i % 2 == 0 { &second } else { &third };
        store.take_slot(&scope, "op", 5, window, Duration::from_secs(30))
    });
    let taken = futures_util::future::join_all(takes)
        .await
        .into_iter()
        .filter(|r| matches!(r, Ok(Ok(_))))
        .count();
    assert_eq!(taken, 5);
}

/// Every file of the store: the database, its WAL and shared-memory files.
fn store_bytes(dir: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    for file in std::fs::read_dir(dir).unwrap() {
        bytes.extend(std::fs::read(file.unwrap().path()).unwrap());
    }
    bytes
}

#[tokio::test]
async fn the_key_is_in_no_byte_of_the_store() {
    let key = "SECRET-API-KEY-0123456789";
    let scratch = Scratch::new();
    let path = scratch.file("store.sqlite3");
    let store = Sqlite::open(&path).unwrap();
    crate::store::conformance::use_every_method(&store, key).await;
    let scope = store.scope(key);

    // While open (the WAL holds the writes) and once closed (checkpointed).
    let found = |bytes: &[u8], needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    let open = store_bytes(&scratch.0);
    assert!(
        found(&open, scope.0.as_bytes()),
        "the check reads the writes"
    );
    assert!(
        !found(&open, key.as_bytes()),
        "the key is in the store's files"
    );
    drop(store);
    let closed = store_bytes(&scratch.0);
    assert!(found(&closed, b"answer"), "the check reads the writes");
    assert!(
        !found(&closed, key.as_bytes()),
        "the key is in the store file"
    );
}

#[tokio::test]
async fn a_locked_file_is_waited_for_then_refused_naming_it() {
    let scratch = Scratch::new();
    let path = scratch.file("store.sqlite3");
    let store = Sqlite::open_waiting(&path, Duration::from_millis(300)).unwrap();
    let scope = store.scope("k");

    let locker = Connection::open(&path).unwrap();
    locker.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let started = Instant::now();
    let error = store
        .take_slot(
            &scope,
            "op",
            5,
            Duration::from_secs(60),
            Duration::from_secs(30),
        )
        .await
        .unwrap_err()
        .into_error()
        .to_string();
    assert!(
        started.elapsed() >= Duration::from_millis(300),
        "did not wait"
    );
    assert!(error.contains(&path), "{error}");
    assert!(error.contains("locked by another process"), "{error}");
    // Opening waits and fails the same way.
    let error = open_error(&path);
    assert!(error.contains("locked"), "{error}");

    // Once the lock is let go, the store works again.
    locker.execute_batch("COMMIT").unwrap();
    assert!(
        store
            .take_slot(
                &scope,
                "op",
                5,
                Duration::from_secs(60),
                Duration::from_secs(30)
            )
            .await
            .unwrap()
            .is_ok()
    );
}

#[test]
fn a_file_that_is_not_sqlite_is_refused_at_open() {
    let scratch = Scratch::new();
    let path = scratch.file("notes.txt");
    std::fs::write(&path, "shopping list: ".repeat(100)).unwrap();
    let error = open_error(&path);
    assert!(error.contains(&path), "{error}");
    assert!(error.contains("not a SQLite file"), "{error}");
    // SQLite's own error is the source.
    let error = open_failure(&path);
    let source = std::error::Error::source(&error).expect("a source");
    let sqlite = source.downcast_ref::<rusqlite::Error>();
    assert_eq!(
        sqlite.and_then(rusqlite::Error::sqlite_error_code),
        Some(rusqlite::ErrorCode::NotADatabase),
        "{source:?}"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        "shopping list: ".repeat(100).as_bytes(),
        "the file is left as it was"
    );
}

#[test]
fn a_sqlite_file_of_something_else_or_of_a_newer_seozoom_is_refused_at_open() {
    let scratch = Scratch::new();
    let foreign = scratch.file("other.db");
    Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE contacts (name TEXT)")
        .unwrap();
    let error = open_error(&foreign);
    assert!(error.contains("something else"), "{error}");

    let newer = scratch.file("newer.sqlite3");
    drop(Sqlite::open(&newer).unwrap());
    Connection::open(&newer)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let error = open_error(&newer);
    assert!(error.contains("newer seozoom"), "{error}");
    assert!(error.contains("99"), "{error}");
}

#[test]
fn a_path_that_cannot_be_created_is_refused_at_open() {
    let scratch = Scratch::new();
    let file = scratch.file("plain-file");
    std::fs::write(&file, "x").unwrap();
    // Its "directory" is a file.
    let error = open_error(&format!("{file}/store.sqlite3"));
    assert!(error.contains("cannot create the directory"), "{error}");
    assert!(error.contains(&file), "{error}");
    // The I/O error is the source.
    let error = open_failure(&format!("{file}/store.sqlite3"));
    let source = std::error::Error::source(&error).expect("a source");
    assert!(
        source.downcast_ref::<std::io::Error>().is_some(),
        "{source:?}"
    );
    // A directory is not a store file.
    let error = open_error(&scratch.0.to_string_lossy());
    assert!(error.contains("is a directory"), "{error}");
}

/// This test binary again, running only the ignored test `name` with `env`
/// set: a second process on the store file.
fn child(name: &str, env: &[(&str, &str)]) -> (Child, impl Iterator<Item = String> + use<>) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            name,
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lines = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok);
    (child, lines)
}

#[test]
#[ignore = "run by other tests as a second process"]
fn child_holding_a_write_lock() {
    let path = std::env::var("SEOZOOM_TEST_STORE").unwrap();
    let connection = Connection::open(&path).unwrap();
    connection.execute_batch("BEGIN EXCLUSIVE").unwrap();
    // On a line of its own: libtest has begun one with the test's name.
    println!("\nLOCKED");
    std::thread::sleep(Duration::from_secs(3));
    connection.execute_batch("COMMIT").unwrap();
}

#[tokio::test]
async fn a_file_another_process_locks_is_waited_for_then_refused_naming_it() {
    let scratch = Scratch::new();
    let path = scratch.file("store.sqlite3");
    let store = Sqlite::open_waiting(&path, Duration::from_millis(300)).unwrap();
    let scope = store.scope("k");
    let (mut locker, mut lines) = child(
        "store::sqlite::tests::child_holding_a_write_lock",
        &[("SEOZOOM_TEST_STORE", &path)],
    );
    assert!(
        lines.any(|l| l == "LOCKED"),
        "the other process did not lock"
    );
    let started = Instant::now();
    let error = store
        .record(&scope, entry(1))
        .await
        .unwrap_err()
        .into_error()
        .to_string();
    assert!(
        started.elapsed() >= Duration::from_millis(300),
        "did not wait"
    );
    assert!(error.contains(&path), "{error}");
    assert!(error.contains("locked by another process"), "{error}");
    let _ = locker.kill();
    let _ = locker.wait();
}

fn entry(units: i64) -> LedgerEntry {
    LedgerEntry {
        at_ms: now_ms(),
        group: "g".into(),
        action: "a".into(),
        db: "d".into(),
        items: 1,
        rows: 1,
        units_used: units,
        balance: None,
        cache_hit: false,
        units_saved: 0,
        hold: None,
        drift: Vec::new(),
    }
}

#[tokio::test]
#[ignore = "run by other tests as a second process"]
async fn child_recording_calls_until_killed() {
    let path = std::env::var("SEOZOOM_TEST_STORE").unwrap();
    let store = Sqlite::open(&path).unwrap();
    let scope = store.scope("k");
    for recorded in 1.. {
        store.record(&scope, entry(1)).await.unwrap();
        println!("\nRECORDED {recorded}");
    }
}

#[tokio::test]
async fn a_process_killed_while_writing_loses_at_most_that_write() {
    let scratch = Scratch::new();
    let path = scratch.file("store.sqlite3");
    drop(Sqlite::open(&path).unwrap());
    let (mut writer, lines) = child(
        "store::sqlite::tests::child_recording_calls_until_killed",
        &[("SEOZOOM_TEST_STORE", &path)],
    );
    // The last write the writer saw committed, read to the end of its output
    // (it may have gone on past the kill signal's sending).
    let mut last = 0;
    for line in lines {
        if let Some(n) = line.strip_prefix("RECORDED ") {
            last = n.parse::<i64>().unwrap();
            if last == 200 {
                // SIGKILL, in the middle of a write (or between two).
                writer.kill().unwrap();
            }
        }
    }
    writer.wait().unwrap();
    assert!(last >= 200, "the writer stopped early, at {last}");

    let store = Sqlite::open(&path).unwrap();
    let usage = store.usage(&store.scope("k"), 0).await.unwrap();
    let calls = usage.first().map_or(0, |u| u.calls);
    assert!(
        (last..=last + 1).contains(&calls),
        "{calls} calls kept of the {last} written (and one in flight)"
    );
    assert_eq!(usage[0].units_used, calls, "every kept row is whole");
}

fn hit(saved: i64) -> LedgerEntry {
    LedgerEntry {
        cache_hit: true,
        units_used: 0,
        units_saved: saved,
        ..entry(0)
    }
}

/// Cache hits seen by another store on the file (another process's view).
async fn hits_seen(store: &Sqlite, key: &str) -> i64 {
    let usage = store.usage(&store.scope(key), 0).await.unwrap();
    usage.iter().map(|u| u.cache_hits).sum()
}

#[tokio::test]
async fn hits_reach_the_file_within_the_flush_time_and_when_the_store_is_dropped() {
    let scratch = Scratch::new();
    let path = scratch.file("store.sqlite3");
    let (first, other) = (Sqlite::open(&path).unwrap(), Sqlite::open(&path).unwrap());
    let scope = first.scope("k");
    for saved in 1..=3 {
        first.record(&scope, hit(saved)).await.unwrap();
    }
    assert_eq!(
        hits_seen(&other, "k").await,
        0,
        "hits are written in a batch"
    );
    // With no further call from `first`.
    tokio::time::sleep(super::hits::FLUSH_AFTER + Duration::from_millis(500)).await;
    assert_eq!(
        hits_seen(&other, "k").await,
        3,
        "not written within the flush time"
    );

    first.record(&scope, hit(4)).await.unwrap();
    drop(first);
    assert_eq!(
        hits_seen(&other, "k").await,
        4,
        "not written as the store was dropped"
    );

    // A full batch is written at once.
    let third = Sqlite::open(&path).unwrap();
    for saved in 0..super::hits::FLUSH_AT as i64 {
        third.record(&scope, hit(saved)).await.unwrap();
    }
    assert_eq!(
        hits_seen(&other, "k").await,
        4 + super::hits::FLUSH_AT as i64
    );
}

#[tokio::test]
async fn the_wal_stays_bounded_when_writes_never_pause() {
    let scratch = Scratch::new();
    let path = scratch.file("store.sqlite3");
    let store = Sqlite::open(&path).unwrap();
    let scope = store.scope("k");
    // Writes with no pause: the passive checkpoints never catch up, and the
    // WAL must be bounded by the one that holds writes back.
    let writes = 6_000;
    for _ in 0..writes {
        store.record(&scope, entry(1)).await.unwrap();
    }
    let frame = 4096 + 24;
    let wal = std::fs::metadata(format!("{path}-wal")).unwrap().len();
    // Each commit appends at least two pages (the ledger's and an index's):
    // without checkpoints the WAL would hold them all.
    let unchecked = writes * 2 * frame;
    let bound = u64::from(super::connection::RESTART_AT + 1_000) * frame;
    assert!(
        wal < bound && bound < unchecked,
        "the WAL is {wal} bytes after {writes} commits (bound {bound}, unchecked {unchecked})"
    );
}

#[tokio::test]
async fn a_pause_lets_a_passive_checkpoint_start_the_wal_afresh() {
    // With a pause, a passive checkpoint catches up and the next write starts
    // the WAL afresh: write until one begins, let it finish, write again. A
    // store of its own, so that no checkpoint left running by other writes
    // (nor one that holds writes back, far off at this length) takes part.
    // (How long it takes is the disk's business: the test waits for it rather
    // than for a fixed time.)
    let scratch = Scratch::new();
    let store = Sqlite::open(&scratch.file("store.sqlite3")).unwrap();
    let scope = store.scope("k");
    let before = store.inner.checkpoints.last_checkpoint().0;
    let mut writes = 0;
    // (It changes when one begins, or when a write finds the WAL started afresh
    // by one that ended.)
    while store.inner.checkpoints.last_checkpoint().0 == before {
        assert!(
            writes < super::connection::PASSIVE_EVERY * 2,
            "no checkpoint began after {writes} writes"
        );
        store.record(&scope, entry(1)).await.unwrap();
        writes += 1;
    }
    let waited = Instant::now();
    while store.inner.checkpoints.last_checkpoint().1 {
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "the checkpoint never ended"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    store.record(&scope, entry(1)).await.unwrap();
    let pages = store.inner.checkpoints.wal_pages();
    assert!(
        pages < 100,
        "{pages} pages in the WAL after a write that followed a whole checkpoint"
    );
}
