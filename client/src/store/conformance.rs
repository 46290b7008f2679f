//! What every store must do, as one check run against each backend (memory
//! here; SQLite on a real file and Redis on a real server in their own tests).

use std::time::Duration;

use super::{Admission, Backend, Hold, LedgerEntry, SharedSlots, now_ms};
use crate::drift::{DriftKind, JsonType, JsonTypeSet, Observation};

const DAY_MS: i64 = 86_400_000;

fn call(group: &str, action: &str, at_ms: i64, units: i64, rows: i64) -> LedgerEntry {
    LedgerEntry {
        at_ms,
        group: group.into(),
        action: action.into(),
        db: "it".into(),
        items: 1,
        rows,
        units_used: units,
        balance: Some(1_000 - units),
        cache_hit: false,
        units_saved: 0,
        hold: None,
        drift: Vec::new(),
    }
}

fn hold(id: &str, units: i64, budget: i64, lease: Duration) -> Hold {
    Hold {
        id: id.into(),
        units,
        budget,
        window_start_ms: now_ms().div_euclid(DAY_MS) * DAY_MS,
        lease,
    }
}

/// Run every check against `store`, which must start empty for the keys used
/// here (each run uses fresh random keys).
pub(crate) async fn check(store: &dyn Backend) {
    let key = format!("conformance-key-{}", fastrand::u64(..));
    scopes(store, &key);
    cache(store, &key).await;
    ledger(store, &key).await;
    holds(store, &key).await;
    drift(store, &key).await;
    // Slots only where processes share them; a store of one process leaves
    // them to the client's own limiter.
    if let Some(slots) = store.shared_slots() {
        shared_slots(store, slots, &key).await;
    }
}

fn scopes(store: &dyn Backend, key: &str) {
    let scope = store.scope(key);
    assert_eq!(scope, store.scope(key), "a key's scope is stable");
    assert_ne!(
        scope,
        store.scope(&format!("{key}x")),
        "keys do not share state"
    );
    assert!(!scope.0.contains(key), "the scope shows the key");
}

async fn cache(store: &dyn Backend, key: &str) {
    let scope = store.scope(key);
    let other = store.scope(&format!("{key}-other"));
    let keys = vec!["a".to_owned(), "b".to_owned(), "c".to_owned()];
    assert_eq!(
        store.cache_get(&scope, &keys).await.unwrap().entries,
        [None, None, None]
    );
    store
        .cache_put(
            &scope,
            vec![
                ("a".into(), b"first".to_vec(), None),
                (
                    "c".into(),
                    b"short-lived".to_vec(),
                    Some(Duration::from_millis(300)),
                ),
            ],
        )
        .await
        .unwrap();
    store
        .cache_put(&scope, vec![("a".into(), b"second".to_vec(), None)])
        .await
        .unwrap();
    assert_eq!(
        store.cache_get(&scope, &keys).await.unwrap().entries,
        [
            Some(b"second".to_vec()),
            None,
            Some(b"short-lived".to_vec())
        ],
        "a put replaces, a missing key is None, order is kept"
    );
    assert_eq!(
        store.cache_get(&other, &keys).await.unwrap().entries,
        [None, None, None],
        "another key's entries are not seen"
    );
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(
        store.cache_get(&scope, &keys[2..]).await.unwrap().entries,
        [None],
        "an entry is dropped after its keeping time"
    );
}

async fn ledger(store: &dyn Backend, key: &str) {
    let scope = store.scope(key);
    let now = now_ms();
    let today = now.div_euclid(DAY_MS) * DAY_MS;
    assert_eq!(store.last_balance(&scope).await.unwrap(), None);
    assert_eq!(store.cache_get(&scope, &[]).await.unwrap().balance, None);
    store
        .record(
            &scope,
            call("group-a", "action-a", today - 3 * DAY_MS, 7, 1),
        )
        .await
        .unwrap();
    store
        .record(&scope, call("group-b", "action-b", now, 30, 3))
        .await
        .unwrap();
    store
        .record(&scope, call("group-a", "action-a", now, 10, 1))
        .await
        .unwrap();
    let mut hit = call("group-a", "action-a", now, 0, 1);
    hit.cache_hit = true;
    hit.units_saved = 10;
    hit.balance = None;
    store.record(&scope, hit).await.unwrap();

    let balance = store.last_balance(&scope).await.unwrap().unwrap();
    assert_eq!(balance.units_remaining, 990, "the last balance reported");
    assert_eq!(
        store.cache_get(&scope, &[]).await.unwrap().balance,
        Some(balance),
        "a cache lookup reads the last balance with the entries"
    );

    let all = store.usage(&scope, 0).await.unwrap();
    let summary: Vec<_> = all
        .iter()
        .map(|u| {
            (
                u.group.as_str(),
                u.action.as_str(),
                u.calls,
                u.cache_hits,
                u.units_used,
                u.units_saved,
                u.rows,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("group-a", "action-a", 2, 1, 17, 10, 2),
            ("group-b", "action-b", 1, 0, 30, 0, 3),
        ]
    );
    let today_only = store.usage(&scope, today).await.unwrap();
    assert_eq!(
        today_only[0].units_used, 10,
        "--since leaves older days out"
    );
    let other = store.scope(&format!("{key}-other"));
    assert!(store.usage(&other, 0).await.unwrap().is_empty());
}

/// One observation of drift at `at_ms`.
fn observed(member: &str, kind: DriftKind, at_ms: i64, ty: JsonType, example: &str) -> Observation {
    Observation {
        origin: "https://api.example".into(),
        group: "group-a".into(),
        action: "action-a".into(),
        record: "record-a".into(),
        member: member.into(),
        kind,
        count: 2,
        rows: 5,
        first_ms: at_ms,
        last_ms: at_ms,
        types: JsonTypeSet::one(ty),
        example: example.into(),
    }
}

async fn drift(store: &dyn Backend, key: &str) {
    let scope = store.scope(&format!("{key}-drift"));
    let now = now_ms();
    assert!(store.drift(&scope).await.unwrap().is_empty());
    // A call that saw nothing new writes no drift.
    store
        .record(&scope, call("group-a", "action-a", now, 10, 5))
        .await
        .unwrap();
    assert!(store.drift(&scope).await.unwrap().is_empty());
    let mut first = call("group-a", "action-a", now, 10, 5);
    first.drift = vec![
        observed(
            "new_metric",
            DriftKind::UnknownMember,
            now,
            JsonType::Number,
            "7.5",
        ),
        observed("name_a", DriftKind::Missing, now, JsonType::Null, ""),
    ];
    store.record(&scope, first).await.unwrap();
    // The same things again, earlier and later: summed, the earliest example kept.
    let mut later = call("group-a", "action-a", now + 1_000, 10, 5);
    later.drift = vec![observed(
        "new_metric",
        DriftKind::UnknownMember,
        now + 1_000,
        JsonType::Text,
        "\"x\"",
    )];
    store.record(&scope, later).await.unwrap();
    let mut earlier = call("group-a", "action-a", now - 1_000, 10, 5);
    earlier.drift = vec![observed(
        "new_metric",
        DriftKind::UnknownMember,
        now - 1_000,
        JsonType::Integer,
        "7",
    )];
    store.remember(&scope, earlier, Vec::new()).await.unwrap();
    let found = store.drift(&scope).await.unwrap();
    assert_eq!(found.len(), 2, "{found:?}");
    let metric = found
        .iter()
        .find(|o| o.kind == DriftKind::UnknownMember)
        .expect("the unknown member");
    assert_eq!((metric.count, metric.rows), (6, 15));
    assert_eq!(
        (metric.first_ms, metric.last_ms),
        (now - 1_000, now + 1_000)
    );
    assert_eq!(metric.example, "7", "the earliest example");
    let types: Vec<JsonType> = metric.types.iter().collect();
    assert_eq!(types, [JsonType::Integer, JsonType::Number, JsonType::Text]);
    assert_eq!(
        (
            metric.origin.as_str(),
            metric.group.as_str(),
            metric.record.as_str()
        ),
        ("https://api.example", "group-a", "record-a")
    );
    // In report order: the kinds of one member in their order, members by name.
    assert_eq!(found[0].member, "name_a");
    let other = store.scope(&format!("{key}-drift-other"));
    assert!(
        store.drift(&other).await.unwrap().is_empty(),
        "another key's drift is not seen"
    );
    // Usage counts the calls as usual.
    assert_eq!(store.usage(&scope, 0).await.unwrap()[0].calls, 4);
}

async fn holds(store: &dyn Backend, key: &str) {
    let scope = store.scope(&format!("{key}-holds"));
    let now = now_ms();
    let lease = Duration::from_secs(60);
    store
        .record(&scope, call("group-a", "action-a", now, 30, 1))
        .await
        .unwrap();
    assert_eq!(
        store
            .admit(&scope, hold("job-1", 50, 100, lease))
            .await
            .unwrap(),
        Admission::Admitted
    );
    assert_eq!(
        store
            .admit(&scope, hold("job-2", 30, 100, lease))
            .await
            .unwrap(),
        Admission::Refused {
            spent: 30,
            held: 50
        },
        "spent + held + asked is over the budget"
    );
    // job-1's call settles: 20 units charged out of the 50 it held.
    let mut settled = call("group-a", "action-a", now, 20, 1);
    settled.hold = Some(("job-1".into(), 50));
    store.record(&scope, settled).await.unwrap();
    assert_eq!(
        store
            .admit(&scope, hold("job-2", 50, 100, lease))
            .await
            .unwrap(),
        Admission::Admitted,
        "the hold shrank as its call was recorded: 50 spent + 0 + 50 fit"
    );
    assert_eq!(
        store
            .admit(&scope, hold("job-3", 1, 100, lease))
            .await
            .unwrap(),
        Admission::Refused {
            spent: 50,
            held: 50
        }
    );
    store.release(&scope, "job-2").await.unwrap();
    assert_eq!(
        store
            .admit(&scope, hold("job-3", 50, 100, Duration::from_millis(300)))
            .await
            .unwrap(),
        Admission::Admitted,
        "a released hold frees its units"
    );
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(
        store
            .admit(&scope, hold("job-4", 50, 100, lease))
            .await
            .unwrap(),
        Admission::Admitted,
        "a hold whose lease ran out (a crashed holder) frees its units"
    );
}

async fn shared_slots(backend: &dyn Backend, store: &dyn SharedSlots, key: &str) {
    let scope = backend.scope(key);
    let other = backend.scope(&format!("{key}-other"));
    let window = Duration::from_millis(800);
    let in_flight = Duration::from_secs(30);
    let mut ids = Vec::new();
    for _ in 0..3 {
        let id = store
            .take_slot(&scope, "a b", 3, window, in_flight)
            .await
            .unwrap()
            .expect("a slot is free");
        ids.push(id);
    }
    let wait = store
        .take_slot(&scope, "a b", 3, window, in_flight)
        .await
        .unwrap()
        .expect_err("a full window refuses");
    assert!(
        wait > Duration::ZERO && wait <= window,
        "every slot in flight: ask again soon ({wait:?})"
    );
    assert!(
        store
            .take_slot(&scope, "a c", 3, window, in_flight)
            .await
            .unwrap()
            .is_ok(),
        "operations have windows of their own"
    );
    assert!(
        store
            .take_slot(&other, "a b", 3, window, in_flight)
            .await
            .unwrap()
            .is_ok(),
        "keys have windows of their own"
    );
    // In flight, a slot counts however long it takes.
    tokio::time::sleep(window + Duration::from_millis(100)).await;
    assert!(
        store
            .take_slot(&scope, "a b", 3, window, in_flight)
            .await
            .unwrap()
            .is_err(),
        "slots in flight still count after a window"
    );
    // Answered, it counts for a window from the answer.
    store
        .settle_slot(&scope, "a b", &ids[0], window)
        .await
        .unwrap();
    let wait = store
        .take_slot(&scope, "a b", 3, window, in_flight)
        .await
        .unwrap()
        .expect_err("the answered slot counts a window from its answer");
    assert!(
        wait > window / 2 && wait <= window,
        "the wait is until the answered slot frees: {wait:?}"
    );
    tokio::time::sleep(wait + Duration::from_millis(30)).await;
    assert!(
        store
            .take_slot(&scope, "a b", 3, window, in_flight)
            .await
            .unwrap()
            .is_ok(),
        "a slot frees a window after its answer"
    );
    // A slot whose holder never answers (crashed) ends after in-flight + window.
    let short = backend.scope(&format!("{key}-crashed"));
    let brief = Duration::from_millis(200);
    store
        .take_slot(&short, "a b", 1, brief, brief)
        .await
        .unwrap()
        .unwrap();
    assert!(
        store
            .take_slot(&short, "a b", 1, brief, brief)
            .await
            .unwrap()
            .is_err()
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        store
            .take_slot(&short, "a b", 1, brief, brief)
            .await
            .unwrap()
            .is_ok(),
        "a crashed holder's slot ends"
    );
}

/// Call every method of `store` once under `key`'s scope, leaving an entry of
/// each kind behind (a cache entry holding `answer`, a ledger row, a slot
/// where the store shares them, a released hold): what the backends' "the key is nowhere" tests then search.
#[cfg(any(feature = "sqlite", feature = "redis"))]
pub(crate) async fn use_every_method(store: &dyn Backend, key: &str) {
    let scope = store.scope(key);
    let keys = vec!["group-a action-a db=x q=a".to_owned()];
    store
        .cache_put(&scope, vec![(keys[0].clone(), b"answer".to_vec(), None)])
        .await
        .unwrap();
    store.cache_get(&scope, &keys).await.unwrap();
    let hold = Hold {
        id: "job".into(),
        units: 10,
        budget: 100,
        window_start_ms: 0,
        lease: Duration::from_secs(60),
    };
    assert_eq!(
        store.admit(&scope, hold).await.unwrap(),
        Admission::Admitted
    );
    store
        .record(
            &scope,
            LedgerEntry {
                at_ms: now_ms(),
                group: "group-a".into(),
                action: "action-a".into(),
                db: "x".into(),
                items: 1,
                rows: 1,
                units_used: 4,
                balance: Some(96),
                cache_hit: false,
                units_saved: 0,
                hold: Some(("job".into(), 10)),
                drift: vec![observed(
                    "m",
                    DriftKind::UnknownMember,
                    now_ms(),
                    JsonType::Integer,
                    "1",
                )],
            },
        )
        .await
        .unwrap();
    store.usage(&scope, 0).await.unwrap();
    store.last_balance(&scope).await.unwrap();
    store.drift(&scope).await.unwrap();
    if let Some(slots) = store.shared_slots() {
        slots
            .take_slot(
                &scope,
                "group-a action-a",
                10,
                Duration::from_secs(60),
                Duration::from_secs(30),
            )
            .await
            .unwrap()
            .unwrap();
    }
    store.release(&scope, "job").await.unwrap();
}
