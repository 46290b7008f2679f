//! Responses keyed by an input value (keyword -> SERP), ordered by key.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Serialize, Serializer};

/// An object keyed by the values of a list parameter, such as keyword -> SERP.
///
/// It derefs to a [`BTreeMap`]. The service is written in PHP, where an empty map
/// is encoded as `[]`, so an empty JSON array decodes as an empty map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByKey<V>(pub BTreeMap<String, V>);

impl<V> Default for ByKey<V> {
    fn default() -> Self {
        ByKey(BTreeMap::new())
    }
}

impl<V> Deref for ByKey<V> {
    type Target = BTreeMap<String, V>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl<V> From<ByKey<V>> for BTreeMap<String, V> {
    fn from(map: ByKey<V>) -> Self {
        map.0
    }
}

impl<'a, V> IntoIterator for &'a ByKey<V> {
    type Item = (&'a String, &'a V);
    type IntoIter = std::collections::btree_map::Iter<'a, String, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<V> IntoIterator for ByKey<V> {
    type Item = (String, V);
    type IntoIter = std::collections::btree_map::IntoIter<String, V>;
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
        let mut out = BTreeMap::new();
        while let Some((key, value)) = map.next_entry::<String, V>()? {
            out.insert(key, value);
        }
        Ok(ByKey(out))
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
        self.0.serialize(s)
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
        let map: ByKey<i64> = serde_json::from_str(r#"{"b":2,"a":1}"#).unwrap();
        assert_eq!(map.keys().collect::<Vec<_>>(), ["a", "b"]);
    }
}
