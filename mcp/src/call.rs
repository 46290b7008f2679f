//! Calling an operation's tool: the arguments read into a request and run by
//! the library's runner (`Client::run_json`: a long list as a batched job,
//! under the session's budget, stopped by a cancel), the answer cut to the
//! row cap. Every failure is a tool result with `isError`, whose text says
//! what went wrong: a refusal names the parameter, the value and the limit,
//! or the budget left. A job that stops part-way keeps the rows it paid for
//! (`stopped.rs` tells it and holds them for the `more` tool).

use std::sync::Arc;

use rmcp::model::{CallToolResult, Resource};
use seozoom::job::{RunOptions, Stop};
use seozoom::{Error, operation_table::Operation};
use serde_json::{Map, Value};

use super::envelope::Cached;
use super::failure::failure;
use super::report::Reporter;
use super::session::Session;
use super::{args, brief, envelope, fields, resources, stopped};

/// Call `op` (the tool `tool`) with these arguments. A batched job reports
/// its progress to `reporter`, and sends nothing more once `stop` is given.
pub async fn operation(
    session: &Session,
    tool: &str,
    op: &'static Operation,
    arguments: Option<&Map<String, Value>>,
    reporter: &Arc<Reporter>,
    stop: &Stop,
) -> CallToolResult {
    // A stopped job's handle stands for its arguments for the missing part.
    let resumed = match stopped::resumed(session, tool, arguments) {
        None => None,
        Some(Ok(resumed)) => Some(resumed),
        Some(Err(invalid)) => return failure(&Error::from(invalid)),
    };
    let arguments = resumed.as_ref().or(arguments);
    let read = args::request(op, arguments, &session.database).and_then(|request| {
        let max_rows = args::max_rows(op, arguments)?;
        let max_wait = args::max_wait(op, arguments)?;
        Ok((request, max_rows, max_wait, fields::read(op, arguments)?))
    });
    let (request, max_rows, max_wait, fields) = match read {
        Ok(read) => read,
        Err(invalid) => return failure(&Error::from(invalid)),
    };
    let progress = Arc::clone(reporter);
    let mut options = RunOptions::new()
        .stop(stop.clone())
        .fit_budget(session.fit_budget)
        .on_progress(move |step| progress.progress(step));
    if let Some(max_rows) = max_rows {
        options = options.max_rows(max_rows);
    }
    if let Some(max_wait) = max_wait {
        options = options.max_wait(max_wait);
    }
    let outcome = match session.client.run_json(request, options).await {
        Ok(outcome) => outcome,
        Err(error) => {
            return match error.into_partial() {
                Ok(partial) => {
                    reporter.spent(partial.figures());
                    stopped::told_and_held(session, tool, op, arguments, partial, fields)
                }
                Err(error) => failure(&error),
            };
        }
    };
    let figures = outcome.figures;
    // From the store exactly when no request reached the service.
    let cached = match (
        figures.from_cache,
        figures.cached_items,
        figures.cached_requests,
    ) {
        (true, ..) => Cached::All,
        (false, 0, 0) => Cached::None,
        (false, items, requests) => Cached::Part { items, requests },
    };
    reporter.spent(&figures);
    let (structured, held) = envelope::structured(
        op,
        tool,
        outcome.envelope,
        cached,
        session.max_rows,
        &session.held,
        fields.as_ref(),
    );
    brief::result(tool, op.response.shape, structured, link(session, held))
}

/// The `resource_link` of the result held as `id`.
fn link(session: &Session, id: Option<String>) -> Option<Resource> {
    let id = id?;
    let held = session.held.get(&id)?;
    Some(resources::held_resource(&id, &held))
}
