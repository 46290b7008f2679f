//! The MCP server's integration tests, in one test binary: the server run in
//! process on in-memory streams, spoken to with JSON-RPC one message per
//! line, as a client speaks to `seozoom mcp` on stdio (`support`). The
//! process itself (its stdio, its exit code, its stderr) is tested with the
//! command line, in `cli/tests/cli/mcp_command.rs`; the official SDKs and the
//! conformance suite run against the binary in `.ci/mcp-checks`.
//!
//! Run one test with `cargo test -p seozoom-mcp --test mcp NAME`.

mod support;

mod answers;
mod drifting;
mod protocol;
mod resources;
mod sandbox;
mod schemas;
mod session;
