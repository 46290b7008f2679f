//! Drift mode ([`SandboxBuilder::drift`](super::SandboxBuilder::drift)): the
//! answers change the way a service that moves on from its reference does,
//! so that every face can be seen to keep what the spec does not know.
//!
//! In each answer of a record (an array's rows, or one object), by the row's
//! place in it, so that every answer drifts alike:
//!
//! - even rows get a member the spec does not know, [`EXTRA_MEMBER`], a number;
//! - every third row's comma lists of known values get one it does not list,
//!   [`UNLISTED_VALUE`];
//! - even rows send the record's first metric (integer or number) as `null`,
//!   and its next integer as a string (`"123"`);
//! - the first row leaves out the first member the spec calls required (what
//!   names the row; else the last member): an array's row is then kept raw by
//!   the client, and a single object cannot be typed at all.
//!
//! Nested records and search-result lists are left as they are.

use crate::operation_table::{FieldInfo, FieldKind, RecordInfo};

use super::encode_quirks::Node;

/// The member drift mode adds to some rows.
pub const EXTRA_MEMBER: &str = "drift_metric";

/// The value drift mode adds to comma lists of known values.
pub const UNLISTED_VALUE: &str = "unlisted";

/// `response` (the answer's payload) drifted, its rows being `record`s; a
/// single object is one row.
pub(super) fn drift(response: &mut Node, record: &RecordInfo, single: bool) {
    match response {
        Node::Arr(rows) if !single => {
            for (index, row) in rows.iter_mut().enumerate() {
                drift_row(row, record, index);
            }
        }
        row @ Node::Obj(_) if single => drift_row(row, record, 0),
        _ => {}
    }
}

fn is_metric(field: &FieldInfo) -> bool {
    matches!(field.kind, FieldKind::Integer | FieldKind::Number)
}

fn required(field: &FieldInfo) -> bool {
    !field.optional && !field.nullable
}

fn drift_row(row: &mut Node, record: &RecordInfo, index: usize) {
    let Node::Obj(members) = row else {
        return;
    };
    let even = index.is_multiple_of(2);
    // The first metric the spec has (not what names the row), and the next
    // integer after it.
    let metrics: Vec<&FieldInfo> = record
        .fields
        .iter()
        .filter(|f| is_metric(f) && !required(f))
        .collect();
    let nulled = metrics.first().map(|f| f.wire);
    let stringed = metrics
        .iter()
        .skip(1)
        .find(|f| f.kind == FieldKind::Integer)
        .map(|f| f.wire);
    for (wire, value) in members.iter_mut() {
        if even && Some(wire.as_str()) == nulled {
            *value = Node::Null;
        } else if even && Some(wire.as_str()) == stringed {
            if let Node::Int(n) = value {
                *value = Node::Str(n.to_string());
            } else if let Node::Float(x) = value {
                *value = Node::Str(format!("{x}"));
            }
        } else if index.is_multiple_of(3)
            && let Some(field) = record.fields.iter().find(|f| f.wire == wire.as_str())
            && let FieldKind::CommaList { values, .. } = field.kind
            && !values.is_empty()
            && let Node::Str(list) = value
        {
            if !list.is_empty() {
                list.push(',');
            }
            list.push_str(UNLISTED_VALUE);
        }
    }
    if even {
        let cents = i64::try_from(index).unwrap_or(0) * 137 % 10_000 + 1_234;
        members.push((EXTRA_MEMBER.to_owned(), Node::Float(cents as f64 / 100.0)));
    }
    if index == 0 {
        let left_out = record
            .fields
            .iter()
            .find(|f| required(f))
            .or(record.fields.last())
            .map(|f| f.wire);
        members.retain(|(wire, _)| Some(wire.as_str()) != left_out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::RECORDS;

    fn record(name: &str) -> &'static RecordInfo {
        RECORDS.iter().find(|r| r.name == name).unwrap()
    }

    fn row(members: &[(&str, Node)]) -> Node {
        Node::Obj(
            members
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
        )
    }

    #[test]
    fn rows_drift_by_their_place() {
        let metrics = record("keyword_metrics");
        let one = || {
            row(&[
                ("keyword", Node::Str("k".into())),
                ("search_volume", Node::Int(10)),
                ("ppc_competitiveness", Node::Float(1.5)),
                ("indexed_pages", Node::Int(7)),
                ("search_intent", Node::Str("informational".into())),
            ])
        };
        let mut answer = Node::Arr(vec![one(), one(), one()]);
        drift(&mut answer, metrics, false);
        let Node::Arr(rows) = answer else { panic!() };
        let get = |row: &Node, wire: &str| match row {
            Node::Obj(m) => m.iter().find(|(w, _)| w == wire).map(|(_, v)| v.clone()),
            _ => None,
        };
        assert_eq!(
            get(&rows[0], "keyword"),
            None,
            "the first row lacks what names it"
        );
        assert_eq!(get(&rows[1], "keyword"), Some(Node::Str("k".into())));
        assert_eq!(get(&rows[0], "search_volume"), Some(Node::Null));
        assert_eq!(get(&rows[1], "search_volume"), Some(Node::Int(10)));
        assert_eq!(get(&rows[2], "indexed_pages"), Some(Node::Str("7".into())));
        assert!(get(&rows[2], EXTRA_MEMBER).is_some());
        assert!(get(&rows[1], EXTRA_MEMBER).is_none());
        assert_eq!(
            get(&rows[0], "search_intent"),
            Some(Node::Str("informational,unlisted".into()))
        );
    }
}
