//! `--confirm-over UNITS`: a call whose largest estimate is over UNITS is
//! sent only once the user said yes. A client that declared elicitation is
//! asked through `elicitation/create` (what the call fetches and what it may
//! cost); one that did not gets the call refused before sending, with the
//! estimate and the option named. Declined or cancelled, nothing is sent or
//! charged, and the answer says so.

use rmcp::RoleServer;
use rmcp::model::{
    CallToolResult, ContentBlock, ElicitRequestParams, ElicitationAction, ElicitationSchema,
};
use rmcp::service::{ElicitationMode, Peer};
use seozoom::Job;
use seozoom::job::RunOptions;
use seozoom::request::Request;

use super::session::Session;

/// The option, as the answers name it.
const OPTION: &str = "--confirm-over";

/// Whether the call of `tool` (this `request`, with up to `max_rows` rows)
/// may be sent:
/// `Ok` when it needs no confirmation or the user gave it, else the tool
/// result that says why it was not sent.
pub async fn confirmed(
    session: &Session,
    tool: &str,
    request: &Request,
    max_rows: Option<usize>,
    peer: Option<&Peer<RoleServer>>,
) -> Result<(), CallToolResult> {
    let Some(limit) = session.confirm_over else {
        return Ok(());
    };
    let options = match max_rows {
        Some(rows) => RunOptions::new().max_rows(rows),
        None => RunOptions::new(),
    };
    // A plan that fails is the run's to report: it fails the same way.
    let Ok(plan) = session.client.plan(request, &options).await else {
        return Ok(());
    };
    let (job, estimate) = (plan.job, plan.whole);
    let max = estimate.max_units();
    if max.is_some_and(|max| max <= limit) {
        return Ok(());
    }
    let requests = match job {
        Job::Pages {
            page_size,
            max_rows,
        } => max_rows
            .unwrap_or(usize::MAX)
            .div_ceil(usize::try_from(page_size.max(1)).unwrap_or(usize::MAX)),
        _ => request.batches().len(),
    };
    let cost = match max {
        Some(max) => format!("from {} to {max} units", estimate.min),
        None => "an unknown number of units (the spec gives no cost)".to_owned(),
    };
    let what = format!(
        "`{tool}` would send {requests} request{} to the paid service, costing {cost}: over {OPTION} {limit}",
        if requests == 1 { "" } else { "s" }
    );
    let Some(peer) = peer.filter(|peer| {
        peer.supported_elicitation_modes()
            .contains(&ElicitationMode::Form)
    }) else {
        return Err(not_sent(format!(
            "Not sent: {what}, and this client cannot ask its user (it declared no elicitation capability). Nothing was charged. Ask for less (a shorter list, a smaller `limit` or `max_rows`), or have the server started with a larger {OPTION}."
        )));
    };
    let asked = peer
        .create_elicitation(ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: format!("{what}. Send it?"),
            requested_schema: ElicitationSchema::new(std::collections::BTreeMap::new()),
        })
        .await;
    match asked.map(|answer| answer.action) {
        Ok(ElicitationAction::Accept) => Ok(()),
        Ok(ElicitationAction::Decline) => Err(not_sent(format!(
            "Not sent: the user declined ({what}). Nothing was charged."
        ))),
        // Cancel, or an action this server does not know: not a yes.
        Ok(_) => Err(not_sent(format!(
            "Not sent: the user cancelled ({what}). Nothing was charged."
        ))),
        Err(error) => Err(not_sent(format!(
            "Not sent: asking the user failed ({error}); {what}. Nothing was charged."
        ))),
    }
}

/// A tool error result saying the call was not sent.
fn not_sent(text: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}
