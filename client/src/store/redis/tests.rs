//! The Redis store against a real `redis-server` each test starts.

use std::time::Duration;

use redis::AsyncCommands;

use super::super::{Backend, LedgerEntry, SharedSlots, Store, conformance};
use super::Redis;
use seozoom_test_support::RedisServer;

#[tokio::test]
async fn redis_behaves_as_every_store_must() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    conformance::check(&Redis::open(&server.url()).unwrap()).await;
}

#[tokio::test]
async fn parallel_stores_on_one_server_share_the_rate_window() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    // Two stores, two connections: as two machines.
    let first = Redis::open(&server.url()).unwrap();
    let second = Redis::open(&server.url()).unwrap();
    let scope = first.scope("shared key");
    let window = Duration::from_secs(60);
    let takes = (0..20).map(|i| {
        let store = if i % 2 == 0 { &first } else { &second };
        store.take_slot(&scope, "op", 5, window, Duration::from_secs(30))
    });
    let taken = futures_util::future::join_all(takes)
        .await
        .into_iter()
        .filter(|r| matches!(r, Ok(Ok(_))))
        .count();
    assert_eq!(taken, 5);
}

/// Every key of the server, with every value it holds, as bytes.
async fn everything(url: &str) -> Vec<(Vec<u8>, Vec<Vec<u8>>)> {
    let client = redis::Client::open(url).unwrap();
    let mut connection = client.get_multiplexed_async_connection().await.unwrap();
    let keys: Vec<Vec<u8>> = connection.keys("*").await.unwrap();
    let mut out = Vec::new();
    for key in keys {
        let kind: String = redis::cmd("TYPE")
            .arg(&key)
            .query_async(&mut connection)
            .await
            .unwrap();
        let read = match kind.as_str() {
            "string" => redis::cmd("GET").arg(&key).clone(),
            "hash" => redis::cmd("HGETALL").arg(&key).clone(),
            "set" => redis::cmd("SMEMBERS").arg(&key).clone(),
            "zset" => redis::cmd("ZRANGE").arg(&key).arg(0).arg(-1).clone(),
            "stream" => redis::cmd("XRANGE").arg(&key).arg("-").arg("+").clone(),
            other => panic!("a key of type {other}"),
        };
        let value: redis::Value = read.query_async(&mut connection).await.unwrap();
        let mut values = Vec::new();
        flatten(value, &mut values);
        out.push((key, values));
    }
    out
}

fn flatten(value: redis::Value, out: &mut Vec<Vec<u8>>) {
    match value {
        redis::Value::BulkString(bytes) => out.push(bytes),
        redis::Value::SimpleString(text) => out.push(text.into_bytes()),
        redis::Value::Int(n) => out.push(n.to_string().into_bytes()),
        redis::Value::Array(items) | redis::Value::Set(items) => {
            for item in items {
                flatten(item, out);
            }
        }
        redis::Value::Map(pairs) => {
            for (k, v) in pairs {
                flatten(k, out);
                flatten(v, out);
            }
        }
        other => out.push(format!("{other:?}").into_bytes()),
    }
}

#[tokio::test]
async fn the_key_is_in_no_redis_key_or_value() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    let key = "SECRET-API-KEY-0123456789";
    let store = Redis::open(&server.url()).unwrap();
    crate::store::conformance::use_every_method(&store, key).await;
    let scope = store.scope(key);

    let found =
        |bytes: &[u8], needle: &str| bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
    let all = everything(&server.url()).await;
    // The check sees what was written: every kind of key, under the scope.
    assert!(all.len() >= 6, "{} keys", all.len());
    assert!(all.iter().all(|(k, _)| found(k, &scope.0)));
    assert!(
        all.iter()
            .any(|(_, v)| v.iter().any(|v| found(v, "answer")))
    );
    for (name, values) in &all {
        let shown = String::from_utf8_lossy(name);
        assert!(!found(name, key), "the key is in the key name {shown}");
        for value in values {
            assert!(!found(value, key), "the key is in a value of {shown}");
        }
    }
}

#[tokio::test]
async fn a_redis_that_goes_away_is_an_error_naming_the_store() {
    let Some(mut server) = RedisServer::start() else {
        return;
    };
    let url = server.url();
    let store = Redis::open(&url).unwrap();
    let scope = store.scope("SECRET-API-KEY");
    let window = Duration::from_secs(60);
    assert!(
        store
            .take_slot(&scope, "op", 5, window, Duration::from_secs(30))
            .await
            .unwrap()
            .is_ok()
    );

    server.kill();
    for _ in 0..2 {
        // The lost connection, then a new one refused.
        let error = store
            .take_slot(&scope, "op", 5, window, Duration::from_secs(30))
            .await
            .unwrap_err()
            .into_error()
            .to_string();
        assert!(error.contains(&url), "{error}");
        assert!(error.contains("cannot be reached"), "{error}");
        assert!(!error.contains("SECRET"), "{error}");
    }
}

#[tokio::test]
async fn an_unreachable_redis_is_an_error_naming_the_store_without_its_password() {
    let Some(mut server) = RedisServer::start() else {
        return;
    };
    let port = server.port();
    server.kill();
    let store = Store::open(&format!("redis://seozoom:pa55word@127.0.0.1:{port}/2")).unwrap();
    assert_eq!(
        store.name(),
        format!("redis://seozoom:<hidden>@127.0.0.1:{port}/2")
    );
    let scope = store.backend().scope("SECRET-API-KEY");
    let error = store
        .backend()
        .cache_get(&scope, &["k".to_owned()])
        .await
        .unwrap_err()
        .into_error();
    let shown = error.to_string();
    assert!(shown.contains(store.name()), "{shown}");
    // Redis's own error is the source, and no rendering along the chain
    // shows the password or the key.
    let source = std::error::Error::source(&error).expect("a source");
    let redis = source
        .downcast_ref::<redis::RedisError>()
        .expect("Redis's error");
    assert!(
        redis.is_io_error() || redis.is_connection_refusal(),
        "{redis:?}"
    );
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(&error);
    while let Some(e) = next {
        for text in [e.to_string(), format!("{e:?}"), format!("{e:#?}")] {
            assert!(!text.contains("pa55word"), "{text}");
            assert!(!text.contains("SECRET"), "{text}");
        }
        next = e.source();
    }
}

#[test]
fn a_bad_redis_url_is_refused_at_open() {
    let error = Store::open("redis://127.0.0.1:notaport/0")
        .unwrap_err()
        .to_string();
    assert!(error.contains("redis://127.0.0.1:notaport/0"), "{error}");
    assert!(error.contains("not a usable Redis URL"), "{error}");
}

#[tokio::test]
async fn tls_is_spoken_to_rediss_urls() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    // A plain server does not answer TLS: an error naming the store (the TLS
    // stack is there and does not panic).
    let url = format!("rediss://127.0.0.1:{}/0", server.port());
    let store = Store::open(&url).unwrap();
    let scope = store.backend().scope("k");
    let error = store
        .backend()
        .usage(&scope, 0)
        .await
        .unwrap_err()
        .into_error()
        .to_string();
    assert!(error.contains(&url), "{error}");
}

/// A connection that Redis closed (`CLIENT KILL`, a restart, a proxy's idle
/// timeout) fails no store call: the call is made again, once, on a new
/// connection. (The first call after it failed, and only the next one
/// connected again.)
#[tokio::test]
async fn a_dropped_connection_is_opened_again_and_the_call_made_once_more() {
    let Some(mut server) = RedisServer::start() else {
        return;
    };
    let store = Redis::open(&server.url()).unwrap();
    let scope = store.scope("key");
    let keys = ["k".to_owned()];
    store
        .cache_put(&scope, vec![("k".into(), b"v".to_vec(), None)])
        .await
        .unwrap();

    server.kill_clients();
    let found = store.cache_get(&scope, &keys).await.unwrap().entries;
    assert_eq!(found, [Some(b"v".to_vec())], "read on a new connection");

    // A restarted server: empty (nothing is persisted here), and answering.
    server.restart();
    let found = store.cache_get(&scope, &keys).await.unwrap().entries;
    assert_eq!(found, [None]);
    server.kill_clients();
    store
        .record(
            &scope,
            LedgerEntry {
                at_ms: super::super::now_ms(),
                group: "g".into(),
                action: "a".into(),
                db: "it".into(),
                items: 1,
                rows: 1,
                units_used: 10,
                balance: Some(990),
                cache_hit: false,
                units_saved: 0,
                hold: None,
                drift: Vec::new(),
            },
        )
        .await
        .unwrap();
    let usage = store.usage(&scope, 0).await.unwrap();
    assert_eq!(
        (usage[0].calls, usage[0].units_used),
        (1, 10),
        "written once"
    );
}
