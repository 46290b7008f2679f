//! An error as a tool result: `isError`, with the library's message (which
//! never holds the key) and what the agent can do about it.

use rmcp::model::{CallToolResult, ContentBlock};
use seozoom::Error;
use seozoom::error::ErrorKind;

use super::tool_names;

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
            ". Nothing was sent. The server's budget (--budget, for every session of this process) is {budget} units and {budget_left} are left; `{}` gives a call's cost before sending, `{}` the spending. Ask for fewer items or rows, or start the server with a larger --budget.",
            tool_names::ESTIMATE,
            tool_names::USAGE
        ));
    } else if error.is_refused() {
        text.push_str(". Nothing was sent and nothing charged.");
    }
    CallToolResult::error(vec![ContentBlock::text(text)])
}
