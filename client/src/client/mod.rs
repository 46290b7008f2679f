//! `Client`: the struct, its configuration ([`ClientBuilder`]) and the key.
//!
//! What a client does is grouped by concern, one file each. A run is three
//! steps (CONTRIBUTING.md, "Follow one call"):
//! - `run` (with `run_options`, `progress` and `output`): the entry points,
//!   [`Client::run`] and [`Client::run_each`], and what kind of job a run is;
//! - `plan` (with `fit`, `fitted_rows` and `learned`): what a job sends, what
//!   the cache answers and what it costs, and its one hold on the budget;
//! - `batch` (with `answers`, `merge`, `items`) and `paged_run` (with
//!   `pages`): the plan carried out, requests or pages; `page_stream`: a
//!   paged job's rows as a stream ([`Client::pages`]);
//! - `call`: one request of a job, from the cache or sent under the rate
//!   limits with retries; `accounting`: what its attempts were charged,
//!   written to the ledgers in one place once it has ended;
//! - `reduce`: the answers made one result with its figures, or what a job
//!   that stopped part-way received;
//! - `job`: the kind of job and its holds while it runs (budget, window, the
//!   caller's bounds);
//! - `store_use`: the store's part: cache, ledger, budget windows and shared
//!   rate limits.
//!
//! The API key travels in the query string, so it is kept in a type whose `Debug`
//! is redacted, transport errors are stripped of their URL, every error is
//! scrubbed of the key before it leaves the client ([`ApiKey::hide`]), and
//! tracing spans never see the URL.

mod accounting;
mod answers;
mod batch;
mod call;
mod fit;
mod fitted_rows;
mod items;
mod job;
mod learned;
mod merge;
mod output;
mod page_stream;
mod paged_run;
mod pages;
mod plan;
mod prepared;
mod progress;
mod reduce;
mod run;
mod run_options;
mod store_use;

use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

pub use crate::stop::Stop;
pub use batch::BATCH_CONCURRENCY;
pub use fitted_rows::FittedRows;
pub use job::Job;
pub(crate) use job::{Bounds, JobHold};
pub use merge::{InputOrder, Merge, Row};
pub use output::Output;
#[doc(hidden)]
pub use output::json as json_output;
pub use pages::Paging;
pub use plan::{Counted, JobPlan};
pub(crate) use progress::Tell;
pub use progress::{CacheHit, Progress, Retry};
pub use run_options::RunOptions;
pub(crate) use store_use::WindowHold;

use crate::error::{ConfigError, Error, ErrorKind};
use crate::operation_table::{Api, RecordInfo, Service};
use crate::rate_limits::{RateLimitMode, RateLimits};
use crate::request::encode_value;
use crate::retry::RetryPolicy;
use crate::store::{BudgetWindow, Store};
use crate::units::{Ledger, Units};

/// Environment variable read by [`Client::from_env`].
pub const API_KEY_ENV: &str = "SEOZOOM_API_KEY";

/// Default time allowed to open a connection.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Default time allowed for one attempt of a call, body included.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// Default bound on all of a call's waits together (rate-limit slots,
/// `Retry-After`s, 429 rate windows, backoffs): five minutes, five of the
/// service's rate windows.
pub const DEFAULT_MAX_WAIT: Duration = Duration::from_secs(300);

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
    /// `text` with the key (plain or percent-encoded) replaced where it is
    /// the key ([`crate::redact`]).
    fn scrub(&self, text: &str) -> String {
        crate::redact::redact(text, &self.0, &encode_value(&self.0), REDACTED)
    }

    /// The error with the key hidden in every text it took from outside: what
    /// every error the client returns goes through.
    fn hide(&self, error: Error) -> Error {
        error.map_text(|text| self.scrub(text))
    }
}

/// What clones of a client share. The spec's tables are handed to the
/// client here, once; the runtime reads them from the client.
struct ClientInner {
    service: &'static Service,
    records: &'static [RecordInfo],
    http: reqwest::Client,
    key: ApiKey,
    base_url: String,
    /// The base URL's origin (`scheme://host:port`): what the cache scopes
    /// answers by, so that a test double's answers are never served as the
    /// service's (the ledger, budgets and rate limits stay per key).
    origin: String,
    database: &'static str,
    retry: RetryPolicy,
    rate_limits: RateLimits,
    /// The bound on all of a call's waits.
    max_wait: Duration,
    ledger: Arc<Ledger>,
    memory: store_use::settings::StoreUse,
}

/// A client of the SEOZoom API v2. Cheap to clone: clones share the connection
/// pool, the rate limits and the units ledger.
///
/// # Examples
///
/// ```no_run
/// # async fn run() -> Result<(), seozoom::Error> {
/// let client = seozoom::Client::from_env()?;
/// let metrics = client.keywords().metrics(["scarpe running", "mutuo"]).send().await?;
/// for row in &metrics.response {
///     println!("{}: {:?}", row.keyword, row.search_volume);
/// }
/// println!("units used {}, remaining {:?}", metrics.units_used, metrics.units_remaining);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Client {
    inner: Arc<ClientInner>,
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
            .field("store", &self.inner.memory.store)
            .finish_non_exhaustive()
    }
}

/// Configures a [`Client`].
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use seozoom::store::Store;
/// use seozoom::{Client, Db};
///
/// let client = Client::builder()
///     .api_key("YOUR-KEY")
///     .db(Db::Uk)
///     .timeout(Duration::from_secs(30))
///     .budget(500)
///     .store(Store::memory())
///     .build()?;
/// assert_eq!(client.budget(), Some(500));
///
/// // The key travels in the query string: plain HTTP only to a loopback host.
/// let refused = Client::builder().api_key("YOUR-KEY").base_url("http://example.com").build();
/// assert!(refused.is_err());
/// # Ok::<(), seozoom::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ClientBuilder {
    api: &'static Api,
    key: Option<ApiKey>,
    base_url: String,
    database: Option<&'static str>,
    connect_timeout: Duration,
    timeout: Duration,
    retry: RetryPolicy,
    rate_limit: RateLimitMode,
    rate_window: Duration,
    max_wait: Duration,
    budget: Option<i64>,
    store: Store,
    refresh: bool,
    store_fallback: bool,
    cache_ttl: Option<Duration>,
    window_budget: Option<(i64, BudgetWindow)>,
    stand_in: Option<String>,
}

impl ClientBuilder {
    /// A builder with default settings for the API of `api` (generated code
    /// calls this: [`Client::builder`] is `ClientBuilder::for_api(&operations::API)`).
    pub fn for_api(api: &'static Api) -> Self {
        ClientBuilder {
            api,
            key: None,
            base_url: api.service.base_url.to_owned(),
            database: None,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            timeout: DEFAULT_TIMEOUT,
            retry: RetryPolicy::default(),
            rate_limit: RateLimitMode::default(),
            rate_window: Duration::from_secs(60),
            max_wait: DEFAULT_MAX_WAIT,
            budget: None,
            store: Store::memory(),
            refresh: false,
            store_fallback: false,
            cache_ttl: None,
            window_budget: None,
            stand_in: None,
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

    /// The longest a call may spend waiting, all its waits together: for
    /// rate-limit slots, the service's `Retry-After`, a 429's rate window,
    /// backoffs after failures (default [`DEFAULT_MAX_WAIT`], five minutes).
    /// A wait that would take the call past it is not begun: the call stops
    /// with [`ErrorKind::WaitedTooLong`](crate::error::ErrorKind::WaitedTooLong)
    /// naming the wait (a batched job keeps the rows received). Waits longer
    /// than 2 s are told through `tracing` as they start
    /// ([`crate::wait`]).
    pub fn max_wait(mut self, max_wait: Duration) -> Self {
        self.max_wait = max_wait;
        self
    }

    /// A unit budget for the client and its clones: a call whose maximum estimated
    /// cost exceeds what is left is refused before sending ([`ErrorKind::OverBudget`](crate::error::ErrorKind::OverBudget)).
    /// What is left is the budget less the units spent, the maximum estimates of
    /// calls in flight and what running bulk jobs hold for their remaining
    /// requests.
    pub fn budget(mut self, units: i64) -> Self {
        self.budget = Some(units);
        self
    }

    /// Where the client keeps its cache, its ledger, its budget windows and,
    /// for stores shared by processes, its rate limits (default
    /// [`Store::memory`]: this process only). Clients on one store and one key
    /// share all of it; two keys never do.
    pub fn store(mut self, store: Store) -> Self {
        self.store = store;
        self
    }

    /// Skip cache reads: every call is sent, and its answer cached anew.
    pub fn refresh(mut self, refresh: bool) -> Self {
        self.refresh = refresh;
        self
    }

    /// What a call does when a shared store (Redis, SQLite) fails or cannot
    /// be reached: by default (`false`) it fails with
    /// [`ErrorKind::Store`](crate::error::ErrorKind::Store), naming the store.
    /// With `true` it goes on without the cache and under this process's rate
    /// limits only, with a warning under `tracing`: other processes on the key
    /// are then not counted, so the service may answer 429. Budgets per day or
    /// month still fail, since nothing else can count them.
    pub fn store_fallback(mut self, fall_back: bool) -> Self {
        self.store_fallback = fall_back;
        self
    }

    /// How long a cached answer of live data stays fresh, instead of the
    /// spec's time for each operation: shorter to see changes sooner, longer to
    /// pay less. Answers that never change (history of a past day) stay cached
    /// for good whatever this says; `Duration::ZERO` caches nothing.
    pub fn cache_ttl(mut self, ttl: Duration) -> Self {
        self.cache_ttl = Some(ttl);
        self
    }

    /// A unit budget per UTC calendar day or month, counted over everything
    /// the store's ledger records for the key in the window, across every
    /// process sharing the store. A call or job is admitted only if its maximum
    /// estimate fits what is left, and holds that much in the store until it
    /// ends, so that parallel jobs cannot overspend together
    /// ([`ErrorKind::OverWindowBudget`](crate::error::ErrorKind::OverWindowBudget)).
    /// With [`Store::none`] every call is refused. Independent of
    /// [`budget`](Self::budget), which guards this client only.
    pub fn budget_per(mut self, units: i64, window: BudgetWindow) -> Self {
        self.window_budget = Some((units, window));
        self
    }

    /// The base URL is a stand-in for the service known as `name` wherever
    /// it listens (the sandbox, on a new port each time it starts:
    /// [`Sandbox::NAME`](crate::sandbox::Sandbox::NAME)). Its answers are
    /// cached under `name` instead of the base URL's origin, so that one
    /// stand-in started again finds its cache; and its ledger, balance,
    /// budget windows and rate limits are kept apart from what the key has
    /// with the service (and with any other stand-in), so that the two
    /// balances never mix.
    pub fn stand_in(mut self, name: impl Into<String>) -> Self {
        self.stand_in = Some(name.into());
        self
    }

    /// A budget as people write it ([`Budget`](crate::store::Budget): `N`,
    /// `N/day`, `N/month`): [`budget`](Self::budget) for `N`,
    /// [`budget_per`](Self::budget_per) for a window.
    pub fn budget_limit(self, budget: crate::store::Budget) -> Self {
        match budget {
            crate::store::Budget::Client(units) => self.budget(units),
            crate::store::Budget::Per(units, window) => self.budget_per(units, window),
        }
    }

    /// Build the client.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Config`](crate::error::ErrorKind::Config) when no key was given, the base
    /// URL does not parse, has another scheme than `https` or `http`, or carries a query or
    /// fragment, no database is chosen and the spec names none, the store cannot be used, or
    /// the HTTP client cannot be built;
    /// [`ErrorKind::InsecureUrl`](crate::error::ErrorKind::InsecureUrl) for plain `http://` to
    /// a host that is not loopback.
    pub fn build(self) -> Result<Client, Error> {
        let key = self
            .key
            .filter(|k| !k.0.trim().is_empty())
            .ok_or(ConfigError::MissingKey { env: API_KEY_ENV })?;
        let service = self.api.service;
        let (base_url, origin) = check_base_url(&self.base_url).map_err(|e| key.hide(e))?;
        let origin = self.stand_in.clone().unwrap_or(origin);
        let database = match self.database {
            Some(db) => db,
            None => service
                .database
                .default
                .ok_or(ConfigError::NoDefaultDatabase)?,
        };
        let http = reqwest::Client::builder()
            .connect_timeout(self.connect_timeout)
            .timeout(self.timeout)
            .user_agent(concat!("seozoom-rs/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| {
                let message = e.without_url().to_string();
                key.hide(ConfigError::Http { message }.into())
            })?;
        let memory = store_use::settings::StoreUse {
            scope: scope_of(&self.store, self.stand_in.as_deref(), &key),
            store: self.store,
            refresh: self.refresh,
            ttl: self.cache_ttl,
            window: self.window_budget,
            fallback: self.store_fallback,
            in_flight: self.connect_timeout.saturating_add(self.timeout),
        };
        Ok(Client {
            inner: Arc::new(ClientInner {
                service,
                records: self.api.records,
                http,
                key,
                base_url,
                origin,
                database,
                retry: self.retry,
                rate_limits: RateLimits::new(
                    self.api.operations,
                    self.rate_limit,
                    self.rate_window,
                ),
                max_wait: self.max_wait,
                ledger: Arc::new(Ledger::new(self.budget)),
                memory,
            }),
        })
    }
}

/// The store's scope of a client on `key`: the key's, or that of the key
/// with the stand-in it is given for.
fn scope_of(store: &Store, stand_in: Option<&str>, key: &ApiKey) -> crate::store::Scope {
    let backend = store.backend();
    match stand_in {
        None => backend.scope(&key.0),
        // Not a key the service could issue: a stand-in's records never meet
        // the key's own.
        Some(name) => backend.scope(&format!("{name}\0{}", key.0)),
    }
}

/// A URL as it may be shown: any query or fragment (where a pasted key would be) hidden.
fn shown_url(url: &str) -> String {
    match url.find(['?', '#']) {
        Some(cut) => format!("{}?<hidden>", &url[..cut]),
        None => url.to_owned(),
    }
}

/// The base URL without a trailing slash, and its origin with the port
/// spelled out (`https://apiv2.seozoom.com:443`); `http://` only towards
/// loopback.
fn check_base_url(url: &str) -> Result<(String, String), Error> {
    let shown = shown_url(url);
    let parsed = reqwest::Url::parse(url).map_err(|e| ConfigError::NotAUrl {
        url: shown.clone(),
        reason: e.to_string(),
    })?;
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
            return Err(Error::new_unscoped(ErrorKind::InsecureUrl { url: shown }));
        }
        other => {
            return Err(ConfigError::UnsupportedScheme {
                url: shown,
                scheme: other.to_owned(),
            }
            .into());
        }
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(ConfigError::QueryOrFragment { url: shown }.into());
    }
    let origin = format!(
        "{}://{}:{}",
        parsed.scheme(),
        parsed.host_str().unwrap_or_default(),
        parsed.port_or_known_default().unwrap_or_default()
    );
    Ok((url.trim_end_matches('/').to_owned(), origin))
}

impl ClientBuilder {
    /// Whether a key (not blank) was given.
    #[cfg(feature = "sandbox")]
    pub(crate) fn has_key(&self) -> bool {
        self.key.as_ref().is_some_and(|k| !k.0.trim().is_empty())
    }

    /// The balance the store last saw reported on this builder's key (and
    /// stand-in, if any), read before any client is built: what a stand-in
    /// started again resumes from. `None` without a key or a balance.
    #[cfg(feature = "sandbox")]
    pub(crate) async fn stored_balance(&self) -> Result<Option<crate::store::Balance>, Error> {
        let Some(key) = self.key.as_ref().filter(|k| !k.0.trim().is_empty()) else {
            return Ok(None);
        };
        self.store
            .backend()
            .last_balance(&scope_of(&self.store, self.stand_in.as_deref(), key))
            .await
            .map_err(|e| key.hide(e.into_error()))
    }

    /// Take the key from `SEOZOOM_API_KEY` and build (what
    /// [`Client::from_env`] does).
    ///
    /// # Errors
    ///
    /// [`ConfigError::KeyNotSet`] when the variable is not set, else as
    /// [`build`](Self::build).
    pub fn build_from_env(self) -> Result<Client, Error> {
        let key =
            std::env::var(API_KEY_ENV).map_err(|_| ConfigError::KeyNotSet { env: API_KEY_ENV })?;
        self.api_key(key).build()
    }
}

impl Client {
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

    /// The store the client keeps its memory in.
    pub fn store(&self) -> &Store {
        &self.inner.memory.store
    }

    /// What the store's ledger holds for the client's key, per operation,
    /// from `since_ms` (milliseconds since the Unix epoch) on.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Store`](crate::error::ErrorKind::Store) when the store cannot be read.
    pub async fn usage(&self, since_ms: i64) -> Result<Vec<crate::store::Usage>, Error> {
        let memory = &self.inner.memory;
        memory
            .store
            .backend()
            .usage(&memory.scope, since_ms)
            .await
            .map_err(|e| e.into_error())
    }

    /// The balance the service last reported on the client's key, as the
    /// store's ledger holds it.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Store`](crate::error::ErrorKind::Store) when the store cannot be read.
    pub async fn last_balance(&self) -> Result<Option<crate::store::Balance>, Error> {
        let memory = &self.inner.memory;
        memory
            .store
            .backend()
            .last_balance(&memory.scope)
            .await
            .map_err(|e| e.into_error())
    }

    /// What the service at this client's base URL sent that the spec does
    /// not say, as the store recorded it for the client's key (every call
    /// through the store, by any process on it): members the spec does not
    /// know, members it calls required that were missing or `null`, values of
    /// another JSON type, enum values it does not list, statuses it does not
    /// name, charges that differ from its cost. Nothing is sent.
    /// [`DriftReport::patch`](crate::drift::DriftReport::patch) makes a spec
    /// change of it.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Store`](crate::error::ErrorKind::Store) when the store cannot be read.
    pub async fn drift(&self) -> Result<crate::drift::DriftReport, Error> {
        let memory = &self.inner.memory;
        let observations = memory
            .store
            .backend()
            .drift(&memory.scope)
            .await
            .map_err(|e| e.into_error())?;
        let origin = &self.inner.origin;
        let observations = observations
            .into_iter()
            .filter(|o| &o.origin == origin)
            .collect();
        Ok(crate::drift::DriftReport::new(
            origin.clone(),
            observations,
            self.inner.records,
        ))
    }
}
