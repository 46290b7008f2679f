//! Merging the answers of a batched job into one result: rows put back in
//! input order by the field that names their input, maps and objects joined.

use std::collections::HashMap;

use crate::by_key::ByKey;

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
    positions: HashMap<String, usize>,
}

impl InputOrder {
    /// The order of `inputs` (already without repeats), matched on `key_field`.
    pub fn new(inputs: &[String], key_field: Option<&'static str>) -> Self {
        let mut positions = HashMap::new();
        for (i, input) in inputs.iter().enumerate() {
            positions.entry(normalise(input)).or_insert(i);
        }
        InputOrder {
            key_field,
            positions,
        }
    }

    /// The wire name of the record field that names a row's input, if any.
    pub fn key_field(&self) -> Option<&'static str> {
        self.key_field
    }

    /// The input position of a key, compared normalised (case, surrounding
    /// spaces, a leading `www.` and a trailing `/` do not count).
    pub fn position(&self, key: &str) -> Option<usize> {
        self.positions.get(&normalise(key)).copied()
    }

    /// `rows` reordered by the input each names (rows of one input keep their
    /// order); rows that name no input follow, in the order given.
    pub fn sort<R>(&self, rows: Vec<R>, key: impl Fn(&R) -> Option<&str>) -> Vec<R> {
        let mut matched = Vec::with_capacity(rows.len());
        let mut unmatched = Vec::new();
        for row in rows {
            match key(&row).and_then(|k| self.position(k)) {
                Some(position) => matched.push((position, row)),
                None => unmatched.push(row),
            }
        }
        matched.sort_by_key(|(position, _)| *position);
        matched
            .into_iter()
            .map(|(_, row)| row)
            .chain(unmatched)
            .collect()
    }
}

/// An input or a key as compared: trimmed, lower case, without a leading `www.`
/// (after any scheme) and without a trailing `/`.
fn normalise(text: &str) -> String {
    let lower = text.trim().to_lowercase();
    let (scheme, rest) = match lower.find("://") {
        Some(at) => lower.split_at(at + 3),
        None => ("", lower.as_str()),
    };
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    format!("{scheme}{rest}")
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
    /// The maps joined (a key met twice keeps its first value).
    fn merge(parts: Vec<Self>, _order: &InputOrder) -> Self {
        let mut merged = ByKey::default();
        for part in parts {
            for (key, value) in part {
                merged.0.entry(key).or_insert(value);
            }
        }
        merged
    }
}

impl Merge for serde_json::Value {
    /// Arrays are joined and put in input order by the key field's member;
    /// objects are joined (a member met twice keeps its first value).
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
                        members.entry(key).or_insert(value);
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
            Value::Object(members)
        } else {
            other.unwrap_or(Value::Null)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_put_back_in_input_order_by_their_normalised_key() {
        let inputs: Vec<String> = ["B.it", "https://www.a.it/", "c.it"]
            .map(String::from)
            .to_vec();
        let order = InputOrder::new(&inputs, Some("domain"));
        let rows = serde_json::json!([
            {"domain": "zz.it", "n": 0},
            {"domain": "c.it", "n": 1},
            {"domain": "https://a.it", "n": 2},
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

    #[test]
    fn maps_merge_and_objects_join() {
        let a: ByKey<i64> = serde_json::from_str(r#"{"x":1}"#).unwrap();
        let b: ByKey<i64> = serde_json::from_str(r#"{"y":2,"x":9}"#).unwrap();
        let merged = ByKey::merge(vec![a, b], &InputOrder::default());
        assert_eq!(merged.get("x"), Some(&1));
        assert_eq!(merged.get("y"), Some(&2));
    }
}
