//! `--columns a,b,c`: the columns of an operation's rows picked by name, in
//! every format. The names are the ones the CSV header shows (wire names, and
//! `field.inner` for the records of a nested list), or the wire name of a
//! member the spec does not know (the service may send one: `seozoom drift`
//! lists those seen). A name that is neither is not known before the answer
//! comes, so it is not refused: a name no row had is reported after the rows.

use seozoom::operation_table::Operation;
use seozoom::operation_table::Shape;
use serde_json::{Map, Value};

use crate::rows::{Payload, SERP_COLUMNS, VALUE_COLUMN, column_names, layout, serp_results};

/// The flag, for messages.
pub const FLAG: &str = "--columns";

/// The names asked for, or a message when there are none. Names the spec
/// does not know are allowed: they may be members the service sends
/// ([`unmatched`] reports those no row had).
pub fn check(op: &Operation, names: &[String]) -> Result<(), String> {
    if names.iter().all(|name| name.trim().is_empty()) {
        return Err(format!(
            "{FLAG} needs at least one column name; the columns of {} are: {}",
            op.label(),
            column_names(op).join(", ")
        ));
    }
    Ok(())
}

/// The names asked for that are neither columns of `op` nor members of any
/// record of `response`, and a message for stderr; `None` when every name
/// matched.
pub fn unmatched(op: &Operation, response: &Value, names: &[String]) -> Option<String> {
    let known = column_names(op);
    let mut seen = Vec::new();
    collect_members(response, &mut seen);
    let unmatched: Vec<&str> = names
        .iter()
        .filter(|name| !known.contains(name) && !seen.contains(&name.as_str()))
        .map(String::as_str)
        .collect();
    if unmatched.is_empty() {
        return None;
    }
    Some(format!(
        "warning: {FLAG}: no row had {}: not a column of {} (its columns are: {}), nor a member the service sent",
        unmatched
            .iter()
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(", "),
        op.label(),
        known.join(", ")
    ))
}

/// The member names of the records in `value` (an array of records, a map of
/// them, or one).
fn collect_members<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| collect_members(item, out)),
        Value::Object(record) => {
            for (name, member) in record {
                if !out.contains(&name.as_str()) {
                    out.push(name);
                }
                if member.is_object() {
                    collect_members(member, out);
                }
            }
        }
        _ => {}
    }
}

/// Keep in each record of `response` only the members named, in the order
/// named (`--format json`). A map response keeps its keys.
pub fn filter_json(op: &Operation, response: &mut Value, names: &[String]) {
    // A search-result list has no fields to pick: its columns are its
    // results' positions and URLs, which JSON keeps as they are.
    if !matches!(layout(op.response.payload), Payload::Record(_)) {
        return;
    }
    match (op.response.shape, response) {
        (Shape::Array, Value::Array(items)) => {
            for item in items {
                pick_in_place(item, names);
            }
        }
        (Shape::Map { .. }, Value::Object(map)) => {
            for item in map.values_mut() {
                pick_in_place(item, names);
            }
        }
        (_, value) => pick_in_place(value, names),
    }
}

/// The lines of `--format ndjson`: one object per record of the response; a
/// map response's key comes first in each, under its parameter's name, and a
/// search-result list is one object per result.
pub fn json_lines(op: &Operation, response: &Value) -> Vec<Map<String, Value>> {
    let payload = layout(op.response.payload);
    match (op.response.shape, response) {
        (Shape::Array, Value::Array(items)) => items
            .iter()
            .flat_map(|item| payload_lines(payload, item))
            .collect(),
        (Shape::Map { key }, Value::Object(map)) => map
            .iter()
            .flat_map(|(name, value)| {
                payload_lines(payload, value).into_iter().map(|line| {
                    let mut keyed = Map::new();
                    keyed.insert(key.to_owned(), Value::String(name.clone()));
                    keyed.extend(line);
                    keyed
                })
            })
            .collect(),
        (Shape::Array | Shape::Map { .. }, _) => Vec::new(),
        (_, value) => payload_lines(payload, value),
    }
}

/// The lines of `--format ndjson` that one item of an array response gives:
/// what [`json_lines`] gives for each item, for printing the rows of a paged
/// job as they arrive.
pub fn item_json_lines(op: &Operation, item: &Value) -> Vec<Map<String, Value>> {
    payload_lines(layout(op.response.payload), item)
}

/// The objects one payload value gives.
fn payload_lines(payload: Payload, value: &Value) -> Vec<Map<String, Value>> {
    match (payload, value) {
        (_, Value::Null) => Vec::new(),
        (Payload::Serp, _) => serp_results(value)
            .into_iter()
            .map(|(position, url)| {
                let [position_column, url_column] = SERP_COLUMNS;
                let mut line = Map::new();
                line.insert(position_column.into(), position);
                line.insert(url_column.into(), url.clone());
                line
            })
            .collect(),
        (_, Value::Object(record)) => vec![record.clone()],
        (_, other) => {
            let mut line = Map::new();
            line.insert(VALUE_COLUMN.into(), other.clone());
            vec![line]
        }
    }
}

/// Keep only the members named in an ndjson line, in the order named.
pub fn keep_members(object: &mut Map<String, Value>, names: &[String]) {
    *object = pick(object, names);
}

fn pick_in_place(value: &mut Value, names: &[String]) {
    if let Value::Object(record) = value {
        *record = pick(record, names);
    }
}

/// The members named, in the order named: `a` is member `a`; `a.b` is member
/// `b` of the records listed in `a` (all of a list's picks kept together, at
/// the first one's place).
fn pick(record: &Map<String, Value>, names: &[String]) -> Map<String, Value> {
    let mut picked = Map::new();
    for name in names {
        if picked.contains_key(name) {
            continue;
        }
        if let Some(value) = record.get(name) {
            picked.insert(name.clone(), value.clone());
            continue;
        }
        let Some((list, _)) = name.split_once('.') else {
            continue;
        };
        if picked.contains_key(list) {
            continue;
        }
        let Some(Value::Array(items)) = record.get(list) else {
            continue;
        };
        let prefix = format!("{list}.");
        let inner: Vec<String> = names
            .iter()
            .filter_map(|n| n.strip_prefix(&prefix).map(str::to_owned))
            .collect();
        let items = items
            .iter()
            .map(|item| {
                let mut item = item.clone();
                pick_in_place(&mut item, &inner);
                item
            })
            .collect();
        picked.insert(list.to_owned(), Value::Array(items));
    }
    picked
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn op(group: &str, action: &str) -> &'static Operation {
        Operation::find(group, action).unwrap()
    }

    #[test]
    fn names_no_row_had_are_reported_with_the_known_ones() {
        let metrics = op("keywords", "metrics");
        let names = [
            "keyword".to_owned(),
            "volume".to_owned(),
            "brand_new".to_owned(),
        ];
        assert!(check(metrics, &names).is_ok());
        assert!(check(metrics, &[" ".into()]).is_err());
        let response = json!([{"keyword": "a", "brand_new": 1}]);
        let warning = unmatched(metrics, &response, &names).unwrap();
        assert!(warning.contains("`volume`"), "{warning}");
        assert!(!warning.contains("`brand_new`"), "{warning}");
        assert!(warning.contains("search_volume"), "{warning}");
        assert_eq!(unmatched(metrics, &response, &names[..1]), None);
    }

    #[test]
    fn json_keeps_the_named_members_in_order_and_nested_picks() {
        let mut response = json!([
            {"domain": "a.it", "niches": [{"tza": 1, "name": "x"}], "other": 3}
        ]);
        let names = ["niches.name".to_owned(), "domain".to_owned()];
        filter_json(op("domains", "niches"), &mut response, &names);
        assert_eq!(
            response,
            json!([{"niches": [{"name": "x"}], "domain": "a.it"}])
        );
    }

    #[test]
    fn json_keeps_a_search_result_list_whole() {
        let mut response = json!({"k": {"1": "a", "2": "b"}});
        let names = ["keyword".to_owned(), "url".to_owned()];
        filter_json(op("keywords", "serp"), &mut response, &names);
        assert_eq!(response, json!({"k": {"1": "a", "2": "b"}}));
    }

    #[test]
    fn ndjson_of_a_map_puts_the_key_first() {
        let lines = json_lines(op("keywords", "serp"), &json!({"k": {"2": "b", "1": "a"}}));
        assert_eq!(
            lines
                .iter()
                .map(|l| Value::Object(l.clone()))
                .collect::<Vec<_>>(),
            [
                json!({"keyword": "k", "position": 1, "url": "a"}),
                json!({"keyword": "k", "position": 2, "url": "b"})
            ]
        );
    }
}
