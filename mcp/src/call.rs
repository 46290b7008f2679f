//! Calling an operation's tool: the arguments read into a request and run by
//! the library's runner (`Client::run` for JSON: a long list as a batched job,
//! under the session's budget, stopped by a cancel), the answer cut to the
//! row cap. Every failure is a tool result with `isError`, whose text says
//! what went wrong: a refusal names the parameter, the value and the limit,
//! or the budget left. A job that stops part-way keeps the rows it paid for
//! (`stopped.rs` tells it and holds them for the `more` tool).

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::RoleServer;
use rmcp::model::{CallToolResult, ContentBlock, Resource};
use rmcp::service::Peer;
use seozoom::error::InvalidInput;
use seozoom::job::{FittedRows, Progress, RunOptions, Stop};
use seozoom::{Error, operation_table::Operation};
use serde_json::{Map, Value, json};

use super::envelope::Cached;
use super::failure::failure;
use super::held::HeldResult;
use super::report::Reporter;
use super::session::Session;
use super::{args, brief, confirm, envelope, fields, resources, stopped, tool_names};

/// Call `op` (the tool `tool`) with these arguments. A batched job reports
/// its progress to `reporter`, and sends nothing more once `stop` is given;
/// a call over `--confirm-over` asks the user through `peer` first.
pub async fn operation(
    session: &Session,
    tool: &str,
    op: &'static Operation,
    arguments: Option<&Map<String, Value>>,
    reporter: &Arc<Reporter>,
    stop: &Stop,
    peer: Option<&Peer<RoleServer>>,
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
    // Over --confirm-over, the user says yes first (or nothing is sent).
    if session.confirm_over.is_some()
        && let Err(answer) = confirm::confirmed(session, tool, &request, max_rows, peer).await
    {
        return answer;
    }
    let progress = Arc::clone(reporter);
    // A row cap the budget cut (`--fit-budget`), for the answer to say so.
    let fitted: Arc<Mutex<Option<FittedRows>>> = Arc::default();
    let seen = Arc::clone(&fitted);
    let mut options = RunOptions::new()
        .stop(stop.clone())
        .fit_budget(session.fit_budget)
        .on_progress(move |step| {
            if let Progress::Fitted(rows) = step
                && rows.is_cut()
            {
                *seen.lock().unwrap_or_else(PoisonError::into_inner) = Some(rows);
            }
            progress.progress(step);
        });
    if let Some(max_rows) = max_rows {
        options = options.max_rows(max_rows);
    }
    if let Some(max_wait) = max_wait {
        options = options.max_wait(max_wait);
    }
    let outcome = match session.client.run::<Value>(request, options).await {
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
    if let Some(fields) = &fields
        && let Err(invalid) = fields::check(op, tool, fields, &outcome.envelope.response)
    {
        return fields_refused(session, tool, op, outcome.envelope, &invalid);
    }
    let (mut structured, held) = envelope::structured(
        op,
        tool,
        outcome.envelope,
        cached,
        session.max_rows,
        &session.held,
        fields.as_ref(),
    );
    let fitted = *fitted.lock().unwrap_or_else(PoisonError::into_inner);
    if let (Some(budget), Some(content)) = (budget(session, fitted), structured.as_object_mut()) {
        content.insert(envelope::BUDGET.into(), budget);
    }
    brief::result(tool, op.response.shape, structured, link(session, held))
}

/// A call whose `fields` name a column its answer does not have: the error,
/// and the answer held whole (every column), since it was paid for; `more`
/// or the resource hands it out without sending again.
fn fields_refused(
    session: &Session,
    tool: &str,
    op: &'static Operation,
    envelope: seozoom::Envelope<Value>,
    invalid: &InvalidInput,
) -> CallToolResult {
    let units = envelope.units_used;
    let id = session.held.hold(HeldResult {
        tool: tool.to_owned(),
        shape: op.response.shape,
        units,
        complete: true,
        response: Arc::new(envelope.response),
        fields: None,
        resume: None,
    });
    let text = format!(
        "{invalid}. The call was sent and charged {}: its answer is held whole as result `{id}`; `{}` with {{\"{}\": \"{id}\"}} gives its rows with every column (free).",
        brief::count(units.max(0).unsigned_abs(), "unit", "units"),
        tool_names::MORE,
        envelope::RESULT,
    );
    let mut content = vec![ContentBlock::text(text)];
    content.extend(link(session, Some(id)).map(ContentBlock::resource_link));
    CallToolResult::error(content)
}

/// The answer's `budget` member when the server has a budget: its units and
/// what is left of them after this call, and, when `--fit-budget` cut the
/// row cap, the rows asked for and the rows the budget allowed.
fn budget(session: &Session, fitted: Option<FittedRows>) -> Option<Value> {
    let limit = session.client.budget()?;
    let left = (limit - session.client.units().used).max(0);
    let mut budget = json!({"units": limit, "left": left});
    if let Some(fitted) = fitted {
        budget["rows_asked"] = json!(fitted.asked);
        budget["rows_allowed"] = json!(fitted.rows);
    }
    Some(budget)
}

/// The `resource_link` of the result held as `id`.
fn link(session: &Session, id: Option<String>) -> Option<Resource> {
    let id = id?;
    let held = session.held.get(&id)?;
    Some(resources::held_resource(&id, &held))
}
