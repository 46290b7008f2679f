//! A job that stopped part-way (a cancel, the budget, the most time to wait,
//! a failure), told to the agent: why, what is missing, the arguments that ask
//! for exactly that part and whether a resend is free from the cache; the rows
//! it received (already paid for) are held for the `more` tool.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock};
use seozoom::error::ErrorKind;
use seozoom::job::{Missing, Partial};
use seozoom::{Error, operation_table::Operation};
use serde_json::{Map, Value, json};

use super::failure::failure;
use super::held::HeldResult;
use super::session::Session;
use super::{brief, envelope, fields, tool_names};

/// The tool result of `partial`, the job `tool` ran with `arguments`, with
/// the arguments that resume it.
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
