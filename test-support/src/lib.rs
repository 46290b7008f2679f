//! What the workspace's tests and benches share, so that each has one home:
//!
//! - [`RedisServer`]: a real `redis-server` on a free loopback port, for the
//!   Redis store's tests (the client's, the command line's) and the store bench;
//! - [`slow_tests`]: the one switch, [`SLOW_TESTS`], that runs the slow tests
//!   in full (the regeneration of the workspace, the full soak).
//!
//! Std only, and never published.

mod redis_server;
mod slow;

pub use redis_server::RedisServer;
pub use slow::{SLOW_TESTS, slow_tests};
