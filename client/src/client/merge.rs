//! Merging the answers of a batched job into one result: rows, and the
//! members of maps and objects, put back in input order by what names their
//! input, compared as the spec compares the batch parameter's values.

use std::collections::{HashMap, HashSet};

use crate::by_key::ByKey;
use crate::operation_table::{Fold, Param};
use crate::order::stable_order;

/// A response record whose text fields can be read by wire name. The generator
/// implements it for every record of the spec; batched jobs use it to match rows
/// back to their inputs.
pub trait Row {
    /// The value of the text field with this wire name, if the record has one
    /// and it is not `null`.
    fn text_field(&self, wire: &str) -> Option<&str>;
}

/// Where each input of a batched job stands, to put merged rows back in input
/// order.
#[derive(Debug, Clone, Default)]
pub struct InputOrder {
    key_field: Option<&'static str>,
    /// How the parameter's values, and so the keys naming them, compare.
    fold: &'static [Fold],
    positions: HashMap<String, usize>,
}

impl InputOrder {
    /// The order of `inputs`, values of `param` (already without repeats,
    /// [`Param::distinct`]), matched on `key_field`: a row's key names the
    /// input it equals as `param` compares its values ([`Param::compared`]).
    pub fn new(param: &Param, inputs: &[String], key_field: Option<&'static str>) -> Self {
        let mut positions = HashMap::with_capacity(inputs.len());
        for (i, input) in inputs.iter().enumerate() {
            positions
                .entry(param.compared(input).into_owned())
                .or_insert(i);
        }
        InputOrder {
            key_field,
            fold: param.fold,
            positions,
        }
    }

    /// The wire name of the record field that names a row's input, if any.
    pub fn key_field(&self) -> Option<&'static str> {
        self.key_field
    }

    /// The input position of a key: of the input it is the same as.
    pub fn position(&self, key: &str) -> Option<usize> {
        let key = crate::operation_table::folded(self.fold, key);
        self.positions.get(key.as_ref()).copied()
    }

    /// `rows` reordered by the input each names (rows of one input keep their
    /// order); rows that name no input follow, in the order given.
    pub fn sort<R>(&self, rows: Vec<R>, key: impl Fn(&R) -> Option<&str>) -> Vec<R> {
        let mut positions = Vec::with_capacity(rows.len());
        let mut matched = Vec::with_capacity(rows.len());
        let mut unmatched = Vec::new();
        for row in rows {
            match key(&row).and_then(|k| self.position(k)) {
                Some(position) => {
                    positions.push(position);
                    matched.push(Some(row));
                }
                None => unmatched.push(row),
            }
        }
        // Sorted as positions, so that the sort is compiled once, not once
        // per row type.
        let order = stable_order(positions.len(), &mut |a, b| positions[a].cmp(&positions[b]));
        order
            .into_iter()
            .filter_map(|i| matched.get_mut(i).and_then(Option::take))
            .chain(unmatched)
            .collect()
    }
}

/// A result that the results of several batches merge into.
pub trait Merge: Sized {
    /// One result from the non-empty results of a job's batches, in batch order.
    fn merge(parts: Vec<Self>, order: &InputOrder) -> Self;
}

impl<R: Row> Merge for Vec<R> {
    /// Rows in input order, matched by the key field; rows with no matching
    /// input keep the service's order, at the end.
    fn merge(parts: Vec<Self>, order: &InputOrder) -> Self {
        let rows: Vec<R> = parts.into_iter().flatten().collect();
        match order.key_field() {
            Some(field) => order.sort(rows, |row| row.text_field(field)),
            None => rows,
        }
    }
}

impl<V> Merge for ByKey<V> {
    /// The maps joined in input order (a key met twice keeps its first
    /// value; keys that name no input follow, in the order given).
    fn merge(parts: Vec<Self>, order: &InputOrder) -> Self {
        let mut seen = HashSet::new();
        let entries = parts
            .into_iter()
            .flatten()
            .filter(|(key, _)| seen.insert(key.clone()))
            .collect();
        ByKey::from_entries(order.sort(entries, |(key, _)| Some(key.as_str())))
    }
}

impl Merge for serde_json::Value {
    /// Arrays are joined and put in input order by the key field's member;
    /// objects are joined in input order by their members' names (a member
    /// met twice keeps its first value).
    fn merge(parts: Vec<Self>, order: &InputOrder) -> Self {
        use serde_json::Value;
        let mut rows = Vec::new();
        let mut members = serde_json::Map::new();
        let (mut arrays, mut objects) = (false, false);
        let mut other = None;
        for part in parts {
            match part {
                Value::Array(items) => {
                    arrays = true;
                    rows.extend(items);
                }
                Value::Object(map) => {
                    objects = true;
                    for (key, value) in map {
                        if !members.contains_key(&key) {
                            members.insert(key, value);
                        }
                    }
                }
                Value::Null => {}
                value => other = other.or(Some(value)),
            }
        }
        if arrays {
            let field = order.key_field();
            Value::Array(order.sort(rows, |row| row.get(field?)?.as_str()))
        } else if objects {
            // In input order where the map keeps its members in order (a
            // build with serde_json's `preserve_order`, as the command line's).
            let members = order.sort(members.into_iter().collect(), |(key, _)| Some(key.as_str()));
            Value::Object(members.into_iter().collect())
        } else {
            other.unwrap_or(Value::Null)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A domain parameter compared as the spec compares `domain`.
    const DOMAIN: Param =
        Param::text("domain").compare(&[Fold::Trim, Fold::Case, Fold::Www, Fold::TrailingSlash]);
    /// A parameter compared exactly.
    const EXACT: Param = Param::text("url");

    fn strings(values: &[&str]) -> Vec<String> {
        values.iter().map(|v| (*v).to_owned()).collect()
    }

    #[test]
    fn rows_are_put_back_in_input_order_by_their_key_compared_as_the_parameter_says() {
        let order = InputOrder::new(
            &DOMAIN,
            &strings(&["B.it", "www.a.it", "c.it"]),
            Some("domain"),
        );
        let rows = serde_json::json!([
            {"domain": "zz.it", "n": 0},
            {"domain": "c.it", "n": 1},
            {"domain": "A.it", "n": 2},
            {"domain": "www.b.it", "n": 3},
            {"n": 4},
        ]);
        let merged = serde_json::Value::merge(vec![rows], &order);
        let ns: Vec<i64> = merged
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["n"].as_i64().unwrap())
            .collect();
        assert_eq!(ns, [3, 2, 1, 0, 4]);
    }

    /// A parameter compared exactly matches keys exactly: two pages whose
    /// paths differ in case are two inputs.
    #[test]
    fn an_exact_parameter_matches_keys_exactly() {
        let inputs = strings(&["https://x.it/A", "https://x.it/a"]);
        let order = InputOrder::new(&EXACT, &inputs, Some("url"));
        assert_eq!(order.position("https://x.it/a"), Some(1));
        assert_eq!(order.position("https://x.it/A"), Some(0));
        assert_eq!(order.position("https://x.it/a/"), None);
    }

    #[test]
    fn maps_merge_in_input_order_keeping_the_first_value_of_a_key() {
        let order = InputOrder::new(&DOMAIN, &strings(&["zeta", "alpha", "mid"]), None);
        let cached: ByKey<i64> = serde_json::from_str(r#"{"mid":3}"#).unwrap();
        let sent: ByKey<i64> =
            serde_json::from_str(r#"{"alpha":2,"other":0,"zeta":1,"mid":9}"#).unwrap();
        let merged = ByKey::merge(vec![cached, sent], &order);
        let entries: Vec<(&String, &i64)> = merged.iter().collect();
        let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["zeta", "alpha", "mid", "other"]);
        assert_eq!(merged.get("mid"), Some(&3));
    }
}
