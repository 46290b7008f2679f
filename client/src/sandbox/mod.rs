//! An offline stand-in for the service: a loopback HTTP server that answers
//! every operation of the spec with deterministic, realistic data (feature
//! `sandbox`).
//!
//! ```no_run
//! use seozoom::sandbox::Sandbox;
//! use seozoom::{Client, types::KeywordType};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let sandbox = Sandbox::start().await?;
//! let client = Client::builder()
//!     .api_key(Sandbox::API_KEY)
//!     .base_url(sandbox.base_url())
//!     .build()?;
//! let page = client
//!     .domains()
//!     .keywords("example.it", KeywordType::ByPage, 10)
//!     .page(2)
//!     .send()
//!     .await?;
//! assert!(page.response.iter().all(|k| k.ranking_position.is_some_and(|p| (11..=20).contains(&p))));
//! assert_eq!(sandbox.units_remaining(), Sandbox::STARTING_UNITS - page.units_used);
//! # Ok(()) }
//! ```
//!
//! The sandbox is generic: it reads [`OPERATIONS`](crate::operations::OPERATIONS),
//! [`RECORDS`](crate::operations::RECORDS) and
//! [`SERVICE`](crate::operations::SERVICE) and names no action, group or record,
//! so an action added to the spec is served with no other change. What it does
//! with a request, in order:
//!
//! 0. **Lists sent as repeated keys** (`keyword=a&keyword=b`), in every mode
//!    and before anything else: 400, with a message that says to join the
//!    values with the list separator (`keyword=a|b`). The service reads only
//!    the last of repeated keys and answers for it alone, so a client that
//!    sends lists that way (what generators that ignore `pipeDelimited` do)
//!    loses values unseen; the sandbox is stricter than the service here, on
//!    purpose, so that the mistake fails a test. A repeated key of a
//!    parameter that takes one value keeps its last value, as the service does.
//! 1. **Route.** `GET` on an operation's group path (with its trailing slash);
//!    `action` is the operation's wire name or one of its aliases. Another
//!    method is 405 (with `Allow: GET`); an unknown path, or a missing or unknown action, is 404.
//!    Errors are `{"status": N, "message": "..."}` with that HTTP status.
//! 2. **Key.** A missing or blank `api_key` is 401 `Invalid API key`; any other
//!    key is accepted ([`Sandbox::API_KEY`] is a convenient one).
//! 3. **Rate limits** (only in strict mode, [`SandboxBuilder::strict`]): at
//!    most the operation's requests-per-minute figure per API key in any rolling
//!    window (a minute, or [`SandboxBuilder::rate_window`]); a request over it
//!    is answered 429 `Too Many Requests` with `Retry-After` in whole seconds,
//!    and takes no slot. [`Sandbox::rate_limited`] counts them.
//! 4. **Validate.** The query is percent-decoded (`+` is a space, as PHP reads
//!    it; a repeated name keeps its last value), list parameters are split on the
//!    list separator, and the result goes through the client's own validator
//!    ([`Request::validate`](crate::request::Request::validate)). A refusal is 400 with
//!    the validator's message, which names the operation, the parameter, the
//!    value and the limit. Parameters the operation does not take are refused
//!    the same way.
//! 5. **Unknown inputs.** An *input* is a value of a required text parameter
//!    (`domain`, `url`, `keyword`). An input is unknown when it is a domain or a
//!    URL whose host is under `.invalid`, or when it starts with `zzz` (any
//!    case). A single-valued unknown input, or a list whose items are all
//!    unknown, is the service's "no match" answer: HTTP 400
//!    `{"status":400,"message":"No data found!"}`, which is not charged. In a
//!    list, unknown items are left out (and repeated items count once).
//!    A list parameter whose value holds a comma (`domain=a.it,b.it`: a list
//!    joined with commas rather than the list separator) is answered the
//!    same way, not charged, whatever its items: the service splits a list on
//!    its separator alone and knows no input with a comma in it, so a client
//!    that joins lists with commas fails its first call here as it would there.
//! 6. **Rows.** Every value is drawn from an FNV-1a hash of the path, the action
//!    (its wire name, so an alias gives the same data), the database, every
//!    parameter value but `limit` and `offset`, the input item and the row
//!    index. The same query gives the same rows.
//!    - Array responses with a list input: one row per known item (the items'
//!      order). `ResultRows` counts these rows; nested lists are capped by
//!      `limit`.
//!    - Array responses whose per-request figure counts input items: one row.
//!    - Other array responses are paged: the query has between 20 and 500 rows
//!      (3 to 30 when the operation takes no `limit`), fixed by the hash, or as
//!      many as [`SandboxBuilder::paged_rows`] says; the answer is rows
//!      `offset .. offset + limit` of them, generated for that page alone. Nothing left past
//!      `offset` is "No data found!".
//!    - Single responses: one object (a record, or one SERP list).
//!    - Map responses: an object keyed by each known value of the key
//!      parameter.
//! 7. **Units.** The cost is the operation's highest unit figure, once (per
//!    call) or times `ResultRows` (per row); an operation whose cost the spec
//!    does not know is charged one unit per row. It is taken from a balance
//!    shared by all clients of the sandbox, starting at
//!    [`Sandbox::STARTING_UNITS`] (or [`SandboxBuilder::units`]); when
//!    the balance cannot cover it the answer is 403 `Insufficient units` and
//!    nothing is taken. The envelope reports `UnitsUsed` and the balance left in
//!    `UnitsRemaining`.
//! 8. **Quirks.** Bodies are JSON sent as `text/html; charset=UTF-8`, with every
//!    `/` written `\/`. Record members come in spec order.
//! 9. **Drift** (only when started with [`SandboxBuilder::drift`]): the
//!    answers move away from the spec, as a service's do from its reference:
//!    even rows carry a member the spec does not know ([`EXTRA_MEMBER`], a
//!    number), every third row's comma lists of known values one value more
//!    ([`UNLISTED_VALUE`]), even rows send the record's first metric as
//!    `null` and its next integer as a string, and the first row of each
//!    answer leaves out the first member the spec calls required (what names
//!    the row, else its last member). Nested records and SERPs are left alone.
//! 10. **Faults** (only when started with [`SandboxBuilder::faults`]): before
//!     any of the above, a request may be answered with an injected [`Fault`]
//!     (a 429 with or without `Retry-After`, a 500, a reset, a slow answer, a
//!     truncated body, "No data found!"), at random or on a given input; see
//!     [`FaultPlan`].
//!
//! Field values follow the field's wire type and, for realism, its value hint
//! in the spec (`kind`, `range`); the parameters are read by their roles:
//!
//! | Field | Value |
//! |---|---|
//! | text, top-level, the record's `key` | the input echoed |
//! | text `language` | the database's language (`uk` gives `en`) |
//! | text `search_engine` | the database's extension (`.it`; `uk` gives `.co.uk`) |
//! | text `url` | an https URL on the queried domain (the row's domain or URL input, else the request's subject; a project id stands for a made-up domain of its own) |
//! | text `domain` | top-level: the queried domain without `www.`; nested: another domain |
//! | text `keyword` (or no hint), `locality`, `category`, `tag`, `label` | a phrase, a locality (mostly empty), an `UPPER_CASE` label, a word or empty, a title-case label |
//! | integer `position` | the `result_position` parameter if given, else within the `result_page` (`(page-1)*10+1 ..= page*10`), else 1 to 50 |
//! | integer or number `change` | signed; positive, negative or zero when an enum parameter is `up`, `down` or `stable` |
//! | integer `score`, `percent` | within the hinted range, else 0 to 100 |
//! | integer `id` | 1000 to 99999 |
//! | other integers | 0 to 99 900, non-negative; about 1 in 10 written as an integral float (`12.0`) |
//! | number | two decimals: `money` 0.05-5.00, `score`/`percent` within the range (else 0-100), `position` within the positions, others 0-10 000 |
//! | boolean word | `"true"`/`"false"`; when optional, absent in about 1 row in 3 |
//! | flag | 0 or 1 |
//! | date, date-time, time | `YYYY-MM-DD` (2022-2025), `YYYY-MM-DD HH:MM:SS`, `HH:MM:SS` |
//! | comma list | known values: a comma-joined non-empty subset; free text: 1-3 words, about 1 in 4 with an empty segment |
//! | list of records | 1 to 5 nested records (at most `limit`) |
//! | SERP | positions `"1"`..`"N"`, N from 10 to 50, in numeric order; every fourth URL (and a few more) has a query string with `&amp;` |
//!
//! Fields the reference says may be `null` are `null` in about 1 row in 5;
//! those it says some rows lack are absent in about 1 row in 4. Fields the
//! spec made optional or nullable only defensively (presence `decided`) are
//! always sent, as the service is seen to send them.

use std::collections::BTreeMap;
use std::fmt;
use std::net::{Ipv4Addr, SocketAddr};
use std::pin::pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use axum::serve::ListenerExt;
use tokio::sync::Notify;

mod comma_lists;
mod data;
mod drift;
mod encode_quirks;
mod faults;
mod list_keys;
mod route;
mod seed;
mod strict;
mod text;
mod units;

use crate::client::{Client, ClientBuilder};
use crate::error::Error;
use crate::operation_table::Api;
pub use drift::{EXTRA_MEMBER, UNLISTED_VALUE};
pub use faults::{Fault, FaultPlan};
use route::SandboxState;
use strict::Strict;
use units::Account;

/// A one-shot event that any number of tasks can wait for, before or after it
/// is raised: tokio's `Notify` wakes the tasks waiting when it is raised, and
/// the flag answers those that come later (`Notify` alone keeps no such state).
#[derive(Debug, Default)]
struct Signal {
    raised: AtomicBool,
    notify: Notify,
}

impl Signal {
    fn raise(&self) {
        self.raised.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
    }

    /// Owns its `Arc`, so that the future is `'static` (axum's graceful
    /// shutdown holds it).
    async fn wait(self: Arc<Self>) {
        let mut notified = pin!(self.notify.notified());
        // Registered before the flag is read: a raise after the read wakes
        // this waiter, a raise before it is seen in the flag.
        notified.as_mut().enable();
        if !self.raised.load(Ordering::SeqCst) {
            notified.await;
        }
    }
}

/// Raises a signal when dropped, even while unwinding.
struct RaiseOnDrop(Arc<Signal>);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.raise();
    }
}

/// A running sandbox server on `127.0.0.1`. Dropping it stops it: it stops
/// accepting connections at once, and its thread ends when the requests in
/// flight are answered.
///
/// The server runs on a thread of its own (with its own runtime), so it keeps
/// answering whatever the caller's runtime is doing.
pub struct Sandbox {
    addr: SocketAddr,
    shared: Arc<SandboxState>,
    shutdown: Arc<Signal>,
    stopped: Arc<Signal>,
}

impl fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sandbox")
            .field("addr", &self.addr)
            .field("units_remaining", &self.units_remaining())
            .field("requests", &self.requests())
            .finish()
    }
}

impl Sandbox {
    /// A key the sandbox accepts (any non-empty key is accepted).
    pub const API_KEY: &'static str = "sandbox";

    /// The balance a new sandbox starts with.
    pub const STARTING_UNITS: i64 = 1_000_000;

    /// What a client knows a sandbox as, wherever it listens
    /// ([`ClientBuilder::stand_in`]): its cache, ledger and balance are one
    /// sandbox's from process to process, and never the service's.
    pub const NAME: &'static str = "sandbox";

    /// The window strict mode holds the requests-per-minute figures over,
    /// unless [`SandboxBuilder::rate_window`] says otherwise.
    pub const RATE_WINDOW: Duration = Duration::from_secs(60);

    async fn run(settings: SandboxBuilder) -> std::io::Result<Sandbox> {
        let SandboxBuilder {
            api,
            port,
            faults,
            units,
            strict,
            paged_rows,
            drift,
        } = settings;
        let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        // With faults, connections close with a reset rather than a FIN, so
        // that an injected reset is one (see `Fault::Reset`).
        let linger_zero = faults.is_some();
        let shared = Arc::new(SandboxState {
            api,
            balance: Account::new(units),
            requests: AtomicU64::new(0),
            faults: faults.map(|plan| faults::Injector::new(plan, api.service)),
            paged_rows,
            strict: strict.map(Strict::new),
            drift,
        });
        let shutdown = Arc::new(Signal::default());
        let stopped = Arc::new(Signal::default());
        let (ready_tx, ready_rx) = mpsc::channel::<std::io::Result<()>>();
        let app = route::router(Arc::clone(&shared));
        let (on_shutdown, on_stop) = (Arc::clone(&shutdown), Arc::clone(&stopped));
        std::thread::Builder::new()
            .name(format!("seozoom-sandbox-{}", addr.port()))
            .spawn(move || {
                let _stopped = RaiseOnDrop(on_stop);
                let runtime = match tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .thread_name("seozoom-sandbox")
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                runtime.block_on(async move {
                    let listener = match tokio::net::TcpListener::from_std(listener) {
                        Ok(listener) => listener,
                        Err(e) => {
                            let _ = ready_tx.send(Err(e));
                            return;
                        }
                    };
                    let listener = listener.tap_io(move |tcp| {
                        if linger_zero {
                            // Best effort: without it a reset is a plain close.
                            let _ = tcp.set_zero_linger();
                        }
                    });
                    let _ = ready_tx.send(Ok(()));
                    let served = axum::serve(listener, app)
                        .with_graceful_shutdown(on_shutdown.wait())
                        .await;
                    if let Err(error) = served {
                        tracing::warn!(%error, "the sandbox server stopped");
                    }
                });
            })?;
        // The thread answers as soon as its runtime is up (milliseconds).
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(Sandbox {
                addr,
                shared,
                shutdown,
                stopped,
            }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(std::io::Error::other("the sandbox thread ended at start")),
        }
    }

    /// `http://127.0.0.1:PORT`, the base URL to give a client.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Units left on the sandbox's account.
    pub fn units_remaining(&self) -> i64 {
        self.shared.balance.remaining()
    }

    /// HTTP requests received so far, whatever their answer.
    pub fn requests(&self) -> u64 {
        self.shared.requests.load(Ordering::SeqCst)
    }

    /// Requests answered 429 because they were over their operation's figure
    /// (strict mode, [`SandboxBuilder::strict`]; always 0 otherwise). A client
    /// that holds the figures itself keeps it at 0.
    pub fn rate_limited(&self) -> u64 {
        self.shared.strict.as_ref().map_or(0, Strict::refused)
    }

    /// The faults injected so far, by kind (empty without
    /// [`SandboxBuilder::faults`]).
    pub fn faults_injected(&self) -> BTreeMap<Fault, u64> {
        self.shared
            .faults
            .as_ref()
            .map(faults::Injector::injected)
            .unwrap_or_default()
    }

    /// Serve until the server stops (for a standalone sandbox, until the process
    /// is ended). It borrows the sandbox, so that it can be asked how it is
    /// doing ([`rate_limited`](Self::rate_limited), ...) meanwhile.
    pub async fn serve_forever(&self) {
        Arc::clone(&self.stopped).wait().await;
    }
}

/// Settings of a [`Sandbox`] other than the defaults: made by
/// [`Sandbox::builder`], started by [`start`](Self::start).
#[derive(Debug, Clone)]
pub struct SandboxBuilder {
    api: &'static Api,
    port: u16,
    faults: Option<FaultPlan>,
    units: i64,
    paged_rows: Option<i64>,
    /// The rate window, in strict mode.
    strict: Option<Duration>,
    /// Answers drift from the spec ([`SandboxBuilder::drift`]).
    drift: bool,
}

impl SandboxBuilder {
    /// A sandbox of the API of `api` with the default settings (generated
    /// code calls this: [`Sandbox::builder`] is
    /// `SandboxBuilder::for_api(&operations::API)`).
    pub fn for_api(api: &'static Api) -> Self {
        SandboxBuilder {
            api,
            port: 0,
            faults: None,
            units: Sandbox::STARTING_UNITS,
            paged_rows: None,
            strict: None,
            drift: false,
        }
    }
}

impl SandboxBuilder {
    /// The balance the account starts with (default
    /// [`Sandbox::STARTING_UNITS`]); long runs, a fuzzer's say, need more,
    /// or every charged answer past the balance is 403. A balance of 0 or
    /// below refuses every charged call (the command line and Python take
    /// none below 0).
    pub fn units(mut self, units: i64) -> Self {
        self.units = units;
        self
    }

    /// Listen on `127.0.0.1:port` (default 0: a port chosen by the system).
    pub fn port(mut self, port: u16) -> Self {
        self.port = port;
        self
    }

    /// Answer some requests with injected faults instead of data: 429s with
    /// and without `Retry-After`, 500s, resets, slow answers, truncated bodies
    /// and "No data found!", at random or on given inputs (see [`FaultPlan`]).
    /// A sandbox with faults also closes its connections with a TCP reset.
    pub fn faults(mut self, faults: FaultPlan) -> Self {
        self.faults = Some(faults);
        self
    }

    /// Give every paged query this many rows (default: between 20 and 500,
    /// fixed by the query), for long paged jobs: a million rows are served in
    /// pages, each generated when asked for. Mind the units such a job takes
    /// ([`units`](Self::units)).
    pub fn paged_rows(mut self, rows: u64) -> Self {
        self.paged_rows = Some(i64::try_from(rows).unwrap_or(i64::MAX));
        self
    }

    /// Enforce the spec's requests-per-minute figures as the service would:
    /// per operation and per API key, at most the figure in any rolling
    /// minute ([`Sandbox::RATE_WINDOW`]). A request over it is answered HTTP
    /// 429 with `Retry-After` (whole seconds, rounded up) and a JSON body like
    /// the service's errors, and counted by [`Sandbox::rate_limited`].
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// use std::time::Duration;
    /// use seozoom::sandbox::Sandbox;
    ///
    /// // A window of 2 s, and a client that holds the figures over the same window.
    /// let window = Duration::from_secs(2);
    /// let sandbox = Sandbox::builder().rate_window(window).start().await?;
    /// let client = seozoom::Client::builder()
    ///     .api_key(Sandbox::API_KEY)
    ///     .base_url(sandbox.base_url())
    ///     .rate_window(window)
    ///     .build()?;
    /// for _ in 0..30 {
    ///     client.keywords().metrics(["mutuo"]).send().await?;
    /// }
    /// assert_eq!(sandbox.rate_limited(), 0);
    /// # Ok(()) }
    /// ```
    pub fn strict(mut self) -> Self {
        self.strict = Some(self.strict.unwrap_or(Sandbox::RATE_WINDOW));
        self
    }

    /// Strict mode ([`strict`](Self::strict)) over `window` instead of a
    /// minute: shorter for tests, to see many windows pass in little time.
    /// Give a client the same [`rate_window`](crate::ClientBuilder::rate_window).
    pub fn rate_window(mut self, window: Duration) -> Self {
        self.strict = Some(window);
        self
    }

    /// Answer as a service that has moved on from its spec would: some rows
    /// carry a member the spec does not know ([`EXTRA_MEMBER`]), a comma list
    /// a value it does not list ([`UNLISTED_VALUE`]), a metric `null`, a
    /// number as a string; the first row of each answer leaves out what names
    /// it (a single object then cannot be typed at all). The rules are in
    /// the module's docs, "Drift". For testing what every face keeps of what
    /// the spec does not know, and `seozoom drift`, offline.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// use seozoom::sandbox::{Sandbox, EXTRA_MEMBER};
    ///
    /// let sandbox = Sandbox::builder().drift().start().await?;
    /// let client = seozoom::Client::builder()
    ///     .api_key(Sandbox::API_KEY)
    ///     .base_url(sandbox.base_url())
    ///     .build()?;
    /// let metrics = client.keywords().metrics(["mutuo", "casa"]).send().await?;
    /// assert!(metrics.response[0].unknown_members().get(EXTRA_MEMBER).is_some());
    /// assert_eq!(metrics.raw_rows.len(), 1, "the first row lacks its keyword");
    /// assert!(!client.drift().await?.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn drift(mut self) -> Self {
        self.drift = true;
        self
    }

    /// Start the sandbox.
    ///
    /// # Errors
    ///
    /// The I/O error when the port cannot be bound.
    pub async fn start(self) -> std::io::Result<Sandbox> {
        Sandbox::run(self).await
    }

    /// Start the sandbox and build `client` for it: the client knows it as
    /// [`Sandbox::NAME`] ([`ClientBuilder::stand_in`]), and it starts with
    /// the balance the client's store last saw it report (the builder's
    /// units when the store has none), so that a sandbox started again, in
    /// this process or another on the same store, goes on where the last
    /// one stopped: its cache answers, and its balance never rises. A
    /// client without a key gets [`Sandbox::API_KEY`].
    ///
    /// ```
    /// use seozoom::Client;
    /// use seozoom::sandbox::Sandbox;
    /// use seozoom::store::Store;
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let store = Store::memory();
    /// let (first, client) = Sandbox::builder()
    ///     .start_with_client(Client::builder().store(store.clone()))
    ///     .await?;
    /// let paid = client.keywords().metrics(["scarpe running"]).send().await?;
    /// drop(first);
    /// // Another sandbox on another port: the same cache, the same balance.
    /// let (_second, client) = Sandbox::builder()
    ///     .start_with_client(Client::builder().store(store))
    ///     .await?;
    /// let again = client.keywords().metrics(["scarpe running"]).send().await?;
    /// assert!(again.fetched_at.is_some());
    /// assert_eq!(again.units_remaining, paid.units_remaining);
    /// # Ok::<(), seozoom::Error>(())
    /// # }).unwrap();
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Store`](crate::error::ErrorKind::Store) when the store
    /// cannot be read, [`ErrorKind::Transport`](crate::error::ErrorKind::Transport)
    /// when the sandbox cannot listen (nothing was sent), and those of [`ClientBuilder::build`].
    pub async fn start_with_client(
        mut self,
        client: ClientBuilder,
    ) -> Result<(Sandbox, Client), Error> {
        let mut client = client.stand_in(Sandbox::NAME);
        if !client.has_key() {
            client = client.api_key(Sandbox::API_KEY);
        }
        if let Some(balance) = client.stored_balance().await? {
            self.units = balance.units_remaining;
        }
        let sandbox = self.start().await?;
        let client = client.base_url(sandbox.base_url()).build()?;
        Ok((sandbox, client))
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.shutdown.raise();
    }
}
