//! The one scripted loopback HTTP server of the client's tests: it answers each
//! request with the next reply of its script (status, headers, body bytes,
//! delay; the last reply repeats) and records the path and the raw query
//! string of every request. A canned server is a script of one reply.

use std::collections::VecDeque;
use std::fmt::Debug;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;
use seozoom::config::RetryPolicy;
use seozoom::error::{ErrorKind, InvalidInput};
use seozoom::store::Store;
use seozoom::{Client, ClientBuilder, Error};

use super::KEY;

/// In a reply body, replaced by the raw query string the server received (which
/// carries the key), to play a service that echoes the request back.
pub const ECHO: &str = "{{QUERY}}";

/// One scripted answer.
#[derive(Clone, Debug)]
pub struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    /// Wait this long before answering.
    delay: Duration,
}

impl Reply {
    /// `body` with this status and content type.
    pub fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status,
            headers: vec![("content-type".to_owned(), content_type.to_owned())],
            body: body.into(),
            delay: Duration::ZERO,
        }
    }

    /// `body` as `application/json` with this status.
    pub fn json(status: u16, body: &str) -> Reply {
        Reply::new(status, "application/json", body)
    }

    /// The reply with one more header.
    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Its HTTP status.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The reply given after a wait.
    pub fn delay(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }
}

/// One request as the server saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// Path, e.g. `/api/v2/domains/`.
    pub path: String,
    /// Raw query string, exactly as sent (no decoding).
    pub query: String,
}

struct Script {
    replies: Mutex<VecDeque<Reply>>,
    /// Answer given once the script is used up: its last reply.
    last: Mutex<Option<Reply>>,
    seen: Mutex<Vec<Seen>>,
}

/// A lock that a panicked test thread cannot make unusable for the others.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

async fn scripted(State(script): State<Arc<Script>>, uri: Uri) -> Response {
    let query = uri.query().unwrap_or_default().to_owned();
    lock(&script.seen).push(Seen {
        path: uri.path().to_owned(),
        query: query.clone(),
    });
    let reply = {
        let mut replies = lock(&script.replies);
        let mut last = lock(&script.last);
        match replies.pop_front() {
            Some(reply) => {
                *last = Some(reply.clone());
                reply
            }
            None => last.clone().expect("a script has at least one reply"),
        }
    };
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    let body = echo(&reply.body, &query);
    let mut response = Response::builder().status(reply.status);
    for (name, value) in &reply.headers {
        response = response.header(name.as_str(), value.as_str());
    }
    response.body(Body::from(body)).unwrap()
}

/// `body` with every [`ECHO`] replaced by `query`.
fn echo(body: &[u8], query: &str) -> Vec<u8> {
    let marker = ECHO.as_bytes();
    let mut out = Vec::with_capacity(body.len());
    let mut rest = body;
    while !rest.is_empty() {
        if rest.starts_with(marker) {
            out.extend_from_slice(query.as_bytes());
            rest = &rest[marker.len()..];
        } else {
            out.push(rest[0]);
            rest = &rest[1..];
        }
    }
    out
}

/// A loopback server playing a script; the last reply repeats. Stops when dropped.
pub struct Server {
    addr: SocketAddr,
    script: Arc<Script>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Play `replies`, one per request; the last one repeats.
    pub async fn script(replies: impl IntoIterator<Item = Reply>) -> Server {
        Server::bind("127.0.0.1:0", replies).await.unwrap()
    }

    /// [`Server::script`] on this address (`[::1]:0`, ...).
    pub async fn bind(
        addr: &str,
        replies: impl IntoIterator<Item = Reply>,
    ) -> std::io::Result<Server> {
        let replies: VecDeque<Reply> = replies.into_iter().collect();
        assert!(!replies.is_empty(), "a script needs a reply");
        let script = Arc::new(Script {
            replies: Mutex::new(replies),
            last: Mutex::new(None),
            seen: Mutex::new(Vec::new()),
        });
        let app = Router::new()
            .fallback(scripted)
            .with_state(Arc::clone(&script));
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Ok(Server { addr, script, task })
    }

    /// Serve `body` with this status and content type to every request.
    pub async fn start(status: u16, content_type: &str, body: impl Into<String>) -> Server {
        Server::with_headers(status, content_type, &[], body).await
    }

    /// Serve `body` with this status, content type and further headers to
    /// every request.
    pub async fn with_headers(
        status: u16,
        content_type: &str,
        headers: &[(&str, &str)],
        body: impl Into<String>,
    ) -> Server {
        let reply = headers.iter().fold(
            Reply::new(status, content_type, body.into()),
            |reply, (name, value)| reply.header(name, value),
        );
        Server::script([reply]).await
    }

    /// Serve `body` as `200 application/json` to every request.
    pub async fn json(body: impl Into<String>) -> Server {
        Server::start(200, "application/json", body).await
    }

    /// `http://ADDR:PORT`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// A client builder for this server with the test key, and no store: the
    /// tests count what reaches the server, and a cache would answer their
    /// repeated calls.
    pub fn builder(&self) -> ClientBuilder {
        Client::builder()
            .api_key(KEY)
            .base_url(self.base_url())
            .store(Store::none())
    }

    /// A client of this server with the test key and default settings.
    pub fn client(&self) -> Client {
        self.builder().build().unwrap()
    }

    /// A client of this server with the test key and this retry policy.
    pub fn client_with(&self, retry: RetryPolicy) -> Client {
        self.builder().retry(retry).build().unwrap()
    }

    /// Every request seen so far.
    pub fn seen(&self) -> Vec<Seen> {
        lock(&self.script.seen).clone()
    }

    /// The raw query strings seen so far.
    pub fn queries(&self) -> Vec<String> {
        self.seen().into_iter().map(|seen| seen.query).collect()
    }

    /// Requests received so far.
    pub fn requests(&self) -> usize {
        lock(&self.script.seen).len()
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
            Err(error) => match error.into_kind() {
                ErrorKind::InvalidInput(invalid) => invalid,
                other => panic!("expected ErrorKind::InvalidInput, got {other:?}"),
            },
            Ok(other) => panic!("expected ErrorKind::InvalidInput, got {other:?}"),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}
