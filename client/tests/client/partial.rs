//! Nothing paid is lost: a batched job that fails after some of its requests
//! were answered returns their rows (in input order) with the error, and a paged
//! stream that fails has delivered the rows before the failure. Real HTTP over
//! loopback, against a sandbox that fails the requests carrying a given input.

use crate::support;
use futures_util::StreamExt;
use seozoom::error::ErrorKind;
use seozoom::job::{Progress, RunOptions};
use seozoom::sandbox::{Fault, FaultPlan, Sandbox};
use seozoom::{
    Client, config::RateLimitMode, config::RetryPolicy, types::KeywordMetrics, types::KeywordType,
};

/// A key distinctive enough that finding it in an error is a leak.
const KEY: &str = "PARTIAL-KEY-41d2";

/// A sandbox that fails every request carrying one of `keywords` with `fault`.
async fn failing_on(keywords: &[&str], fault: Fault) -> Sandbox {
    let faults = keywords
        .iter()
        .fold(FaultPlan::none(), |f, k| f.on("keyword", k, fault));
    Sandbox::builder().faults(faults).start().await.unwrap()
}

fn client(sandbox: &Sandbox) -> Client {
    Client::builder()
        .api_key(KEY)
        .base_url(sandbox.base_url())
        .retry(RetryPolicy::none())
        .rate_limit(RateLimitMode::Off)
        .build()
        .unwrap()
}

/// 250 distinct keywords in no sorted order (three requests of at most 100),
/// with `faulty` put at the given positions.
fn keywords(faulty: &[(usize, &str)]) -> Vec<String> {
    let mut all: Vec<String> = (0..250)
        .map(|i| format!("scarpe {:03}", (i * 37) % 250))
        .collect();
    for (at, keyword) in faulty {
        all[*at] = (*keyword).to_owned();
    }
    all
}

fn row_keywords(rows: &[KeywordMetrics]) -> Vec<String> {
    rows.iter().map(|row| row.keyword.clone()).collect()
}

/// The batches (of 100 inputs) a job's rows or values come from.
fn batches_of(inputs: &[String], part: &[String]) -> Vec<usize> {
    let mut batches: Vec<usize> = part
        .iter()
        .map(|v| inputs.iter().position(|i| i == v).expect("an input") / 100)
        .collect();
    batches.dedup();
    batches
}

/// The inputs are split between the rows received and the values missing,
/// whole batches each, each part in input order, and `failed` is missing.
/// Which other batches were answered depends on which answer came first (a
/// request is not started once a failure is known), so that is not fixed.
#[track_caller]
fn assert_split(inputs: &[String], received: &[String], missing: &[String], failed: usize) {
    let mut together: Vec<&String> = received.iter().chain(missing).collect();
    together.sort_by_key(|v| inputs.iter().position(|i| i == *v));
    assert_eq!(
        together,
        inputs.iter().collect::<Vec<_>>(),
        "every input once"
    );
    for part in [received, missing] {
        let positions: Vec<usize> = part
            .iter()
            .map(|v| inputs.iter().position(|i| i == v).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "input order");
    }
    let full = |batch: usize| inputs[batch * 100..inputs.len().min(batch * 100 + 100)].to_vec();
    for batch in batches_of(inputs, received) {
        assert!(
            full(batch).iter().all(|v| received.contains(v)),
            "whole batches"
        );
    }
    assert!(
        full(failed).iter().all(|v| missing.contains(v)),
        "the failed batch is missing"
    );
}

#[tokio::test]
async fn a_failed_request_keeps_the_rows_already_paid_for() {
    let sandbox = failing_on(&["boom"], Fault::RateLimited).await;
    let client = client(&sandbox);
    // The second request (inputs 100..200) carries the faulty keyword.
    let inputs = keywords(&[(150, "boom")]);

    let error = client
        .keywords()
        .metrics(inputs.clone())
        .send_all()
        .await
        .unwrap_err();

    assert!(!error.is_refused(), "requests were sent and charged");
    assert!(!error.is_retryable(), "the whole job again would pay twice");
    assert_eq!(error.status(), Some(429));
    let text = error.to_string();
    assert!(
        text.contains("of 3 requests") && text.contains("`keyword` values missing"),
        "{text}"
    );
    for text in crate::support::renderings(&error) {
        assert!(!text.contains(KEY), "the key leaks: {text}");
    }
    let partial = match error.into_partial() {
        Ok(partial) => partial,
        Err(other) => panic!("expected ErrorKind::Partial, got {other:?}"),
    };
    assert_eq!(partial.requests(), 3);
    let charged = Sandbox::STARTING_UNITS - sandbox.units_remaining();
    assert_eq!(partial.units_used(), charged, "the units of the rows kept");
    assert_eq!(client.units().used, charged);
    assert!(
        matches!(
            partial.cause().kind(),
            ErrorKind::Service { status: 429, .. }
        ),
        "{:?}",
        partial.cause()
    );
    assert!(partial.received::<serde_json::Value>().is_none());

    let (received, missing, cause) = partial
        .into_parts::<Vec<KeywordMetrics>>()
        .expect("the type send_all returns");
    let rows = row_keywords(&received.response);
    assert_split(&inputs, &rows, missing.values(), 1);
    assert!(rows.starts_with(&inputs[..100]), "the first request's rows");
    assert_eq!(received.result_rows, rows.len() as i64);
    assert_eq!(received.units_used, charged);
    assert_eq!(received.units_remaining, Some(sandbox.units_remaining()));
    assert!(
        matches!(
            &missing,
            seozoom::job::Missing::Inputs {
                param: "keyword",
                ..
            }
        ),
        "{missing:?}"
    );
    let answered = batches_of(&inputs, &rows).len();
    assert_eq!(missing.requests(), 3 - answered);
    // The answered requests and the failed one; never one more.
    assert_eq!(sandbox.requests(), answered as u64 + 1);
    assert_eq!(cause.status(), Some(429));
}

#[tokio::test]
async fn a_failed_first_request_keeps_the_answer_in_flight_beside_it() {
    let sandbox = failing_on(&["boom"], Fault::ServerError).await;
    let client = client(&sandbox);
    let inputs = keywords(&[(5, "boom")]);

    let error = client
        .keywords()
        .metrics(inputs.clone())
        .send_all()
        .await
        .unwrap_err();

    let partial = match error.into_partial() {
        Ok(partial) => partial,
        Err(other) => panic!("expected ErrorKind::Partial, got {other:?}"),
    };
    let (received, missing, cause) = partial
        .into_parts::<Vec<KeywordMetrics>>()
        .expect("the type send_all returns");
    let rows = row_keywords(&received.response);
    assert_split(&inputs, &rows, missing.values(), 0);
    assert!(rows.starts_with(&inputs[100..200]), "the answer in flight");
    let answered = batches_of(&inputs, &rows).len();
    assert_eq!(missing.requests(), 3 - answered);
    assert_eq!(sandbox.requests(), answered as u64 + 1);
    assert_eq!(cause.status(), Some(500));
}

#[tokio::test]
async fn a_job_with_no_answered_request_gives_the_error_itself() {
    let sandbox = failing_on(&["boom-a", "boom-b"], Fault::RateLimited).await;
    let client = client(&sandbox);
    let inputs = keywords(&[(10, "boom-a"), (120, "boom-b")]);

    let error = client
        .keywords()
        .metrics(inputs)
        .send_all()
        .await
        .unwrap_err();

    assert_eq!(sandbox.requests(), 2);
    assert!(
        matches!(error.kind(), ErrorKind::Service { status: 429, .. }),
        "{error:?}"
    );
    assert_eq!(Sandbox::STARTING_UNITS, sandbox.units_remaining());
}

#[tokio::test]
async fn a_transport_failure_is_partial_too_and_the_json_job_keeps_json() {
    let sandbox = failing_on(&["boom"], Fault::Reset).await;
    let client = client(&sandbox);
    let inputs = keywords(&[(249, "boom")]);
    let request = client.keywords().metrics(inputs.clone()).request();

    let error = client
        .run::<serde_json::Value>(request, RunOptions::new())
        .await
        .unwrap_err();

    assert_eq!(sandbox.requests(), 3, "the failure came last");
    let partial = match error.into_partial() {
        Ok(partial) => partial,
        Err(other) => panic!("expected ErrorKind::Partial, got {other:?}"),
    };
    assert!(
        matches!(partial.cause().kind(), ErrorKind::Transport { .. }),
        "{:?}",
        partial.cause()
    );
    // Asked for another type, the partial result comes back whole.
    let partial = partial
        .into_parts::<Vec<KeywordMetrics>>()
        .expect_err("the job ran with JSON");
    let received = partial.received::<serde_json::Value>().unwrap();
    let keywords: Vec<String> = received
        .response
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["keyword"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(keywords, inputs[..200]);
    assert_eq!(partial.missing().values(), &inputs[200..]);
    assert_eq!(partial.missing().requests(), 1);
}

#[tokio::test]
async fn a_paged_stream_that_fails_has_delivered_the_rows_before() {
    let faults = FaultPlan::none().on("offset", "20", Fault::ServerError);
    let failing = Sandbox::builder().faults(faults).start().await.unwrap();
    let healthy = Sandbox::start().await.unwrap();
    let pages = |sandbox: &Sandbox| {
        client(sandbox)
            .domains()
            .keywords("example.it", KeywordType::Best, 1)
            .pages(10, Some(60))
    };

    let items: Vec<_> = pages(&failing).collect().await;

    // Two full pages of 10, then the page at offset 20 failed, and the stream
    // ended with its error.
    assert_eq!(items.len(), 21, "{items:?}");
    let (rows, last) = items.split_at(20);
    assert!(
        matches!(last, [Err(e)] if matches!(e.kind(), ErrorKind::Service { status: 500, .. })),
        "{last:?}"
    );
    assert_eq!(failing.requests(), 3);
    let delivered: Vec<_> = rows.iter().map(|r| r.as_ref().unwrap()).collect();
    let expected: Vec<_> = pages(&healthy).take(20).collect().await;
    let expected: Vec<_> = expected.iter().map(|r| r.as_ref().unwrap()).collect();
    assert_eq!(delivered, expected, "the same rows a healthy service gives");
}

/// A stopped job sends nothing more: the request in flight finishes and its
/// rows are kept, a request waiting for its rate-limit slot is not sent, and
/// the budget held for the rest is given back. 3,000 keywords are 30 requests;
/// a 20-per-minute figure over a 2 s window makes the job wait after 20.
#[tokio::test]
async fn a_stopped_job_sends_nothing_more_and_keeps_what_it_received() {
    let window = std::time::Duration::from_secs(2);
    let sandbox = Sandbox::builder()
        .rate_window(window)
        .start()
        .await
        .unwrap();
    let op = seozoom::operation_table::Operation::find("keywords", "metrics").unwrap();
    let mut request = seozoom::request::Request::new(op, None);
    let inputs: Vec<String> = (0..3_000).map(|i| format!("kw {i}")).collect();
    request.set("keyword", inputs.clone());
    // A budget that the whole job fills: while its hold stands, nothing else fits.
    let whole = support::whole_estimate(&client(&sandbox), &request, seozoom::Job::Batched)
        .await
        .unwrap()
        .max;
    let client = Client::builder()
        .api_key(KEY)
        .base_url(sandbox.base_url())
        .rate_window(window)
        .budget(whole)
        .build()
        .unwrap();
    let stop = seozoom::job::Stop::new();
    let signal = stop.clone();
    let options = RunOptions::new().stop(stop).on_progress(move |progress| {
        if let Progress::Requests { done, total } = progress {
            assert_eq!(total, 30);
            if done == 2 {
                signal.stop();
            }
        }
    });
    let error = client
        .run::<serde_json::Value>(request, options)
        .await
        .unwrap_err();
    let sent = sandbox.requests();
    assert!((2..=3).contains(&sent), "{sent} requests sent");
    let ErrorKind::Partial(partial) = error.kind() else {
        panic!("not partial: {error}");
    };
    assert!(
        matches!(partial.cause().kind(), ErrorKind::Stopped),
        "{error}"
    );
    let received = partial.received::<serde_json::Value>().unwrap();
    let rows = received.response.as_array().unwrap().len() as u64;
    assert_eq!(rows, sent * 100);
    assert_eq!(partial.missing().values().len() as u64, 3_000 - sent * 100);
    // Units only for the requests sent, and nothing held any more: another
    // 100 keywords fit in what is left.
    assert_eq!(client.units().used, partial.units_used());
    assert_eq!(client.units().calls, sent);
    let mut more = seozoom::request::Request::new(op, None);
    more.set("keyword", (0..100).map(|i| format!("other {i}")).collect());
    client
        .run::<serde_json::Value>(more, RunOptions::one_request())
        .await
        .unwrap();
}
