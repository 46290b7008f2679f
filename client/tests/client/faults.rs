//! Fault injection over real HTTP on loopback: the shared scripted server
//! (`support::Server`) answers each request with the next reply of its script
//! (status, headers, body bytes) and counts the requests; raw TCP servers reset the connection, cut a response
//! short or never answer. Every error is rendered (`Display`, `Debug`, sources) and
//! must not contain the key. Then retries, rate limits, the units ledger, the
//! estimate, the budget guard, the base-URL check and the tracing span.

use crate::support;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use seozoom::{
    Client, Envelope, Error, config::RateLimitMode, config::RetryPolicy, error::ErrorKind,
    types::Date, types::KeywordMetrics, units::Estimate,
};
use tracing_subscriber::Layer;
use tracing_subscriber::fmt::format::FmtSpan;
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

use support::{ECHO, KEY, Misbehaviour, RawServer, Reply, Server};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// Retries as the default policy does, but fast.
fn fast() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 3,
        initial_backoff: Duration::from_millis(10),
        max_backoff: Duration::from_millis(50),
        max_retry_after: Duration::from_secs(5),
        max_rate_limited_windows: 3,
    }
}

/// `at` as an HTTP date (IMF-fixdate, RFC 9110), as a server writes `Retry-After`.
fn imf_fixdate(at: SystemTime) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let seconds = at.duration_since(UNIX_EPOCH).unwrap().as_secs() as i64;
    let (days, time) = (seconds / 86_400, seconds % 86_400);
    let date = Date::from_unix_days(days).unwrap();
    format!(
        "{}, {:02} {} {} {:02}:{:02}:{:02} GMT",
        DAYS[(days % 7) as usize], // 1970-01-01 was a Thursday
        date.day(),
        MONTHS[usize::from(date.month()) - 1],
        date.year(),
        time / 3600,
        time / 60 % 60,
        time % 60,
    )
}

/// An envelope with no rows.
fn empty(used: i64, remaining: i64) -> Reply {
    Reply::json(
        200,
        &format!(
            r#"{{"ResultRows":0,"UnitsUsed":{used},"UnitsRemaining":{remaining},"response":[]}}"#
        ),
    )
}

/// A `keywords metrics` envelope with one realistic row.
fn one_keyword() -> Reply {
    Reply::json(
        200,
        r#"{"ResultRows":1,"UnitsUsed":10,"UnitsRemaining":48700,"response":[
        {"keyword":"mutuo","lang":"it","google_ext":".it","localcode":"","search_volume":90500,
         "ppc_competitiveness":1,"cpcapprox":4.37,"indexed_pages":21000000,"KD":71,"KO":12,
         "jan":1,"feb":1,"mar":1,"apr":1,"may":1,"jun":1,"jul":1,"aug":1,"sep":1,"oct":1,"nov":1,"dec":1,
         "search_intent":"informational"}]}"#,
    )
}

type Metrics = Result<Envelope<Vec<KeywordMetrics>>, Error>;

/// `keywords metrics` for one keyword: a list operation.
async fn metrics(client: &Client) -> Metrics {
    client.keywords().metrics(["mutuo"]).send().await
}

/// `text` with any of the `secrets` shown as `<LEAKED>`, so that a failing
/// assertion does not print them either.
fn masked(text: &str, secrets: &[&str]) -> String {
    secrets
        .iter()
        .fold(text.to_owned(), |t, s| t.replace(s, "<LEAKED>"))
}

/// The key appears in no rendering of the error.
#[track_caller]
fn assert_secret(err: &Error) {
    assert_no_secret(err, &[KEY]);
}

#[track_caller]
fn assert_no_secret(err: &Error, secrets: &[&str]) {
    for text in support::renderings(err) {
        for secret in secrets {
            assert!(
                !text.contains(secret),
                "the key leaks into an error: {}",
                masked(&text, secrets)
            );
        }
    }
    assert!(!format!("{err}").contains(KEY) && !format!("{err:?}").contains(KEY));
}

/// The error of a call that must fail, checked for the key.
#[track_caller]
fn failed<T: std::fmt::Debug>(result: Result<T, Error>) -> Error {
    match result {
        Ok(value) => panic!("expected an error, got {value:?}"),
        Err(err) => {
            assert_secret(&err);
            err
        }
    }
}

// ---------------------------------------------------------------------------
// The fault matrix
// ---------------------------------------------------------------------------

#[tokio::test]
async fn status_500_then_200_is_retried_and_succeeds() {
    let server = Server::script([
        Reply::json(500, r#"{"message":"Internal Server Error"}"#),
        one_keyword(),
    ])
    .await;
    let client = server.client_with(fast());

    let page = metrics(&client).await.unwrap();

    assert_eq!(server.requests(), 2, "one retry");
    assert_eq!(page.response.len(), 1);
    assert_eq!(page.response[0].keyword, "mutuo");
    assert_eq!((page.units_used, page.units_remaining), (10, Some(48700)));
    assert_eq!(
        client.units().used,
        10,
        "the failed attempt charged nothing"
    );
}

#[tokio::test]
async fn status_429_with_retry_after_waits_then_succeeds() {
    let server = Server::script([
        Reply::json(429, r#"{"message":"Too Many Requests"}"#).header("retry-after", "1"),
        one_keyword(),
    ])
    .await;
    let client = server.client_with(fast());

    let started = Instant::now();
    let page = metrics(&client).await.unwrap();
    let elapsed = started.elapsed();

    assert_eq!(server.requests(), 2);
    assert_eq!(page.response.len(), 1);
    // The fast policy backs off 10-50 ms; only `Retry-After: 1` explains a second.
    assert!(
        elapsed >= Duration::from_millis(900),
        "Retry-After: 1 was not honoured: the call took {elapsed:?}"
    );
}

/// A 429 says the service's window is full, not that something failed: it is
/// waited for as often as it comes, past the three attempts that failures get.
#[tokio::test]
async fn more_429s_than_attempts_are_each_waited_for_then_the_call_succeeds() {
    let too_many =
        Reply::json(429, r#"{"message":"Too Many Requests"}"#).header("retry-after", "1");
    let mut script = vec![too_many; 4];
    script.push(one_keyword());
    let server = Server::script(script).await;
    let client = server.client_with(fast());

    let started = Instant::now();
    let page = metrics(&client).await.unwrap();
    let elapsed = started.elapsed();

    assert_eq!(server.requests(), 5, "four 429s, then the answer");
    assert_eq!(page.response[0].keyword, "mutuo");
    assert!(
        elapsed >= Duration::from_millis(3_600),
        "each Retry-After: 1 is honoured: the call took {elapsed:?}"
    );
}

/// A service that refuses for good still ends the call: the waits after 429s
/// are bounded by `max_rate_limited_windows` rate windows.
#[tokio::test]
async fn a_429_that_never_ends_stops_the_call_at_the_bound() {
    let server = Server::script([
        Reply::json(429, r#"{"message":"Too Many Requests"}"#).header("retry-after", "1")
    ])
    .await;
    let client = server
        .builder()
        .retry(fast())
        .rate_window(Duration::from_secs(1))
        .build()
        .unwrap();

    let err = failed(metrics(&client).await);

    // Three windows of 1 s: three waits of 1 s, then the fourth 429 ends it.
    assert_eq!(server.requests(), 4);
    assert_eq!(err.status(), Some(429));
    assert!(err.is_retryable(), "a later call may be answered");
}

/// Without `Retry-After`, a 429 waits a whole rate window (the client's).
#[tokio::test]
async fn a_429_without_retry_after_waits_the_rate_window() {
    let server = Server::script([
        Reply::json(429, r#"{"message":"Too Many Requests"}"#),
        Reply::json(429, r#"{"message":"Too Many Requests"}"#),
        one_keyword(),
    ])
    .await;
    let window = Duration::from_millis(700);
    let client = server
        .builder()
        .retry(fast())
        .rate_window(window)
        .build()
        .unwrap();

    let started = Instant::now();
    metrics(&client).await.unwrap();
    let elapsed = started.elapsed();

    assert_eq!(server.requests(), 3);
    // The fast policy backs off 10-50 ms; only the window explains this.
    assert!(elapsed >= window * 2, "the call took {elapsed:?}");
}

#[tokio::test]
async fn status_503_with_retry_after_as_an_http_date_waits_then_succeeds() {
    // Whole seconds: the wait is between 1 and 2 s.
    let date = imf_fixdate(SystemTime::now() + Duration::from_secs(2));
    let server = Server::script([
        Reply::json(503, r#"{"message":"Service Unavailable"}"#).header("retry-after", &date),
        one_keyword(),
    ])
    .await;

    let started = Instant::now();
    metrics(&server.client_with(fast())).await.unwrap();
    let elapsed = started.elapsed();

    assert_eq!(server.requests(), 2);
    assert!(
        elapsed >= Duration::from_millis(900),
        "Retry-After: {date} was not honoured: the call took {elapsed:?}"
    );
}

#[tokio::test]
async fn status_429_with_a_retry_after_beyond_the_policy_fails_at_once() {
    let server = Server::script([
        Reply::json(429, r#"{"message":"Too Many Requests"}"#).header("retry-after", "3600"),
        one_keyword(),
    ])
    .await;

    let started = Instant::now();
    let err = failed(metrics(&server.client_with(fast())).await);

    assert_eq!(
        server.requests(),
        1,
        "a wait over max_retry_after is not made"
    );
    assert_eq!(err.status(), Some(429));
    assert!(err.is_retryable());
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn persistent_502_html_fails_within_bounded_time() {
    let page = "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\
                <body><h1>Bad Gateway</h1><p>nginx</p></body></html>";
    let server = Server::script([Reply::new(502, "text/html", page)]).await;
    // The default policy: 3 attempts, backoff 500 ms doubling, so about 1.5 s at most.
    let client = server.client_with(RetryPolicy::default());

    let started = Instant::now();
    let err = failed(metrics(&client).await);
    let elapsed = started.elapsed();

    assert_eq!(server.requests(), 3, "max_attempts of the default policy");
    assert!(
        elapsed < Duration::from_secs(10),
        "a persistent 502 took {elapsed:?}"
    );
    match err.kind() {
        ErrorKind::Service {
            status,
            message,
            body,
        } => {
            assert_eq!(err.operation(), Some("keywords metrics"));
            assert_eq!(*status, 502);
            assert!(
                message.as_deref().is_some_and(|m| m.contains("HTML")),
                "{message:?}"
            );
            assert!(body.contains("Bad Gateway"), "{body}");
        }
        other => panic!("expected ErrorKind::Service, got {other:?}"),
    }
    assert!(err.to_string().contains("502"), "{err}");
    assert_eq!(err.status(), Some(502));
    assert!(err.is_retryable());
    assert!(!err.is_refused());
}

#[tokio::test]
async fn status_200_with_an_error_member_is_a_service_error() {
    // The service echoes the request, key included.
    let server = Server::script([Reply::new(
        200,
        "text/html",
        format!(r#"{{"error":"Invalid request: {ECHO}"}}"#),
    )])
    .await;

    let err = failed(metrics(&server.client_with(fast())).await);

    assert_eq!(
        server.requests(),
        1,
        "an error body under 200 is not retried"
    );
    match err.kind() {
        ErrorKind::Service {
            status, message, ..
        } => {
            assert_eq!(*status, 200);
            assert!(
                message
                    .as_deref()
                    .is_some_and(|m| m.starts_with("Invalid request: ")),
                "{message:?}"
            );
        }
        other => panic!("expected ErrorKind::Service, got {other:?}"),
    }
    assert!(!err.is_retryable());
}

#[tokio::test]
async fn status_400_with_a_message_is_a_service_error() {
    let server = Server::script([Reply::json(
        400,
        r#"{"status":400,"message":"Parametro keyword non valido"}"#,
    )])
    .await;

    let err = failed(metrics(&server.client_with(fast())).await);

    assert_eq!(server.requests(), 1, "400 is not retried");
    match err.kind() {
        ErrorKind::Service {
            status, message, ..
        } => {
            assert_eq!(*status, 400);
            assert_eq!(message.as_deref(), Some("Parametro keyword non valido"));
        }
        other => panic!("expected ErrorKind::Service, got {other:?}"),
    }
    assert!(
        err.to_string().contains("Parametro keyword non valido"),
        "{err}"
    );
    assert!(!err.is_retryable());
    assert!(!err.is_refused());
}

#[tokio::test]
async fn status_401_is_a_service_error_without_the_key() {
    let server = Server::script([Reply::json(
        401,
        &format!(r#"{{"status":401,"message":"Invalid API key ({ECHO})"}}"#),
    )])
    .await;

    let err = failed(metrics(&server.client_with(fast())).await);

    assert_eq!(server.requests(), 1, "401 is not retried");
    assert_eq!(err.status(), Some(401));
    assert!(
        matches!(err.kind(), ErrorKind::Service { message: Some(m), .. } if m.starts_with("Invalid API key")),
        "{err:?}"
    );
    assert!(!err.is_retryable());
}

#[tokio::test]
async fn truncated_json_is_a_decode_error() {
    let server = Server::script([Reply::json(
        200,
        r#"{"ResultRows":1,"UnitsUsed":10,"UnitsRemaining":48700,"response":[{"keyword":"mu"#,
    )])
    .await;

    let err = failed(metrics(&server.client_with(fast())).await);

    assert_eq!(server.requests(), 1, "decode errors are not retried");
    match err.kind() {
        ErrorKind::Decode {
            path,
            message,
            body,
            ..
        } => {
            assert_eq!(err.operation(), Some("keywords metrics"));
            assert_eq!(path, ".");
            assert!(message.contains("cut short"), "{message}");
            assert!(body.starts_with(r#"{"ResultRows":1"#), "{body}");
        }
        other => panic!("expected ErrorKind::Decode, got {other:?}"),
    }
    assert!(!err.is_retryable());
}

#[tokio::test]
async fn envelope_without_response_is_a_decode_error() {
    let server = Server::script([Reply::json(
        200,
        r#"{"ResultRows":0,"UnitsUsed":0,"UnitsRemaining":48700}"#,
    )])
    .await;

    let err = failed(metrics(&server.client_with(fast())).await);

    assert_eq!(server.requests(), 1);
    match err.kind() {
        ErrorKind::Decode { path, message, .. } => {
            assert_eq!(path, "response");
            assert!(message.contains("missing field `response`"), "{message}");
        }
        other => panic!("expected ErrorKind::Decode, got {other:?}"),
    }
}

#[tokio::test]
async fn no_data_found_is_empty_for_a_list_and_no_data_for_one_object() {
    let no_data = Reply::new(
        400,
        "text/html",
        r#"{"status":400,"message":"No data found!"}"#,
    );
    let server = Server::script([no_data.clone(), no_data]).await;
    let client = server.client_with(fast());

    let page = metrics(&client).await.unwrap();
    assert!(page.no_data);
    assert!(page.response.is_empty());
    assert_eq!((page.result_rows, page.units_used), (0, 0));

    let err = failed(client.projects().overview(404).send().await);
    match err.kind() {
        ErrorKind::NoData => assert_eq!(err.operation(), Some("projects overview")),
        other => panic!("expected ErrorKind::NoData, got {other:?}"),
    }
    assert_eq!(server.requests(), 2, "no data is an answer, not retried");
    assert!(!err.is_retryable());
    assert!(!err.is_refused());
}

#[tokio::test]
async fn no_data_found_under_200_is_also_no_data() {
    let server = Server::script([Reply::json(
        200,
        r#"{"status":200,"message":"No data found!"}"#,
    )])
    .await;

    let page = metrics(&server.client_with(fast())).await.unwrap();

    assert!(page.no_data);
    assert!(page.response.is_empty());
}

#[tokio::test]
async fn connection_reset_is_a_transport_error_and_is_retried() {
    let server = RawServer::start(Misbehaviour::Reset).await;

    let err = failed(metrics(&server.client(fast(), Duration::from_secs(5))).await);

    match err.kind() {
        ErrorKind::Transport { timeout, message } => {
            assert_eq!(err.operation(), Some("keywords metrics"));
            assert!(!timeout, "a reset is not a timeout: {message}");
            assert!(
                !message.contains("127.0.0.1"),
                "the URL is removed: {message}"
            );
        }
        other => panic!("expected ErrorKind::Transport, got {other:?}"),
    }
    assert_eq!(server.connections(), 3, "transport errors are retried");
    assert!(err.is_retryable());
    assert!(!err.is_refused());
    assert_eq!(err.status(), None);
}

#[tokio::test]
async fn response_cut_short_is_a_transport_error() {
    let server = RawServer::start(Misbehaviour::CutShort).await;

    let err = failed(metrics(&server.client(RetryPolicy::none(), Duration::from_secs(5))).await);

    assert!(
        matches!(err.kind(), ErrorKind::Transport { timeout: false, .. }),
        "{err:?}"
    );
    assert_eq!(server.connections(), 1);
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let server = RawServer::start(Misbehaviour::Silent).await;
    let client = server.client(RetryPolicy::none(), Duration::from_millis(300));

    let started = Instant::now();
    let err = failed(metrics(&client).await);
    let elapsed = started.elapsed();

    match err.kind() {
        ErrorKind::Transport {
            timeout, message, ..
        } => assert!(*timeout, "expected a timeout: {message}"),
        other => panic!("expected ErrorKind::Transport, got {other:?}"),
    }
    let transport = support::source_of::<reqwest::Error>(&err).expect("reqwest's error");
    assert!(transport.is_timeout(), "{transport:?}");
    assert!(elapsed >= Duration::from_millis(250), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
    assert_eq!(server.connections(), 1);
    assert!(err.is_retryable());
}

#[tokio::test]
async fn timeouts_are_retried_under_a_retry_policy() {
    let server = RawServer::start(Misbehaviour::Silent).await;
    let client = server.client(fast(), Duration::from_millis(300));

    let err = failed(metrics(&client).await);

    assert!(
        matches!(err.kind(), ErrorKind::Transport { timeout: true, .. }),
        "{err:?}"
    );
    assert_eq!(server.connections(), 3);
}

#[tokio::test]
async fn connection_refused_is_a_transport_error() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let client = Client::builder()
        .api_key(KEY)
        .base_url(format!("http://127.0.0.1:{port}"))
        .retry(RetryPolicy::none())
        .build()
        .unwrap();

    let err = failed(metrics(&client).await);

    assert!(
        matches!(err.kind(), ErrorKind::Transport { timeout: false, .. }),
        "{err:?}"
    );
    // The cause is kept: reqwest's error, which says what failed, without
    // the URL (where the key is).
    let transport = support::source_of::<reqwest::Error>(&err).expect("reqwest's error");
    assert!(transport.is_connect(), "{transport:?}");
    assert!(transport.url().is_none(), "{transport:?}");
}

#[tokio::test]
async fn a_body_that_is_not_utf8_is_a_decode_error_or_a_service_error() {
    let bytes = b"\xff\xfe{\"ResultRows\":\xc3\x28}".to_vec();
    let server = Server::script([
        Reply::new(200, "application/json", bytes.clone()),
        Reply::new(500, "text/html", bytes),
    ])
    .await;

    let err = failed(metrics(&server.client_with(RetryPolicy::none())).await);
    match err.kind() {
        ErrorKind::Decode { path, message, .. } => {
            assert_eq!(path, ".");
            assert!(message.contains("UTF-8"), "{message}");
        }
        other => panic!("expected ErrorKind::Decode, got {other:?}"),
    }

    let err = failed(metrics(&server.client_with(RetryPolicy::none())).await);
    match err.kind() {
        ErrorKind::Service {
            status, message, ..
        } => {
            assert_eq!(*status, 500);
            assert!(
                message.as_deref().is_some_and(|m| m.contains("UTF-8")),
                "{message:?}"
            );
        }
        other => panic!("expected ErrorKind::Service, got {other:?}"),
    }
    assert_eq!(server.requests(), 2);
}

/// Every error body of the matrix, echoing the request (key included) back.
#[tokio::test]
async fn bodies_echoing_the_key_are_scrubbed_in_every_error() {
    let bodies = [
        Reply::json(400, &format!(r#"{{"message":"bad {ECHO}"}}"#)),
        Reply::json(401, &format!(r#"{{"error":"denied {ECHO}"}}"#)),
        Reply::json(200, &format!(r#"{{"error":"{ECHO}"}}"#)),
        Reply::new(502, "text/html", format!("<html>{ECHO}</html>")),
        Reply::json(200, &format!(r#"{{"ResultRows":1,"x":"{ECHO}","resp"#)),
        Reply::json(200, &format!(r#"{{"ResultRows":0,"x":"{ECHO}"}}"#)),
        Reply::json(
            200,
            &format!(r#"{{"ResultRows":0,"UnitsUsed":0,"UnitsRemaining":0,"response":"{ECHO}"}}"#),
        ),
        Reply::new(500, "text/plain", format!("{ECHO}\u{0}\u{7f}")),
    ];
    for reply in bodies {
        let status = reply.status();
        let server = Server::script([reply]).await;
        let err = failed(metrics(&server.client_with(RetryPolicy::none())).await);
        assert!(
            server.queries()[0].contains(KEY),
            "the key was sent, so the body did echo it"
        );
        assert!(!err.is_refused(), "status {status}: {err}");
        // The echoed key was there, and was replaced (`redacted_url`'s marker).
        assert!(
            format!("{err:?}").contains("api_key=<redacted>"),
            "status {status}: {err:?}"
        );
    }
}

/// A refusal shows the value as given: a key pasted into a parameter by
/// mistake is scrubbed there too, in the refusal of a call and of an estimate.
#[tokio::test]
async fn a_refused_value_holding_the_key_is_scrubbed() {
    let server = Server::script([empty(0, 0)]).await;
    let client = server.client_with(RetryPolicy::none());
    let pasted = [format!("{KEY}|x")];

    let err = client.keywords().metrics(&pasted).send().await.unwrap_err();
    assert!(err.is_refused(), "{err}");
    assert_no_secret(&err, &[KEY]);
    assert!(err.to_string().contains("<redacted>|x"), "{err}");

    let request = client.keywords().metrics(&pasted).request();
    let err = client.estimate(&request).unwrap_err();
    assert_no_secret(&err, &[KEY]);
    assert_eq!(server.requests(), 0, "nothing was sent");
}

/// A key that percent-encoding changes is scrubbed in both forms.
#[tokio::test]
async fn a_key_that_needs_encoding_is_scrubbed_in_both_forms() {
    let key = "SECRET KEY+7f3a/9c&é";
    let server = Server::script([Reply::json(
        400,
        &format!(r#"{{"message":"bad request {ECHO}"}}"#),
    )])
    .await;
    let client = server
        .builder()
        .api_key(key)
        .retry(RetryPolicy::none())
        .build()
        .unwrap();

    let err = metrics(&client).await.unwrap_err();

    let query = &server.queries()[0];
    let sent = query
        .split('&')
        .find_map(|pair| pair.strip_prefix("api_key="))
        .unwrap();
    assert_ne!(sent, key, "the key is percent-encoded on the wire");
    assert_no_secret(&err, &[key, sent]);
    assert!(!format!("{client:?}").contains(key));
}

/// A key that is a short word is replaced where it is the key (the query's
/// value, a whole JSON string), not wherever the word occurs.
#[tokio::test]
async fn a_key_that_is_a_word_is_replaced_only_where_it_is_the_key() {
    let server = Server::script([Reply::json(
        400,
        &format!(r#"{{"message":"a test request: {ECHO}","key":"test"}}"#),
    )])
    .await;
    let client = server
        .builder()
        .api_key("test")
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let err = metrics(&client).await.unwrap_err();
    let ErrorKind::Service { message, body, .. } = err.kind() else {
        panic!("{err:?}");
    };
    let message = message.as_deref().unwrap_or_default();
    assert!(
        message.starts_with("a test request: api_key=<redacted>&"),
        "{message}"
    );
    assert!(body.contains(r#""key":"<redacted>""#), "{body}");
    assert!(!body.contains("api_key=test"), "{body}");
}

#[tokio::test]
async fn client_builder_and_request_debug_do_not_show_the_key() {
    let server = Server::script([empty(0, 0)]).await;
    let builder = server.builder();
    let client = server.client_with(fast());
    let request = client.keywords().metrics(["mutuo"]);

    for text in [
        format!("{builder:?}"),
        format!("{builder:#?}"),
        format!("{client:?}"),
        format!("{client:#?}"),
        format!("{request:?}"),
        format!("{:?}", request.request()),
    ] {
        assert!(!text.contains(KEY), "{}", masked(&text, &[KEY]));
    }
    let url = client.redacted_url(&request.request()).unwrap();
    assert!(!url.contains(KEY), "{}", masked(&url, &[KEY]));
    assert!(url.contains("api_key="), "{url}");
}

// ---------------------------------------------------------------------------
// Base URL
// ---------------------------------------------------------------------------

#[test]
fn plain_http_to_a_non_loopback_host_is_refused() {
    for url in [
        "http://apiv2.seozoom.com",
        "http://10.0.0.5:8080",
        "http://192.168.1.1",
        "http://localhost.example.com",
        "http://127.0.0.1.nip.io",
        "http://[2001:db8::1]",
    ] {
        let err = Client::builder()
            .api_key(KEY)
            .base_url(url)
            .build()
            .unwrap_err();
        assert_secret(&err);
        match err.kind() {
            ErrorKind::InsecureUrl { url: given } => assert_eq!(given, url),
            other => panic!("{url}: expected ErrorKind::InsecureUrl, got {other:?}"),
        }
        assert!(err.is_refused());
    }
    Client::builder()
        .api_key(KEY)
        .base_url("https://apiv2.seozoom.com")
        .build()
        .unwrap();
}

/// A base URL copied with its query (the key in it) is refused, and the error does
/// not repeat the key.
#[test]
fn base_url_errors_do_not_echo_the_key() {
    let mut leaks = Vec::new();
    for url in [
        format!("https://apiv2.seozoom.com/?api_key={KEY}"),
        format!("http://apiv2.seozoom.com/api/v2/keywords/?api_key={KEY}&action=metrics"),
    ] {
        let err = Client::builder()
            .api_key(KEY)
            .base_url(url.as_str())
            .build()
            .unwrap_err();
        assert!(err.is_refused(), "{}", masked(&err.to_string(), &[KEY]));
        leaks.extend(
            support::renderings(&err)
                .into_iter()
                .take(1)
                .filter(|text| text.contains(KEY))
                .map(|text| masked(&text, &[KEY])),
        );
    }
    assert!(leaks.is_empty(), "the key leaks into errors: {leaks:#?}");
}

#[tokio::test]
async fn plain_http_to_loopback_is_allowed() {
    for host in ["127.0.0.1", "[::1]", "localhost", "LOCALHOST", "127.1.2.3"] {
        Client::builder()
            .api_key(KEY)
            .base_url(format!("http://{host}:8080"))
            .build()
            .unwrap_or_else(|e| panic!("{host}: {e}"));
    }

    let v4 = Server::script([empty(0, 100)]).await;
    metrics(&v4.client_with(RetryPolicy::none())).await.unwrap();
    let localhost = Client::builder()
        .api_key(KEY)
        .base_url(format!("http://localhost:{}", v4.port()))
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    metrics(&localhost).await.unwrap();
    assert_eq!(v4.requests(), 2);

    // IPv6 loopback, where the machine has it.
    if let Ok(v6) = Server::bind("[::1]:0", [empty(0, 100)]).await {
        assert!(
            v6.base_url().starts_with("http://[::1]:"),
            "{}",
            v6.base_url()
        );
        metrics(&v6.client_with(RetryPolicy::none())).await.unwrap();
        assert_eq!(v6.requests(), 1);
    }
}

// ---------------------------------------------------------------------------
// Retries
// ---------------------------------------------------------------------------

#[tokio::test]
async fn retries_can_be_switched_off() {
    let server = Server::script([
        Reply::json(500, r#"{"message":"Internal Server Error"}"#),
        one_keyword(),
    ])
    .await;

    let err = failed(metrics(&server.client_with(RetryPolicy::none())).await);

    assert_eq!(
        server.requests(),
        1,
        "RetryPolicy::none() makes one attempt"
    );
    assert_eq!(err.status(), Some(500));

    let reset = RawServer::start(Misbehaviour::Reset).await;
    let err = failed(metrics(&reset.client(RetryPolicy::none(), Duration::from_secs(5))).await);
    assert!(matches!(err.kind(), ErrorKind::Transport { .. }), "{err:?}");
    assert_eq!(reset.connections(), 1);
}

#[tokio::test]
async fn each_retryable_status_is_retried_up_to_max_attempts() {
    for status in [500, 502, 503, 504] {
        let server = Server::script([Reply::json(status, r#"{"message":"busy"}"#)]).await;
        let err = failed(metrics(&server.client_with(fast())).await);
        assert_eq!(err.status(), Some(status));
        assert_eq!(server.requests(), 3, "status {status}");
    }
    // A 429 is retried too, bounded by the rate windows it waits rather than
    // by the attempts (a window of 100 ms, three of them).
    let server = Server::script([Reply::json(429, r#"{"message":"busy"}"#)]).await;
    let client = server
        .builder()
        .retry(fast())
        .rate_window(Duration::from_millis(100))
        .build()
        .unwrap();
    let err = failed(metrics(&client).await);
    assert_eq!(err.status(), Some(429));
    assert_eq!(server.requests(), 4, "status 429");
}

#[tokio::test]
async fn other_4xx_are_not_retried() {
    for status in [400, 401, 402, 403, 404, 405, 408, 410, 422] {
        let server = Server::script([
            Reply::json(status, r#"{"message":"refused"}"#),
            one_keyword(),
        ])
        .await;
        let err = failed(metrics(&server.client_with(fast())).await);
        assert_eq!(err.status(), Some(status));
        assert_eq!(server.requests(), 1, "status {status} was retried");
    }
}

#[tokio::test]
async fn decode_errors_are_not_retried() {
    let wrong = [
        Reply::json(
            200,
            r#"{"ResultRows":1,"UnitsUsed":10,"UnitsRemaining":5,"respo"#,
        ),
        Reply::json(200, r#"{"ResultRows":0,"UnitsUsed":0,"UnitsRemaining":5}"#),
        Reply::json(
            200,
            r#"{"ResultRows":0,"UnitsUsed":0,"UnitsRemaining":5,"response":"not a list"}"#,
        ),
        Reply::json(
            200,
            r#"{"ResultRows":0,"UnitsUsed":0,"UnitsRemaining":5,"response":[]} trailing"#,
        ),
        Reply::new(200, "application/json", b"\xff\xfe\xfd".to_vec()),
    ];
    for reply in wrong {
        let server = Server::script([reply, one_keyword()]).await;
        let err = failed(metrics(&server.client_with(fast())).await);
        assert!(matches!(err.kind(), ErrorKind::Decode { .. }), "{err:?}");
        assert_eq!(server.requests(), 1, "a decode error was retried: {err}");
    }
}

// ---------------------------------------------------------------------------
// Rate limits
// ---------------------------------------------------------------------------

/// The spec's requests-per-minute figure of `keywords metrics`.
const METRICS_PER_MINUTE: usize = 20;

#[tokio::test]
async fn the_call_over_the_per_minute_figure_is_refused_when_configured() {
    let server = Server::script([empty(0, 1000)]).await;
    let client = server
        .builder()
        .rate_limit(RateLimitMode::Refuse)
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let figure = seozoom::operations::OPERATIONS
        .iter()
        .find(|op| op.group == "keywords" && op.action == "metrics")
        .unwrap()
        .cost
        .requests_per_minute
        .value;
    assert_eq!(figure, METRICS_PER_MINUTE as i64);

    for n in 1..=METRICS_PER_MINUTE {
        metrics(&client)
            .await
            .unwrap_or_else(|e| panic!("call {n}: {e}"));
    }
    let err = failed(metrics(&client).await);

    assert_eq!(
        server.requests(),
        METRICS_PER_MINUTE,
        "the refused call sent nothing"
    );
    match err.kind() {
        ErrorKind::RateLimited {
            per_minute,
            retry_in,
        } => {
            assert_eq!(err.operation(), Some("keywords metrics"));
            assert_eq!(*per_minute, 20);
            assert!(*retry_in > Duration::ZERO && *retry_in <= Duration::from_secs(60));
        }
        other => panic!("expected ErrorKind::RateLimited, got {other:?}"),
    }
    assert!(err.is_refused());

    // The limit is per operation: another operation still has its slots.
    client.projects().list().send().await.unwrap();
    assert_eq!(server.requests(), METRICS_PER_MINUTE + 1);
}

/// `is_refused()` promises that nothing was sent. A retry that meets the rate
/// limit in refuse mode comes after an attempt that was sent, so its outcome must
/// not claim a refusal.
#[tokio::test]
async fn a_retry_over_the_rate_limit_is_not_reported_as_refused() {
    let mut script: Vec<Reply> = (1..METRICS_PER_MINUTE).map(|_| empty(0, 1000)).collect();
    script.push(Reply::json(500, r#"{"message":"Internal Server Error"}"#));
    script.push(empty(0, 1000));
    let server = Server::script(script).await;
    let client = server
        .builder()
        .rate_limit(RateLimitMode::Refuse)
        .retry(fast())
        .build()
        .unwrap();
    for _ in 1..METRICS_PER_MINUTE {
        metrics(&client).await.unwrap();
    }

    // Slot 20: answered 500; the retry would need slot 21.
    let result = metrics(&client).await;

    assert_eq!(server.requests(), METRICS_PER_MINUTE);
    if let Err(err) = result {
        assert_secret(&err);
        assert!(
            !err.is_refused(),
            "a call that was sent (HTTP 500) is reported as refused before sending: {err}"
        );
    }
}

#[tokio::test]
async fn rate_limits_are_shared_by_clones() {
    let server = Server::script([empty(0, 1000)]).await;
    let client = server
        .builder()
        .rate_limit(RateLimitMode::Refuse)
        .build()
        .unwrap();
    let clone = client.clone();

    for n in 0..METRICS_PER_MINUTE {
        let which = if n % 2 == 0 { &client } else { &clone };
        metrics(which).await.unwrap();
    }
    let err = failed(metrics(&clone.clone()).await);

    assert!(
        matches!(err.kind(), ErrorKind::RateLimited { .. }),
        "{err:?}"
    );
    let err = failed(metrics(&client).await);
    assert!(
        matches!(err.kind(), ErrorKind::RateLimited { .. }),
        "{err:?}"
    );
    assert_eq!(server.requests(), METRICS_PER_MINUTE);
}

#[tokio::test]
async fn the_call_over_the_per_minute_figure_waits_by_default() {
    let server = Server::script([empty(0, 1000)]).await;
    // 20 requests per 2 s: a slot every 100 ms after a burst of 20.
    let client = server
        .builder()
        .rate_window(Duration::from_millis(2000))
        .build()
        .unwrap();

    let burst_started = Instant::now();
    for _ in 0..METRICS_PER_MINUTE {
        metrics(&client).await.unwrap();
    }
    let burst = burst_started.elapsed();
    let started = Instant::now();
    metrics(&client).await.unwrap();
    let waited = started.elapsed();
    let total = burst_started.elapsed();

    assert_eq!(server.requests(), METRICS_PER_MINUTE + 1);
    // The 21st slot opens 100 ms after the first; the burst itself used part of it.
    assert!(
        total >= Duration::from_millis(90),
        "21 calls within {total:?}: the 21st did not wait"
    );
    if burst < Duration::from_millis(40) {
        assert!(
            waited >= Duration::from_millis(50),
            "the 21st call took {waited:?} after a burst of {burst:?}"
        );
    }
}

#[tokio::test]
async fn rate_limit_off_sends_every_call() {
    let server = Server::script([empty(0, 1000)]).await;
    let client = server
        .builder()
        .rate_limit(RateLimitMode::Off)
        .build()
        .unwrap();

    for _ in 0..METRICS_PER_MINUTE + 5 {
        metrics(&client).await.unwrap();
    }

    assert_eq!(server.requests(), METRICS_PER_MINUTE + 5);
}

// ---------------------------------------------------------------------------
// Units: ledger, estimate, budget
// ---------------------------------------------------------------------------

#[tokio::test]
async fn the_ledger_is_shared_by_clones_sums_used_and_keeps_the_last_remaining() {
    let server = Server::script([
        empty(30, 970),
        empty(20, 990), // topped up in between: the last figure wins, not the least
        Reply::json(400, r#"{"status":400,"message":"No data found!"}"#),
        Reply::json(400, r#"{"message":"refused"}"#),
    ])
    .await;
    let client = server.client_with(RetryPolicy::none());
    let clone = client.clone();
    assert_eq!(client.units().used, 0);
    assert_eq!(client.units().remaining, None);

    metrics(&client).await.unwrap();
    metrics(&clone).await.unwrap();

    for units in [client.units(), clone.units()] {
        assert_eq!(units.used, 50);
        assert_eq!(units.remaining, Some(990));
        assert_eq!(units.calls, 2);
    }

    // No data: nothing charged, the balance is left as it was, and the envelope
    // carries the last known balance.
    let page = metrics(&clone).await.unwrap();
    assert!(page.no_data);
    assert_eq!(page.units_remaining, Some(990));
    assert_eq!(
        (client.units().used, client.units().remaining),
        (50, Some(990))
    );

    // An error is not an envelope: nothing recorded.
    failed(metrics(&client).await);
    assert_eq!(
        (clone.units().used, clone.units().remaining),
        (50, Some(990))
    );
}

#[tokio::test]
async fn estimates_come_from_the_spec_figures() {
    let server = Server::script([empty(0, 0)]).await;
    let client = server.client_with(RetryPolicy::none());

    let three = client.keywords().metrics(["a", "b", "c"]).request();
    assert_eq!(
        client.estimate(&three).unwrap(),
        Estimate {
            per_row: Some((10, 10)),
            ..Estimate::range(0, 30)
        }
    );

    let list = client.projects().list().request();
    assert_eq!(
        client.estimate(&list).unwrap(),
        Estimate {
            per_request: Some(100),
            ..Estimate::range(100, 100)
        }
    );

    // Two figures ("50 and 10"): up to 50 per row and 50 per request, named.
    let best = client.projects().best_pages(48213, 10).request();
    let estimate = client.estimate(&best).unwrap();
    assert_eq!((estimate.min, estimate.max), (0, 50 * 10 + 50));
    assert_eq!(estimate.per_row, Some((10, 50)));
    assert_eq!(estimate.per_request, Some(50));

    // An invalid request gives its error, not an estimate.
    let none: [&str; 0] = [];
    let err = client
        .estimate(&client.keywords().metrics(none).request())
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::InvalidInput(_)), "{err:?}");
    assert_secret(&err);
    assert_eq!(server.requests(), 0, "estimating sends nothing");
}

#[tokio::test]
async fn an_over_budget_call_sends_nothing() {
    let server = Server::script([empty(30, 970)]).await;
    let client = server.builder().budget(25).build().unwrap();

    let err = failed(client.keywords().metrics(["a", "b", "c"]).send().await);

    assert_eq!(server.requests(), 0, "an over-budget call sends nothing");
    match err.kind() {
        ErrorKind::OverBudget {
            estimate_max,
            budget_left,
            budget,
        } => {
            assert_eq!(err.operation(), Some("keywords metrics"));
            assert_eq!((*estimate_max, *budget_left, *budget), (30, 25, 25));
        }
        other => panic!("expected ErrorKind::OverBudget, got {other:?}"),
    }
    assert!(err.is_refused());
    assert_eq!(client.budget(), Some(25));

    // A two-figure operation: up to 50 x (10 + 1) = 550.
    let err = failed(client.projects().best_pages(48213, 10).send().await);
    assert!(
        matches!(
            err.kind(),
            ErrorKind::OverBudget {
                estimate_max: 550,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(server.requests(), 0);
}

#[tokio::test]
async fn calls_within_the_budget_go_and_the_budget_shrinks_with_use() {
    let server = Server::script([empty(30, 970)]).await;
    let client = server.builder().budget(50).build().unwrap();
    let clone = client.clone();

    // Max 30 of 50: allowed; it reports 30 used.
    client
        .keywords()
        .metrics(["a", "b", "c"])
        .send()
        .await
        .unwrap();
    assert_eq!(server.requests(), 1);

    // 20 left, shared by the clone: max 30 is refused, max 20 allowed.
    let err = failed(clone.keywords().metrics(["a", "b", "c"]).send().await);
    assert!(
        matches!(
            err.kind(),
            ErrorKind::OverBudget {
                estimate_max: 30,
                budget_left: 20,
                budget: 50,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(server.requests(), 1);
    clone.keywords().metrics(["a", "b"]).send().await.unwrap();
    assert_eq!(server.requests(), 2);
}

#[tokio::test]
async fn a_call_in_flight_holds_its_estimate_against_the_budget() {
    let server = Server::script([
        empty(10, 990).delay(Duration::from_millis(300)),
        empty(10, 980),
    ])
    .await;
    let client = server.builder().budget(50).build().unwrap();
    let clone = client.clone();

    let slow = tokio::spawn(async move { clone.keywords().metrics(["a", "b", "c"]).send().await });
    // Let the first call reach the server.
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.requests() == 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(server.requests(), 1);

    // 30 held for the call in flight, so 20 left.
    let err = failed(client.keywords().metrics(["a", "b", "c"]).send().await);
    assert!(
        matches!(
            err.kind(),
            ErrorKind::OverBudget {
                budget_left: 20,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(server.requests(), 1);

    slow.await.unwrap().unwrap();
    // The call used 10: 40 left, the reservation released.
    client
        .keywords()
        .metrics(["a", "b", "c"])
        .send()
        .await
        .unwrap();
    assert_eq!(server.requests(), 2);
}

// ---------------------------------------------------------------------------
// Tracing
// ---------------------------------------------------------------------------

/// What the capturing layer saw: closed spans with their fields, event lines, and
/// the formatted output of a `fmt` layer.
#[derive(Default)]
struct Captured {
    spans: Mutex<Vec<(String, BTreeMap<String, String>)>>,
    events: Mutex<Vec<String>>,
    formatted: Mutex<Vec<u8>>,
}

/// The fields of a span, kept in its extensions until it closes.
struct SpanFields(BTreeMap<String, String>);

/// Records every field as text (`Display` where the value was given with `%`).
struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl tracing::field::Visit for Fields<'_> {
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }

    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

/// A layer keeping every span's fields and every event.
#[derive(Clone, Default)]
struct Capture(Arc<Captured>);

impl<S> Layer<S> for Capture
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(
        &self,
        attrs: &tracing::span::Attributes<'_>,
        id: &tracing::span::Id,
        ctx: Context<'_, S>,
    ) {
        let mut fields = BTreeMap::new();
        attrs.record(&mut Fields(&mut fields));
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(SpanFields(fields));
        }
    }

    fn on_record(
        &self,
        id: &tracing::span::Id,
        values: &tracing::span::Record<'_>,
        ctx: Context<'_, S>,
    ) {
        if let Some(span) = ctx.span(id)
            && let Some(fields) = span.extensions_mut().get_mut::<SpanFields>()
        {
            values.record(&mut Fields(&mut fields.0));
        }
    }

    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        let meta = event.metadata();
        self.0.events.lock().unwrap().push(format!(
            "{} {} {} {fields:?}",
            meta.level(),
            meta.target(),
            meta.name()
        ));
    }

    fn on_close(&self, id: tracing::span::Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(&id) {
            let fields = span
                .extensions_mut()
                .remove::<SpanFields>()
                .map(|f| f.0)
                .unwrap_or_default();
            self.0
                .spans
                .lock()
                .unwrap()
                .push((span.name().to_owned(), fields));
        }
    }
}

/// Where the `fmt` layer writes.
struct Formatted(Arc<Captured>);

impl std::io::Write for Formatted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.formatted.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    /// A subscriber feeding this capture, both raw and through a `fmt` layer that
    /// logs every event and every span's opening and closing.
    fn subscriber(&self) -> impl tracing::Subscriber + Send + Sync + 'static {
        let captured = Arc::clone(&self.0);
        let fmt = tracing_subscriber::fmt::layer()
            .with_ansi(false)
            .with_span_events(FmtSpan::FULL)
            .with_writer(move || Formatted(Arc::clone(&captured)));
        tracing_subscriber::registry().with(self.clone()).with(fmt)
    }

    /// Fields of every closed span with this name.
    fn spans(&self, name: &str) -> Vec<BTreeMap<String, String>> {
        self.0
            .spans
            .lock()
            .unwrap()
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, fields)| fields.clone())
            .collect()
    }

    /// Everything captured, as text.
    fn text(&self) -> String {
        let mut out = String::new();
        for (name, fields) in self.0.spans.lock().unwrap().iter() {
            out.push_str(&format!("span {name} {fields:?}\n"));
        }
        for event in self.0.events.lock().unwrap().iter() {
            out.push_str(event);
            out.push('\n');
        }
        out.push_str(&String::from_utf8_lossy(&self.0.formatted.lock().unwrap()));
        out
    }
}

#[tokio::test]
async fn the_call_span_records_its_fields_and_never_the_key() {
    // tracing caches each callsite's interest for the whole process. While only one
    // dispatcher is registered, a callsite first reached on another test's thread
    // is judged by that thread's (absent) subscriber and cached as disabled. With a
    // second one registered, every judgement consults all of them.
    let _second = tracing::Dispatch::new(tracing::subscriber::NoSubscriber::default());
    let capture = Capture::default();
    let _guard = tracing::subscriber::set_default(capture.subscriber());

    let server = Server::script([
        Reply::json(503, &format!(r#"{{"message":"busy {ECHO}"}}"#)),
        empty(30, 970),
        Reply::json(400, &format!(r#"{{"message":"bad key {ECHO}"}}"#)),
        Reply::json(200, &format!(r#"{{"ResultRows":"{ECHO}"#)),
    ])
    .await;
    let client = server.client_with(fast());

    // One success, after a retry.
    metrics(&client).await.unwrap();
    let spans = capture.spans("seozoom.call");
    assert_eq!(spans.len(), 1, "one span per call");
    let span = &spans[0];
    assert_eq!(
        span.get("operation").map(String::as_str),
        Some("keywords metrics")
    );
    assert_eq!(span.get("db").map(String::as_str), Some("it"));
    assert_eq!(span.get("status").map(String::as_str), Some("200"));
    assert_eq!(span.get("attempts").map(String::as_str), Some("2"));
    assert_eq!(span.get("units_used").map(String::as_str), Some("30"));
    assert_eq!(span.get("units_remaining").map(String::as_str), Some("970"));
    assert!(
        span.get("latency_ms")
            .is_some_and(|v| v.parse::<u64>().is_ok()),
        "{span:?}"
    );

    // Failing calls: a service error and a decode error echoing the key, a reset,
    // a timeout, a refusal.
    failed(metrics(&client).await);
    failed(metrics(&client).await);
    let reset = RawServer::start(Misbehaviour::Reset).await;
    failed(metrics(&reset.client(fast(), Duration::from_secs(5))).await);
    let silent = RawServer::start(Misbehaviour::Silent).await;
    failed(metrics(&silent.client(RetryPolicy::none(), Duration::from_millis(200))).await);
    let budget = server.builder().budget(1).build().unwrap();
    failed(metrics(&budget).await);

    let failing = capture.spans("seozoom.call");
    assert_eq!(failing.len(), 6);
    assert!(
        failing
            .iter()
            .any(|s| s.get("status").map(String::as_str) == Some("400")),
        "{failing:?}"
    );
    assert!(
        server.queries().iter().all(|q| q.contains(KEY)),
        "the bodies did echo the key"
    );
    let text = capture.text();
    assert!(
        text.contains("call failed") && text.contains("retrying"),
        "the events are captured:\n{}",
        masked(&text, &[KEY])
    );
    let formatted = String::from_utf8_lossy(&capture.0.formatted.lock().unwrap()).into_owned();
    assert!(
        formatted.contains("seozoom.call") && formatted.contains("units_used=30"),
        "the fmt layer saw the span:\n{}",
        masked(&formatted, &[KEY])
    );
    assert!(
        !text.contains(KEY),
        "the key is in the trace:\n{}",
        masked(&text, &[KEY])
    );
}

/// A wait longer than 2 s is told through `tracing` as it starts and ends
/// (target `seozoom::wait`), and a wait that would pass `max_wait` is not
/// begun: the call stops naming it.
#[tokio::test]
async fn long_waits_are_traced_and_bounded_by_max_wait() {
    let server = Server::script([
        Reply::json(429, r#"{"message":"Too Many Requests"}"#).header("retry-after", "soon")
    ])
    .await;
    let client = server
        .builder()
        .retry(fast())
        .rate_window(Duration::from_millis(2_100))
        .max_wait(Duration::from_secs(3))
        .build()
        .unwrap();
    let capture = Capture::default();
    let _guard = tracing::subscriber::set_default(capture.subscriber());

    let started = Instant::now();
    let err = failed(metrics(&client).await);
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "stopped at the bound"
    );

    assert_eq!(server.requests(), 2);
    let ErrorKind::WaitedTooLong {
        wait,
        waited,
        max_wait,
        waiting_for,
    } = err.kind()
    else {
        panic!("{err:?}");
    };
    assert_eq!(
        (*wait, *waited, *max_wait),
        (
            Duration::from_millis(2_100),
            Duration::from_millis(2_100),
            Duration::from_secs(3)
        )
    );
    assert!(
        waiting_for.contains("HTTP 429 with an unreadable Retry-After (soon)")
            && waiting_for.contains("attempt 3"),
        "{waiting_for}"
    );
    assert_eq!(
        err.charged(),
        seozoom::error::Charge::Unknown,
        "429s report no units"
    );

    let waits: Vec<String> = capture
        .0
        .events
        .lock()
        .unwrap()
        .iter()
        .filter(|e| e.contains(seozoom::wait::WAIT_TARGET))
        .cloned()
        .collect();
    assert_eq!(waits.len(), 2, "a start and an end: {waits:#?}");
    for (event, which) in waits.iter().zip(["start", "end"]) {
        assert!(event.starts_with("INFO seozoom::wait"), "{event}");
        for field in [
            format!("\"event\": \"{which}\""),
            "\"operation\": \"keywords metrics\"".to_owned(),
            "\"cause\": \"rate_window\"".to_owned(),
            "\"wait_ms\": \"2100\"".to_owned(),
            "\"attempt\": \"2\"".to_owned(),
            "\"max_wait_ms\": \"3000\"".to_owned(),
        ] {
            assert!(event.contains(&field), "{field} in {event}");
        }
    }
}

/// An answer cut after its `UnitsUsed` was charged: the error says so and
/// the store's ledger has the units.
#[tokio::test]
async fn a_cut_answer_is_charged_in_the_error_and_the_ledger() {
    let server = Server::script([Reply::json(
        200,
        r#"{"ResultRows": 1, "UnitsUsed": 10, "UnitsRemaining": 990, "response": [{"keyword": "mu"#,
    )])
    .await;
    let client = server
        .builder()
        .retry(RetryPolicy::none())
        .store(seozoom::store::Store::memory())
        .build()
        .unwrap();
    let err = failed(metrics(&client).await);
    assert!(matches!(err.kind(), ErrorKind::Decode { .. }), "{err:?}");
    assert_eq!(err.charged(), seozoom::error::Charge::Units(10));
    assert_eq!(client.units().used, 10);
    assert_eq!(client.units().remaining, Some(990));
    let usage = client.usage(0).await.unwrap();
    assert_eq!((usage[0].calls, usage[0].units_used), (1, 10));
    // Refused before sending: nothing.
    let none: [&str; 0] = [];
    let refused = client.keywords().metrics(none).send().await.unwrap_err();
    assert_eq!(refused.charged(), seozoom::error::Charge::None);
}
