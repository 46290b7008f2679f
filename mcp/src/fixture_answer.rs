//! What the conformance fixture's tools ([`super::fixture`]) do when called:
//! through the path the operations' tools take, in a session.

use rmcp::model::{CallToolResult, ContentBlock};
use seozoom::job::Stop;
use seozoom::operation_table::Operation;
use serde_json::{Map, Value};

use super::call;
use super::envelope::FROM_CACHE;
use super::fixture::{Fixture, REPEATS};
use super::report::Reporter;
use super::session::Session;
use super::tool_names::tool_name;

/// The answer of fixture tool `fixture`, in `session` (on the sandbox);
/// `stop` ends it as it ends an operation's call.
pub async fn answer(
    fixture: Fixture,
    session: &Session,
    reporter: &Reporter,
    stop: &Stop,
) -> CallToolResult {
    match fixture {
        Fixture::Logging => logging(session, reporter, stop).await,
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
    op.example_arguments(seozoom::operations::RECORDS)
        .into_iter()
        .map(|(param, value)| (param.wire.to_owned(), Value::String(value)))
        .collect()
}
