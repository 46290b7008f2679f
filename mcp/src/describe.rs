//! A tool's description: the operation's own, then its cost and limits in
//! sentences an agent can act on, and its conditional rules. All from the
//! table; nothing here names an operation.

use seozoom::operation_table::Operation;
use seozoom::operation_table::{Charged, Counts};

use super::input_schema::sentence;
use super::tool_names;

/// The description of `op`'s tool.
pub fn operation(op: &Operation) -> String {
    let mut parts = vec![sentence(op.description)];
    if !op.aliases.is_empty() {
        parts.push(format!(
            "The reference also calls it {}.",
            op.aliases
                .iter()
                .map(|a| format!("`{a}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    parts.push(cost(op));
    if let Some(param) = op.batch_param()
        && let Some(max) = &param.max_items
    {
        parts.push(format!(
            "A `{}` list longer than {} is sent as a batched job (progress is reported; a cancel stops it, and what it received is held for `{}`).",
            param.wire,
            max.value,
            tool_names::MORE
        ));
    }
    if let Some(paging) = op.paging() {
        parts.push(format!(
            "Page through the rows with `{}` and `{}`.",
            paging.offset.wire, paging.limit.wire
        ));
    }
    parts.extend(rules(op));
    // What every tool shares (`estimate`, the budget, `more`) is said once,
    // in the server's instructions and those tools' own descriptions.
    parts.join(" ")
}

/// The cost sentence: units, how they are charged, per-request and per-minute
/// figures, each with its provenance; what a budget does with an unknown cost.
fn cost(op: &Operation) -> String {
    // The figures, without their provenance (the spec and `--help` give it):
    // the tool list is paid for in tokens by every session.
    let cost = &op.cost;
    let units = match (cost.printed, cost.charged) {
        (Some(printed), Charged::PerRow) => format!("{printed} units per returned row"),
        (Some(printed), _) => format!("{printed} units per call, whatever the row count"),
        (None, _) => "unknown (no units printed in the reference): a session with a budget refuses the call before sending; without one, the units it reports are counted".to_owned(),
    };
    let counts = match cost.per_request_counts {
        Counts::Items => "input values",
        Counts::Rows => "rows",
        _ => "items",
    };
    format!(
        "Cost: {units}. At most {} {counts} per request; {} requests per minute (a call waits for a slot).",
        cost.per_request.value, cost.requests_per_minute.value,
    )
}

/// One sentence per conditional rule: its description, or the rule spelled
/// out when it has none.
fn rules(op: &Operation) -> Vec<String> {
    op.rules
        .iter()
        .map(|rule| {
            let description = rule.description.trim().trim_end_matches('.');
            let text = if description.is_empty() {
                let then = match rule.equal_to {
                    Some(value) => format!("`{}` must be {value}", rule.require),
                    None => format!("`{}` is required", rule.require),
                };
                format!("when `{}` is {}, {then}", rule.if_param, rule.if_value)
            } else {
                description.to_owned()
            };
            format!("Rule: {text}.")
        })
        .collect()
}
