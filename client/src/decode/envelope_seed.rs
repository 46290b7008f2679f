//! Reading an envelope with a service's member names: for any result type,
//! and for a list of rows with its `Vec` reserved up front from `ResultRows`.
//!
//! serde's `Vec` visitor gets no length from serde_json, so it grows by
//! doubling: at the last doubling the old buffer and the new one, half empty,
//! are both allocated (up to 2.2x the body at the peak of a large page). The
//! service sends `ResultRows` before `response`, so the count is known in time
//! to reserve once.
//!
//! Both read the same members the same way (unknown ones kept as the
//! envelope's extras and noted, a repeated or missing one refused, the integer
//! quirks accepted), so a body gives the same result, or the same error,
//! either way. What they refuse, the slow path reads leniently
//! (`lenient_envelope`).

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::quirks;
use crate::drift::seen::{DriftKind, Found, note};
use crate::envelope::Envelope;
use crate::operation_table::Service;
use crate::record::{Kept, UnknownMembers};

/// The record name drift of the envelope itself is noted under (the drift
/// report's "the envelope").
pub(crate) const ENVELOPE: &str = "";

/// Reads an [`Envelope<T>`] whose members have `service`'s wire names.
pub struct EnvelopeSeed<'s, T> {
    service: &'s Service,
    response: PhantomData<T>,
}

impl<'s, T> EnvelopeSeed<'s, T> {
    /// A reader of the envelope of `service`.
    pub fn new(service: &'s Service) -> Self {
        EnvelopeSeed {
            service,
            response: PhantomData,
        }
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for EnvelopeSeed<'_, T> {
    type Value = Envelope<T>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(EnvelopeVisitor {
            service: self.service,
            payload: Typed(PhantomData),
        })
    }
}

/// Decode the envelope of a list of rows from `text`; `None` on any failure
/// (the caller decodes again with path tracking to say where).
///
/// The reservation trusts `ResultRows` only up to twice the body's size in rows
/// (`size_of::<R>()` each), so a wrong count cannot make the client allocate
/// much more than the body it received; the rows past a reservation that was
/// too small are pushed as usual, and one that was too large is given back.
pub fn decode_rows_fast<R: de::DeserializeOwned>(
    service: &Service,
    text: &str,
) -> Result<Envelope<Vec<R>>, serde_json::Error> {
    let most = text.len().saturating_mul(2) / std::mem::size_of::<R>().max(1);
    let mut de = serde_json::Deserializer::from_str(text);
    let envelope = de.deserialize_map(EnvelopeVisitor {
        service,
        payload: Reserved::<R> {
            most,
            rows: PhantomData,
        },
    })?;
    de.end()?;
    Ok(envelope)
}

/// How the `response` member is read, given `ResultRows` if it came first.
trait Payload<'de> {
    type Value;
    fn read<A: MapAccess<'de>>(
        &self,
        map: &mut A,
        result_rows: Option<i64>,
    ) -> Result<Self::Value, A::Error>;
}

/// Any result type, as its own `Deserialize` reads it.
struct Typed<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Payload<'de> for Typed<T> {
    type Value = T;
    fn read<A: MapAccess<'de>>(&self, map: &mut A, _: Option<i64>) -> Result<T, A::Error> {
        map.next_value()
    }
}

/// A list of rows reserved from the count; `most` bounds the reservation.
struct Reserved<R> {
    most: usize,
    rows: PhantomData<R>,
}

impl<'de, R: Deserialize<'de>> Payload<'de> for Reserved<R> {
    type Value = Vec<R>;
    fn read<A: MapAccess<'de>>(
        &self,
        map: &mut A,
        result_rows: Option<i64>,
    ) -> Result<Vec<R>, A::Error> {
        let reserve = result_rows
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0)
            .min(self.most);
        map.next_value_seed(Rows {
            reserve,
            rows: PhantomData,
        })
    }
}

/// The envelope's members; any other is kept by name.
enum EnvelopeMember {
    ResultRows,
    UnitsUsed,
    UnitsRemaining,
    Response,
    Other(String),
}

/// Names a member by `service`'s wire names.
struct MemberName<'s>(&'s Service);

impl<'de> DeserializeSeed<'de> for MemberName<'_> {
    type Value = EnvelopeMember;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<EnvelopeMember, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl Visitor<'_> for MemberName<'_> {
    type Value = EnvelopeMember;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }
    fn visit_str<E: de::Error>(self, name: &str) -> Result<EnvelopeMember, E> {
        let service = self.0;
        Ok(match name {
            n if n == service.envelope_result_rows => EnvelopeMember::ResultRows,
            n if n == service.envelope_units_used => EnvelopeMember::UnitsUsed,
            n if n == service.envelope_units_remaining => EnvelopeMember::UnitsRemaining,
            n if n == service.envelope_response => EnvelopeMember::Response,
            other => EnvelopeMember::Other(other.to_owned()),
        })
    }
}

/// An integer member, with the integer quirks of the records.
struct IntegerMember;

impl<'de> DeserializeSeed<'de> for IntegerMember {
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

/// The whole envelope, its `response` read by `payload`.
struct EnvelopeVisitor<'s, P> {
    service: &'s Service,
    payload: P,
}

impl<'de, P: Payload<'de>> Visitor<'de> for EnvelopeVisitor<'_, P> {
    type Value = Envelope<P::Value>;

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
        let service = self.service;
        let (mut result_rows, mut units_used, mut units_remaining, mut response) =
            (None, None, None, None);
        let mut extras = UnknownMembers::default();
        while let Some(member) = map.next_key_seed(MemberName(service))? {
            match member {
                EnvelopeMember::ResultRows => {
                    let value = map.next_value_seed(IntegerMember)?;
                    once(&mut result_rows, service.envelope_result_rows, value)?;
                }
                EnvelopeMember::UnitsUsed => {
                    let value = map.next_value_seed(IntegerMember)?;
                    once(&mut units_used, service.envelope_units_used, value)?;
                }
                EnvelopeMember::UnitsRemaining => {
                    let value = map.next_value_seed(IntegerMember)?;
                    once(
                        &mut units_remaining,
                        service.envelope_units_remaining,
                        value,
                    )?;
                }
                EnvelopeMember::Response => {
                    let value = self.payload.read(&mut map, result_rows)?;
                    once(&mut response, service.envelope_response, value)?;
                }
                EnvelopeMember::Other(name) => {
                    let value = map.next_value_seed(Kept::TOP)?;
                    note(
                        ENVELOPE,
                        &name,
                        DriftKind::UnknownMember,
                        Found::Value(&value),
                    );
                    extras.insert(name, value);
                }
            }
        }
        let missing = |name| de::Error::missing_field(name);
        let mut envelope = Envelope::received(
            result_rows.ok_or_else(|| missing(service.envelope_result_rows))?,
            units_used.ok_or_else(|| missing(service.envelope_units_used))?,
            Some(units_remaining.ok_or_else(|| missing(service.envelope_units_remaining))?),
            response.ok_or_else(|| missing(service.envelope_response))?,
        );
        envelope.extras = extras;
        Ok(envelope)
    }
}

#[cfg(test)]
mod tests {
    use serde::de::DeserializeSeed;

    use super::{EnvelopeSeed, decode_rows_fast};
    use crate::envelope::Envelope;
    use crate::operations::SERVICE;

    fn decode<R: serde::de::DeserializeOwned>(text: &str) -> Option<Envelope<Vec<R>>> {
        decode_rows_fast(&SERVICE, text).ok()
    }

    /// A record with the quirks the record decoders handle.
    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct QuirkRow {
        #[serde(deserialize_with = "crate::decode::quirks::integer")]
        n: i64,
        s: String,
    }

    /// The envelope of any result type, with the `Vec` grown as serde grows it.
    fn derived(text: &str) -> Option<Envelope<Vec<QuirkRow>>> {
        let mut de = serde_json::Deserializer::from_str(text);
        let envelope = EnvelopeSeed::new(&SERVICE).deserialize(&mut de).ok()?;
        de.end().ok()?;
        Some(envelope)
    }

    #[test]
    fn the_rows_decoder_reads_what_the_envelope_seed_reads() {
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
            let ours = decode::<QuirkRow>(body).expect(body);
            assert_eq!(Some(&ours), derived(body).as_ref(), "{body}");
            assert_eq!(ours.response.capacity(), ours.response.len(), "{body}");
        }
    }

    #[test]
    fn what_the_envelope_seed_refuses_is_refused() {
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
            assert!(decode::<QuirkRow>(body).is_none(), "{body}");
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
        let envelope = decode::<QuirkRow>(&body).unwrap();
        assert_eq!(envelope.response.len(), 1000);
        // Grown by doubling it would have room for 1024.
        assert_eq!(envelope.response.capacity(), 1000);
    }
}
