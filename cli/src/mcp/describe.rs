//! A tool's description: the operation's own, then its cost and limits in
//! sentences an agent can act on, and its conditional rules. All from the
//! table; nothing here names an operation.

use seozoom::table::Operation;
use seozoom::table::{Charged, Counts};

use super::input_schema::sentence;
use super::tools;

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
            "A `{}` list longer than {} is sent as a batched job of several requests (repeated values once), merged in input order, units summed.",
            param.wire, max.value
        ));
    }
    if let Some(paging) = op.paging() {
        parts.push(format!(
            "Page through the rows with `{}` and `{}`.",
            paging.offset.wire, paging.limit.wire
        ));
    }
    parts.extend(rules(op));
    parts.push(format!(
        "Before a costly call, `{}` gives its cost range without sending it; a call that may cost more than the session's budget left is refused before sending. A result longer than the session's row cap is cut, and `{}` gives the rest without charge.",
        tools::ESTIMATE,
        tools::MORE
    ));
    parts.join(" ")
}

/// The cost sentence: units, how they are charged, per-request and per-minute
/// figures, each with its provenance; what a budget does with an unknown cost.
fn cost(op: &Operation) -> String {
    let cost = &op.cost;
    let mut provenance = cost.charged_source.phrase().to_owned();
    if let Some(note) = cost.charged_note {
        provenance.push_str(&format!(": {note}"));
    }
    let units = match (cost.printed, cost.charged) {
        (Some(printed), Charged::PerRow) => format!(
            "{printed} units per returned row (UnitsUsed = figure x ResultRows; {provenance})"
        ),
        (Some(printed), _) => {
            format!("{printed} units per call, whatever the row count ({provenance})")
        }
        (None, _) => format!(
            "unknown, the reference prints no unit figure ({provenance}); a session with a budget refuses the call before sending, and without one the units it reports are counted"
        ),
    };
    let counts = match cost.per_request_counts {
        Counts::Items => "input values",
        Counts::Rows => "rows",
        _ => "items",
    };
    format!(
        "Cost: {units}. At most {} {counts} per request ({}); {} requests per minute ({}), a call waits for a slot.",
        cost.per_request.value,
        cost.per_request.source.phrase(),
        cost.requests_per_minute.value,
        cost.requests_per_minute.source.phrase(),
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
            format!("Rule: {text} ({}).", rule.source.phrase())
        })
        .collect()
}
