//! The conformance fixture: tools that the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`) calls by name in its scenarios, and
//! that a real session never has. They are listed only when the server runs
//! on the offline sandbox and `--conformance-fixture` (hidden) asks for them
//! (`.ci/mcp-checks` does), so that the suite can check the real mechanism.
//!
//! Each does its job through the path the operations' tools take, so that
//! a passing scenario says something about the product: the logging tool
//! makes one operation's example call (from the spec, as in `--help`) a few
//! times on the sandbox, and the repeats are answered from the store's cache,
//! whose hits reach the agent as log messages through [`super::trace`], as in
//! any session. What each tool does is in [`super::fixture_answer`], so that
//! the catalogue of tools, which lists these, does not depend on a session.

use rmcp::model::{Tool, ToolAnnotations};
use serde_json::Map;
use std::sync::Arc;

use super::input_schema::object;

/// How often the logging tool repeats its call after the first: the suite
/// wants at least three log messages during the call.
pub(super) const REPEATS: usize = 3;

/// A tool of the conformance fixture.
#[derive(Debug, Clone, Copy)]
pub enum Fixture {
    /// `test_tool_with_logging` (scenario `tools-call-with-logging`): log
    /// messages during a call, at the level the client set.
    Logging,
}

impl Fixture {
    /// Every fixture tool.
    pub const ALL: [Fixture; 1] = [Fixture::Logging];

    /// The tool as listed.
    pub fn tool(self) -> Tool {
        let (name, description) = match self {
            Fixture::Logging => (
                "test_tool_with_logging",
                format!(
                    "Conformance fixture (sandbox only): makes one operation's example call, then repeats it {REPEATS} times; each repeat is answered from the cache and logged (info) at the level set with logging/setLevel."
                ),
            ),
        };
        Tool::new(name, description, Arc::new(object(Map::new(), Vec::new())))
            .with_annotations(ToolAnnotations::new().read_only(true).open_world(false))
    }
}
