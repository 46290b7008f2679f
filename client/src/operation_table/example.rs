//! A plausible call of an operation, made from the table alone: its required
//! parameters (and any a rule then requires), each with a value chosen by its
//! type, role, limits and enum values and, for text, by the hint of the record
//! field of the same name (a domain, a URL or a keyword). The command line's
//! help examples and the MCP server's conformance fixture both make their
//! calls from it. Nothing here names a parameter.

use super::{Operation, Param, ParamKind, RecordInfo, Role, ValueKind};

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

impl Operation {
    /// The parameters of an example call, in spec order, with their values
    /// as wire text: every required parameter, and any parameter a rule then
    /// requires. `records` is the table's records (`operations::RECORDS`),
    /// whose fields' hints say what kind of text a parameter of the same name
    /// takes.
    ///
    /// ```
    /// use seozoom::operation_table::Operation;
    /// use seozoom::operations::RECORDS;
    ///
    /// let metrics = Operation::find("keywords", "metrics").unwrap();
    /// let example = metrics.example_arguments(RECORDS);
    /// assert_eq!(example[0].0.wire, "keyword");
    /// assert_eq!(example[0].1, "running shoes");
    /// ```
    pub fn example_arguments(&self, records: &[RecordInfo]) -> Vec<(&'static Param, String)> {
        let visible = || self.params.iter().filter(|p| !p.implicit);
        let value = |param: &Param| example_value(self, param, records);
        let mut chosen: Vec<(&'static Param, String)> = visible()
            .filter(|p| p.required)
            .map(|p| (p, value(p)))
            .collect();
        // A value that triggers a rule brings the parameter the rule requires.
        for rule in self.rules {
            let triggered = chosen
                .iter()
                .any(|(p, v)| p.wire == rule.if_param && v == rule.if_value);
            let present = chosen.iter().any(|(p, _)| p.wire == rule.require);
            if let (true, false, Some(param)) = (triggered, present, self.param(rule.require)) {
                let value = rule.equal_to.map_or_else(|| value(param), str::to_owned);
                chosen.push((param, value));
            }
        }
        // In the order of the spec, as the help lists them (taken in that
        // order rather than sorted: a sort's code is large for a short list).
        let mut ordered = Vec::with_capacity(chosen.len());
        for param in visible() {
            if let Some(at) = chosen.iter().position(|(p, _)| p.wire == param.wire) {
                ordered.push(chosen.remove(at));
            }
        }
        // A parameter not among them (none is today) stays first.
        chosen.extend(ordered);
        chosen
    }
}

/// A plausible value of one parameter of `op`.
fn example_value(op: &Operation, param: &Param, records: &[RecordInfo]) -> String {
    if let Some(default) = param.default {
        return default.to_owned();
    }
    match param.kind {
        ParamKind::Enum { values, .. } => values.first().copied().unwrap_or_default().to_owned(),
        ParamKind::Integer => integer(param).to_string(),
        ParamKind::Date => EXAMPLE_DAY.to_owned(),
        _ => text(op, param, records),
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
fn text(op: &Operation, param: &Param, records: &[RecordInfo]) -> String {
    let kind = records
        .iter()
        .flat_map(|record| record.fields)
        .filter(|field| field.wire == param.wire)
        .find_map(|field| field.hint)
        .map(|hint| hint.kind);
    let domain = format!("example.{}", op.service.database.default.unwrap_or("com"));
    match kind {
        Some(ValueKind::Domain) => domain,
        Some(ValueKind::Url) => format!("https://www.{domain}/"),
        Some(ValueKind::Keyword) => EXAMPLE_KEYWORD.to_owned(),
        _ => EXAMPLE_TEXT.to_owned(),
    }
}
