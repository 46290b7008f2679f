//! What the workspace's tests and benches share, so that each has one home:
//!
//! - [`RedisServer`]: a real `redis-server` on a free loopback port, for the
//!   Redis store's tests (the client's, the command line's) and the store bench;
//! - [`slow_tests`]: the one switch, [`SLOW_TESTS`], that runs the slow tests
//!   in full (the regeneration of the workspace, the full soak);
//! - [`Server`]: a loopback HTTP server with one canned answer that records
//!   every request (the command line's and the MCP server's tests);
//! - `table_samples` (feature `table`): sample inputs, queries and bodies
//!   derived from the operation table.
//!
//! Std only without the feature, and never published.

mod loopback_server;
mod redis_server;
mod slow;
#[cfg(feature = "table")]
pub mod table_samples;

pub use loopback_server::{Seen, Server, closed_port_url};
pub use redis_server::RedisServer;
pub use slow::{SLOW_TESTS, slow_tests};
