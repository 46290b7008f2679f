//! A tool's description: the operation's own, then its cost and limits in
//! sentences an agent can act on, and its conditional rules. All from the
//! table; nothing here names an operation.

use seozoom::operation_table::{Counts, Operation};
use seozoom::units::{UnitParts, unit_parts};

use super::input_schema::sentence;
use super::tool_names;

/// The description of `op`'s tool.
pub fn operation(op: &Operation) -> String {
    // The operation's own description; the reference's other names for it
    // (its aliases) are the command line's, not an agent's.
    let mut parts = vec![sentence(op.description)];
    parts.push(cost(op));
    if let Some(param) = op.batch_param()
        && let Some(max) = &param.max_items
    {
        parts.push(format!(
            "A `{}` list longer than {} is a batched job: progress is reported, a cancel stops it, what came is held for `{}`.",
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

/// The cost sentence: what a request is charged, its parts named (per
/// request, per returned row) as the estimate counts them
/// ([`unit_parts`]), and the per-request and per-minute figures; what a
/// budget does with an unknown cost.
fn cost(op: &Operation) -> String {
    // The figures, without their provenance (the spec and `--help` give it):
    // the tool list is paid for in tokens by every session.
    let cost = &op.cost;
    let units = match unit_parts(op) {
        None => "unknown (the reference prints no unit cost): a session with a budget refuses the call before sending; without one, the units it reports are counted".to_owned(),
        Some(UnitParts {
            per_request: Some(call),
            per_row: None,
        }) => format!("{} per call, whatever the row count", units(call)),
        Some(UnitParts {
            per_request: None,
            per_row: Some((_, high)),
        }) => format!("{} per returned row", units(high)),
        Some(UnitParts {
            per_request: Some(call),
            per_row: Some((_, high)),
        }) => format!(
            "up to {} per returned row plus up to {call} per request (the reference's figures, {}, leave open which applies when; the most is counted)",
            units(high),
            cost.printed.unwrap_or("two figures"),
        ),
        Some(UnitParts { .. }) => "nothing".to_owned(),
    };
    let most = cost.per_request.value;
    let counted = match cost.per_request_counts {
        Counts::Items => plural(most, "input value", "input values"),
        Counts::Rows => plural(most, "row", "rows"),
        _ => plural(most, "item", "items"),
    };
    let per_minute = cost.requests_per_minute.value;
    format!(
        "Cost: {units}. At most {most} {counted} per request; {per_minute} {} per minute.",
        plural(per_minute, "request", "requests"),
    )
}

/// `n units` (`1 unit`).
fn units(n: i64) -> String {
    format!("{n} {}", plural(n, "unit", "units"))
}

/// The singular or the plural, by `n`.
fn plural(n: i64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
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
