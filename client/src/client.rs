//! `Client`: configuration, and one call from a generic request to a typed result.
//!
//! The API key travels in the query string, so it is kept in a type whose `Debug`
//! is redacted, transport errors are stripped of their URL, every text taken from
//! a response is scrubbed of the key, and tracing spans never see the URL.

use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use tracing::Instrument;

use crate::Envelope;
use crate::decode::{decode_rows, decode_typed};
use crate::error::Error;
use crate::operations::SERVICE;
use crate::request::{Request, encode_value, push_query};
use crate::table::Operation;
use crate::transport::{
    RateLimitMode, RateLimits, RetryPolicy, next_delay, retry_after, retryable_status,
};
use crate::units::{Estimate, JobHold, Ledger, Units, estimate};

/// Environment variable read by [`Client::from_env`].
pub const API_KEY_ENV: &str = "SEOZOOM_API_KEY";

/// Default time allowed to open a connection.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Default time allowed for one attempt of a call, body included.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// What replaces the key wherever text could show it.
const REDACTED: &str = "<redacted>";

/// The API key. Its `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
struct ApiKey(String);

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey({REDACTED})")
    }
}

impl ApiKey {
    /// `text` with the key (plain or percent-encoded) replaced.
    fn scrub(&self, text: &str) -> String {
        text.replace(&self.0, REDACTED)
            .replace(&encode_value(&self.0), REDACTED)
    }

    fn scrub_error(&self, error: Error) -> Error {
        match error {
            Error::Service {
                operation,
                status,
                message,
                body,
            } => Error::Service {
                operation,
                status,
                message: message.map(|m| self.scrub(&m)),
                body: self.scrub(&body),
            },
            Error::Decode {
                operation,
                path,
                message,
                body,
            } => Error::Decode {
                operation,
                path,
                message: self.scrub(&message),
                body: self.scrub(&body),
            },
            Error::Transport {
                operation,
                message,
                timeout,
            } => Error::Transport {
                operation,
                message: self.scrub(&message),
                timeout,
            },
            Error::Config(message) => Error::Config(self.scrub(&message)),
            Error::InsecureUrl { url } => Error::InsecureUrl {
                url: self.scrub(&url),
            },
            other => other,
        }
    }
}

struct Inner {
    http: reqwest::Client,
    key: ApiKey,
    base_url: String,
    database: &'static str,
    retry: RetryPolicy,
    rate_limits: RateLimits,
    ledger: Arc<Ledger>,
}

/// A client of the SEOZoom API v2. Cheap to clone: clones share the connection
/// pool, the rate limits and the units ledger.
///
/// ```no_run
/// # async fn run() -> Result<(), seozoom::Error> {
/// let client = seozoom::Client::from_env()?;
/// let metrics = client.keywords().metrics(["scarpe running", "mutuo"]).send().await?;
/// for row in &metrics.response {
///     println!("{}: {}", row.keyword, row.search_volume);
/// }
/// println!("units used {}, remaining {}", metrics.units_used, metrics.units_remaining);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("key", &self.inner.key)
            .field("base_url", &self.inner.base_url)
            .field("database", &self.inner.database)
            .field("retry", &self.inner.retry)
            .field("units", &self.inner.ledger.snapshot())
            .field("budget", &self.inner.ledger.budget())
            .finish_non_exhaustive()
    }
}

/// Configures a [`Client`].
#[derive(Debug, Clone)]
pub struct ClientBuilder {
    key: Option<ApiKey>,
    base_url: String,
    database: Option<&'static str>,
    connect_timeout: Duration,
    timeout: Duration,
    retry: RetryPolicy,
    rate_limit: RateLimitMode,
    rate_window: Duration,
    budget: Option<i64>,
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder {
            key: None,
            base_url: SERVICE.base_url.to_owned(),
            database: None,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            timeout: DEFAULT_TIMEOUT,
            retry: RetryPolicy::default(),
            rate_limit: RateLimitMode::default(),
            rate_window: Duration::from_secs(60),
            budget: None,
        }
    }
}

impl ClientBuilder {
    /// The API key.
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(ApiKey(key.into()));
        self
    }

    /// The service address without `/api/v2` (default `https://apiv2.seozoom.com`).
    /// `http://` is accepted for loopback hosts only, since the key is in the query.
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = url.into();
        self
    }

    /// Default database as wire text; the typed setter is `db`.
    pub(crate) fn database(mut self, database: &'static str) -> Self {
        self.database = Some(database);
        self
    }

    /// Time allowed to open a connection (default 10 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Time allowed for one attempt of a call, body included (default 60 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Retry policy (default [`RetryPolicy::default`]; [`RetryPolicy::none`] for none).
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// What to do when an operation's requests-per-minute figure is used up
    /// (default: wait).
    pub fn rate_limit(mut self, mode: RateLimitMode) -> Self {
        self.rate_limit = mode;
        self
    }

    /// The period the spec's requests-per-minute figures apply to (default one
    /// minute). Shorten it in tests; lengthen it to stay further below the service.
    pub fn rate_window(mut self, window: Duration) -> Self {
        self.rate_window = window;
        self
    }

    /// A unit budget for the client and its clones: a call whose maximum estimated
    /// cost exceeds what is left is refused before sending ([`Error::OverBudget`]).
    /// What is left is the budget less the units spent, the maximum estimates of
    /// calls in flight and what running bulk jobs hold for their remaining
    /// requests.
    pub fn budget(mut self, units: i64) -> Self {
        self.budget = Some(units);
        self
    }

    /// Build the client.
    pub fn build(self) -> Result<Client, Error> {
        let key = self
            .key
            .filter(|k| !k.0.trim().is_empty())
            .ok_or_else(|| Error::Config(format!("no API key: pass one or set {API_KEY_ENV}")))?;
        let base_url = check_base_url(&self.base_url).map_err(|e| key.scrub_error(e))?;
        let database = match self.database {
            Some(db) => db,
            None => SERVICE
                .database
                .default
                .ok_or_else(|| Error::Config("the spec gives no default database".into()))?,
        };
        let http = reqwest::Client::builder()
            .connect_timeout(self.connect_timeout)
            .timeout(self.timeout)
            .user_agent(concat!("seozoom-rs/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| Error::Config(key.scrub(&e.without_url().to_string())))?;
        Ok(Client {
            inner: Arc::new(Inner {
                http,
                key,
                base_url,
                database,
                retry: self.retry,
                rate_limits: RateLimits::new(self.rate_limit, self.rate_window),
                ledger: Arc::new(Ledger::new(self.budget)),
            }),
        })
    }
}

/// A URL as it may be shown: any query or fragment (where a pasted key would be) hidden.
fn shown_url(url: &str) -> String {
    match url.find(['?', '#']) {
        Some(cut) => format!("{}?<hidden>", &url[..cut]),
        None => url.to_owned(),
    }
}

/// The base URL without a trailing slash; `http://` only towards loopback.
fn check_base_url(url: &str) -> Result<String, Error> {
    let shown = shown_url(url);
    let parsed = reqwest::Url::parse(url)
        .map_err(|e| Error::Config(format!("base URL `{shown}` is not a URL: {e}")))?;
    let loopback = match parsed.host() {
        Some(url::Host::Domain(host)) => host.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    };
    match parsed.scheme() {
        "https" => {}
        "http" if loopback => {}
        "http" => {
            return Err(Error::InsecureUrl { url: shown });
        }
        other => {
            return Err(Error::Config(format!(
                "base URL `{shown}`: unsupported scheme `{other}`"
            )));
        }
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(Error::Config(format!(
            "base URL `{shown}` must not carry a query or fragment"
        )));
    }
    Ok(url.trim_end_matches('/').to_owned())
}

/// A request checked and ready to go.
struct Prepared {
    op: &'static Operation,
    database: String,
    url: String,
    estimate: Estimate,
}

impl Client {
    /// A client with default settings and this key.
    pub fn new(api_key: impl Into<String>) -> Result<Client, Error> {
        Client::builder().api_key(api_key).build()
    }

    /// A client with default settings and the key in `SEOZOOM_API_KEY`.
    pub fn from_env() -> Result<Client, Error> {
        let key = std::env::var(API_KEY_ENV)
            .map_err(|_| Error::Config(format!("{API_KEY_ENV} is not set")))?;
        Client::new(key)
    }

    /// A builder for the other settings.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// The base URL in use.
    pub fn base_url(&self) -> &str {
        &self.inner.base_url
    }

    /// The default database (wire text).
    pub fn default_database(&self) -> &'static str {
        self.inner.database
    }

    /// Units used by this client and its clones, and the last known balance.
    pub fn units(&self) -> Units {
        self.inner.ledger.snapshot()
    }

    /// The unit budget, if one is set.
    pub fn budget(&self) -> Option<i64> {
        self.inner.ledger.budget()
    }

    /// The cost range of a request, from the spec's figures, without sending it.
    /// Validates first, so an invalid request gives its error here.
    pub fn estimate(&self, request: &Request) -> Result<Estimate, Error> {
        Ok(self.prepare(request)?.estimate)
    }

    /// The URL a request would be sent to, with the key shown as `<redacted>`.
    /// Validates first, so an invalid request gives its error here.
    pub fn redacted_url(&self, request: &Request) -> Result<String, Error> {
        let op = request.operation();
        let query = request.validate(&SERVICE, self.inner.database)?;
        Ok(self.url(op, &query, REDACTED))
    }

    fn url(&self, op: &Operation, query: &[(&str, String)], key: &str) -> String {
        let key = if key == REDACTED {
            key.to_owned()
        } else {
            encode_value(key)
        };
        let mut url = format!(
            "{}{}?{}={key}&",
            self.inner.base_url, op.path, SERVICE.key.wire
        );
        push_query(&mut url, query, SERVICE.list_separator);
        url
    }

    fn prepare(&self, request: &Request) -> Result<Prepared, Error> {
        let op = request.operation();
        let query = request.validate(&SERVICE, self.inner.database)?;
        let database = query
            .iter()
            .find(|(wire, _)| *wire == SERVICE.database.wire)
            .map_or_else(|| self.inner.database.to_owned(), |(_, db)| db.clone());
        Ok(Prepared {
            op,
            database,
            url: self.url(op, &query, &self.inner.key.0),
            estimate: estimate(op, &query, SERVICE.list_separator),
        })
    }

    /// Validate, send and decode a request into the typed result `T`. Generated
    /// builders call this; it is public for tools that build requests from the
    /// operation table.
    ///
    /// "No data found!" gives an empty result for list and map operations
    /// ([`Envelope::no_data`] is then `true`) and [`Error::NoData`] for operations
    /// that return one object.
    pub async fn execute<T: DeserializeOwned>(
        &self,
        request: Request,
    ) -> Result<Envelope<T>, Error> {
        self.call(request, decode_typed::<T>, None).await
    }

    /// Like [`execute`](Self::execute), for any operation: the body is decoded as
    /// the operation's typed result and its `response` re-encoded as JSON with the
    /// API's field names.
    // Inline, so that the decoders of every operation
    // (`operations::decode_json`) are compiled only in a crate that calls this.
    #[inline]
    pub async fn execute_json(
        &self,
        request: Request,
    ) -> Result<Envelope<serde_json::Value>, Error> {
        self.call(request, crate::operations::decode_json, None)
            .await
    }

    /// [`execute`](Self::execute) for an operation that answers a list of rows:
    /// the same result, decoded with the rows' `Vec` reserved from the
    /// envelope's `ResultRows` (bounded by the body's size) rather than grown by
    /// doubling, which keeps the peak memory of a large page near the size of
    /// its rows. Generated builders of list operations call this.
    pub async fn execute_rows<R: DeserializeOwned>(
        &self,
        request: Request,
    ) -> Result<Envelope<Vec<R>>, Error> {
        self.call(request, decode_rows::<R>, None).await
    }

    /// [`execute_rows`](Self::execute_rows) for a page of a job, reserving from
    /// its hold.
    pub(crate) async fn execute_rows_in<R: DeserializeOwned>(
        &self,
        request: Request,
        job: Arc<JobHold>,
    ) -> Result<Envelope<Vec<R>>, Error> {
        self.call(request, decode_rows::<R>, Some(&job)).await
    }

    /// [`execute`](Self::execute) for a call of a job, reserving from its hold.
    pub(crate) async fn execute_in<T: DeserializeOwned>(
        &self,
        request: Request,
        job: Arc<JobHold>,
    ) -> Result<Envelope<T>, Error> {
        self.call(request, decode_typed::<T>, Some(&job)).await
    }

    /// [`execute_json`](Self::execute_json) for a call of a job, reserving from
    /// its hold.
    #[inline]
    pub(crate) async fn execute_json_in(
        &self,
        request: Request,
        job: Arc<JobHold>,
    ) -> Result<Envelope<serde_json::Value>, Error> {
        self.call(request, crate::operations::decode_json, Some(&job))
            .await
    }

    async fn call<T>(
        &self,
        request: Request,
        decode: impl Fn(&Operation, u16, &[u8]) -> Result<Envelope<T>, Error>,
        job: Option<&JobHold>,
    ) -> Result<Envelope<T>, Error> {
        let prepared = self.prepare(&request)?;
        let span = tracing::info_span!(
            "seozoom.call",
            operation = %prepared.op.label(),
            db = %prepared.database,
            status = tracing::field::Empty,
            attempts = tracing::field::Empty,
            units_used = tracing::field::Empty,
            units_remaining = tracing::field::Empty,
            latency_ms = tracing::field::Empty,
        );
        async {
            let started = Instant::now();
            let ledger = &self.inner.ledger;
            ledger.admit(&prepared.op.label(), prepared.estimate)?;
            let reservation =
                ledger.reserve_in(job, &prepared.op.label(), prepared.estimate.max)?;
            let result = self.send(&prepared).await.and_then(|(status, body)| {
                tracing::Span::current().record("status", status);
                decode(prepared.op, status, &body)
            });
            let span = tracing::Span::current();
            span.record("latency_ms", started.elapsed().as_millis() as u64);
            match result {
                Ok(mut envelope) => {
                    let reported = (!envelope.no_data).then_some(envelope.units_remaining);
                    reservation.settle(envelope.units_used, reported);
                    if envelope.no_data {
                        envelope.units_remaining = self.units().remaining.unwrap_or(0);
                    }
                    span.record("units_used", envelope.units_used);
                    span.record("units_remaining", envelope.units_remaining);
                    Ok(envelope)
                }
                Err(error) => {
                    let error = self.inner.key.scrub_error(error);
                    tracing::debug!(%error, "call failed");
                    Err(error)
                }
            }
        }
        .instrument(span)
        .await
    }

    /// Send with rate limiting and retries; the status and body of the last attempt.
    ///
    /// When the client refuses rather than waits for a rate-limit slot, a retry that
    /// finds none ends the call with the answer it has: the call was sent, so it
    /// must not be reported as refused.
    async fn send(&self, prepared: &Prepared) -> Result<(u16, Vec<u8>), Error> {
        let op = prepared.op;
        let mut previous = None;
        let mut attempt = 0;
        loop {
            attempt += 1;
            if let Err(refused) = self.inner.rate_limits.acquire(op).await {
                return previous.unwrap_or(Err(refused));
            }
            tracing::Span::current().record("attempts", attempt);
            let outcome = self.attempt(op, &prepared.url).await;
            let asked = match &outcome {
                Ok((status, headers, _)) if retryable_status(*status) => retry_after(headers),
                Err(Error::Transport { .. }) => None,
                _ => return outcome.map(|(status, _, body)| (status, body)),
            };
            let outcome = outcome.map(|(status, _, body)| (status, body));
            match next_delay(&self.inner.retry, attempt, asked) {
                Some(delay) => {
                    tracing::debug!(attempt, delay_ms = delay.as_millis() as u64, "retrying");
                    previous = Some(outcome);
                    tokio::time::sleep(delay).await;
                }
                None => return outcome,
            }
        }
    }

    /// One attempt: status, headers and body, or a transport error without the URL.
    async fn attempt(
        &self,
        op: &Operation,
        url: &str,
    ) -> Result<(u16, reqwest::header::HeaderMap, Vec<u8>), Error> {
        let transport = |e: reqwest::Error| Error::Transport {
            operation: op.label(),
            timeout: e.is_timeout(),
            message: self.inner.key.scrub(&error_chain(&e.without_url())),
        };
        let mut response = self.inner.http.get(url).send().await.map_err(transport)?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = read_body(&mut response).await.map_err(transport)?;
        Ok((status, headers, body))
    }
}

/// The most a body's `Content-Length` may reserve up front (64 MiB); a longer
/// body still arrives whole, growing the buffer as it comes.
const MAX_RESERVED_BODY: u64 = 64 << 20;

/// The whole body in one buffer, reserved from `Content-Length` when it is given.
/// Each chunk is copied once as it arrives, so a large page is held once rather
/// than as its chunks, then a joined copy, then a `Vec` copy of that.
async fn read_body(response: &mut reqwest::Response) -> Result<Vec<u8>, reqwest::Error> {
    let reserve = response
        .content_length()
        .unwrap_or(0)
        .min(MAX_RESERVED_BODY);
    let mut body = Vec::with_capacity(usize::try_from(reserve).unwrap_or(0));
    while let Some(chunk) = response.chunk().await? {
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// An error and its sources, on one line.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}

impl Client {
    /// The units ledger shared by this client and its clones (for bulk jobs,
    /// which hold a whole job's estimate against the budget while they run).
    pub(crate) fn ledger(&self) -> &Arc<Ledger> {
        &self.inner.ledger
    }
}
