//! A typed client for the SEOZoom API v2, generated from one hand-written spec.
//!
//! Every operation of the API has a request builder reached through its group
//! ([`Client::projects`], [`Client::domains`], [`Client::urls`],
//! [`Client::keywords`]). Required parameters are arguments, so a call without one
//! does not compile; optional ones are methods. Before anything is sent, every
//! limit of the spec (stated in the reference or inferred from its cost table) is
//! checked, and a broken one is an [`ErrorKind::InvalidInput`] naming the parameter,
//! the value and the limit. Responses decode into typed records wrapped in an
//! [`Envelope`] that also carries the units used and remaining.
//!
//! ```no_run
//! use seozoom::{Client, Db, KeywordType};
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

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod answers;
mod by_key;
mod client;
mod decode;
mod error;
mod partial;
#[doc(hidden)]
pub mod quirks;
mod request;
mod retry;
mod rows;
#[cfg(feature = "sandbox")]
pub mod sandbox;
mod serp;
pub mod table;
mod transport;
mod units;
mod wire_enum;

mod generated {
    include!(concat!(env!("OUT_DIR"), "/generated.rs"));
}

pub use by_key::ByKey;
pub use client::{API_KEY_ENV, Client, ClientBuilder, DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT};
pub use client::{BATCH_CONCURRENCY, InputOrder, Job, Merge, Paging, Row};
pub use error::{ConfigError, Error, ErrorKind, InvalidInput};
pub use futures_core::Stream;
pub use generated::*;
pub use jiff;
pub use partial::{Missing, Partial};
pub use request::{Request, ToWire};
pub use retry::RetryPolicy;
pub use serp::{Serp, SerpResult};
pub use table::Operation;
pub use transport::RateLimitMode;
pub use units::{Estimate, Units};
pub use wire_enum::{UnknownValue, WireEnum};

/// The one path generated code uses to reach the runtime.
#[doc(hidden)]
pub mod __private {
    pub use crate::decode::{decode_json, decode_rows, decode_typed};
    pub use crate::quirks;
    pub use crate::table;
    pub use crate::{
        ByKey, Client, ClientBuilder, Error, Operation, Request, Row, Serp, Stream, UnknownValue,
        WireEnum,
    };
}

/// The README's examples, compiled as doctests so they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
