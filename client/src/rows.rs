//! The envelope of an operation that answers a list of rows, decoded with the
//! rows' `Vec` reserved up front from `ResultRows`.
//!
//! serde's `Vec` visitor gets no length from serde_json, so it grows by
//! doubling: at the last doubling the old buffer and the new one, half empty,
//! are both allocated (up to 2.2x the body at the peak of a large page). The
//! service sends `ResultRows` before `response`, so the count is known in time
//! to reserve once.
//!
//! This is only the happy path: any failure (a wrong type, a missing or
//! repeated member) is reported as a failure, and the caller decodes again with
//! the derived `Envelope` and path tracking, which names the field. So a body
//! gives the same result, or the same error, either way.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::Envelope;
use crate::operations::SERVICE;
use crate::quirks;

/// Decode the envelope of a list of rows from `text`; `None` on any failure.
///
/// The reservation trusts `ResultRows` only up to twice the body's size in rows
/// (`size_of::<R>()` each), so a wrong count cannot make the client allocate
/// much more than the body it received; the rows past a reservation that was
/// too small are pushed as usual, and one that was too large is given back.
pub(crate) fn decode<R: de::DeserializeOwned>(text: &str) -> Option<Envelope<Vec<R>>> {
    let most = text.len().saturating_mul(2) / std::mem::size_of::<R>().max(1);
    let mut de = serde_json::Deserializer::from_str(text);
    let envelope = EnvelopeSeed::<R> {
        most,
        rows: PhantomData,
    }
    .deserialize(&mut de)
    .ok()?;
    de.end().ok()?;
    Some(envelope)
}

/// The envelope's members this decoder reads; any other is skipped.
enum Member {
    ResultRows,
    UnitsUsed,
    UnitsRemaining,
    Response,
    Other,
}

impl<'de> Deserialize<'de> for Member {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Name;
        impl Visitor<'_> for Name {
            type Value = Member;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Member, E> {
                Ok(match name {
                    n if n == SERVICE.envelope_result_rows => Member::ResultRows,
                    n if n == SERVICE.envelope_units_used => Member::UnitsUsed,
                    n if n == SERVICE.envelope_units_remaining => Member::UnitsRemaining,
                    n if n == SERVICE.envelope_response => Member::Response,
                    _ => Member::Other,
                })
            }
        }
        d.deserialize_identifier(Name)
    }
}

/// An integer member, with the integer quirks the derived envelope accepts.
struct Integer;

impl<'de> DeserializeSeed<'de> for Integer {
    type Value = i64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<i64, D::Error> {
        quirks::integer(d)
    }
}

/// The rows, with room for `reserve` of them from the start.
struct Rows<R> {
    reserve: usize,
    rows: PhantomData<R>,
}

impl<'de, R: Deserialize<'de>> DeserializeSeed<'de> for Rows<R> {
    type Value = Vec<R>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<R>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, R: Deserialize<'de>> Visitor<'de> for Rows<R> {
    type Value = Vec<R>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of rows")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<R>, A::Error> {
        let mut rows = Vec::with_capacity(self.reserve);
        while let Some(row) = seq.next_element()? {
            rows.push(row);
        }
        if rows.len() < rows.capacity() {
            // `ResultRows` was more than the rows sent.
            rows.shrink_to_fit();
        }
        Ok(rows)
    }
}

/// The whole envelope; `most` bounds the reservation.
struct EnvelopeSeed<R> {
    most: usize,
    rows: PhantomData<R>,
}

impl<'de, R: Deserialize<'de>> DeserializeSeed<'de> for EnvelopeSeed<R> {
    type Value = Envelope<Vec<R>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, R: Deserialize<'de>> Visitor<'de> for EnvelopeSeed<R> {
    type Value = Envelope<Vec<R>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the API's envelope")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        fn once<T, E: de::Error>(
            slot: &mut Option<T>,
            name: &'static str,
            value: T,
        ) -> Result<(), E> {
            match slot.replace(value) {
                Some(_) => Err(E::duplicate_field(name)),
                None => Ok(()),
            }
        }
        let (mut result_rows, mut units_used, mut units_remaining, mut response) =
            (None, None, None, None);
        while let Some(member) = map.next_key::<Member>()? {
            match member {
                Member::ResultRows => {
                    let value = map.next_value_seed(Integer)?;
                    once(&mut result_rows, SERVICE.envelope_result_rows, value)?;
                }
                Member::UnitsUsed => {
                    let value = map.next_value_seed(Integer)?;
                    once(&mut units_used, SERVICE.envelope_units_used, value)?;
                }
                Member::UnitsRemaining => {
                    let value = map.next_value_seed(Integer)?;
                    once(
                        &mut units_remaining,
                        SERVICE.envelope_units_remaining,
                        value,
                    )?;
                }
                Member::Response => {
                    let reserve = result_rows
                        .and_then(|n: i64| usize::try_from(n).ok())
                        .unwrap_or(0)
                        .min(self.most);
                    let value = map.next_value_seed(Rows {
                        reserve,
                        rows: PhantomData,
                    })?;
                    once(&mut response, SERVICE.envelope_response, value)?;
                }
                Member::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let missing = |name| de::Error::missing_field(name);
        Ok(Envelope {
            result_rows: result_rows.ok_or_else(|| missing(SERVICE.envelope_result_rows))?,
            units_used: units_used.ok_or_else(|| missing(SERVICE.envelope_units_used))?,
            units_remaining: units_remaining
                .ok_or_else(|| missing(SERVICE.envelope_units_remaining))?,
            response: response.ok_or_else(|| missing(SERVICE.envelope_response))?,
            no_data: false,
            fetched_at: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::decode;
    use crate::Envelope;

    /// A record with the quirks the derived decoders handle.
    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Row {
        #[serde(deserialize_with = "crate::quirks::integer")]
        n: i64,
        s: String,
    }

    fn derived(text: &str) -> Option<Envelope<Vec<Row>>> {
        serde_json::from_str(text).ok()
    }

    #[test]
    fn the_same_envelope_as_the_derived_decoder() {
        let bodies = [
            r#"{"ResultRows":2,"UnitsUsed":20,"UnitsRemaining":5.0,"response":[{"n":1,"s":"a\/b"},{"n":2.0,"s":""}]}"#,
            // Members in another order, an unknown one, and no count before the rows.
            r#"{"extra":{"x":[1,2]},"response":[{"n":1,"s":"x"}],"UnitsRemaining":1,"UnitsUsed":0,"ResultRows":1}"#,
            // A count that is wrong either way.
            r#"{"ResultRows":900,"UnitsUsed":0,"UnitsRemaining":1,"response":[{"n":1,"s":"x"}]}"#,
            r#"{"ResultRows":0,"UnitsUsed":0,"UnitsRemaining":1,"response":[{"n":1,"s":"x"},{"n":2,"s":"y"}]}"#,
            r#"{"ResultRows":-3,"UnitsUsed":0,"UnitsRemaining":1,"response":[]}"#,
        ];
        for body in bodies {
            let ours = decode::<Row>(body).expect(body);
            assert_eq!(Some(&ours), derived(body).as_ref(), "{body}");
            assert_eq!(ours.response.capacity(), ours.response.len(), "{body}");
        }
    }

    #[test]
    fn what_the_derived_decoder_refuses_is_refused() {
        let bodies = [
            r#"{"ResultRows":1,"UnitsUsed":0,"UnitsRemaining":1}"#,
            r#"{"ResultRows":1,"UnitsUsed":0,"response":[]}"#,
            r#"{"ResultRows":1,"UnitsUsed":0,"UnitsRemaining":1,"response":null}"#,
            r#"{"ResultRows":1,"UnitsUsed":0,"UnitsRemaining":1,"response":[{"n":"1","s":""}]}"#,
            r#"{"ResultRows":"1","UnitsUsed":0,"UnitsRemaining":1,"response":[]}"#,
            r#"{"ResultRows":1,"ResultRows":1,"UnitsUsed":0,"UnitsRemaining":1,"response":[]}"#,
            r#"{"ResultRows":1,"UnitsUsed":0,"UnitsRemaining":1,"response":[]} trailing"#,
            r#"{"ResultRows":1,"UnitsUsed":0,"UnitsRemaining":1,"response":["#,
            r#"[]"#,
        ];
        for body in bodies {
            assert!(decode::<Row>(body).is_none(), "{body}");
            assert!(derived(body).is_none(), "{body}");
        }
    }

    #[test]
    fn the_rows_are_reserved_from_the_count_once() {
        let rows: Vec<String> = (0..1000)
            .map(|i| format!(r#"{{"n":{i},"s":"r"}}"#))
            .collect();
        let body = format!(
            r#"{{"ResultRows":1000,"UnitsUsed":0,"UnitsRemaining":1,"response":[{}]}}"#,
            rows.join(",")
        );
        let envelope = decode::<Row>(&body).unwrap();
        assert_eq!(envelope.response.len(), 1000);
        // Grown by doubling it would have room for 1024.
        assert_eq!(envelope.response.capacity(), 1000);
    }
}
