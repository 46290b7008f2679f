//! A typed client for the SEOZoom API v2, generated from one hand-written spec.
//!
//! Every operation of the API has a request builder reached through its group
//! ([`Client::projects`], [`Client::domains`], [`Client::urls`],
//! [`Client::keywords`]). Required parameters are arguments, so a call without one
//! does not compile; optional ones are methods. Before anything is sent, every
//! limit of the spec (stated in the reference or inferred from its cost table) is
//! checked. Responses decode into typed records wrapped in an [`Envelope`] that
//! also carries the units used and remaining.
//!
//! Everything per operation (names, parameters, limits, records, costs, rate
//! figures) comes from `spec/seozoom-v2.toml`, turned into Rust by
//! `seozoom-codegen` when the crate is built; [`operations`] exposes the same
//! facts as a table.
//!
//! The examples of this guide run as tests against the crate's offline
//! [sandbox](#the-sandbox-for-tests) (feature `sandbox`), a stand-in for the
//! service on loopback, so they need no key. Against the service, leave out
//! the sandbox and give your key.
//!
//! # Making a client
//!
//! [`Client::from_env`] reads the key from `SEOZOOM_API_KEY`
//! ([`config::API_KEY_ENV`]); [`Client::new`] takes it; [`Client::builder`] sets
//! everything else: the base URL, the default database ([`Db`]), timeouts,
//! retries, rate limiting, a budget and the [store](#the-store-cache-and-ledger).
//! A client is cheap to clone, and clones share their rate limits, budget,
//! units and store.
//!
//! ```no_run
//! use seozoom::{Client, Db};
//! use std::time::Duration;
//!
//! # fn run() -> Result<(), seozoom::Error> {
//! let client = Client::builder()
//!     .api_key("YOUR-KEY")
//!     .db(Db::Uk)
//!     .timeout(Duration::from_secs(30))
//!     .budget(10_000)
//!     .build()?;
//! # Ok(()) }
//! ```
//!
//! The base URL may be `http://` only for a loopback host, since the key
//! travels in the query string. The key never appears in `Debug` output, in an
//! error or in a log line.
//!
//! # Making a call
//!
//! A builder's [`send`](builder::KeywordsMetrics::send) validates, sends and
//! decodes. The records use idiomatic field names (the wire names are in each
//! field's docs) with the service's quirks decoded: string booleans become
//! `Option<bool>`, comma lists `Vec`, SERPs are ordered by position, dates are
//! [`types::Date`]s.
//!
#![cfg_attr(feature = "sandbox", doc = "```")]
#![cfg_attr(not(feature = "sandbox"), doc = "```ignore")]
//! use seozoom::sandbox::Sandbox;
//! use seozoom::{Client, Db};
//!
//! #[tokio::main]
//! async fn main() -> Result<(), seozoom::Error> {
//!     let sandbox = Sandbox::start().await?;
//!     let client = Client::builder()
//!         .api_key(Sandbox::API_KEY)
//!         .base_url(sandbox.base_url())
//!         .build()?;
//!
//!     let metrics = client
//!         .keywords()
//!         .metrics(["scarpe running", "mutuo casa"])
//!         .db(Db::It)
//!         .send()
//!         .await?;
//!     for row in &metrics.response {
//!         println!("{}: volume {:?}, KD {:?}", row.keyword, row.search_volume, row.keyword_difficulty);
//!     }
//!     // The balance is `None` when the answer did not report it.
//!     match metrics.units_remaining {
//!         Some(left) => println!("{} units used, {left} left", metrics.units_used),
//!         None => println!("{} units used, balance unknown", metrics.units_used),
//!     }
//!     assert_eq!(metrics.response.len(), 2);
//!     Ok(())
//! }
//! ```
//!
//! When nothing matches, the service answers "No data found!": a list or map
//! operation gives an empty result with [`Envelope::no_data`] set, an operation
//! that returns one object the error kind [`NoData`](error::ErrorKind::NoData).
//!
//! # Errors
//!
//! Every failure is one [`Error`]: [`Error::operation`] says which operation
//! (`None` for the client's configuration), [`Error::kind`] what went wrong
//! ([`error::ErrorKind`], `#[non_exhaustive]`), and [`Error::charged`] what it
//! cost: [`Charge::None`](error::Charge::None) when it was refused before
//! sending, the units the service reported (read from the body even when it
//! does not decode), or [`Charge::Unknown`](error::Charge::Unknown).
//! [`Error::is_refused`] and [`Error::is_retryable`] answer the two questions a
//! caller asks most. Errors hold no key, so any of them may be printed or
//! logged.
//!
//! | [`ErrorKind`](error::ErrorKind) | When | Charged |
//! |---|---|---|
//! | `InvalidInput` | A parameter breaks a limit or rule of the spec; the message names the operation, the parameter, the value and the limit, with its provenance. | nothing |
//! | `InsecureUrl` | The base URL is `http://` to a host that is not loopback. | nothing |
//! | `OverBudget`, `OverWindowBudget` | The call's maximum estimate is more than the budget (or the day's or month's) has left. | nothing |
//! | `UnknownCost` | The client has a budget and the reference prints no cost for the operation. | nothing |
//! | `RateLimited` | The requests-per-minute figure is used up and the client refuses rather than waits. | nothing |
//! | `Config`, `Store` | No key, an unusable base URL or store. | nothing |
//! | `NoData` | "No data found!" for an operation that returns one object. | 0 units |
//! | `OutOfUnits` | The account has run out of units (HTTP 402, or a message that says so). Not retryable. | what the body says |
//! | `Service` | An HTTP error status, an error body or an HTML page: the status, the service's message and a bounded excerpt. | what the body says, else unknown |
//! | `Transport` | A connection failure, a reset or a timeout (or local I/O, such as the sandbox's socket). | unknown (nothing for local I/O) |
//! | `Decode` | The body is not the documented shape; it carries the path to the failing field (`response[0].KD`). | the `UnitsUsed` read from the text, else unknown |
//! | `WaitedTooLong` | A wait would take the call's waits past [`ClientBuilder::max_wait`]. | what its answered attempts were |
//! | `Partial` | A batched or paged job failed or was stopped after some requests were answered ([below](#when-a-job-stops-part-way)). | the answered requests' units plus the failed one's |
//! | `Stopped` | The caller stopped the call or job ([`job::Stop`]) before this request went out, or while it waited. | nothing (but attempts before the wait) |
//!
//! The client retries connection failures, timeouts and HTTP 500, 502, 503 and
//! 504 (three attempts by default, with backoff and jitter, `Retry-After`
//! honoured up to 60 s; [`config::RetryPolicy`]). A retried call may be charged
//! twice, if the service did the work and the answer was lost. An HTTP 429
//! waits for the service's rate window (its `Retry-After`, else a whole
//! window) instead of using up an attempt, for at most
//! [`RetryPolicy::max_rate_limited_windows`](config::RetryPolicy::max_rate_limited_windows)
//! windows. Every wait of a call (rate-limit slots, `Retry-After`s, 429
//! windows, backoffs) counts against [`ClientBuilder::max_wait`] (5 minutes by
//! default); one that would pass it is not begun. A run's progress callback
//! ([`RunOptions::on_progress`](job::RunOptions::on_progress)) is told every
//! wait as it starts and ends (its [`job::WaitCause`], its length, the attempt
//! after it), every retry and every cache hit, each a [`job::Progress`] whose
//! `Display` is the line people read; the command line and the MCP server
//! announce from these. The `tracing` events are the log: a wait longer than
//! 2 s is an `INFO` event of target [`wait::WAIT_TARGET`] as it starts and
//! ends, and each call runs in a `seozoom.call` span with the operation,
//! status, attempts, units and latency. The key is in none of them.
//!
//! # Limits refused before sending
//!
//! Each limit of the spec is checked before the request leaves: at most 100
//! keywords, `page` 1 to 5, `bypage` needs `page`, a query no longer than
//! [`request::MAX_QUERY_BYTES`], and so on. A broken one is an
//! [`InvalidInput`](error::ErrorKind::InvalidInput) naming the operation, the
//! parameter, the value and the limit with its provenance; nothing is sent and
//! nothing charged. Each operation is also held to the spec's
//! requests-per-minute figure: a call waits for a slot, or is refused with
//! [`config::RateLimitMode::Refuse`].
//!
#![cfg_attr(feature = "sandbox", doc = "```")]
#![cfg_attr(not(feature = "sandbox"), doc = "```ignore")]
//! use seozoom::error::ErrorKind;
//! use seozoom::sandbox::Sandbox;
//! use seozoom::types::KeywordType;
//! use seozoom::Client;
//!
//! #[tokio::main]
//! async fn main() -> Result<(), seozoom::Error> {
//!     let sandbox = Sandbox::start().await?;
//!     let client = Client::builder()
//!         .api_key(Sandbox::API_KEY)
//!         .base_url(sandbox.base_url())
//!         .build()?;
//!
//!     // `bypage` needs a page.
//!     let refused = client
//!         .domains()
//!         .keywords("example.it", KeywordType::ByPage, 50)
//!         .send()
//!         .await
//!         .unwrap_err();
//!     assert!(refused.is_refused());
//!     if let ErrorKind::InvalidInput(invalid) = refused.kind() {
//!         println!("{}: {}", invalid.param, invalid.problem);
//!     }
//!     assert_eq!(sandbox.requests(), 0, "nothing reached the service");
//!     Ok(())
//! }
//! ```
//!
//! # Units, estimates and budgets
//!
//! Each [`Envelope`] carries `units_used` and `units_remaining` (`None` when
//! the answer did not report the balance), and
//! [`Client::units`] the running totals of the client and its clones.
//! [`Client::estimate`] gives a request's cost range from the spec's figures
//! before anything is sent ([`units::Estimate`]; an operation whose cost the
//! reference does not print has an unknown estimate, never 0), and
//! [`Client::plan`] what a whole job would send and cost ([`job::JobPlan`]):
//! the same plan a run carries out. With
//! [`ClientBuilder::budget`], a call or job whose maximum is over what is left
//! is refused before its first request
//! ([`OverBudget`](error::ErrorKind::OverBudget)), and so is any call whose
//! cost is unknown. [`ClientBuilder::budget_per`] counts a budget per UTC day or
//! month across every process on a shared store.
//!
#![cfg_attr(feature = "sandbox", doc = "```")]
#![cfg_attr(not(feature = "sandbox"), doc = "```ignore")]
//! use seozoom::job::RunOptions;
//! use seozoom::sandbox::Sandbox;
//! use seozoom::Client;
//!
//! #[tokio::main]
//! async fn main() -> Result<(), seozoom::Error> {
//!     let sandbox = Sandbox::start().await?;
//!     let client = Client::builder()
//!         .api_key(Sandbox::API_KEY)
//!         .base_url(sandbox.base_url())
//!         .budget(15)
//!         .build()?;
//!
//!     let one = client.keywords().metrics(["mutuo casa"]);
//!     let estimate = client.estimate(&one.request())?;
//!     println!("between {} and {} units", estimate.min, estimate.max);
//!     one.send().await?;
//!
//!     let many = client.keywords().metrics((0..150).map(|i| format!("keyword {i}")));
//!     let plan = client.plan(&many.request(), &RunOptions::new()).await?;
//!     let refused = many.send_all().await.unwrap_err();
//!     assert!(refused.is_refused(), "{:?} is over what is left of 15 units", plan.estimate);
//!     println!("used {} units in {} calls", client.units().used, client.units().calls);
//!     Ok(())
//! }
//! ```
//!
//! # Batched and paged jobs
//!
//! Real jobs ask for thousands of keywords, domains or URLs. An operation with a
//! list parameter has `send_all` (a [`Client::run`] of the request): any number of
//! values, repeats sent once, the rest split into the fewest requests (at most
//! [`job::BATCH_CONCURRENCY`] in flight) and merged into one [`Envelope`] with the
//! rows (or a map's keys) in input order and the units summed. What counts as
//! a repeat is the spec's rule for the parameter
//! ([`Param::compared`](operation_table::Param::compared): keywords ignore
//! surrounding spaces and letter case, domains also a leading `www.`), and the
//! cache, the matching of rows back to inputs and the estimate use the same. An operation with an offset and a
//! limit has `pages` ([`Client::pages`]): a [`Stream`](job::Stream) of rows,
//! page by page, until a page comes back short or the row cap is reached.
//! [`job::StreamExt`] is re-exported for reading it.
//!
#![cfg_attr(feature = "sandbox", doc = "```")]
#![cfg_attr(not(feature = "sandbox"), doc = "```ignore")]
//! use seozoom::job::StreamExt;
//! use seozoom::sandbox::Sandbox;
//! use seozoom::types::KeywordType;
//! use seozoom::Client;
//!
//! #[tokio::main]
//! async fn main() -> Result<(), seozoom::Error> {
//!     let sandbox = Sandbox::start().await?;
//!     let client = Client::builder()
//!         .api_key(Sandbox::API_KEY)
//!         .base_url(sandbox.base_url())
//!         .build()?;
//!
//!     // 250 keywords: three requests, one result in input order.
//!     let keywords: Vec<String> = (0..250).map(|i| format!("keyword {i}")).collect();
//!     let metrics = client.keywords().metrics(keywords).send_all().await?;
//!     assert_eq!(metrics.response.len(), 250);
//!
//!     // Up to 250 rows, 100 at a time.
//!     let mut rows = client
//!         .domains()
//!         .keywords("example.it", KeywordType::Best, 100)
//!         .pages(100, Some(250));
//!     let mut count = 0;
//!     while let Some(row) = rows.next().await {
//!         let row = row?;
//!         count += 1;
//!         if count == 1 {
//!             println!("first: {} at {:?}", row.keyword, row.ranking_position);
//!         }
//!     }
//!     assert!(count <= 250);
//!     Ok(())
//! }
//! ```
//!
//! [`Client::plan`] reads the store to say what the cache already answers
//! and what is still to send, and, with
//! [`RunOptions::fit_budget`](job::RunOptions::fit_budget), the most rows a
//! budget covers.
//!
//! ## One way to run any job: `Client::run`
//!
//! [`Client::run`] takes a request and [`job::RunOptions`] and decides from
//! the operation table what to do ([`Job::of_run`]): a paged job with a row cap
//! ([`RunOptions::max_rows`](job::RunOptions::max_rows)), a batched job for an
//! operation with a list input, one call otherwise, or exactly the request
//! given ([`RunOptions::one_request`](job::RunOptions::one_request), what a
//! builder's `send()` runs). It plans the job ([`Client::plan`]: the cache,
//! the estimate, the budget), carries the plan out and reduces the answers to
//! one result. [`Client::run_each`] hands the rows over as they come, page
//! by page for a paged job; [`Client::pages`] streams a paged job's rows. Those
//! three are the ways to run a request. The options mean the
//! same whatever the job: the row cap, fitting it to the budget, a
//! [`job::Stop`], a progress callback ([`job::Progress`]: how far the job is,
//! and every wait, retry and cache hit) and the most a call may wait. The
//! result type says what the operation answers (`Vec` of records,
//! [`types::ByKey`], `Option` for one object, or [`serde_json::Value`] for
//! any operation alike; [`job::Output`]);
//! "No data found!" is its empty form, never an error. The
//! [`job::Outcome`] holds the envelope and the run's exact
//! [`job::Figures`]: requests sent, `from_cache` (only when nothing was
//! sent), the items and requests the cache answered, the run's own units,
//! and the balance (`None` when no answer said it). The command line, the
//! MCP server and the Python package run every job through it.
//!
#![cfg_attr(feature = "sandbox", doc = "```")]
#![cfg_attr(not(feature = "sandbox"), doc = "```ignore")]
//! use seozoom::job::{Progress, RunOptions, Stop};
//! use seozoom::sandbox::Sandbox;
//! use seozoom::types::{DomainKeyword, KeywordType};
//! use seozoom::Client;
//!
//! #[tokio::main]
//! async fn main() -> Result<(), seozoom::Error> {
//!     let sandbox = Sandbox::start().await?;
//!     let client = Client::builder()
//!         .api_key(Sandbox::API_KEY)
//!         .base_url(sandbox.base_url())
//!         .build()?;
//!
//!     let stop = Stop::new(); // stop.stop() from elsewhere ends the job
//!     let options = RunOptions::new()
//!         .max_rows(250)
//!         .stop(stop.clone())
//!         .on_progress(|progress| {
//!             if let Progress::Rows { done, max } = progress {
//!                 eprintln!("{done} of at most {max} rows");
//!             }
//!         });
//!     let request = client.domains().keywords("example.it", KeywordType::Best, 100).request();
//!     let outcome = client.run::<Vec<DomainKeyword>>(request, options).await?;
//!     let figures = outcome.figures;
//!     println!(
//!         "{} rows, {} requests sent, {} units, from the cache: {}",
//!         outcome.envelope.response.len(),
//!         figures.requests_sent,
//!         figures.units_used,
//!         figures.from_cache
//!     );
//!     Ok(())
//! }
//! ```
//!
//! ## When a job stops part-way
//!
//! A job's requests are charged one by one, so a failure on the 21st must not
//! throw away what the first 20 bought. A batched job stops at its first failed
//! request, a paged job at its first failed page, and either gives
//! [`Partial`](error::ErrorKind::Partial): the rows received, what is missing
//! ([`job::Missing`]: the inputs without an answer, ready to send again, or
//! the offset where a paged job's rows stop) and the cause. A [`job::Stop`]
//! stops a job from outside: every wait ends at once, nothing more is sent,
//! and the `Partial` holds what was paid for. (A paged job read as a stream,
//! [`Client::pages`], yields every row received before the failed page's
//! error, its last item.)
//!
#![cfg_attr(feature = "sandbox", doc = "```")]
#![cfg_attr(not(feature = "sandbox"), doc = "```ignore")]
//! use seozoom::config::RetryPolicy;
//! use seozoom::sandbox::{Fault, FaultPlan, Sandbox};
//! use seozoom::types::KeywordMetrics;
//! use seozoom::Client;
//!
//! #[tokio::main]
//! async fn main() -> Result<(), seozoom::Error> {
//!     // The sandbox fails every request that asks for "boom".
//!     let faults = FaultPlan::none().on("keyword", "boom", Fault::ServerError);
//!     let sandbox = Sandbox::builder().faults(faults).start().await?;
//!     let client = Client::builder()
//!         .api_key(Sandbox::API_KEY)
//!         .base_url(sandbox.base_url())
//!         .retry(RetryPolicy::none())
//!         .build()?;
//!
//!     let mut keywords: Vec<String> = (0..100).map(|i| format!("keyword {i}")).collect();
//!     keywords.push("boom".to_owned());
//!     let error = client.keywords().metrics(keywords).send_all().await.unwrap_err();
//!     let partial = error.into_partial().expect("one of two requests was answered");
//!     println!("{partial}");
//!     let (received, missing, _cause) = partial.into_parts::<Vec<KeywordMetrics>>()?;
//!     assert_eq!(received.response.len(), 100);
//!     assert_eq!(missing.values(), ["boom"]);
//!     Ok(())
//! }
//! ```
//!
//! # The store: cache and ledger
//!
//! What outlives one call is kept in a [`store::Store`]: the answers already
//! paid for (fresh for as long as the spec says, per operation), a ledger of
//! every call, the budgets per day or month, and shared rate limits. The
//! library's default is [`Store::memory`](store::Store::memory), shared by a
//! client and its clones; features `sqlite` and `redis` add
//! [`Store::open`](store::Store::open)`("sqlite:PATH")` and
//! `("redis://HOST:PORT/N")`, which every process on the key shares (the
//! command line's own default is a SQLite file). No store holds the key: its
//! state is kept under a fingerprint of it. A SQLite file is created for the
//! user alone (`0600`, in a `0700` directory when one is made), and
//! `Store::readable_by_others` reports one that others may read; a Redis
//! connection closed under the client is opened again and the store call
//! made once more. A cached answer comes back with
//! `units_used` 0 and [`Envelope::fetched_at`] set; [`ClientBuilder::refresh`]
//! sends anyway. [`Client::usage`] reads the ledger.
//!
#![cfg_attr(feature = "sandbox", doc = "```")]
#![cfg_attr(not(feature = "sandbox"), doc = "```ignore")]
//! use seozoom::sandbox::Sandbox;
//! use seozoom::store::Store;
//! use seozoom::Client;
//!
//! #[tokio::main]
//! async fn main() -> Result<(), seozoom::Error> {
//!     let sandbox = Sandbox::start().await?;
//!     let client = Client::builder()
//!         .api_key(Sandbox::API_KEY)
//!         .base_url(sandbox.base_url())
//!         .store(Store::memory())
//!         .build()?;
//!
//!     let first = client.keywords().metrics(["mutuo casa"]).send().await?;
//!     let again = client.keywords().metrics(["mutuo casa"]).send().await?;
//!     assert!(first.fetched_at.is_none() && again.fetched_at.is_some());
//!     assert_eq!(again.units_used, 0);
//!     assert_eq!(sandbox.requests(), 1, "the second call was not sent");
//!
//!     for usage in client.usage(0).await? {
//!         println!("{} {}: {} calls, {} cache hits", usage.group, usage.action, usage.calls, usage.cache_hits);
//!     }
//!     Ok(())
//! }
//! ```
//!
//! # The sandbox for tests
//!
//! `sandbox::Sandbox` (feature `sandbox`) answers every operation of the spec
//! on loopback: it validates with the client's own rules, derives
//! deterministic rows from the inputs, charges units by the spec's figures
//! against a balance of 1,000,000, writes bodies with the service's quirks, and
//! answers "No data found!" for hosts under `.invalid` and keywords starting
//! with `zzz`. Its builder injects faults (429s, 500s, resets, slow or cut
//! answers: `sandbox::FaultPlan`) and, with `strict()` or `rate_window`,
//! enforces the rate limits as the service does, counting the 429s it answers.
//! Turn the feature on for your tests only:
//!
//! ```toml
//! [dev-dependencies]
//! seozoom = { version = "0.1", features = ["sandbox"] }
//! ```
//!
//! # Features
//!
//! All are off by default: the default build is the client alone.
//!
//! | Feature | What it adds |
//! |---|---|
//! | `sandbox` | `seozoom::sandbox`, the offline stand-in of the service (axum). |
//! | `sqlite` | `Store::open("sqlite:PATH")`: a store shared by the processes of one machine (rusqlite, SQLite bundled). |
//! | `redis` | `Store::open("redis://...")`: a store shared by machines. |
//! | `schemars` | `schemars::JsonSchema` for every record and enum. |
//! | `jiff` | Conversions between [`types::Date`], [`types::DateTime`], [`types::Time`] and `jiff::civil`'s. |
//!
//! # Layout: generated and runtime
//!
//! The root holds what a caller names every day: [`Client`], [`ClientBuilder`],
//! [`Error`], [`Envelope`], [`Db`] and [`Job`]. The rest is grouped by what it
//! is. Generated from the spec when the crate is built:
//!
//! - [`types`]: the records and enums of the responses and parameters, with
//!   the value types they use ([`types::Serp`], [`types::ByKey`],
//!   [`types::Date`], ...);
//! - [`builder`]: the group handles and request builders;
//! - [`operations`]: the operation table, whose types are in [`operation_table`].
//!
//! Hand-written, generic (none of it names an operation):
//!
//! - [`request`]: the generic request every builder makes, and its validation;
//! - [`job`]: running any job ([`Client::run`]), batched and paged jobs, and
//!   what a job that stops part-way keeps;
//! - [`config`]: retry, rate-limit and timeout settings of a [`ClientBuilder`];
//! - [`units`]: unit estimates and the account's balance;
//! - [`store`]: the cache, the ledger, budgets and shared limits;
//! - [`wait`]: how waits are told through `tracing`;
//! - [`error`]: the error's parts;
//! - `sandbox` (feature `sandbox`): an offline stand-in for the service.

#![deny(missing_docs)]
// Every fallible public method says how it fails (the generated ones too).
#![warn(clippy::missing_errors_doc)]
#![forbid(unsafe_code)]

mod budget_window;
mod by_key;
mod charge;
mod client;
mod date;
#[cfg(feature = "jiff")]
mod date_jiff;
mod decode;
pub mod drift;
mod envelope;
pub mod error;
mod generated;
pub mod operation_table;
mod order;
mod outcome;
mod rate_limits;
#[doc(hidden)]
pub mod record;
mod redact;
pub mod request;
mod retry;
#[cfg(feature = "sandbox")]
pub mod sandbox;
mod serp;
mod shown_duration;
mod stop;
pub mod store;
pub mod units;
pub mod wait;
mod wire_enum;

pub use client::Job;
pub use client::{Client, ClientBuilder};
pub use envelope::Envelope;
pub use error::Error;
pub use generated::types::Db;

pub mod types {
    //! The records and enums of the API's responses and parameters, generated
    //! from the spec, and the value types they are made of: a SERP ([`Serp`]),
    //! a map keyed by input ([`ByKey`]), and civil dates and times ([`Date`],
    //! [`DateTime`], [`Time`]; with the `jiff` feature, they convert to and
    //! from `jiff::civil`'s).

    pub use crate::by_key::ByKey;
    pub use crate::date::{Date, DateError, DateTime, Time};
    pub use crate::envelope::{RawRow, Unreported};
    pub use crate::generated::types::*;
    pub use crate::record::UnknownMembers;
    pub use crate::serp::{Serp, SerpResult};
    pub use crate::wire_enum::{UnknownValue, WireEnum};
    /// The `jiff` crate the conversions are written for (feature `jiff`).
    #[cfg(feature = "jiff")]
    pub use jiff;
}

pub mod builder {
    //! The group handles ([`Domains`], reached by [`Client::domains`](crate::Client::domains), ...)
    //! and a request builder per operation ([`DomainsKeywords`], ...), generated
    //! from the spec.

    pub use crate::generated::builder::*;
}

pub use generated::operations;

pub mod job {
    //! Running jobs: any job through [`Client::run`](crate::Client::run)
    //! (or [`Client::run_each`](crate::Client::run_each), its rows handed
    //! over as they come) with [`RunOptions`] (its result types: [`Output`];
    //! what it gives: [`Outcome`], [`Figures`]); what a run would send and
    //! cost, before it is sent ([`Client::plan`](crate::Client::plan):
    //! [`JobPlan`]); and the rows of a paged operation as a [`Stream`]
    //! ([`Client::pages`](crate::Client::pages)). A job that stops part-way
    //! keeps what it paid for ([`Partial`]).

    pub use crate::client::{
        BATCH_CONCURRENCY, CacheHit, Counted, FittedRows, InputOrder, Job, JobPlan, Merge, Output,
        Paging, Progress, Retry, Row, RunOptions, Stop,
    };
    pub use crate::error::partial::{Missing, Partial};
    pub use crate::outcome::{Figures, Outcome};
    pub use crate::wait::{Wait, WaitCause, Waited};
    pub use futures_core::Stream;
    /// `next()` and the other combinators of a [`Stream`], re-exported so
    /// that reading [`Client::pages`](crate::Client::pages) needs no other
    /// dependency.
    pub use futures_util::StreamExt;
}

pub mod config {
    //! Settings of a [`ClientBuilder`](crate::ClientBuilder) beyond the key and
    //! the base URL: retries, rate limiting and timeouts.

    pub use crate::client::{
        API_KEY_ENV, DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_WAIT, DEFAULT_TIMEOUT,
    };
    pub use crate::rate_limits::RateLimitMode;
    pub use crate::retry::RetryPolicy;
}

/// The one path generated code uses to reach the runtime.
#[doc(hidden)]
pub mod __private {
    pub use crate::client::json_output;
    pub use crate::decode::quirks;
    pub use crate::decode::{Decoder, EnvelopeSeed, decode_json, decode_rows, decode_typed};
    pub use crate::envelope::WithWireNames;
    #[cfg(feature = "schemars")]
    pub use crate::envelope::envelope_schema;
    pub use crate::operation_table as table;
    pub use crate::record;
    #[cfg(feature = "sandbox")]
    pub use crate::sandbox::{Sandbox, SandboxBuilder};
    pub use crate::types::{
        ByKey, Date, DateTime, Serp, Time, UnknownMembers, UnknownValue, WireEnum,
    };
    pub use crate::{
        Client, ClientBuilder, Envelope, Error, job::Outcome, job::Output, job::Row,
        job::RunOptions, job::Stop, job::Stream, operation_table::Operation, request::Request,
    };
    pub use serde_json;
}

/// The crate README's examples (`client/README.md`, the crate's page),
/// compiled as doctests so they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
