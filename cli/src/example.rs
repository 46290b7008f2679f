//! The example command at the end of each action's `--help`, made from the
//! spec: the action's required parameters (and any a rule then requires), each
//! with a plausible value chosen by its type, role, limits and enum values,
//! and, for text, by the hint of the record field of the same name (a domain,
//! a URL or a keyword). Nothing here names a parameter.

use seozoom::operation_table::Operation;
use seozoom::operation_table::{Param, ParamKind, Role, ValueKind};
use seozoom::operations::{RECORDS, SERVICE};

use crate::cli::{BIN, flag_name};

/// Rows asked for by an example of a paged operation (within its limits).
const EXAMPLE_ROWS: i64 = 100;
/// An example identifier (within its limits).
const EXAMPLE_ID: i64 = 12345;
/// An example day.
const EXAMPLE_DAY: &str = "2025-01-31";
/// An example search keyword.
const EXAMPLE_KEYWORD: &str = "running shoes";
/// An example of free text the spec says nothing more of.
const EXAMPLE_TEXT: &str = "example";

/// The help section: `Example:` and the command.
pub fn help(op: &Operation) -> String {
    format!("Example:\n  {}", command(op))
}

/// The example command line of `op`, quoted for a POSIX shell.
pub fn command(op: &Operation) -> String {
    let mut line = vec![BIN.to_owned(), op.group.to_owned(), op.action.to_owned()];
    for (param, value) in arguments(op) {
        line.push(format!("--{}", flag_name(param.wire)));
        line.push(quote(&value));
    }
    line.join(" ")
}

/// The parameters of the example, in spec order, with their values.
pub fn arguments(op: &Operation) -> Vec<(&'static Param, String)> {
    let visible = || op.params.iter().filter(|p| !p.implicit);
    let mut chosen: Vec<(&'static Param, String)> = visible()
        .filter(|p| p.required)
        .map(|p| (p, value(p)))
        .collect();
    // A value that triggers a rule brings the parameter the rule requires.
    for rule in op.rules {
        let triggered = chosen
            .iter()
            .any(|(p, v)| p.wire == rule.if_param && v == rule.if_value);
        let present = chosen.iter().any(|(p, _)| p.wire == rule.require);
        if let (true, false, Some(param)) = (triggered, present, op.param(rule.require)) {
            let value = rule.equal_to.map_or_else(|| value(param), str::to_owned);
            chosen.push((param, value));
        }
    }
    // In the order of the spec, as the help lists them.
    let order: Vec<&str> = visible().map(|p| p.wire).collect();
    chosen.sort_by_key(|(p, _)| order.iter().position(|w| *w == p.wire));
    chosen
}

/// A plausible value of one parameter.
fn value(param: &Param) -> String {
    if let Some(default) = param.default {
        return default.to_owned();
    }
    match param.kind {
        ParamKind::Enum { values, .. } => values.first().copied().unwrap_or_default().to_owned(),
        ParamKind::Integer => integer(param).to_string(),
        ParamKind::Date => EXAMPLE_DAY.to_owned(),
        _ => text(param),
    }
}

/// A whole number within the parameter's limits: a page of rows, an id, or
/// the smallest it takes.
fn integer(param: &Param) -> i64 {
    let low = param.min.map_or(1, |l| l.value);
    let high = param.max.map_or(i64::MAX, |l| l.value).max(low);
    let wanted = match param.role {
        Some(Role::PageSize) => EXAMPLE_ROWS,
        Some(Role::Id) => EXAMPLE_ID,
        _ => low,
    };
    wanted.clamp(low, high)
}

/// Text of the kind the records' field of the same name holds.
fn text(param: &Param) -> String {
    let kind = RECORDS
        .iter()
        .flat_map(|record| record.fields)
        .filter(|field| field.wire == param.wire)
        .find_map(|field| field.hint)
        .map(|hint| hint.kind);
    let domain = format!("example.{}", SERVICE.database.default.unwrap_or("com"));
    match kind {
        Some(ValueKind::Domain) => domain,
        Some(ValueKind::Url) => format!("https://www.{domain}/"),
        Some(ValueKind::Keyword) => EXAMPLE_KEYWORD.to_owned(),
        _ => EXAMPLE_TEXT.to_owned(),
    }
}

/// A value as one word of a POSIX shell.
fn quote(value: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=,@".contains(c);
    if !value.is_empty() && value.chars().all(plain) {
        value.to_owned()
    } else {
        format!("'{}'", value.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use seozoom::operations::OPERATIONS;

    /// Split an example back into words (its quoting is single quotes only).
    fn words(line: &str) -> Vec<String> {
        let mut words = Vec::new();
        let mut word = String::new();
        let mut quoted = false;
        for c in line.chars() {
            match c {
                '\'' => quoted = !quoted,
                ' ' if !quoted => words.push(std::mem::take(&mut word)),
                _ => word.push(c),
            }
        }
        words.push(word);
        words
    }

    #[test]
    fn every_example_is_a_valid_call() {
        for op in OPERATIONS {
            let line = command(op);
            let crate::cli::Command::Call(call) =
                crate::cli::parse(words(&line)).unwrap_or_else(|e| panic!("{line}: {e}"))
            else {
                panic!("{line}: not a call");
            };
            call.request
                .validate(&SERVICE, "it")
                .unwrap_or_else(|e| panic!("{line}: {e}"));
            for param in op.params.iter().filter(|p| p.required && !p.implicit) {
                assert!(
                    line.contains(&format!("--{} ", flag_name(param.wire))),
                    "{line}"
                );
            }
        }
    }

    #[test]
    fn values_follow_the_fields_hints() {
        let metrics = Operation::find("keywords", "metrics").unwrap();
        assert_eq!(
            command(metrics),
            "seozoom keywords metrics --keyword 'running shoes'"
        );
    }
}
