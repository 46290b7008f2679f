//! The example body of every refusal, as the seozoom sandbox answers it: the
//! `{status, message}` body with the sandbox's message for that status, and
//! for an invalid query the message the client's validator (which the sandbox
//! runs) gives a query that leaves out the action's first required parameter,
//! or, for an action that requires none, names a parameter it does not take.
//!
//! The sandbox answers every status here but 402 (it refuses an account that
//! cannot pay with 403); the 402 example carries the same message, as the
//! same path would answer it. `published_refusals::refusal_examples_are_the_sandbox_s_answers`
//! (in `tests/`) provokes each answer from a running sandbox and holds these
//! bodies to it.

use serde_json::{Value, json};

use seozoom_codegen::model::{Action, Refusal, Spec};

/// A parameter no action takes, named in the refused query's example.
pub const UNKNOWN_PARAM: &str = "nosuch";
/// An action no group has, named in the unknown action's example.
pub const UNKNOWN_ACTION: &str = "nosuch";

/// The sandbox's message for a refusal that is not about the query, by status.
fn fixed_message(status: u16) -> Option<&'static str> {
    Some(match status {
        401 => "Invalid API key",
        402 | 403 => "Insufficient units",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        _ => return None,
    })
}

/// What the validator says of `action`'s example of a refused query.
fn refused_query(action: &Action) -> String {
    let label = format!("{} {}", action.group, action.wire);
    match action
        .params
        .iter()
        .find(|p| p.required && p.default.is_none())
    {
        Some(p) => format!(
            "{label}: parameter `{}` = (none): missing: this parameter is required",
            p.wire
        ),
        None => {
            let takes: Vec<String> = action
                .params
                .iter()
                .map(|p| format!("`{}`", p.wire))
                .collect();
            let takes = if takes.is_empty() {
                "no parameters".to_owned()
            } else {
                takes.join(", ")
            };
            format!(
                "{label}: parameter `{UNKNOWN_PARAM}` = 1: unknown parameter: this operation takes {takes}"
            )
        }
    }
}

/// The example of `refusal` to a query of `action`, as (name, summary,
/// body); `None` for a status the sandbox has no answer for.
pub fn example(
    spec: &Spec,
    action: &Action,
    refusal: &Refusal,
) -> Option<(&'static str, String, Value)> {
    let status = refusal.status;
    let (name, summary, message) = match status {
        400 => (
            "refused",
            "An invalid query, refused with the validator's message".to_owned(),
            refused_query(action),
        ),
        404 => (
            "unknown_action",
            format!("An unknown `{}`", spec.common.action.wire),
            format!("Unknown action `{UNKNOWN_ACTION}` under {}", action.path),
        ),
        _ => (
            "refused",
            refusal.description.clone(),
            fixed_message(status)?.to_owned(),
        ),
    };
    Some((name, summary, json!({"status": status, "message": message})))
}
