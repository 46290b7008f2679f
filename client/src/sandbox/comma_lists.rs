//! A list joined with commas (`domain=a.it,b.it`) is answered as the service
//! answers it: "No data found!" under its no-match status, nothing charged.
//!
//! The service splits a list parameter on its list separator (`|`) only, and
//! knows nothing about a domain, URL or keyword that holds a comma, so a
//! client that joins lists with commas (what a generator does when it ignores
//! OpenAPI's `pipeDelimited`) gets no data at all. Were the sandbox to answer
//! such a value as one odd input, with rows and a charge, that client would
//! pass every test here and fail against the service; answering as the service
//! does makes its first call fail. Which parameters are lists comes from the
//! operation table.

use crate::operation_table::Operation;

/// The character a client that ignores the list style joins values with.
const COMMA: char = ',';

/// Whether a validated query to `op` (its list values joined with the
/// separator) gives a list parameter a value that holds a comma.
pub(super) fn comma_joined(op: &'static Operation, query: &[(&'static str, String)]) -> bool {
    query
        .iter()
        .any(|(name, value)| op.param(name).is_some_and(|p| p.list) && value.contains(COMMA))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::OPERATIONS;

    #[test]
    fn a_comma_in_any_list_parameter_is_seen_and_nowhere_else() {
        let mut checked = 0;
        for op in OPERATIONS {
            for p in op.params {
                let query = [(p.wire, "a,b".to_owned())];
                assert_eq!(
                    comma_joined(op, &query),
                    p.list,
                    "{} {}",
                    op.label(),
                    p.wire
                );
                let joined = [(p.wire, "a|b".to_owned())];
                assert!(!comma_joined(op, &joined), "{} {}", op.label(), p.wire);
                checked += usize::from(p.list);
            }
        }
        assert!(checked > 0, "the spec has list parameters");
    }
}
