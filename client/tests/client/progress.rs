//! A run's progress callback over real HTTP on loopback: a 429 with a
//! `Retry-After` is told as a retry and a wait (its cause, its length, the
//! attempt after it) and the wait's end; the same run again is told as a
//! cache hit, with nothing sent; a batched job whose inputs the cache answers
//! in part is told how many items it answered.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use seozoom::job::{Progress, RunOptions, WaitCause};
use seozoom::store::Store;

use crate::support::{Reply, Server};

/// A `keywords metrics` envelope with one row.
fn one_keyword() -> Reply {
    Reply::json(
        200,
        r#"{"ResultRows":1,"UnitsUsed":10,"UnitsRemaining":48700,"response":[
        {"keyword":"mutuo","search_volume":90500}]}"#,
    )
}

/// Run options that keep every progress event, and the events kept.
fn kept() -> (RunOptions, Arc<Mutex<Vec<Progress>>>) {
    let events: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let keep = Arc::clone(&events);
    let options = RunOptions::new().on_progress(move |progress| {
        keep.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(progress);
    });
    (options, events)
}

fn taken(events: &Mutex<Vec<Progress>>) -> Vec<Progress> {
    std::mem::take(&mut *events.lock().unwrap_or_else(PoisonError::into_inner))
}

#[tokio::test]
async fn a_429_is_told_as_a_retry_and_a_wait_and_the_run_again_as_a_cache_hit() {
    let server = Server::script([
        Reply::json(429, r#"{"message":"Too Many Requests"}"#).header("retry-after", "1"),
        one_keyword(),
    ])
    .await;
    let client = server.builder().store(Store::memory()).build().unwrap();
    let request = client.keywords().metrics(["mutuo"]).request();
    let (options, events) = kept();

    let first = client
        .run::<serde_json::Value>(request.clone(), options.clone())
        .await;
    assert!(first.is_ok(), "{first:?}");
    assert_eq!(server.requests(), 2);
    let told = taken(&events);
    let retry = told.iter().find_map(|p| match p {
        Progress::Retrying(retry) => Some(retry),
        _ => None,
    });
    let retry = retry.unwrap_or_else(|| panic!("no retry told: {told:?}"));
    assert_eq!(retry.operation, "keywords metrics");
    assert_eq!(retry.attempt, 2);
    assert!(retry.reason.contains("HTTP 429"), "{retry:?}");
    let waits: Vec<_> = told
        .iter()
        .filter_map(|p| match p {
            Progress::Waiting(wait) => Some(wait),
            _ => None,
        })
        .collect();
    assert_eq!(waits.len(), 1, "{told:?}");
    let wait = waits[0];
    assert_eq!(
        (wait.cause, wait.wait, wait.attempt),
        (WaitCause::RetryAfter, Duration::from_secs(1), 2),
        "{wait:?}"
    );
    assert_eq!(wait.reason, "HTTP 429, Retry-After: 1");
    assert!(wait.max_wait >= wait.wait && wait.waited_before.is_zero());
    let line = Progress::Waiting(wait.clone()).to_string();
    assert_eq!(
        line,
        "keywords metrics: waiting 1 s for the time the service asked for (HTTP 429, Retry-After: 1) before attempt 2"
    );
    // The wait is told over after it is told begun, waited out in full.
    let at = |wanted: fn(&Progress) -> bool| told.iter().position(wanted);
    let (begun, over) = (
        at(|p| matches!(p, Progress::Waiting(_))),
        at(|p| matches!(p, Progress::Waited(_))),
    );
    assert!(begun < over && over.is_some(), "{told:?}");
    let Some(Progress::Waited(waited)) = over.map(|i| &told[i]) else {
        unreachable!()
    };
    assert_eq!(
        (waited.waited, waited.stopped),
        (Duration::from_secs(1), false)
    );
    assert!(
        !told.iter().any(|p| matches!(p, Progress::Cached(_))),
        "nothing came from the cache: {told:?}"
    );

    let before = SystemTime::now();
    let again = client.run::<serde_json::Value>(request, options).await;
    assert!(again.is_ok_and(|outcome| outcome.figures.from_cache));
    assert_eq!(server.requests(), 2, "the cache answered: nothing sent");
    let told = taken(&events);
    let hits: Vec<_> = told
        .iter()
        .filter_map(|p| match p {
            Progress::Cached(hit) => Some(hit),
            _ => None,
        })
        .collect();
    assert_eq!(hits.len(), 1, "{told:?}");
    assert_eq!(
        (hits[0].operation.as_str(), hits[0].requests, hits[0].items),
        ("keywords metrics", 1, 1)
    );
    assert!(hits[0].fetched_at <= before, "{:?}", hits[0]);
    assert!(
        !told
            .iter()
            .any(|p| matches!(p, Progress::Waiting(_) | Progress::Retrying(_))),
        "{told:?}"
    );
}

#[cfg(feature = "sandbox")]
#[tokio::test]
async fn items_the_cache_answers_are_told_by_their_count() {
    use seozoom::sandbox::Sandbox;

    let sandbox = Sandbox::start().await.unwrap();
    let client = seozoom::Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .store(Store::memory())
        .build()
        .unwrap();
    let (options, events) = kept();
    let first = client.keywords().metrics(["mutuo", "scarpe"]).request();
    let first = client
        .run::<serde_json::Value>(first, options.clone())
        .await;
    assert!(first.is_ok(), "{first:?}");
    assert!(
        !taken(&events)
            .iter()
            .any(|p| matches!(p, Progress::Cached(_)))
    );
    let half = client.keywords().metrics(["mutuo", "brand new"]).request();
    let half = client.run::<serde_json::Value>(half, options).await;
    assert!(half.is_ok_and(|outcome| outcome.figures.cached_items == 1));
    let told = taken(&events);
    let hit = told.iter().find_map(|p| match p {
        Progress::Cached(hit) => Some(hit),
        _ => None,
    });
    let hit = hit.unwrap_or_else(|| panic!("no cache hit told: {told:?}"));
    assert_eq!((hit.requests, hit.items), (0, 1), "{hit:?}");
    assert_eq!(
        Progress::Cached(hit.clone()).to_string(),
        "keywords metrics: 1 input answered from the cache, not charged"
    );
}
