//! One batched answer cut into an answer per input item, for the per-item
//! cache: a later job that asks for some of the same items (in any batch)
//! finds each of them on its own.
//!
//! An item's answer is an envelope made by the client, with the service's
//! member names, holding the rows whose key field names that item (an array
//! response) or the member named after it (a map response), so that it decodes
//! exactly as the service's own answers do. When a row cannot be matched to an
//! input, the answer is not cut at all: an item whose rows were missed would
//! later be taken for an item without rows.

use serde_json::{Map, Value};

use crate::client::InputOrder;
use crate::operation_table::Service;

/// One item's share of a batched answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ItemAnswer {
    /// Its position among the request's values.
    pub index: usize,
    /// An envelope holding only its rows.
    pub body: Vec<u8>,
    /// Its share of the units the request cost (by rows), for "units saved".
    pub units_used: i64,
}

/// `body` (the answer to a request for `values`) cut into one answer per value,
/// rows matched by `order`'s key field; `None` when it cannot be cut whole.
pub(crate) fn split(
    service: &Service,
    order: &InputOrder,
    values: usize,
    body: &[u8],
) -> Option<Vec<ItemAnswer>> {
    let Value::Object(envelope) = serde_json::from_slice::<Value>(body).ok()? else {
        return None;
    };
    let units_used = envelope.get(service.envelope_units_used)?.as_i64()?;
    let remaining = envelope.get(service.envelope_units_remaining)?.clone();
    let response = envelope.get(service.envelope_response)?;
    let mut parts: Vec<Vec<(Option<String>, Value)>> = vec![Vec::new(); values];
    match response {
        Value::Array(rows) => {
            let key_field = order.key_field()?;
            for row in rows {
                let key = row.get(key_field)?.as_str()?;
                parts
                    .get_mut(order.position(key)?)?
                    .push((None, row.clone()));
            }
        }
        Value::Object(members) => {
            for (key, member) in members {
                parts
                    .get_mut(order.position(key)?)?
                    .push((Some(key.clone()), member.clone()));
            }
        }
        _ => return None,
    }
    let total_rows: usize = parts.iter().map(Vec::len).sum();
    let array = matches!(response, Value::Array(_));
    let answers = parts
        .into_iter()
        .enumerate()
        .map(|(index, rows)| {
            let count = rows.len();
            let response = if array {
                Value::Array(rows.into_iter().map(|(_, row)| row).collect())
            } else {
                Value::Object(
                    rows.into_iter()
                        .filter_map(|(key, member)| Some((key?, member)))
                        .collect(),
                )
            };
            let mut item = Map::new();
            item.insert(service.envelope_result_rows.into(), count.into());
            item.insert(service.envelope_units_used.into(), 0.into());
            item.insert(service.envelope_units_remaining.into(), remaining.clone());
            item.insert(service.envelope_response.into(), response);
            ItemAnswer {
                index,
                body: serde_json::to_vec(&Value::Object(item)).unwrap_or_default(),
                units_used: share(units_used, count, total_rows),
            }
        })
        .collect();
    Some(answers)
}

/// `units` split by rows: this item's `rows` of `total`.
fn share(units: i64, rows: usize, total: usize) -> i64 {
    if total == 0 {
        return 0;
    }
    let part = i128::from(units) * rows as i128 / total as i128;
    i64::try_from(part).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operation_table::{Fold, Param};
    use crate::operations::SERVICE;

    /// Values compared as keywords are: spaces and letter case do not count.
    const PARAM: Param = Param::text("k").compare(&[Fold::Trim, Fold::Case]);

    fn order(values: &[&str], key: Option<&'static str>) -> InputOrder {
        let values: Vec<String> = values.iter().map(|v| (*v).to_owned()).collect();
        InputOrder::new(&PARAM, &values, key)
    }

    fn body(response: Value) -> Vec<u8> {
        let mut envelope = Map::new();
        envelope.insert(SERVICE.envelope_result_rows.into(), 3.into());
        envelope.insert(SERVICE.envelope_units_used.into(), 30.into());
        envelope.insert(SERVICE.envelope_units_remaining.into(), 970.into());
        envelope.insert(SERVICE.envelope_response.into(), response);
        serde_json::to_vec(&Value::Object(envelope)).unwrap()
    }

    fn response_of(answer: &ItemAnswer) -> Value {
        let envelope: Value = serde_json::from_slice(&answer.body).unwrap();
        envelope[SERVICE.envelope_response].clone()
    }

    #[test]
    fn rows_go_to_the_item_their_key_names_and_units_follow_the_rows() {
        let rows = serde_json::json!([
            {"k": "B", "v": 1}, {"k": "a", "v": 2}, {"k": "b", "v": 3}
        ]);
        let items = split(
            &SERVICE,
            &order(&["a", "b", "c"], Some("k")),
            3,
            &body(rows),
        )
        .unwrap();
        assert_eq!(
            response_of(&items[0]),
            serde_json::json!([{"k": "a", "v": 2}])
        );
        assert_eq!(
            response_of(&items[1]),
            serde_json::json!([{"k": "B", "v": 1}, {"k": "b", "v": 3}])
        );
        assert_eq!(
            response_of(&items[2]),
            serde_json::json!([]),
            "an item without rows"
        );
        let units: Vec<i64> = items.iter().map(|i| i.units_used).collect();
        assert_eq!(units, [10, 20, 0]);
        let first: Value = serde_json::from_slice(&items[0].body).unwrap();
        assert_eq!(
            first[SERVICE.envelope_units_used], 0,
            "an item's answer charges nothing"
        );
        assert_eq!(first[SERVICE.envelope_units_remaining], 970);
    }

    #[test]
    fn map_members_go_to_the_item_they_are_named_after() {
        let members = serde_json::json!({"a": {"1": "x"}, "b": {"1": "y"}});
        let items = split(&SERVICE, &order(&["a", "b"], None), 2, &body(members)).unwrap();
        assert_eq!(response_of(&items[1]), serde_json::json!({"b": {"1": "y"}}));
    }

    #[test]
    fn an_answer_with_a_row_that_names_no_input_is_not_cut() {
        let rows = serde_json::json!([{"k": "a"}, {"k": "zzz"}]);
        assert_eq!(
            split(&SERVICE, &order(&["a"], Some("k")), 1, &body(rows)),
            None
        );
        let rows = serde_json::json!([{"other": "a"}]);
        assert_eq!(
            split(&SERVICE, &order(&["a"], Some("k")), 1, &body(rows)),
            None
        );
        assert_eq!(
            split(&SERVICE, &order(&["a"], Some("k")), 1, b"not json"),
            None
        );
    }
}
