//! A job that stopped part-way (a cancel, the budget, the most time to wait,
//! a failure), told to the agent: why, how much is missing, a handle that goes
//! on with it (the tool called with `{"resume": HANDLE}` sends exactly the
//! missing part) and whether a resend is free from the cache; the rows it
//! received (already paid for) are held for the `more` tool. The answer stays
//! small whatever is missing: the list of missing inputs is a resource
//! ([`super::resources`]), never text.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock};
use seozoom::error::{ErrorKind, InvalidInput};
use seozoom::job::{Missing, Partial};
use seozoom::operations::SERVICE;
use seozoom::{Error, operation_table::Operation};
use serde_json::{Map, Value, json};

use super::failure::failure;
use super::held::HeldResult;
use super::session::Session;
use super::shown::shown;
use super::tool_names::{ARG_FIELDS, ARG_MAX_ROWS, ARG_MAX_WAIT_S, MORE, RESUME};
use super::{brief, envelope, fields, resources};

/// The tool result of `partial`, the job `tool` ran with `arguments`, with
/// the handle that resumes it.
pub fn told_and_held(
    session: &Session,
    tool: &str,
    op: &Operation,
    arguments: Option<&Map<String, Value>>,
    partial: Box<Partial>,
    fields: Option<fields::Fields>,
) -> CallToolResult {
    let resume = resume(arguments, partial.missing());
    stopped_part_way(session, tool, op, partial, resume, fields)
}

/// The arguments of a call of `tool` with `arguments` that name a stopped
/// job's handle: that job's arguments for exactly its missing part, with
/// the `max_wait_s` and `fields` given beside the handle. `None` when the
/// call names no handle.
///
/// # Errors
///
/// An unknown (or expired, or another session's) handle, one of another
/// tool's job, or another argument beside it.
pub fn resumed(
    session: &Session,
    tool: &str,
    arguments: Option<&Map<String, Value>>,
) -> Option<Result<Map<String, Value>, InvalidInput>> {
    let arguments = arguments?;
    let handle = arguments.get(RESUME)?;
    let refuse = |param: &str, value: &Value, problem: String| InvalidInput {
        operation: tool.to_owned(),
        param: param.to_owned(),
        value: shown(value),
        problem,
    };
    if let Some((name, value)) = arguments
        .iter()
        .find(|(name, _)| ![RESUME, ARG_MAX_WAIT_S, ARG_FIELDS].contains(&name.as_str()))
    {
        return Some(Err(refuse(
            name,
            value,
            format!(
                "not taken beside `{RESUME}`, which names the job's arguments: only `{ARG_MAX_WAIT_S}` and `{ARG_FIELDS}` are"
            ),
        )));
    }
    let held = handle.as_str().and_then(|id| session.held.get(id));
    let Some((mut resumed, _)) = held
        .filter(|held| held.tool == tool)
        .and_then(|held| held.resume)
        .and_then(|(arguments, missing)| Some((arguments.as_object()?.clone(), missing)))
    else {
        return Some(Err(refuse(
            RESUME,
            handle,
            format!(
                "no stopped job of `{tool}` is held under this handle (only the latest {} held results are kept): call the tool with its arguments",
                super::held::KEPT
            ),
        )));
    };
    for name in [ARG_MAX_WAIT_S, ARG_FIELDS] {
        if let Some(value) = arguments.get(name) {
            resumed.insert(name.to_owned(), value.clone());
        }
    }
    Some(Ok(resumed))
}

/// The call's `arguments` changed to ask for exactly what is `missing` (the
/// batch parameter set to the inputs not answered, or the offset parameter
/// to where the rows stop), without the old `max_wait_s`, so that going on
/// does not stop on the same bound; and how many inputs or rows that is.
/// `None` for a kind of missing part this server does not know.
fn resume(arguments: Option<&Map<String, Value>>, missing: &Missing) -> Option<(Value, usize)> {
    let mut resume = arguments.cloned().unwrap_or_default();
    resume.remove(ARG_MAX_WAIT_S);
    resume.remove(RESUME);
    let count = match missing {
        Missing::Inputs { param, values, .. } => {
            resume.insert((*param).to_owned(), json!(values));
            values.len()
        }
        Missing::Rows {
            param,
            offset,
            rows,
            ..
        } => {
            resume.insert((*param).to_owned(), json!(offset));
            resume.insert(ARG_MAX_ROWS.to_owned(), json!(rows));
            *rows
        }
        _ => return None,
    };
    Some((Value::Object(resume), count))
}

/// The tool result of a job that stopped part-way: `isError`, saying why,
/// how much is missing, the handle that goes on with it and when to use it,
/// and whether sending the whole again costs only that part (the rest from
/// the cache); the rows received (already paid for) are held, with the
/// arguments the handle stands for. `structuredContent` gives the same
/// figures and `resume`: the arguments to call the tool with to go on.
fn stopped_part_way(
    session: &Session,
    tool: &str,
    op: &Operation,
    partial: Box<Partial>,
    resume: Option<(Value, usize)>,
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
    if resume.is_none() && rows == 0 {
        return CallToolResult::error(vec![ContentBlock::text(text)]);
    }
    // The envelope the tool's output schema describes, its rows left to
    // `more` (so that the answer stays small), with `resume` beside them.
    let mut structured = Map::new();
    structured.insert(
        SERVICE.envelope_result_rows.into(),
        json!(received.result_rows),
    );
    structured.insert(SERVICE.envelope_units_used.into(), json!(units));
    structured.insert(
        SERVICE.envelope_units_remaining.into(),
        json!(received.units_remaining),
    );
    structured.insert(
        SERVICE.envelope_response.into(),
        envelope::window(shape, &received.response, 0, 0),
    );
    structured.insert(envelope::FROM_CACHE.into(), json!(false));
    structured.insert(envelope::NO_DATA.into(), json!(received.no_data));
    structured.insert(envelope::ROWS.into(), envelope::rows(0, 0, rows));
    let missing_count = resume.as_ref().map(|(_, count)| *count);
    let id = session.held.hold(HeldResult {
        tool: tool.to_owned(),
        shape,
        units,
        complete: false,
        response: Arc::new(received.response),
        fields,
        resume,
    });
    structured.insert(envelope::MORE.into(), envelope::more(Some(&id), 0, rows));
    if let Some(count) = missing_count {
        let handle = json!({ RESUME: id });
        text.push_str(&format!(
            " To go on, call `{tool}` with {handle}: it sends exactly the missing part ({count} {}; the list is the resource {}).",
            if op.paging().is_some() && op.batch_param().is_none() { "rows" } else { "inputs" },
            resources::missing_uri(&id),
        ));
        if let ErrorKind::WaitedTooLong { wait, .. } = cause.kind() {
            text.push_str(&format!(
                " It stopped rather than wait {:.1} s more: call again after that wait, or give a larger `{ARG_MAX_WAIT_S}` beside `{RESUME}` (at most the server's --max-wait); going on drops the old bound.",
                wait.as_secs_f64()
            ));
        }
        text.push_str(if session.reads_cache {
            " Sending the whole call again costs only that part: what was answered is in the cache, free."
        } else {
            " This session reads no cache (no store, or --refresh): sending the whole call again pays for every part again."
        });
        structured.insert("missing".into(), json!(count));
        structured.insert(RESUME.into(), handle);
    }
    if rows > 0 {
        text.push_str(&format!(
            " The {rows} rows it received are held as result `{id}`: call the `{MORE}` tool with {{\"{}\": \"{id}\", \"{}\": 0}} for them (no units charged).",
            envelope::RESULT,
            envelope::START,
        ));
    }
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    result.structured_content = Some(Value::Object(structured));
    result
}
