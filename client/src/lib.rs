//! A typed client for the SEOZoom API v2, generated from one hand-written spec.
//!
//! Every operation of the API has a request builder reached through its group
//! ([`Client::projects`], [`Client::domains`], [`Client::urls`],
//! [`Client::keywords`]). Required parameters are arguments, so a call without one
//! does not compile; optional ones are methods. Before anything is sent, every
//! limit of the spec (stated in the reference or inferred from its cost table) is
//! checked, and a broken one is an [`ErrorKind::InvalidInput`](error::ErrorKind::InvalidInput) naming the parameter,
//! the value and the limit. Responses decode into typed records wrapped in an
//! [`Envelope`] that also carries the units used and remaining.
//!
//! ```no_run
//! use seozoom::types::KeywordType;
//! use seozoom::{Client, Db};
//!
//! # async fn run() -> Result<(), seozoom::Error> {
//! let client = Client::builder().api_key("YOUR-KEY").db(Db::It).build()?;
//! let page = client
//!     .domains()
//!     .keywords("example.it", KeywordType::ByPage, 100)
//!     .page(1)
//!     .send()
//!     .await?;
//! for row in &page.response {
//!     println!("{} at {}", row.keyword, row.ranking_position);
//! }
//! println!("{} units used, {} left", page.units_used, page.units_remaining);
//! # Ok(()) }
//! ```
//!
//! Everything per-operation (names, parameters, limits, records, costs) comes from
//! `spec/seozoom-v2.toml`, turned into Rust by `seozoom-codegen` when the crate is
//! built; [`operations`] exposes the same facts as a table.
//!
//! # Layout
//!
//! The root holds what a caller names every day: [`Client`], [`ClientBuilder`],
//! [`Error`], [`Envelope`], [`Db`] and [`Job`]. The rest is grouped by what it is:
//!
//! - [`types`]: the records and enums of the responses and parameters (generated),
//!   and the value types they use ([`types::Serp`], [`types::ByKey`], ...);
//! - [`builder`]: the group handles and request builders (generated);
//! - [`operations`]: the operation table (generated), whose types are in [`table`];
//! - [`request`]: the generic request every builder makes;
//! - [`job`]: batched and paged jobs, and what a job that stops part-way keeps;
//! - [`config`]: retry, rate-limit and timeout settings of a [`ClientBuilder`];
//! - [`units`]: unit estimates and the account's balance;
//! - [`error`]: the error's parts;
//! - `sandbox` (feature `sandbox`): an offline stand-in for the service.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod answers;
mod by_key;
mod charge;
mod client;
mod date;
#[cfg(feature = "jiff")]
mod date_jiff;
mod decode;
mod envelope;
pub mod error;
mod generated;
pub mod operation_table;
#[doc(hidden)]
pub mod record;
pub mod request;
mod retry;
#[cfg(feature = "sandbox")]
pub mod sandbox;
mod serp;
mod shown_duration;
pub mod store;
mod transport;
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
    pub use crate::generated::types::*;
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
/// The operation table's types under their first name, kept so that code
/// written against `seozoom::table` still builds.
pub use operation_table as table;

pub mod job {
    //! Bulk jobs: a list longer than one request takes, sent as a batched job
    //! ([`Client::execute_batched`](crate::Client::execute_batched)), and the
    //! rows of a paged operation as a [`Stream`]
    //! ([`Client::pages`](crate::Client::pages)). A batched job that stops
    //! part-way keeps what it paid for ([`Partial`]).

    pub use crate::client::{
        BATCH_CONCURRENCY, Counted, FittedRows, InputOrder, Job, JobPlan, Merge, Paging, Row, Stop,
    };
    pub use crate::error::partial::{Missing, Partial};
    pub use futures_core::Stream;
}

pub mod config {
    //! Settings of a [`ClientBuilder`](crate::ClientBuilder) beyond the key and
    //! the base URL: retries, rate limiting and timeouts.

    pub use crate::client::{
        API_KEY_ENV, DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_WAIT, DEFAULT_TIMEOUT,
    };
    pub use crate::retry::RetryPolicy;
    pub use crate::transport::RateLimitMode;
}

/// The one path generated code uses to reach the runtime.
#[doc(hidden)]
pub mod __private {
    pub use crate::decode::quirks;
    pub use crate::decode::{Decoder, decode_json, decode_rows, decode_typed};
    #[cfg(feature = "schemars")]
    pub use crate::envelope::{EnvelopeDocs, envelope_schema};
    pub use crate::envelope::{EnvelopeSeed, WithWireNames};
    pub use crate::operation_table as table;
    pub use crate::record;
    #[cfg(feature = "sandbox")]
    pub use crate::sandbox::{Sandbox, SandboxBuilder};
    pub use crate::types::{ByKey, Date, DateTime, Serp, Time, UnknownValue, WireEnum};
    pub use crate::{
        Client, ClientBuilder, Envelope, Error, job::Row, job::Stop, job::Stream,
        operation_table::Operation, request::Request,
    };
    pub use serde_json;
}

/// The README's examples, compiled as doctests so they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
