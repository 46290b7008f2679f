//! Absurd answers from the service, over real HTTP on loopback: `Retry-After`
//! values that are negative, huge or not a number, row and unit counts at the
//! ends of `i64`, 100,000-deep nesting, a 5 MB string, duplicate keys, a
//! byte-order mark, NUL bytes. Each ends in a typed error or a sane value,
//! within a bounded time, with errors of bounded size and without the key.

use crate::support;

use std::future::Future;
use std::time::{Duration, Instant};

use seozoom::error::ErrorKind;
use seozoom::job::RunOptions;
use seozoom::{
    Client, Envelope, Error, config::RateLimitMode, config::RetryPolicy, types::KeywordMetrics,
};
use support::{KEY, Server};

/// Every call here must end within this, whatever the answer.
const BOUND: Duration = Duration::from_secs(20);

/// Longest rendering of an error allowed: a few bounded excerpts.
const ERROR_TEXT: usize = 4_000;

/// A `keywords metrics` row.
const ROW: &str = r#"{"keyword":"mutuo","lang":"it","google_ext":".it","localcode":"","search_volume":90500,
    "ppc_competitiveness":1,"cpcapprox":4.37,"indexed_pages":21000000,"KD":71,"KO":12,
    "jan":1,"feb":1,"mar":1,"apr":1,"may":1,"jun":1,"jul":1,"aug":1,"sep":1,"oct":1,"nov":1,"dec":1,
    "search_intent":"informational"}"#;

/// An envelope with these figures and `response`.
fn envelope(rows: i64, used: i64, response: &str) -> String {
    format!(
        r#"{{"ResultRows":{rows},"UnitsUsed":{used},"UnitsRemaining":1000,"response":{response}}}"#
    )
}

/// Quick retries, a `Retry-After` honoured up to 2 s, and after 429s at most
/// three rate windows of waiting.
fn fast() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 3,
        initial_backoff: Duration::from_millis(5),
        max_backoff: Duration::from_millis(20),
        max_retry_after: Duration::from_secs(2),
        max_rate_limited_windows: 3,
    }
}

/// The rate window of these tests: what a 429 without a usable `Retry-After` waits.
const WINDOW: Duration = Duration::from_millis(100);

fn client(server: &Server) -> Client {
    // No store: a cache would answer the repeated calls these tests count.
    Client::builder()
        .api_key(KEY)
        .base_url(server.base_url())
        .store(seozoom::store::Store::none())
        .retry(fast())
        .rate_limit(RateLimitMode::Off)
        .rate_window(WINDOW)
        .build()
        .unwrap()
}

async fn serve(status: u16, body: impl Into<String>) -> Server {
    Server::start(status, "text/html; charset=UTF-8", body).await
}

/// The future's output, which must come within [`BOUND`].
async fn bounded<T>(call: impl Future<Output = T>) -> T {
    tokio::time::timeout(BOUND, call)
        .await
        .expect("the call ended within the bound")
}

/// `keywords metrics` for one keyword, typed.
async fn metrics(client: &Client) -> Result<Envelope<Vec<KeywordMetrics>>, Error> {
    bounded(client.keywords().metrics(["mutuo"]).send()).await
}

/// The same call decoded as JSON, as the command line does.
async fn metrics_json(client: &Client) -> Result<Envelope<serde_json::Value>, Error> {
    let request = client.keywords().metrics(["mutuo"]).request();
    let run = client.run::<serde_json::Value>(request, RunOptions::one_request());
    bounded(async { run.await.map(|outcome| outcome.envelope) }).await
}

/// The error of a call that must fail: bounded in size, without the key.
#[track_caller]
fn failed<T: std::fmt::Debug>(result: Result<T, Error>) -> Error {
    let error = match result {
        Ok(value) => panic!("expected an error, got {value:?}"),
        Err(error) => error,
    };
    for text in [error.to_string(), format!("{error:?}")] {
        assert!(
            text.len() < ERROR_TEXT,
            "{} bytes: {}...",
            text.len(),
            &text[..200]
        );
    }
    for text in support::renderings(&error) {
        assert!(!text.contains(KEY), "the key leaks: {text}");
    }
    error
}

#[track_caller]
fn assert_decode(error: &Error) {
    assert!(
        matches!(error.kind(), ErrorKind::Decode { .. }),
        "{error:?}"
    );
}

#[track_caller]
fn assert_service(error: &Error, status: u16) {
    assert!(
        matches!(error.kind(), ErrorKind::Service { status: s, .. } if *s == status),
        "{error:?}"
    );
}

// ---------------------------------------------------------------------------
// Retry-After
// ---------------------------------------------------------------------------

/// A server answering 429 with this `Retry-After`; the requests it saw and the
/// call's time.
async fn rate_limited(retry_after: &str) -> (usize, Duration, Error) {
    let server = Server::with_headers(
        429,
        "application/json",
        &[("retry-after", retry_after)],
        r#"{"status":429,"message":"Too Many Requests"}"#,
    )
    .await;
    let started = Instant::now();
    let error = failed(metrics(&client(&server)).await);
    (server.seen().len(), started.elapsed(), error)
}

#[tokio::test]
async fn a_retry_after_that_is_negative_or_not_a_number_is_ignored() {
    for value in [
        "-5",
        "-0",
        "-99999999999999999999",
        "soon",
        "1.5",
        "",
        "1e3",
        "0x10",
        "Sun, 99 Foo",
        // Not a date as httpdate reads them: a wrong weekday (2094-11-06 is a
        // Saturday), a zone other than GMT.
        "Sun, 06 Nov 2094 08:49:37 GMT",
        "Sat, 06 Nov 2094 08:49:37 CET",
    ] {
        let (requests, took, error) = rate_limited(value).await;
        // Ignored, so each 429 waits a rate window, three windows in all.
        assert_eq!(
            requests, 4,
            "{value:?}: a window each time, up to the bound"
        );
        assert!(took >= WINDOW * 3, "{value:?}: {took:?}");
        assert!(took < Duration::from_secs(5), "{value:?}: {took:?}");
        assert_service(&error, 429);
    }
}

#[tokio::test]
async fn a_retry_after_too_long_for_the_policy_ends_the_call_at_once() {
    let values = [
        "3",
        "18446744073709551615",
        "99999999999999999999999999999999",
        "Fri, 31 Dec 9999 23:59:59 GMT",
        "Sat, 06 Nov 2094 08:49:37 GMT",
        "Saturday, 06-Nov-60 08:49:37 GMT",
        "Sat Nov  6 08:49:37 2094",
    ];
    for value in values {
        let (requests, took, error) = rate_limited(value).await;
        assert_eq!(requests, 1, "{value:?}: no wait over max_retry_after");
        assert!(took < Duration::from_secs(2), "{value:?}: {took:?}");
        assert_service(&error, 429);
    }
}

// ---------------------------------------------------------------------------
// Counts at the ends of i64
// ---------------------------------------------------------------------------

#[tokio::test]
async fn row_and_unit_counts_at_the_ends_of_i64_are_kept_as_sent() {
    for (rows, used) in [(i64::MAX, i64::MAX), (-1, -5), (i64::MIN, i64::MIN)] {
        let server = serve(200, envelope(rows, used, &format!("[{ROW}]"))).await;
        let client = client(&server);

        let typed = metrics(&client).await.unwrap();
        let json = metrics_json(&client).await.unwrap();

        // The rows are those sent; no reservation of `ResultRows` rows was made
        // (it would abort on i64::MAX).
        assert_eq!(typed.response.len(), 1);
        assert_eq!((typed.result_rows, typed.units_used), (rows, used));
        assert_eq!((json.result_rows, json.units_used), (rows, used));
        // Two calls; a negative charge frees no budget.
        assert_eq!(client.units().used, used.max(0).saturating_mul(2));
    }
}

#[tokio::test]
async fn a_charge_of_i64_max_refuses_the_next_call_under_a_budget() {
    let server = serve(200, envelope(1, i64::MAX, &format!("[{ROW}]"))).await;
    let client = Client::builder()
        .api_key(KEY)
        .base_url(server.base_url())
        .store(seozoom::store::Store::none())
        .budget(1_000)
        .build()
        .unwrap();

    metrics(&client).await.unwrap();
    let error = failed(metrics(&client).await);

    assert!(
        matches!(error.kind(), ErrorKind::OverBudget { budget_left: 0, .. }),
        "{error:?}"
    );
    assert_eq!(server.seen().len(), 1);
}

#[tokio::test]
async fn a_batched_job_sums_counts_of_i64_max_without_overflow() {
    let server = serve(200, envelope(i64::MAX, i64::MAX, &format!("[{ROW}]"))).await;
    let client = client(&server);
    let keywords: Vec<String> = (0..150).map(|i| format!("k{i}")).collect();

    let merged = bounded(client.keywords().metrics(keywords).send_all())
        .await
        .unwrap();

    assert_eq!(server.seen().len(), 2);
    assert_eq!(
        (merged.result_rows, merged.units_used),
        (i64::MAX, i64::MAX)
    );
    assert_eq!(merged.response.len(), 2);
}

// ---------------------------------------------------------------------------
// Deep nesting
// ---------------------------------------------------------------------------

fn nested(depth: usize) -> String {
    "[".repeat(depth) + &"]".repeat(depth)
}

#[tokio::test]
async fn nesting_100000_deep_in_the_rows_is_a_decode_error() {
    let server = serve(200, envelope(1, 1, &nested(100_000))).await;
    let client = client(&server);

    assert_decode(&failed(metrics(&client).await));
    assert_decode(&failed(metrics_json(&client).await));
    assert_eq!(server.seen().len(), 2, "decode errors are not retried");
}

#[tokio::test]
async fn nesting_100000_deep_in_a_member_nobody_reads_is_skipped() {
    let objects = "{\"a\":".repeat(100_000) + "1" + &"}".repeat(100_000);
    for skipped in [nested(100_000), objects] {
        let body = format!(
            r#"{{"ResultRows":1,"UnitsUsed":1,"UnitsRemaining":9,"debug":{skipped},"response":[{ROW}]}}"#
        );
        let server = serve(200, body).await;
        let client = client(&server);

        let typed = metrics(&client).await.unwrap();
        let json = metrics_json(&client).await.unwrap();

        assert_eq!(typed.response[0].keyword, "mutuo");
        assert_eq!(json.response[0]["keyword"], "mutuo");
    }
}

#[tokio::test]
async fn nesting_100000_deep_in_an_error_body_is_a_service_error() {
    let server = serve(500, format!(r#"{{"message":{}}}"#, nested(100_000))).await;

    let error = failed(metrics(&client(&server)).await);

    assert_service(&error, 500);
    assert_eq!(server.seen().len(), 3, "a 500 is retried");
}

// ---------------------------------------------------------------------------
// A 5 MB string
// ---------------------------------------------------------------------------

const HUGE: usize = 5 << 20;

#[tokio::test]
async fn a_5_mb_string_in_a_row_is_kept() {
    let keyword = "k".repeat(HUGE);
    let row = ROW.replace("\"mutuo\"", &format!("\"{keyword}\""));
    let server = serve(200, envelope(1, 1, &format!("[{row}]"))).await;

    let typed = metrics(&client(&server)).await.unwrap();

    assert_eq!(typed.response[0].keyword.len(), HUGE);
}

/// A number field holding the string leaves the field empty, and a row with
/// the string as a key but not what names it is kept raw, its reason bounded.
#[tokio::test]
async fn a_5_mb_string_where_it_does_not_belong_is_read_leniently() {
    let huge = "x".repeat(HUGE);
    let mistyped = ROW.replace("\"KD\":71", &format!("\"KD\":\"{huge}\""));
    let server = serve(200, envelope(1, 1, &format!("[{mistyped}]"))).await;
    let typed = metrics(&client(&server)).await.unwrap();
    assert_eq!(typed.response[0].keyword_difficulty, None);

    let server = serve(200, envelope(1, 1, &format!(r#"[{{"{huge}":1}}]"#))).await;
    let typed = metrics(&client(&server)).await.unwrap();
    assert!(typed.response.is_empty());
    assert!(
        typed.raw_rows[0].error.len() < ERROR_TEXT,
        "a bounded reason"
    );
    assert!(
        typed.raw_rows[0].row.get(&huge).is_some(),
        "the row kept whole"
    );
}

#[tokio::test]
async fn a_5_mb_string_where_it_does_not_belong_gives_a_bounded_error() {
    let huge = "x".repeat(HUGE);
    let cases = [
        // The service's message.
        (500, format!(r#"{{"status":500,"message":"{huge}"}}"#)),
        // As an unknown key of the envelope.
        (200, format!(r#"{{"{huge}":1}}"#)),
    ];
    for (status, body) in cases {
        let server = serve(status, body).await;
        let client = client(&server);

        let typed = failed(metrics(&client).await);
        let json = failed(metrics_json(&client).await);

        for error in [typed, json] {
            match status {
                500 => assert_service(&error, 500),
                _ => assert_decode(&error),
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Duplicate keys
// ---------------------------------------------------------------------------

#[tokio::test]
async fn duplicate_keys_in_the_envelope_or_a_row_are_decode_errors() {
    let twice_in_row = ROW.replace("\"KD\":71", "\"KD\":71,\"KD\":72");
    let bodies = [
        format!(
            r#"{{"ResultRows":1,"ResultRows":2,"UnitsUsed":1,"UnitsRemaining":9,"response":[{ROW}]}}"#
        ),
        format!(
            r#"{{"ResultRows":1,"UnitsUsed":1,"UnitsRemaining":9,"response":[],"response":[{ROW}]}}"#
        ),
        envelope(1, 1, &format!("[{twice_in_row}]")),
    ];
    for body in bodies {
        let server = serve(200, body).await;
        let client = client(&server);

        assert_decode(&failed(metrics(&client).await));
        assert_decode(&failed(metrics_json(&client).await));
    }
}

#[tokio::test]
async fn duplicate_keys_in_an_error_body_keep_the_last_message() {
    let server = serve(
        400,
        r#"{"status":400,"message":"first","message":"No data found!"}"#,
    )
    .await;
    let empty = metrics(&client(&server)).await.unwrap();
    assert!(empty.no_data && empty.response.is_empty());

    let server = serve(403, r#"{"message":"first","message":"second"}"#).await;
    let error = failed(metrics(&client(&server)).await);
    assert!(
        matches!(error.kind(), ErrorKind::Service { status: 403, message: Some(m), .. } if m == "second"),
        "{error:?}"
    );
}

// ---------------------------------------------------------------------------
// A byte-order mark
// ---------------------------------------------------------------------------

#[tokio::test]
async fn a_byte_order_mark_before_the_json_is_skipped() {
    let server = serve(
        200,
        format!("\u{FEFF}{}", envelope(1, 10, &format!("[{ROW}]"))),
    )
    .await;
    let answered = client(&server);

    let typed = metrics(&answered).await.unwrap();
    let json = metrics_json(&answered).await.unwrap();

    assert_eq!(typed.response[0].keyword, "mutuo");
    assert_eq!(json.response[0]["keyword"], "mutuo");

    let server = serve(
        400,
        "\u{FEFF}{\"status\":400,\"message\":\"No data found!\"}",
    )
    .await;
    assert!(metrics(&client(&server)).await.unwrap().no_data);
}

#[tokio::test]
async fn a_byte_order_mark_elsewhere_is_not_skipped() {
    let server = serve(
        200,
        format!("{}\u{FEFF}", envelope(1, 10, &format!("[{ROW}]"))),
    )
    .await;

    assert_decode(&failed(metrics(&client(&server)).await));
}

// ---------------------------------------------------------------------------
// NUL bytes
// ---------------------------------------------------------------------------

#[tokio::test]
async fn an_escaped_nul_is_text_and_raw_nul_bytes_are_errors() {
    let escaped = ROW.replace("\"mutuo\"", "\"mu\\u0000tuo\"");
    let server = serve(200, envelope(1, 1, &format!("[{escaped}]"))).await;
    assert_eq!(
        metrics(&client(&server)).await.unwrap().response[0].keyword,
        "mu\0tuo"
    );

    let raw = ROW.replace("\"mutuo\"", "\"mu\0tuo\"");
    let bodies = [
        envelope(1, 1, &format!("[{raw}]")),
        envelope(1, 1, &format!("[{ROW}]")) + "\0",
        "\0".repeat(64),
        format!("\0{}", envelope(1, 1, "[]")),
    ];
    for body in bodies {
        let server = serve(200, body).await;
        let client = client(&server);
        assert_decode(&failed(metrics(&client).await));
        assert_decode(&failed(metrics_json(&client).await));
    }

    let server = serve(502, "\0".repeat(64)).await;
    assert_service(&failed(metrics(&client(&server)).await), 502);
}
