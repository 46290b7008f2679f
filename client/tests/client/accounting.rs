//! What a call's attempts are charged, in both ledgers: the client's own
//! (`Client::units`, which budgets read) and the store's (`Client::usage`).
//! Every attempt the service answered may have been charged, a retried one
//! included, so each is counted exactly once: however the call ends (an
//! answer, a failure after its retries, a stop or a wait too long while it
//! waited to retry) and even when its future is dropped mid-wait.

use crate::support;

use std::time::Duration;

use seozoom::config::RetryPolicy;
use seozoom::error::{Charge, ErrorKind};
use seozoom::job::{RunOptions, Stop};
use seozoom::store::Store;
use seozoom::types::KeywordMetrics;
use seozoom::{Client, Envelope, Error};

use support::{Reply, Server};

/// Retries as the default policy does, but fast; a `Retry-After` of up to a
/// minute is waited for.
fn fast() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 3,
        initial_backoff: Duration::from_millis(10),
        max_backoff: Duration::from_millis(50),
        max_retry_after: Duration::from_secs(60),
        max_rate_limited_windows: 3,
    }
}

/// A 503 whose body says the service charged 10 units for it.
fn charged_503() -> Reply {
    Reply::json(
        503,
        r#"{"ResultRows":0,"UnitsUsed":10,"UnitsRemaining":990,"response":[]}"#,
    )
}

/// An answer of no rows, charged `used`.
fn empty(used: i64, remaining: i64) -> Reply {
    Reply::json(
        200,
        &format!(
            r#"{{"ResultRows":0,"UnitsUsed":{used},"UnitsRemaining":{remaining},"response":[]}}"#
        ),
    )
}

/// A client of `server` on a store of its own memory.
fn client(server: &Server) -> Client {
    server
        .builder()
        .retry(fast())
        .store(Store::memory())
        .build()
        .unwrap()
}

async fn metrics(client: &Client) -> Result<Envelope<Vec<KeywordMetrics>>, Error> {
    client.keywords().metrics(["mutuo"]).send().await
}

/// The store's ledger: calls and units of the one operation called.
async fn stored(client: &Client) -> (i64, i64) {
    let usage = client.usage(0).await.unwrap();
    assert!(usage.len() <= 1, "{usage:?}");
    usage.first().map_or((0, 0), |u| (u.calls, u.units_used))
}

#[tokio::test]
async fn a_retried_attempt_and_the_answer_are_each_counted_once() {
    let server = Server::script([charged_503(), empty(10, 980)]).await;
    let client = client(&server);
    let envelope = metrics(&client).await.unwrap();
    assert_eq!(server.requests(), 2);
    assert_eq!(envelope.units_used, 10, "the answer's own charge");
    assert_eq!(
        client.units().used,
        20,
        "both attempts, in the client's ledger"
    );
    assert_eq!(client.units().calls, 2);
    assert_eq!(
        stored(&client).await,
        (2, 20),
        "both attempts, in the store's"
    );
}

#[tokio::test]
async fn a_call_that_fails_after_its_retries_is_charged_every_attempt_once() {
    let server = Server::script([charged_503()]).await;
    let client = client(&server);
    let error = metrics(&client).await.unwrap_err();
    assert_eq!(server.requests(), 3);
    assert!(
        matches!(error.kind(), ErrorKind::Service { status: 503, .. }),
        "{error:?}"
    );
    assert_eq!(error.charged(), Charge::Units(30));
    assert_eq!(client.units().used, 30);
    assert_eq!(stored(&client).await, (3, 30));
}

/// A stop during the wait before a retry: the attempt answered is the call's
/// last, charged once (it was counted twice, as a retried attempt and as
/// the answer the call ended with).
#[tokio::test]
async fn a_retry_cut_short_by_a_stop_counts_the_attempt_once() {
    let server = Server::script([charged_503().header("retry-after", "30"), empty(10, 980)]).await;
    let client = client(&server);
    let stop = Stop::new();
    let stopper = stop.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        stopper.stop();
    });
    let request = client.keywords().metrics(["mutuo"]).request();
    let error = client
        .run::<Vec<KeywordMetrics>>(request, RunOptions::new().stop(stop))
        .await
        .unwrap_err();
    assert_eq!(server.requests(), 1, "nothing sent after the stop");
    assert_eq!(error.charged(), Charge::Units(10), "{error:?}");
    assert_eq!(client.units().used, 10);
    assert_eq!(stored(&client).await, (1, 10));
}

/// A wait longer than the call may wait, before a retry: the attempt
/// answered is counted once, and the error says what it cost.
#[tokio::test]
async fn a_retry_beyond_the_longest_wait_counts_the_attempt_once() {
    let server = Server::script([charged_503().header("retry-after", "30"), empty(10, 980)]).await;
    let client = server
        .builder()
        .retry(fast())
        .max_wait(Duration::from_secs(1))
        .store(Store::memory())
        .build()
        .unwrap();
    let error = metrics(&client).await.unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::WaitedTooLong { .. }),
        "{error:?}"
    );
    assert_eq!(server.requests(), 1);
    assert_eq!(error.charged(), Charge::Units(10));
    assert_eq!(client.units().used, 10);
    assert_eq!(stored(&client).await, (1, 10));
}

/// A call whose future is dropped while it waits to retry (a timeout, a
/// cancelled task): the attempt the service answered is in both ledgers all
/// the same.
#[tokio::test]
async fn a_call_dropped_while_it_waits_to_retry_keeps_its_charged_attempt() {
    let server = Server::script([charged_503().header("retry-after", "30"), empty(10, 980)]).await;
    let client = client(&server);
    let cut = tokio::time::timeout(Duration::from_millis(500), metrics(&client)).await;
    assert!(cut.is_err(), "the call was still waiting: {cut:?}");
    assert_eq!(server.requests(), 1);
    assert_eq!(client.units().used, 10);
    // The store's row is written in the background as the call is dropped.
    let mut row = (0, 0);
    for _ in 0..100 {
        row = stored(&client).await;
        if row != (0, 0) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(row, (1, 10));
}

/// A budget sees a retried attempt's charge: the next call is refused once
/// the attempts of the first have spent what the budget left.
#[tokio::test]
async fn a_budget_counts_what_retried_attempts_were_charged() {
    let server = Server::script([charged_503(), empty(10, 980)]).await;
    let client = server
        .builder()
        .retry(fast())
        .budget(25)
        .store(Store::memory())
        .build()
        .unwrap();
    metrics(&client).await.unwrap();
    assert_eq!(client.units().used, 20);
    let refused = client
        .keywords()
        .metrics(["prestito"])
        .send()
        .await
        .unwrap_err();
    assert!(
        matches!(refused.kind(), ErrorKind::OverBudget { .. }),
        "{refused:?}"
    );
    assert_eq!(server.requests(), 2);
}
