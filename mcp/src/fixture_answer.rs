//! What the conformance fixture's tools ([`super::fixture`]) do when called:
//! through the path the operations' tools take, in a session.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock};
use seozoom::job::Stop;
use seozoom::operation_table::Operation;
use serde_json::{Map, Value};

use super::call;
use super::envelope::FROM_CACHE;
use super::fixture::{ERROR_TEXT, Fixture, PROGRESS_REQUESTS, REPEATS, SIMPLE_TEXT};
use super::report::Reporter;
use super::session::Session;
use super::tool_names::tool_name;

/// The answer of fixture tool `fixture`, in `session` (on the sandbox);
/// `stop` ends it as it ends an operation's call.
pub async fn answer(
    fixture: Fixture,
    arguments: Option<&Map<String, Value>>,
    session: &Session,
    reporter: &Arc<Reporter>,
    stop: &Stop,
) -> CallToolResult {
    match fixture {
        Fixture::Logging => logging(session, reporter, stop).await,
        Fixture::Progress => progress(session, reporter, stop).await,
        Fixture::JsonSchema => CallToolResult::success(vec![ContentBlock::text(format!(
            "arguments received: {}",
            Value::Object(arguments.cloned().unwrap_or_default())
        ))]),
        Fixture::SimpleText => CallToolResult::success(vec![ContentBlock::text(SIMPLE_TEXT)]),
        Fixture::Error => CallToolResult::error(vec![ContentBlock::text(ERROR_TEXT)]),
    }
}

/// Run a batched job of [`PROGRESS_REQUESTS`] requests: the first listed
/// operation that takes a list, its example call with the list made long
/// enough. Its progress reaches the agent as any job's.
async fn progress(session: &Session, reporter: &Arc<Reporter>, stop: &Stop) -> CallToolResult {
    let found = session.catalog.operations().find_map(|op| {
        let param = op.batch_param()?;
        let per_request = usize::try_from(param.max_items?.value).ok()?;
        Some((op, param.wire, per_request))
    });
    let Some((op, list, per_request)) = found else {
        return CallToolResult::error(vec![ContentBlock::text("no listed operation takes a list")]);
    };
    let name = tool_name(op);
    let mut arguments = example_arguments(op);
    let values: Vec<Value> = (0..per_request * PROGRESS_REQUESTS)
        .map(|i| Value::String(format!("conformance {i}")))
        .collect();
    arguments.insert(list.to_owned(), Value::Array(values));
    let result = call::operation(session, &name, op, Some(&arguments), reporter, stop, None).await;
    if result.is_error == Some(true) {
        return result;
    }
    CallToolResult::success(vec![ContentBlock::text(format!(
        "`{name}` ran a batched job of {PROGRESS_REQUESTS} requests; its progress was reported after each"
    ))])
}

/// Make the first listed operation's example call, then repeat it: the
/// repeats come from the cache, and each hit is logged.
async fn logging(session: &Session, reporter: &Arc<Reporter>, stop: &Stop) -> CallToolResult {
    let Some(op) = session.catalog.operations().next() else {
        return CallToolResult::error(vec![ContentBlock::text("no operation is listed")]);
    };
    let name = tool_name(op);
    let arguments = example_arguments(op);
    let mut from_cache = 0;
    for _ in 0..=REPEATS {
        let result =
            call::operation(session, &name, op, Some(&arguments), reporter, stop, None).await;
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
