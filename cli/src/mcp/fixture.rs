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
//! any session.

use rmcp::model::{CallToolResult, ContentBlock, Tool, ToolAnnotations};
use seozoom::job::Stop;
use seozoom::operation_table::Operation;
use serde_json::{Map, Value};
use std::sync::Arc;

use super::call;
use super::envelope::FROM_CACHE;
use super::input_schema::object;
use super::report::Reporter;
use super::session::Session;
use super::tool_names::tool_name;
use crate::example;

/// How often the logging tool repeats its call after the first: the suite
/// wants at least three log messages during the call.
const REPEATS: usize = 3;

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

    /// The tool's answer, in `session` (on the sandbox); `stop` ends it as
    /// it ends an operation's call.
    pub async fn answer(
        self,
        session: &Session,
        reporter: &Reporter,
        stop: &Stop,
    ) -> CallToolResult {
        match self {
            Fixture::Logging => logging(session, reporter, stop).await,
        }
    }
}

/// Make the first listed operation's example call, then repeat it: the
/// repeats come from the cache, and each hit is logged.
async fn logging(session: &Session, reporter: &Reporter, stop: &Stop) -> CallToolResult {
    let Some(op) = session.catalog.operations().next() else {
        return CallToolResult::error(vec![ContentBlock::text("no operation is listed")]);
    };
    let name = tool_name(op);
    let arguments = example_arguments(op);
    let mut from_cache = 0;
    for _ in 0..=REPEATS {
        let result = call::operation(session, &name, op, Some(&arguments), reporter, stop).await;
        if result.is_error == Some(true) {
            return result;
        }
        let cached = result
            .structured_content
            .as_ref()
            .and_then(|content| content.get(FROM_CACHE))
            .and_then(Value::as_bool);
        from_cache += usize::from(cached == Some(true));
    }
    let text = format!(
        "`{name}` called {} times with its example arguments; {from_cache} answered from the cache",
        REPEATS + 1
    );
    if from_cache < REPEATS {
        // Without a store nothing is cached, and nothing logged.
        return CallToolResult::error(vec![ContentBlock::text(format!(
            "{text}: start the server with a store (--store memory)"
        ))]);
    }
    CallToolResult::success(vec![ContentBlock::text(text)])
}

/// The example arguments of `op` (those of its `--help`), as tool arguments.
fn example_arguments(op: &Operation) -> Map<String, Value> {
    example::arguments(op)
        .into_iter()
        .map(|(param, value)| (param.wire.to_owned(), Value::String(value)))
        .collect()
}
