//! Shared support of the client's tests: the one scripted loopback server
//! ([`Server`], [`Reply`]), raw TCP servers that misbehave ([`RawServer`]) and
//! small helpers.

// Each test module uses part of it (and some only with the `sandbox` feature).
#![allow(dead_code, unused_imports)]

mod raw;
mod server;

use seozoom::Envelope;

pub use raw::{Misbehaviour, RawServer};
pub use server::{ECHO, Reply, Seen, Server};

/// The key every test client sends: distinctive enough that finding it in any
/// output is a leak.
pub const KEY: &str = "TEST-KEY-123";

/// The envelope figures: `(ResultRows, UnitsUsed, UnitsRemaining)`.
pub fn units<T>(envelope: &Envelope<T>) -> (i64, i64, Option<i64>) {
    (
        envelope.result_rows,
        envelope.units_used,
        envelope.units_remaining,
    )
}
