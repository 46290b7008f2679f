//! A member the spec does not know, read whole as a JSON value to be kept,
//! but never deeper than a bound: what lies deeper is skipped (as the parser
//! skips a member nobody reads, without recursing) and kept as `null`, so
//! that an answer nested absurdly deep in a member nobody asked for still
//! decodes.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// The depth kept (below serde_json's own recursion limit of 128).
const DEPTH: u8 = 64;

/// Reads a value to keep, to [`DEPTH`] levels.
#[derive(Clone, Copy)]
pub(crate) struct Kept(u8);

impl Kept {
    /// A value at the top level.
    pub(crate) const TOP: Kept = Kept(DEPTH);
}

impl<'de> DeserializeSeed<'de> for Kept {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        match self.0 {
            0 => d.deserialize_ignored_any(IgnoredAny).map(|_| Value::Null),
            _ => d.deserialize_any(self),
        }
    }
}

impl<'de> Visitor<'de> for Kept {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = Kept(self.0 - 1);
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let inner = Kept(self.0 - 1);
        let mut members = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(inner)?;
            members.insert(key, value);
        }
        Ok(Value::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::Kept;
    use serde::de::DeserializeSeed;

    fn kept(text: &str) -> serde_json::Value {
        let mut de = serde_json::Deserializer::from_str(text);
        Kept::TOP.deserialize(&mut de).unwrap()
    }

    #[test]
    fn values_are_kept_whole_to_the_bound_and_skipped_below_it() {
        let shallow = r#"{"a":[1,2.5,"x",null,true,{"b":{}}]}"#;
        assert_eq!(kept(shallow).to_string(), shallow);
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        let value = kept(&deep);
        let mut depth = 0;
        let mut at = &value;
        while let Some(inner) = at.as_array().and_then(|items| items.first()) {
            (depth, at) = (depth + 1, inner);
        }
        assert_eq!((depth, at), (64, &serde_json::Value::Null));
    }
}
