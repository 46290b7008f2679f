//! Calling an operation's tool: the arguments read into a request and run by
//! the library's runner (`Client::run_json`: a long list as a batched job,
//! under the session's budget, stopped by a cancel), the answer cut to the
//! row cap. Every failure is a tool result with `isError`, whose text says
//! what went wrong: a refusal names the parameter, the value and the limit,
//! or the budget left. A job that stops part-way keeps the rows it paid for:
//! they are held for the `more` tool.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock, Resource};
use seozoom::error::ErrorKind;
use seozoom::job::{Partial, RunOptions, Stop};
use seozoom::{Error, operation_table::Operation};
use serde_json::{Map, Value};

use super::envelope::Cached;
use super::failure::failure;
use super::held::HeldResult;
use super::report::Reporter;
use super::session::Session;
use super::{args, brief, envelope, fields, resources, tool_names};

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
    let read = args::request(op, arguments, &session.database).and_then(|request| {
        let max_rows = args::max_rows(op, arguments)?;
        Ok((request, max_rows, fields::read(op, arguments)?))
    });
    let (request, max_rows, fields) = match read {
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
    let outcome = match session.client.run_json(request, options).await {
        Ok(outcome) => outcome,
        Err(error) => {
            return match error.into_partial() {
                Ok(partial) => stopped_part_way(session, tool, op, partial, fields),
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
    session.count_cache_hit(&cached);
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

/// The tool result of a job that stopped part-way: `isError`, saying why
/// and what is missing; the rows received (already paid for) are held, and
/// the text says how to get them from the `more` tool.
fn stopped_part_way(
    session: &Session,
    tool: &str,
    op: &Operation,
    partial: Box<Partial>,
    fields: Option<fields::Fields>,
) -> CallToolResult {
    let missing = partial.missing_summary();
    let (received, _, cause) = match partial.into_outcome::<Value>() {
        Ok(parts) => parts,
        Err(partial) => return failure(&Error::from(partial)),
    };
    let received = received.envelope;
    let shape = op.response.shape;
    let rows = envelope::total(shape, &received.response);
    let units = received.units_used;
    let mut text = format!(
        "{cause}. The job stopped part-way: {missing} got no answer; send those again. It was charged {units} units.",
    );
    if matches!(cause.kind(), ErrorKind::Stopped) {
        text = format!(
            "Cancelled: the job sent no request after the cancel (a request already sent was let finish). {missing} got no answer and were not charged; send those again when wanted. It was charged {units} units for what it received.",
        );
    }
    if rows > 0 {
        let id = session.held.hold(HeldResult {
            tool: tool.to_owned(),
            shape,
            units,
            complete: false,
            response: Arc::new(received.response),
            fields,
        });
        text.push_str(&format!(
            " The {rows} rows it received are held as result `{id}`: call the `{}` tool with {{\"{}\": \"{id}\", \"{}\": 0}} for them (no units charged).",
            tool_names::MORE,
            envelope::RESULT,
            envelope::START,
        ));
    }
    CallToolResult::error(vec![ContentBlock::text(text)])
}
