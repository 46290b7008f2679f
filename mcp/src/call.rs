//! Calling an operation's tool: the arguments read into a request, checked,
//! sent (a long list as a batched job) under the session's budget, and the
//! answer cut to the row cap. Every failure is a tool result with `isError`,
//! whose text says what went wrong: a refusal names the parameter, the value
//! and the limit, or the budget left. A batched job that stops part-way keeps
//! the rows it paid for: they are held for the `more` tool.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock};
use seozoom::error::ErrorKind;
use seozoom::job::Stop;
use seozoom::{Envelope, Error, operation_table::Operation};
use serde_json::{Map, Value};

use super::envelope::Cached;
use super::held::HeldResult;
use super::report::Reporter;
use super::session::Session;
use super::{args, envelope, tool_names};

/// Call `op` (the tool `tool`) with these arguments. A batched job reports
/// its progress to `reporter`, and sends nothing more once `stop` is given.
pub async fn operation(
    session: &Session,
    tool: &str,
    op: &'static Operation,
    arguments: Option<&Map<String, Value>>,
    reporter: &Reporter,
    stop: &Stop,
) -> CallToolResult {
    let request = match args::request(op, arguments, &session.database) {
        Ok(request) => request,
        Err(invalid) => return failure(&Error::from(invalid)),
    };
    let client = &session.client;
    // A batched job checks every one of its requests and holds its whole
    // estimate against the budget before the first is sent.
    let batched = op.batch_param().is_some();
    let result = if batched {
        let progress = |done, total| reporter.requests_done(done, total);
        client
            .execute_json_batched_until(request, progress, stop)
            .await
    } else {
        client.execute_json(request).await
    };
    let answer = match result {
        Ok(answer) => answer,
        // An operation that returns one object and found nothing: an empty
        // result, as on the command line, not a failure.
        Err(error) if matches!(error.kind(), ErrorKind::NoData) => seozoom::Envelope::no_data(
            <Value as seozoom::job::Output>::nothing(op),
            client.units().remaining.unwrap_or(0),
        ),
        // A batched job that stopped part-way: the rows it paid for are kept.
        Err(error) => {
            return match error.into_partial() {
                Ok(partial) => {
                    let missing = partial.missing_summary();
                    match partial.into_parts::<Value>() {
                        Ok((received, _, cause)) => {
                            stopped_part_way(session, tool, op, received, &missing, &cause)
                        }
                        Err(partial) => failure(&Error::from(partial)),
                    }
                }
                Err(error) => failure(&error),
            };
        }
    };
    // From the store exactly when no request reached the service: a call
    // answered whole, or a job whose every item or request was.
    let (items, requests) = reporter.cached();
    let cached = if answer.fetched_at.is_some() && reporter.requests_sent() <= requests {
        Cached::All
    } else if items > 0 || requests > 0 {
        Cached::Part { items, requests }
    } else {
        Cached::None
    };
    session.count_cache_hit(&cached);
    CallToolResult::structured(envelope::structured(
        op,
        tool,
        answer,
        cached,
        session.max_rows,
        &session.held,
    ))
}

/// The tool result of an error: `isError`, with the library's message (which
/// never holds the key) and, for a refusal over the budget, what is left of it.
pub fn failure(error: &Error) -> CallToolResult {
    let mut text = error.to_string();
    if let ErrorKind::OverBudget {
        budget,
        budget_left,
        ..
    } = error.kind()
    {
        text.push_str(&format!(
            ". Nothing was sent. The session's budget is {budget} units and {budget_left} are left; `{}` gives a call's cost before sending, `{}` the session's spending. Ask for fewer items or rows, or start the server with a larger --budget.",
            tool_names::ESTIMATE,
            tool_names::USAGE
        ));
    } else if error.is_refused() {
        text.push_str(". Nothing was sent and nothing charged.");
    }
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// The tool result of a batched job that stopped part-way: `isError`, saying
/// why and what is missing; the rows received (already paid for) are held, and
/// the text says how to get them from the `more` tool.
fn stopped_part_way(
    session: &Session,
    tool: &str,
    op: &Operation,
    received: Envelope<Value>,
    missing: &str,
    cause: &Error,
) -> CallToolResult {
    let shape = op.response.shape;
    let rows = envelope::total(shape, &received.response);
    let units = received.units_used;
    let mut text = format!(
        "{cause}. The job stopped part-way: {missing} got no answer; send those again. It was charged {units} units.",
    );
    if matches!(cause.kind(), ErrorKind::Stopped) {
        text = format!(
            "Cancelled: the job sent no request after the cancel (a request already sent was let finish). {missing} got no answer and were not charged; send those again when wanted. It was charged {} units for what it received.",
            received.units_used
        );
    }
    if rows > 0 {
        let id = session.held.hold(HeldResult {
            tool: tool.to_owned(),
            shape,
            units: received.units_used,
            complete: false,
            response: Arc::new(received.response),
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
