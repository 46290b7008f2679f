//! Search-result lists: an object of position strings to URLs on the wire,
//! results ordered by numeric position here. (With the `schemars` feature,
//! `Serp`'s `JsonSchema` is generated, from the schema the published documents
//! hold.)

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

/// One organic result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SerpResult {
    /// 1-based position in the results.
    pub position: u32,
    /// Result URL, with the `&amp;` entities of the wire decoded to `&`.
    pub url: String,
}

/// A search-result list, ordered by position (at most 50 organic results).
///
/// On the wire it is an object such as `{"1": "https:\/\/a.it\/", "2": ...}`; keys are
/// numbered as strings, so `"10"` sorts after `"9"` here, not after `"1"`. An empty
/// list may arrive as `[]` and a list as a JSON array (position = index + 1); both
/// are accepted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Serp {
    /// The results, by ascending position.
    pub results: Vec<SerpResult>,
}

impl Serp {
    /// Number of results.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there are no results.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// The results by ascending position.
    pub fn iter(&self) -> std::slice::Iter<'_, SerpResult> {
        self.results.iter()
    }

    /// The URL at a 1-based position.
    pub fn at(&self, position: u32) -> Option<&str> {
        self.results
            .iter()
            .find(|r| r.position == position)
            .map(|r| r.url.as_str())
    }
}

impl<'a> IntoIterator for &'a Serp {
    type Item = &'a SerpResult;
    type IntoIter = std::slice::Iter<'a, SerpResult>;
    fn into_iter(self) -> Self::IntoIter {
        self.results.iter()
    }
}

/// The service writes `&` in result URLs as the HTML entity `&amp;`.
fn decode_url(url: &str) -> String {
    url.replace("&amp;", "&")
}

struct SerpVisitor;

impl<'de> Visitor<'de> for SerpVisitor {
    type Value = Serp;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a search-result list: an object of positions (\"1\", \"2\", ...) to URLs")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Serp, A::Error> {
        let mut results = Vec::with_capacity(map.size_hint().unwrap_or(10).min(64));
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            let position = key
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|p| *p > 0)
                .ok_or_else(|| {
                    de::Error::custom(format_args!(
                        "SERP position `{key}` is not a positive number"
                    ))
                })?;
            let url: Cow<'de, str> = map.next_value()?;
            results.push(SerpResult {
                position,
                url: decode_url(&url),
            });
        }
        results.sort_by_key(|r| r.position);
        if let Some(pair) = results.windows(2).find(|w| w[0].position == w[1].position) {
            return Err(de::Error::custom(format_args!(
                "SERP position {} appears twice",
                pair[0].position
            )));
        }
        Ok(Serp { results })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Serp, A::Error> {
        let mut results = Vec::new();
        while let Some(url) = seq.next_element::<Cow<'de, str>>()? {
            let position = u32::try_from(results.len() + 1).map_err(de::Error::custom)?;
            results.push(SerpResult {
                position,
                url: decode_url(&url),
            });
        }
        Ok(Serp { results })
    }
}

impl<'de> Deserialize<'de> for Serp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(SerpVisitor)
    }
}

impl Serialize for Serp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.results.len()))?;
        for r in &self.results {
            map.serialize_entry(&r.position.to_string(), &r.url)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_by_numeric_position_with_entities_decoded() {
        let json = r#"{"10":"https:\/\/j.it\/","2":"https:\/\/b.it\/?a=1&amp;b=2","1":"https:\/\/a.it\/"}"#;
        let serp: Serp = serde_json::from_str(json).unwrap();
        let positions: Vec<u32> = serp.iter().map(|r| r.position).collect();
        assert_eq!(positions, [1, 2, 10]);
        assert_eq!(serp.at(2), Some("https://b.it/?a=1&b=2"));
    }

    #[test]
    fn empty_array_and_bad_keys() {
        assert!(serde_json::from_str::<Serp>("[]").unwrap().is_empty());
        assert!(serde_json::from_str::<Serp>(r#"{"first":"x"}"#).is_err());
        assert!(serde_json::from_str::<Serp>(r#"{"0":"x"}"#).is_err());
    }

    #[test]
    fn round_trips_to_the_wire_shape() {
        let serp: Serp = serde_json::from_str(r#"{"2":"b","1":"a"}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&serp).unwrap(),
            r#"{"1":"a","2":"b"}"#
        );
    }
}
