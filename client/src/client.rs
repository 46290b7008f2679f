//! `Client`: configuration, sending a validated request, decoding the envelope.
//!
//! The API key travels in the query string, so it is kept in a type whose `Debug`
//! is redacted, transport errors are stripped of their URL, and body excerpts are
//! scrubbed of the key before they enter an error.

use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use serde::de::DeserializeOwned;

use crate::Envelope;
use crate::error::{Error, snippet};
use crate::operations::SERVICE;
use crate::request::{Request, encode_query, encode_value};
use crate::table::Operation;

/// Environment variable read by [`Client::from_env`].
pub const API_KEY_ENV: &str = "SEOZOOM_API_KEY";

/// Default time allowed to open a connection.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Default time allowed for a whole call.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The API key. Its `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
struct ApiKey(String);

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

impl ApiKey {
    /// `text` with every occurrence of the key replaced.
    fn scrub(&self, text: &str) -> String {
        if self.0.is_empty() {
            return text.to_owned();
        }
        text.replace(&self.0, "<redacted>")
            .replace(&encode_value(&self.0), "<redacted>")
    }
}

struct Inner {
    http: reqwest::Client,
    key: ApiKey,
    base_url: String,
    database: &'static str,
}

/// A client of the SEOZoom API v2. Cheap to clone; clones share one connection pool.
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
            .finish()
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
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder {
            key: None,
            base_url: SERVICE.base_url.to_owned(),
            database: None,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            timeout: DEFAULT_TIMEOUT,
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

    /// Time allowed to open a connection.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Time allowed for a whole call.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Build the client.
    pub fn build(self) -> Result<Client, Error> {
        let key = self
            .key
            .filter(|k| !k.0.trim().is_empty())
            .ok_or_else(|| Error::Config(format!("no API key: pass one or set {API_KEY_ENV}")))?;
        let base_url = check_base_url(&self.base_url)?;
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
            .map_err(|e| Error::Config(e.without_url().to_string()))?;
        Ok(Client {
            inner: Arc::new(Inner {
                http,
                key,
                base_url,
                database,
            }),
        })
    }
}

/// The base URL without a trailing slash; `http://` only towards loopback.
fn check_base_url(url: &str) -> Result<String, Error> {
    let parsed = reqwest::Url::parse(url)
        .map_err(|e| Error::Config(format!("base URL `{url}` is not a URL: {e}")))?;
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
            return Err(Error::Config(format!(
                "base URL `{url}` is plain http and not loopback: the API key would travel unencrypted"
            )));
        }
        other => {
            return Err(Error::Config(format!(
                "base URL `{url}`: unsupported scheme `{other}`"
            )));
        }
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(Error::Config(format!(
            "base URL `{url}` must not carry a query or fragment"
        )));
    }
    Ok(url.trim_end_matches('/').to_owned())
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

    /// The URL a request would be sent to, with the key shown as `<redacted>`;
    /// validation first, so an invalid request gives its error here.
    pub fn redacted_url(&self, request: &Request) -> Result<String, Error> {
        let query = request.validate(&SERVICE, self.inner.database)?;
        Ok(self.url(request.operation(), &query, "<redacted>"))
    }

    fn url(&self, op: &Operation, query: &[(&str, String)], key: &str) -> String {
        let rest = encode_query(query, SERVICE.list_separator);
        format!(
            "{}{}?{}={}&{rest}",
            self.inner.base_url,
            op.path,
            SERVICE.key.wire,
            encode_value(key)
        )
    }

    /// Validate, send and decode a request. Generated builders call this; it is
    /// public for tools that build requests from the operation table.
    pub async fn execute<T: DeserializeOwned>(
        &self,
        request: Request,
    ) -> Result<Envelope<T>, Error> {
        let op = request.operation();
        let query = request.validate(&SERVICE, self.inner.database)?;
        let url = self.url(op, &query, &self.inner.key.0);
        let transport = |e: reqwest::Error| Error::Transport {
            operation: op.label(),
            timeout: e.is_timeout(),
            message: self.inner.key.scrub(&error_chain(&e.without_url())),
        };
        let response = self.inner.http.get(url).send().await.map_err(transport)?;
        let status = response.status();
        let body = response.bytes().await.map_err(transport)?;
        decode(op, status.as_u16(), &body).map_err(|e| self.scrub_error(e))
    }

    fn scrub_error(&self, error: Error) -> Error {
        let key = &self.inner.key;
        match error {
            Error::Service {
                operation,
                status,
                message,
                body,
            } => Error::Service {
                operation,
                status,
                message: message.map(|m| key.scrub(&m)),
                body: key.scrub(&body),
            },
            Error::Decode {
                operation,
                path,
                message,
                body,
            } => Error::Decode {
                operation,
                path,
                message: key.scrub(&message),
                body: key.scrub(&body),
            },
            other => other,
        }
    }
}

/// An error and its sources, one line.
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

/// The service's own message in an error body: `message` or `error`.
fn service_message(body: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    ["message", "error"]
        .iter()
        .find_map(|k| match value.get(k)? {
            serde_json::Value::String(s) => Some(s.clone()),
            other => Some(other.to_string()),
        })
}

/// serde reports a missing field at its parent; point at the field itself.
fn field_path(path: &str, message: &str) -> String {
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(field, _)| field);
    match (missing, path) {
        (Some(field), ".") => field.to_owned(),
        (Some(field), parent) => format!("{parent}.{field}"),
        (None, path) => path.to_owned(),
    }
}

/// Judge a body by its content (the service may label JSON as `text/html`).
fn decode<T: DeserializeOwned>(
    op: &Operation,
    status: u16,
    body: &[u8],
) -> Result<Envelope<T>, Error> {
    if !(200..300).contains(&status) {
        return Err(Error::Service {
            operation: op.label(),
            status,
            message: service_message(body),
            body: snippet(body),
        });
    }
    let decode_error = |path: String, message: String| Error::Decode {
        operation: op.label(),
        path,
        message,
        body: snippet(body),
    };
    let mut de = serde_json::Deserializer::from_slice(body);
    let envelope = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let message = e.inner().to_string();
        decode_error(field_path(&e.path().to_string(), &message), message)
    })?;
    de.end()
        .map_err(|e| decode_error(".".into(), e.to_string()))?;
    Ok(envelope)
}
