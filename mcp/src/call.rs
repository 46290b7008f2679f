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
use seozoom::job::{Missing, Partial, RunOptions, Stop};
use seozoom::{Error, operation_table::Operation};
use serde_json::{Map, Value, json};

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
                    let resume = resume(arguments, partial.missing());
                    stopped_part_way(session, tool, op, partial, resume, fields)
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

/// The call's `arguments` changed to ask for exactly what is `missing`: the
/// batch parameter set to the inputs not answered, or the offset parameter to
/// where the rows stop; `None` for a kind of missing part this server does
/// not know.
fn resume(arguments: Option<&Map<String, Value>>, missing: &Missing) -> Option<Value> {
    let mut resume = arguments.cloned().unwrap_or_default();
    match missing {
        Missing::Inputs { param, values, .. } => {
            resume.insert((*param).to_owned(), json!(values));
        }
        Missing::Rows {
            param,
            offset,
            rows,
            ..
        } => {
            resume.insert((*param).to_owned(), json!(offset));
            resume.insert(tool_names::ARG_MAX_ROWS.to_owned(), json!(rows));
        }
        _ => return None,
    }
    Some(Value::Object(resume))
}

/// The tool result of a job that stopped part-way: `isError`, saying why,
/// what is missing and the arguments that ask for exactly that part, and
/// whether sending the whole again costs only that part (the rest from the
/// cache); the rows received (already paid for) are held, with the resume
/// arguments, and the text says how to get them from the `more` tool.
fn stopped_part_way(
    session: &Session,
    tool: &str,
    op: &Operation,
    partial: Box<Partial>,
    resume: Option<Value>,
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
    let charged = brief::count(units.max(0).unsigned_abs(), "unit", "units");
    let mut text = if matches!(cause.kind(), ErrorKind::Stopped) {
        format!(
            "Cancelled: the job sent no request after the cancel (a request already sent was let finish). {missing} got no answer and were not charged. It was charged {charged} for what it received.",
        )
    } else {
        format!(
            "{cause}. The job stopped part-way: {missing} got no answer. It was charged {charged}."
        )
    };
    if let Some(resume) = &resume {
        text.push_str(&format!(
            " To get exactly the missing part, call `{tool}` with {resume}."
        ));
        text.push_str(if session.reads_cache {
            " Sending the whole call again costs only that part: what was answered is in the cache, free."
        } else {
            " This session reads no cache (no store, or --refresh): sending the whole call again pays for every part again."
        });
    }
    if rows > 0 {
        let id = session.held.hold(HeldResult {
            tool: tool.to_owned(),
            shape,
            units,
            complete: false,
            response: Arc::new(received.response),
            fields,
            resume,
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
