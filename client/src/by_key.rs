//! Responses keyed by an input value (keyword -> SERP), kept in order: the
//! service's for one answer, the inputs' for a batched job.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// An object keyed by the values of a list parameter, such as keyword -> SERP,
/// in order: as the service sent it, and for a batched job in the order of
/// the inputs (matched as the spec compares the parameter's values).
///
/// A small ordered map: [`get`](Self::get) finds a key, and iterating
/// (`for (keyword, serp) in &map`) goes in order. It serializes as a JSON
/// object in that order. The service is written in PHP, where an empty map is
/// encoded as `[]`, so an empty JSON array decodes as an empty map. A key
/// sent twice keeps its last value, in its first place.
///
/// # Examples
///
/// ```
/// use seozoom::types::ByKey;
///
/// let map: ByKey<i64> = serde_json::from_str(r#"{"zeta": 1, "alpha": 2}"#).unwrap();
/// assert_eq!(map.keys().collect::<Vec<_>>(), ["zeta", "alpha"]);
/// assert_eq!(map.get("alpha"), Some(&2));
/// assert_eq!(serde_json::to_string(&map).unwrap(), r#"{"zeta":1,"alpha":2}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByKey<V>(Vec<(String, V)>);

impl<V> Default for ByKey<V> {
    fn default() -> Self {
        ByKey(Vec::new())
    }
}

impl<V> ByKey<V> {
    /// The map of `entries`, in their order; their keys are distinct.
    pub(crate) fn from_entries(entries: Vec<(String, V)>) -> Self {
        ByKey(entries)
    }

    /// The value under `key`, if any.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Whether `key` is one of the keys.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// How many keys there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is no key.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The keys and their values, in order.
    pub fn iter(&self) -> Iter<'_, V> {
        Iter(self.0.iter())
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &String> + DoubleEndedIterator {
        self.0.iter().map(|(k, _)| k)
    }

    /// The values, in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &V> + DoubleEndedIterator {
        self.0.iter().map(|(_, v)| v)
    }
}

impl<V> std::ops::Index<&str> for ByKey<V> {
    type Output = V;

    /// The value under `key`.
    ///
    /// # Panics
    ///
    /// When the map has no `key`, as a `BTreeMap` does; [`get`](ByKey::get)
    /// does not.
    fn index(&self, key: &str) -> &V {
        self.get(key)
            .unwrap_or_else(|| panic!("no key {key:?} in the map"))
    }
}

/// The keys and values of a [`ByKey`], in order.
#[derive(Debug, Clone)]
pub struct Iter<'a, V>(std::slice::Iter<'a, (String, V)>);

impl<'a, V> Iterator for Iter<'a, V> {
    type Item = (&'a String, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<V> DoubleEndedIterator for Iter<'_, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl<V> ExactSizeIterator for Iter<'_, V> {}

impl<V> From<ByKey<V>> for BTreeMap<String, V> {
    /// The map sorted by key (its order lost).
    fn from(map: ByKey<V>) -> Self {
        map.0.into_iter().collect()
    }
}

impl<V> From<ByKey<V>> for Vec<(String, V)> {
    /// The keys and values, in order.
    fn from(map: ByKey<V>) -> Self {
        map.0
    }
}

impl<'a, V> IntoIterator for &'a ByKey<V> {
    type Item = (&'a String, &'a V);
    type IntoIter = Iter<'a, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<V> IntoIterator for ByKey<V> {
    type Item = (String, V);
    type IntoIter = std::vec::IntoIter<(String, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

struct ByKeyVisitor<V>(PhantomData<V>);

impl<'de, V: Deserialize<'de>> Visitor<'de> for ByKeyVisitor<V> {
    type Value = ByKey<V>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object keyed by the input values (or `[]` when empty)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entries: Vec<(String, V)> = Vec::with_capacity(map.size_hint().unwrap_or(0));
        // Where each key is, so that a key sent twice costs no scan.
        let mut at: HashMap<String, usize> = HashMap::new();
        while let Some((key, value)) = map.next_entry::<String, V>()? {
            match at.get(&key) {
                Some(&i) => entries[i].1 = value,
                None => {
                    at.insert(key.clone(), entries.len());
                    entries.push((key, value));
                }
            }
        }
        Ok(ByKey(entries))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        match seq.next_element::<de::IgnoredAny>()? {
            None => Ok(ByKey::default()),
            Some(_) => Err(de::Error::invalid_type(de::Unexpected::Seq, &self)),
        }
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for ByKey<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ByKeyVisitor(PhantomData))
    }
}

impl<V: Serialize> Serialize for ByKey<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

#[cfg(feature = "schemars")]
impl<V: schemars::JsonSchema> schemars::JsonSchema for ByKey<V> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("ByKey_{}", V::schema_name()).into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <BTreeMap<String, V>>::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::ByKey;

    #[test]
    fn an_empty_array_is_an_empty_map() {
        let empty: ByKey<i64> = serde_json::from_str("[]").unwrap();
        assert!(empty.is_empty());
        assert!(serde_json::from_str::<ByKey<i64>>("[1]").is_err());
    }

    /// The service's order is kept, in and out. (It came out sorted by key.)
    #[test]
    fn keys_keep_their_order_through_decoding_and_encoding() {
        let map: ByKey<i64> = serde_json::from_str(r#"{"b":2,"a":1,"c":3}"#).unwrap();
        assert_eq!(map.keys().collect::<Vec<_>>(), ["b", "a", "c"]);
        assert_eq!(map.values().copied().collect::<Vec<_>>(), [2, 1, 3]);
        assert_eq!(
            serde_json::to_string(&map).unwrap(),
            r#"{"b":2,"a":1,"c":3}"#
        );
        let pairs: Vec<(&String, &i64)> = (&map).into_iter().collect();
        assert_eq!(pairs.len(), 3);
        assert_eq!((map.get("a"), map.get("z")), (Some(&1), None));
    }

    #[test]
    fn a_key_sent_twice_keeps_its_last_value_in_its_first_place() {
        let map: ByKey<i64> = serde_json::from_str(r#"{"b":2,"a":1,"b":9}"#).unwrap();
        assert_eq!(Vec::from(map), [("b".to_owned(), 9), ("a".to_owned(), 1)]);
    }
}
