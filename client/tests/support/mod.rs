//! A loopback HTTP server for the operation tests: it records the path and the raw
//! query string of every request and answers each one with the same canned
//! status, headers and body.

use std::fmt::Debug;
use std::future::Future;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use seozoom::{Client, Envelope, Error, error::InvalidInput};

/// The key every test client sends.
pub const KEY: &str = "TEST-KEY-123";

/// One request as the server saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// Path, e.g. `/api/v2/domains/`.
    pub path: String,
    /// Raw query string, exactly as sent (no decoding).
    pub query: String,
}

#[derive(Clone)]
struct Canned {
    status: StatusCode,
    content_type: &'static str,
    /// Further headers, as given.
    headers: Arc<[(String, String)]>,
    body: Arc<str>,
    seen: Arc<Mutex<Vec<Seen>>>,
}

async fn answer(State(canned): State<Canned>, uri: Uri) -> Response {
    canned.seen.lock().unwrap().push(Seen {
        path: uri.path().to_owned(),
        query: uri.query().unwrap_or_default().to_owned(),
    });
    let mut response = (
        canned.status,
        [(header::CONTENT_TYPE, canned.content_type)],
        canned.body.to_string(),
    )
        .into_response();
    for (name, value) in canned.headers.iter() {
        if let (Ok(name), Ok(value)) = (
            header::HeaderName::try_from(name.as_str()),
            header::HeaderValue::try_from(value.as_str()),
        ) {
            response.headers_mut().append(name, value);
        }
    }
    response
}

/// A running server; it stops when dropped.
pub struct Server {
    port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Serve `body` with this status and content type to every request.
    pub async fn start(status: u16, content_type: &'static str, body: impl Into<String>) -> Server {
        Server::with_headers(status, content_type, &[], body).await
    }

    /// Serve `body` with this status, content type and further headers to
    /// every request.
    pub async fn with_headers(
        status: u16,
        content_type: &'static str,
        headers: &[(&str, &str)],
        body: impl Into<String>,
    ) -> Server {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let canned = Canned {
            status: StatusCode::from_u16(status).unwrap(),
            content_type,
            headers: headers
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
            body: body.into().into(),
            seen: Arc::clone(&seen),
        };
        let app = Router::new().fallback(answer).with_state(canned);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Server { port, seen, task }
    }

    /// Serve `body` as `200 application/json`.
    pub async fn json(body: impl Into<String>) -> Server {
        Server::start(200, "application/json", body).await
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// A client of this server with the test key and the default database.
    pub fn client(&self) -> Client {
        Client::builder()
            .api_key(KEY)
            .base_url(self.base_url())
            .build()
            .unwrap()
    }

    /// Every request seen so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// Assert that exactly one request was made, to this path with this raw query.
    #[track_caller]
    pub fn assert_sent(&self, path: &str, query: &str) {
        let expected = Seen {
            path: path.to_owned(),
            query: query.to_owned(),
        };
        assert_eq!(self.seen(), [expected]);
    }

    /// Await a call that must be refused before sending: the error is
    /// `InvalidInput` and the server saw no request.
    pub async fn refused<T: Debug>(
        &self,
        call: impl Future<Output = Result<T, Error>>,
    ) -> InvalidInput {
        let result = call.await;
        assert_eq!(self.seen(), [], "a refused call must send nothing");
        match result {
            Err(Error::InvalidInput(invalid)) => invalid,
            other => panic!("expected Error::InvalidInput, got {other:?}"),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The envelope figures: `(ResultRows, UnitsUsed, UnitsRemaining)`.
pub fn units<T>(envelope: &Envelope<T>) -> (i64, i64, i64) {
    (
        envelope.result_rows,
        envelope.units_used,
        envelope.units_remaining,
    )
}
