//! The subcommands of the operations, built from the operation table: one per
//! group, with one per action, whose flags are the action's parameters and
//! whose help is made from their descriptions, limits, rules and provenance.
//!
//! Every parameter flag takes any number of values and none is required by clap:
//! the library's validator checks presence, multiplicity, values and rules, so
//! every such mistake gets one message naming the parameter, the value and the
//! limit, and exits 2 with nothing sent.

use clap::{Arg, ArgAction, value_parser};
use seozoom::operation_table::{Charged, Counts, Group, Limit, Operation, Param, ParamKind};
use seozoom::operations::OPERATIONS;

use super::global_options::opt;
use super::spelling::{file_flag_name, flag_name};

/// Help heading of an operation's parameters.
const PARAMS_HEADING: &str = "Parameters";

/// Prefix of the id of a list parameter's `--<flag>-file` argument (no wire name
/// has it, so the two never mix).
const FILE_ID: &str = "file:";

/// The id of a list parameter's `--<flag>-file` argument.
pub fn file_id(wire: &str) -> String {
    format!("{FILE_ID}{wire}")
}

/// `provenance` for help texts.
fn limit_phrase(limit: &Limit) -> String {
    format!("{} ({})", limit.value, limit.source.phrase())
}

/// The help text of a parameter: description, type, limits with provenance,
/// presence and default.
fn param_help(param: &Param) -> String {
    let mut parts = vec![param.description.trim_end_matches('.').to_owned() + "."];
    match param.kind {
        ParamKind::Integer => parts.push("A whole number.".into()),
        ParamKind::Date => parts.push("A date written yyyy-MM-dd.".into()),
        ParamKind::Enum { values, .. } => parts.push(format!("One of: {}.", values.join(", "))),
        _ => {}
    }
    if let Some(min) = &param.min {
        parts.push(format!("At least {}.", limit_phrase(min)));
    }
    if let Some(max) = &param.max {
        parts.push(format!("At most {}.", limit_phrase(max)));
    }
    if param.list {
        let mut count = "Repeat the flag for several values".to_owned();
        if let Some(min) = &param.min_items {
            count.push_str(&format!(
                "; at least {} value{} ({})",
                min.value,
                plural(min.value),
                min.source.phrase()
            ));
        }
        if let Some(max) = &param.max_items {
            count.push_str(&format!(
                "; at most {} value{} ({})",
                max.value,
                plural(max.value),
                max.source.phrase()
            ));
        }
        if let Some(max) = &param.max_items {
            count.push_str(&format!(
                ". More values are sent as a batched job: repeated ones once, at most {} per request, results merged in input order",
                max.value
            ));
        }
        parts.push(count + ".");
    } else {
        parts.push("One value.".into());
    }
    match (param.required, param.default) {
        (true, _) => parts.push("Required.".into()),
        (false, Some(default)) => parts.push(format!("Default: {default}.")),
        (false, None) => parts.push("Optional.".into()),
    }
    parts.join(" ")
}

fn plural(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The value placeholder of a parameter in usage lines.
fn value_name(param: &Param) -> String {
    match param.kind {
        ParamKind::Date => "YYYY-MM-DD".into(),
        ParamKind::Integer => "N".into(),
        _ => param.wire.to_uppercase(),
    }
}

/// The flag of one parameter: any number of values, never required by clap.
fn param_arg(param: &'static Param) -> Arg {
    let mut arg = Arg::new(param.wire)
        .long(flag_name(param.wire))
        .value_name(value_name(param))
        .help(param_help(param))
        .help_heading(PARAMS_HEADING)
        .action(ArgAction::Append)
        .num_args(1)
        .required(false);
    if param.kind == ParamKind::Integer {
        // So that `--position -1` reaches the validator instead of being a flag.
        arg = arg.allow_negative_numbers(true);
    }
    arg
}

/// The `--<flag>-file` argument of a list parameter.
fn file_arg(param: &'static Param) -> Arg {
    Arg::new(file_id(param.wire))
        .long(file_flag_name(param.wire))
        .value_name("FILE")
        .help(format!(
            "Read --{} values from FILE, one per line (blank lines skipped; `-` reads standard input). Adds to the values of --{}.",
            flag_name(param.wire),
            flag_name(param.wire)
        ))
        .help_heading(PARAMS_HEADING)
        .action(ArgAction::Append)
        .num_args(1)
        .required(false)
}

/// The cost of an operation, for its long help.
fn cost_help(op: &Operation) -> String {
    let cost = &op.cost;
    let charged = match cost.charged {
        Charged::PerCall => "per call",
        Charged::PerRow => "per returned row",
        _ => "charged",
    };
    let counts = match cost.per_request_counts {
        Counts::Items => "input values",
        Counts::Rows => "rows",
        _ => "items",
    };
    let units = match (cost.printed, cost.charged) {
        (Some(printed), _) => format!("{printed} units {charged}"),
        _ => "unknown, the reference prints none; --budget refuses the call".to_owned(),
    };
    format!(
        "Cost: {units} ({}). At most {} {counts} per request ({}); {} requests per minute ({}).",
        cost.charged_source.phrase(),
        cost.per_request.value,
        cost.per_request.source.phrase(),
        cost.requests_per_minute.value,
        cost.requests_per_minute.source.phrase(),
    )
}

/// The conditional rules of an operation, for its help.
fn rules_help(op: &Operation) -> Option<String> {
    if op.rules.is_empty() {
        return None;
    }
    let mut text = String::from("Rules:");
    for rule in op.rules {
        let then = match rule.equal_to {
            Some(value) => format!("--{} must be {value}", flag_name(rule.require)),
            None => format!("--{} is required", flag_name(rule.require)),
        };
        text.push_str(&format!(
            "\n  --{} {}: {then} ({}).",
            flag_name(rule.if_param),
            rule.if_value,
            rule.source.phrase(),
        ));
    }
    Some(text)
}

/// The first sentence of a description, for short help.
fn first_sentence(text: &str) -> String {
    match text.find(". ") {
        Some(end) => text[..=end].to_owned(),
        None => text.to_owned(),
    }
}

/// The subcommand of one operation.
fn action_command(op: &'static Operation) -> clap::Command {
    let mut long_about = format!("{}\n\n{}", op.description, cost_help(op));
    if !op.aliases.is_empty() {
        long_about.push_str(&format!("\n\nAlso called: {}.", op.aliases.join(", ")));
    }
    let mut command = clap::Command::new(op.action)
        .visible_aliases(op.aliases.iter().copied())
        .about(first_sentence(op.description))
        .long_about(long_about)
        .args(op.params.iter().filter(|p| !p.implicit).map(param_arg))
        .args(
            op.params
                .iter()
                .filter(|p| !p.implicit && p.list)
                .map(file_arg),
        );
    if let Some(paging) = op.paging() {
        command = command.arg(max_rows_arg(op, &paging));
    }
    let example = super::example::help(op);
    command.after_help(match rules_help(op) {
        Some(rules) => format!("{rules}\n\n{example}"),
        None => example,
    })
}

/// `--max-rows` of a paged operation ([`Operation::paging`]).
fn max_rows_arg(op: &Operation, paging: &seozoom::job::Paging) -> Arg {
    let (offset, limit) = (flag_name(paging.offset.wire), flag_name(paging.limit.wire));
    Arg::new(opt::MAX_ROWS)
        .long("max-rows")
        .value_name("N")
        .value_parser(value_parser!(u64).range(1..))
        .help(format!(
            "Page through the rows: requests of --{limit} rows each (default {}, the most one request takes) from --{offset} on, until a page comes back short or N rows have come. ndjson and csv print each page as it arrives (memory stays one page's); json and table print one result after the last page. The estimate and --budget cover the whole job.",
            op.cost.per_request.value
        ))
        .help_heading(PARAMS_HEADING)
}

/// The subcommand of one group, with its actions.
pub fn group_command(group: &'static Group) -> clap::Command {
    let ops = OPERATIONS
        .iter()
        .copied()
        .filter(|op| op.group == group.name);
    clap::Command::new(group.name)
        .about(format!("{} ({})", group.description, group.path))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommands(ops.into_iter().map(action_command))
}
