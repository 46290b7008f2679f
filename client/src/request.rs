//! A generic request (an operation and its parameter values as wire text), its
//! validation against the operation table, and the query string it becomes.
//!
//! Every check reads the table; nothing here names an action.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

use crate::error::InvalidInput;
use crate::operation_table::{Limit, Operation, Param, ParamKind, Service};
use crate::wire_enum::WireEnum;

/// Characters left as they are in a query value (RFC 3986 unreserved); the rest
/// is percent-encoded, so `&`, `=`, `#`, `+`, `|` and spaces inside a value can
/// never be mistaken for query syntax.
const VALUE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The longest query string the client sends, in bytes once percent-encoded
/// (the parameters, the database and the action; not the base URL or the key).
///
/// The HTTP stack refuses a URL over 65,534 bytes with a bare "not a valid
/// URI"; this figure leaves room for any base URL and key below that, and a
/// request past it is refused by [`Request::validate`] before anything is
/// sent, naming the parameter that made it long.
pub const MAX_QUERY_BYTES: usize = 32 * 1024;

/// Longest piece of a value repeated in the message of a request that is too
/// long: the value itself may be thousands of characters.
const SHOWN_OF_LONG_VALUE: usize = 60;

/// A value that can be written as query text.
pub trait ToWire {
    /// The value as wire text.
    fn to_wire(&self) -> String;
}

impl ToWire for String {
    fn to_wire(&self) -> String {
        self.clone()
    }
}

impl ToWire for i64 {
    fn to_wire(&self) -> String {
        self.to_string()
    }
}

impl ToWire for crate::date::Date {
    fn to_wire(&self) -> String {
        self.to_string()
    }
}

impl<E: WireEnum> ToWire for E {
    fn to_wire(&self) -> String {
        self.as_wire().to_owned()
    }
}

/// One call, before validation: an operation, an optional database and the
/// values given for its parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    operation: &'static Operation,
    database: Option<String>,
    values: Vec<(String, Vec<String>)>,
}

impl Request {
    /// An empty request for `operation`; `database` overrides the client's default.
    pub fn new(operation: &'static Operation, database: Option<&str>) -> Self {
        Request {
            operation,
            database: database.map(str::to_owned),
            values: Vec::new(),
        }
    }

    /// The operation.
    pub fn operation(&self) -> &'static Operation {
        self.operation
    }

    /// Set a parameter to one value.
    pub fn one(&mut self, wire: &str, value: &impl ToWire) {
        self.set(wire, vec![value.to_wire()]);
    }

    /// Set a list parameter.
    pub fn list<T: ToWire>(&mut self, wire: &str, values: &[T]) {
        self.set(wire, values.iter().map(ToWire::to_wire).collect());
    }

    /// Set a parameter from wire text (as a command line gives it). Validation
    /// checks the name, the number of values and each value.
    pub fn set(&mut self, wire: &str, values: Vec<String>) {
        match self.values.iter_mut().find(|(w, _)| w == wire) {
            Some((_, existing)) => *existing = values,
            None => self.values.push((wire.to_owned(), values)),
        }
    }

    /// Override the database (wire text, checked by validation).
    pub fn set_database(&mut self, database: &str) {
        self.database = Some(database.to_owned());
    }

    /// The values given for a parameter.
    pub fn get(&self, wire: &str) -> Option<&[String]> {
        self.values
            .iter()
            .find(|(w, _)| w == wire)
            .map(|(_, v)| v.as_slice())
    }

    /// Check every limit and rule of the spec and return the query pairs to send,
    /// without the key: database, action, then the parameters in spec order
    /// (defaults filled in).
    ///
    /// # Errors
    ///
    /// [`InvalidInput`] naming the parameter, the value and the
    /// limit or rule it breaks (with its provenance).
    pub fn validate(
        &self,
        service: &Service,
        default_database: &str,
    ) -> Result<Vec<(&'static str, String)>, InvalidInput> {
        let op = self.operation;
        let fail = |param: &str, value: &str, problem: String| InvalidInput {
            operation: op.label(),
            param: param.to_owned(),
            value: value.to_owned(),
            problem,
        };
        if let Some((wire, values)) = self.values.iter().find(|(w, _)| op.param(w).is_none()) {
            let known: Vec<&str> = op.params.iter().map(|p| p.wire).collect();
            return Err(fail(
                wire,
                &values.join(" "),
                format!(
                    "unknown parameter: this operation takes {}",
                    list_or_none(&known)
                ),
            ));
        }
        let database = self.database.as_deref().unwrap_or(default_database);
        check_value(&service.database, database)
            .map_err(|p| fail(service.database.wire, database, p))?;

        let mut query = vec![
            (service.database.wire, database.to_owned()),
            (service.action.wire, op.action.to_owned()),
        ];
        for param in op.params {
            let given = self.get(param.wire);
            let defaulted;
            let values = match (given, param.default) {
                (Some(values), _) => values,
                (None, Some(default)) => {
                    defaulted = [default.to_owned()];
                    &defaulted[..]
                }
                (None, None) if param.required => {
                    return Err(fail(
                        param.wire,
                        "(none)",
                        "missing: this parameter is required".into(),
                    ));
                }
                (None, None) => continue,
            };
            check_count(param, values).map_err(|p| {
                let shown = if values.is_empty() {
                    "(empty list)".to_owned()
                } else {
                    values.join(&service.list_separator.to_string())
                };
                fail(param.wire, &shown, p)
            })?;
            for value in values {
                if value.contains(service.list_separator) {
                    return Err(fail(
                        param.wire,
                        value,
                        format!(
                            "contains `{}`, which separates values on the wire, so it cannot be sent",
                            service.list_separator
                        ),
                    ));
                }
                check_value(param, value).map_err(|p| fail(param.wire, value, p))?;
            }
            query.push((param.wire, values.join(&service.list_separator.to_string())));
        }
        check_length(&query, service.list_separator)
            .map_err(|(wire, value, problem)| fail(wire, &value, problem))?;
        for rule in op.rules {
            let sent = |wire: &str| {
                query
                    .iter()
                    .find(|(w, _)| *w == wire)
                    .map(|(_, v)| v.as_str())
            };
            if sent(rule.if_param) != Some(rule.if_value) {
                continue;
            }
            let trigger = format!("{}={}", rule.if_param, rule.if_value);
            match (sent(rule.require), rule.equal_to) {
                (None, _) => {
                    return Err(fail(
                        rule.require,
                        "(none)",
                        format!(
                            "required when {trigger}: {} ({})",
                            rule.description,
                            rule.source.phrase()
                        ),
                    ));
                }
                (Some(value), Some(wanted)) if value != wanted => {
                    return Err(fail(
                        rule.require,
                        value,
                        format!(
                            "must be {wanted} when {trigger}: {} ({})",
                            rule.description,
                            rule.source.phrase()
                        ),
                    ));
                }
                _ => {}
            }
        }
        Ok(query)
    }
}

/// The query's encoded length within [`MAX_QUERY_BYTES`]; else the parameter
/// with the longest encoded value, its longest value (cut short) and the
/// problem.
fn check_length(
    query: &[(&'static str, String)],
    separator: char,
) -> Result<(), (&'static str, String, String)> {
    let encoded = |value: &str| -> usize {
        value
            .split(separator)
            .map(|part| {
                utf8_percent_encode(part, VALUE)
                    .map(str::len)
                    .sum::<usize>()
            })
            .sum::<usize>()
            + value.matches(separator).count()
    };
    let lengths: Vec<usize> = query.iter().map(|(_, value)| encoded(value)).collect();
    let total: usize = query
        .iter()
        .zip(&lengths)
        .map(|((wire, _), len)| wire.len() + 1 + len)
        .sum::<usize>()
        + query.len().saturating_sub(1);
    if total <= MAX_QUERY_BYTES {
        return Ok(());
    }
    let Some(((wire, value), _)) = query.iter().zip(&lengths).max_by_key(|(_, len)| **len) else {
        return Ok(());
    };
    let longest = value
        .split(separator)
        .max_by_key(|part| part.len())
        .unwrap_or_default();
    let mut shown: String = longest.chars().take(SHOWN_OF_LONG_VALUE).collect();
    if shown.len() < longest.len() {
        shown.push_str(&format!("… ({} characters)", longest.chars().count()));
    }
    Err((
        wire,
        shown,
        format!(
            "makes the request {total} bytes long once encoded, over the {MAX_QUERY_BYTES} bytes the client sends (seozoom::request::MAX_QUERY_BYTES); send a shorter value, or fewer values per call"
        ),
    ))
}

fn list_or_none(names: &[&str]) -> String {
    if names.is_empty() {
        "no parameters".to_owned()
    } else {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn limit_text(l: &Limit) -> String {
    match l.note {
        Some(note) => format!("{}: {note}", l.source.phrase()),
        None => l.source.phrase().to_owned(),
    }
}

fn check_count(param: &Param, values: &[String]) -> Result<(), String> {
    let n = values.len() as i64;
    if !param.list && n != 1 {
        return Err(format!("takes exactly one value, {n} given"));
    }
    if let Some(min) = param.min_items.filter(|m| n < m.value) {
        return Err(format!(
            "{n} values given, at least {} required ({})",
            min.value,
            limit_text(&min)
        ));
    }
    if let Some(max) = param.max_items.filter(|m| n > m.value) {
        return Err(format!(
            "{n} values given, at most {} allowed ({})",
            max.value,
            limit_text(&max)
        ));
    }
    Ok(())
}

fn check_value(param: &Param, value: &str) -> Result<(), String> {
    if value.trim().is_empty() {
        return Err("must not be empty".into());
    }
    match param.kind {
        ParamKind::Text => Ok(()),
        ParamKind::Integer => {
            let n: i64 = value
                .parse()
                .map_err(|_| "must be a whole number".to_owned())?;
            if let Some(min) = param.min.filter(|m| n < m.value) {
                return Err(format!(
                    "below the minimum {} ({})",
                    min.value,
                    limit_text(&min)
                ));
            }
            if let Some(max) = param.max.filter(|m| n > m.value) {
                return Err(format!(
                    "above the maximum {} ({})",
                    max.value,
                    limit_text(&max)
                ));
            }
            Ok(())
        }
        ParamKind::Date => {
            if value.parse::<crate::date::Date>().is_ok() {
                Ok(())
            } else {
                Err("must be a calendar date written yyyy-MM-dd".into())
            }
        }
        ParamKind::Enum { values, .. } => {
            if values.contains(&value) {
                Ok(())
            } else {
                Err(format!("must be one of {}", values.join(", ")))
            }
        }
    }
}

/// One value percent-encoded for the query.
pub(crate) fn encode_value(value: &str) -> String {
    utf8_percent_encode(value, VALUE).to_string()
}

/// `key=value&...` with every value percent-encoded (list separators excepted).
#[cfg(test)]
fn encode_query(pairs: &[(&str, String)], separator: char) -> String {
    let mut out = String::new();
    push_query(&mut out, pairs, separator);
    out
}

/// Appends `key=value&...` to `out`, every value percent-encoded (list
/// separators excepted).
///
/// The encoder yields borrowed slices (runs of unchanged text and `%XX`
/// escapes), so no value gets a `String` of its own; the room reserved up front
/// covers the text and a few escapes (spaces, accents).
pub(crate) fn push_query(out: &mut String, pairs: &[(&str, String)], separator: char) {
    let unescaped: usize = pairs.iter().map(|(n, v)| n.len() + v.len() + 2).sum();
    out.reserve(unescaped + unescaped / 4);
    for (i, (name, value)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        out.push_str(name);
        out.push('=');
        for (j, part) in value.split(separator).enumerate() {
            if j > 0 {
                out.push(separator);
            }
            out.extend(utf8_percent_encode(part, VALUE));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_QUERY_BYTES, Request, encode_query};
    use crate::operation_table::Operation;
    use crate::operations::SERVICE;

    #[test]
    fn a_request_longer_than_the_client_sends_is_refused_naming_the_parameter() {
        let op = Operation::find("keywords", "metrics").unwrap();
        let mut request = Request::new(op, None);
        request.set("keyword", vec!["x".repeat(70_000)]);
        let error = request.validate(&SERVICE, "it").unwrap_err();
        assert_eq!(error.param, "keyword");
        assert!(error.value.ends_with("(70000 characters)"), "{error}");
        assert!(error.value.len() < 100, "the value is cut: {error}");
        assert!(
            error.problem.contains(&MAX_QUERY_BYTES.to_string()),
            "{error}"
        );
        // Percent-encoding counts: 2,000 accented letters are 12,000 bytes,
        // three values of them are over the limit, two are not.
        let accented = "è".repeat(2_000);
        request.set("keyword", vec![accented.clone(), format!("{accented} ")]);
        request.validate(&SERVICE, "it").unwrap();
        request.set(
            "keyword",
            vec![
                accented.clone(),
                format!("{accented} "),
                format!("{accented}  "),
            ],
        );
        assert_eq!(
            request.validate(&SERVICE, "it").unwrap_err().param,
            "keyword"
        );
    }

    #[test]
    fn values_are_encoded_and_separators_kept() {
        let q = encode_query(
            &[
                ("action", "metrics".into()),
                ("keyword", "scarpe running|caffè & latte|a+b=c".into()),
            ],
            '|',
        );
        assert_eq!(
            q,
            "action=metrics&keyword=scarpe%20running|caff%C3%A8%20%26%20latte|a%2Bb%3Dc"
        );
    }
}
