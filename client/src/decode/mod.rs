//! Judging a response by its content and decoding it.
//!
//! The happy path is one typed decode of the bytes, whose records read each
//! member leniently (`crate::record`). When it fails, the answer is decoded
//! row by row: the rows that decode are the result, and those that still
//! cannot be typed are kept raw beside them ([`RawRow`]). Only when the
//! envelope itself does not decode is the body examined further, to say what it
//! was instead: not UTF-8, an HTML page, JSON cut short, the service's error
//! object, or the "no data" answer.

mod envelope_seed;
mod lenient_envelope;
#[doc(hidden)]
pub mod quirks;

use std::marker::PhantomData;

use serde::Serialize;
use serde::de::{DeserializeOwned, DeserializeSeed};
use serde_json::Value;

pub use envelope_seed::EnvelopeSeed;

use crate::drift::seen;
use crate::envelope::{Envelope, RawRow};
use crate::error::{Error, ErrorKind, bounded, snippet};
use crate::operation_table::{Operation, Service, Shape};
use envelope_seed::decode_rows_fast;

/// A decoder of an operation's answer (its status and body) into the envelope
/// of `T`, such as [`decode_typed`] or the generated `operations::decode_json`.
pub type Decoder<T> = fn(&Operation, u16, &[u8]) -> Result<Envelope<T>, Error>;

/// The UTF-8 encoding of U+FEFF, the byte-order mark.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// What a body turned out to be.
pub(crate) enum Decoded<T> {
    /// The documented envelope.
    Envelope(Envelope<T>),
    /// The service's "no data found" answer.
    NoData,
}

/// The service's own message in an error body: `message` or `error`.
fn service_message(value: &serde_json::Value) -> Option<String> {
    ["message", "error"]
        .iter()
        .find_map(|k| match value.get(k)? {
            serde_json::Value::String(s) => Some(bounded(s.clone())),
            serde_json::Value::Null => None,
            other => Some(bounded(other.to_string())),
        })
}

fn looks_like_html(text: &str) -> bool {
    let start = text.trim_start().as_bytes();
    start.first() == Some(&b'<')
}

fn is_no_data(service: &Service, status: u16, message: Option<&str>) -> bool {
    let matches = message.is_some_and(|m| m.trim() == service.no_data_message);
    // The answer has been seen with its own status; accept it under 2xx as well.
    matches && (status == service.no_data_status || (200..300).contains(&status))
}

/// serde reports a missing field at its parent; point at the field itself.
fn field_path(path: &str, message: &str) -> String {
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(field, _)| field);
    match (missing, path) {
        (Some(field), ".") => field.to_owned(),
        (Some(field), parent) => format!("{parent}.{field}"),
        (None, path) => path.to_owned(),
    }
}

/// The happy path: the envelope of `T`, or the parser's message if the body is
/// anything else.
///
/// The body is checked to be UTF-8 once, as a whole, so the parser need not check
/// every string again, and no path is tracked. Every failure, whatever it is, is
/// left to the slow path, which parses the body and decodes it again with
/// `serde_path_to_error` to name the failing field ([`tracked`]): a failure
/// costs more passes, a success one. The message is used only when the parsed
/// body decodes, that is when what failed is something parsing erases (a
/// member given twice).
fn fast_decode<T: DeserializeOwned>(service: &Service, body: &[u8]) -> Result<Envelope<T>, String> {
    let text = std::str::from_utf8(body).map_err(|e| e.to_string())?;
    let mut de = serde_json::Deserializer::from_str(text);
    let envelope = EnvelopeSeed::new(service)
        .deserialize(&mut de)
        .map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(envelope)
}

/// Decode a body received with `status` as the envelope of `T`.
pub(crate) fn decode<T: DeserializeOwned>(
    op: &Operation,
    status: u16,
    body: &[u8],
) -> Result<Decoded<T>, Error> {
    decode_with(op, status, body, |body| fast_decode::<T>(op.service, body))
}

/// [`decode`] with another happy path, which must decode what
/// [`EnvelopeSeed`] decodes, to the same value, and fail on the rest.
fn decode_with<T: DeserializeOwned>(
    op: &Operation,
    status: u16,
    body: &[u8],
    fast: impl FnOnce(&[u8]) -> Result<Envelope<T>, String>,
) -> Result<Decoded<T>, Error> {
    // A UTF-8 byte-order mark, as a PHP file saved with one puts before its
    // output, is not JSON; what follows it is read.
    let body = body.strip_prefix(UTF8_BOM).unwrap_or(body);
    let success = (200..300).contains(&status);
    let fast_error = match success.then(|| fast(body)) {
        Some(Ok(envelope)) => return Ok(Decoded::Envelope(envelope)),
        Some(Err(error)) => error,
        None => String::new(),
    };
    let typed_error = match success {
        true => match lenient::<T>(op, body, fast_error) {
            Ok(envelope) => return Ok(Decoded::Envelope(envelope)),
            Err(error) => Some(error),
        },
        false => None,
    };
    judge(op, status, body, typed_error).map(|NoData| Decoded::NoData)
}

/// The slow path of a successful answer the typed decode refused: the body
/// parsed, its envelope put in its documented form (`lenient_envelope`),
/// then decoded with the path tracked; when that fails, row by row. The
/// envelope, or where it failed and why (`fast_error` when only the text
/// fails: what parsing erased, a member given twice, is the fault).
fn lenient<T: DeserializeOwned>(
    op: &Operation,
    body: &[u8],
    fast_error: String,
) -> Result<Envelope<T>, (String, String)> {
    // Decoded again from the start: what the typed decode noted is noted again.
    seen::restart();
    let value = parse(body).map_err(|e| (".".to_owned(), e.to_string()))?;
    let (reshaped, envelope_seen) =
        seen::watch(|| lenient_envelope::reshape(op, value.clone(), body));
    let Some(reshaped) = reshaped else {
        // No envelope: decoded as it is, to say where.
        return match tracked(EnvelopeSeed::<T>::new(op.service), &value) {
            Err((path, message)) => Err((field_path(&path, &message), message)),
            Ok(_) => Err((".".to_owned(), fast_error)),
        };
    };
    let outcome = match tracked(EnvelopeSeed::<T>::new(op.service), &reshaped.value) {
        Ok(_) if !reshaped.changed && reshaped.extras.is_empty() => {
            Err((".".to_owned(), fast_error))
        }
        Ok(envelope) => Ok(envelope),
        Err((path, message)) => match by_row::<T>(op, &reshaped.value) {
            Some(envelope) => Ok(envelope),
            None => Err((field_path(&path, &message), message)),
        },
    };
    seen::replay(envelope_seen);
    outcome.map(|envelope| reshaped.finish(envelope))
}

/// An answer some of whose rows (an array's items, a map's members) cannot be
/// typed: the envelope with the rows that decode as the result and the others
/// kept raw. `None` when the envelope does not decode, the response has no
/// rows, or every row decodes on its own (the typed decode then failed for
/// another reason, which the tracked decode reports).
fn by_row<T: DeserializeOwned>(op: &Operation, body: &Value) -> Option<Envelope<T>> {
    if !matches!(op.response.shape, Shape::Array | Shape::Map { .. }) {
        return None;
    }
    let envelope: Envelope<Value> = tracked(EnvelopeSeed::new(op.service), body).ok()?;
    // What the failed typed decode noted is noted again, row by row.
    seen::restart();
    let (response, raw_rows) = split_rows(envelope.response, &try_row::<T>)?;
    // The rows kept decode: once more, their drift noted already.
    let response = seen::unwatched(|| tracked(PhantomData::<T>, &response)).ok()?;
    let mut envelope = Envelope::received(
        envelope.result_rows,
        envelope.units_used,
        envelope.units_remaining,
        response,
    );
    envelope.raw_rows = raw_rows;
    Some(envelope)
}

// The steps of the generic decode that do not depend on the result type are
// functions of their own, not generic: compiled once, here, rather than
// again in every crate that decodes a result type (a generic function's
// callees are compiled where it is instantiated).

/// A response's rows split into those that decode (`try_row` says which),
/// as a response again, and the others, kept raw; `None` when the response
/// has no rows or every row decodes.
fn split_rows(
    response: Value,
    try_row: &dyn Fn(Value, &str) -> RowTried,
) -> Option<(Value, Vec<RawRow>)> {
    let mut raw_rows = Vec::new();
    let response = match response {
        Value::Array(items) => {
            let mut kept = Vec::with_capacity(items.len());
            for (index, item) in items.into_iter().enumerate() {
                match try_row(Value::Array(vec![item]), "[0]") {
                    Ok(Value::Array(mut one)) => kept.extend(one.pop()),
                    Ok(_) => {}
                    Err((error, Value::Array(mut one))) => {
                        let row = one.pop().unwrap_or_default();
                        raw_rows.push(RawRow::new(index, None, error, row));
                    }
                    Err(_) => {}
                }
            }
            Value::Array(kept)
        }
        Value::Object(members) => {
            let mut kept = serde_json::Map::new();
            for (index, (key, value)) in members.into_iter().enumerate() {
                let prefix = key.clone();
                let mut one = serde_json::Map::new();
                one.insert(key, value);
                match try_row(Value::Object(one), &prefix) {
                    Ok(Value::Object(one)) => kept.extend(one),
                    Ok(_) => {}
                    Err((error, Value::Object(one))) => {
                        for (key, row) in one {
                            raw_rows.push(RawRow::new(index, Some(key), error.clone(), row));
                        }
                    }
                    Err(_) => {}
                }
            }
            Value::Object(kept)
        }
        _ => return None,
    };
    if raw_rows.is_empty() {
        return None;
    }
    Some((response, raw_rows))
}

/// The body parsed as JSON.
fn parse(body: &[u8]) -> serde_json::Result<Value> {
    serde_json::from_slice(body)
}

/// A row given back: decoded, or why not and the row.
type RowTried = Result<Value, (String, Value)>;

/// `one` (a response of one row) back when it decodes as `T`; else why not
/// (the path within the row, `prefix` cut off) and `one`.
fn try_row<T: DeserializeOwned>(one: Value, prefix: &str) -> RowTried {
    match tracked(PhantomData::<T>, &one) {
        Ok(_) => Ok(one),
        Err((path, message)) => {
            let path = field_path(&path, &message);
            let inner = path
                .strip_prefix(prefix)
                .map(|rest| rest.trim_start_matches('.'))
                .unwrap_or(&path);
            let error = match inner {
                "" | "." => bounded(message),
                inner => bounded(format!("{inner}: {message}")),
            };
            Err((error, one))
        }
    }
}

/// `seed` applied to a parsed body (or a part of one), tracking the path: the
/// value, or the path where it failed and why.
///
/// Every slow path decodes through here, from a `Value`, so that a record's
/// decoder is compiled twice per result type in a crate that calls it (this
/// and the fast path's, from text) rather than once per path: the typed
/// decode is generic, and each deserializer it meets is another copy of every
/// record's code in the caller's build.
fn tracked<'de, S: DeserializeSeed<'de>>(
    seed: S,
    value: &'de Value,
) -> Result<S::Value, (String, String)> {
    let mut track = serde_path_to_error::Track::new();
    seed.deserialize(serde_path_to_error::Deserializer::new(value, &mut track))
        .map_err(|e| (track.path().to_string(), e.to_string()))
}

/// The "no data found" answer, as [`judge`] recognises it.
struct NoData;

/// What a body that is not the envelope is instead: "no data found", or the
/// error that says what it is. `typed_error` is the typed decode's failure (its
/// path and message) when the status was a success.
///
/// Not generic, so that it is compiled once, in this crate, rather than in every
/// crate that decodes a result type.
fn judge(
    op: &Operation,
    status: u16,
    body: &[u8],
    typed_error: Option<(String, String)>,
) -> Result<NoData, Error> {
    let success = (200..300).contains(&status);
    let service = |message: Option<String>| {
        let body = snippet(body);
        let kind = match crate::charge::says_out_of_units(status, message.as_deref()) {
            true => ErrorKind::OutOfUnits {
                status,
                message,
                body,
            },
            false => ErrorKind::Service {
                status,
                message,
                body,
            },
        };
        Error::new(op.label(), kind)
    };
    // serde's messages quote the offending value, and paths name map keys:
    // either can be as long as the body.
    let decode_error = |path: String, message: String| {
        let kind = ErrorKind::Decode {
            path: bounded(path),
            message: bounded(message),
            body: snippet(body),
            answer: body.into(),
        };
        Error::new(op.label(), kind)
    };
    let Ok(text) = std::str::from_utf8(body) else {
        return Err(match success {
            true => decode_error(".".into(), "the body is not UTF-8 text".into()),
            false => service(Some("the body is not UTF-8 text".into())),
        });
    };
    if looks_like_html(text) {
        return Err(service(Some(
            "an HTML page instead of the API's JSON".into(),
        )));
    }
    let value = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value) => value,
        Err(e) if !success => {
            let what = if e.is_eof() {
                "a JSON body cut short"
            } else {
                "a body that is not JSON"
            };
            return Err(service(Some(what.into())));
        }
        Err(e) if e.is_eof() => {
            return Err(decode_error(
                ".".into(),
                format!("the JSON is cut short: {e}"),
            ));
        }
        Err(e) => return Err(decode_error(".".into(), format!("not JSON: {e}"))),
    };
    let message = service_message(&value);
    if is_no_data(op.service, status, message.as_deref()) {
        return Ok(NoData);
    }
    let has_response = value.get(op.service.envelope_response).is_some();
    match typed_error {
        Some(_) if !has_response && message.is_some() => Err(service(message)),
        Some((path, message)) => Err(decode_error(path, message)),
        None => Err(service(message)),
    }
}

/// The typed result of a body received with `status`, as a call of a run
/// gives it: the envelope, or for "no data found" the empty result (list and map
/// operations) or [`ErrorKind::NoData`].
///
/// # Errors
///
/// As said above.
pub fn decode_typed<T: DeserializeOwned>(
    op: &Operation,
    status: u16,
    body: &[u8],
) -> Result<Envelope<T>, Error> {
    match decode::<T>(op, status, body)? {
        Decoded::Envelope(envelope) => Ok(envelope),
        Decoded::NoData => empty_result::<T>(op, None),
    }
}

/// [`decode_typed`] for an operation that answers a list of rows: the rows'
/// `Vec` is reserved from `ResultRows` instead of grown by doubling (see
/// `rows.rs`). Errors are those of [`decode_typed`].
///
/// # Errors
///
/// Those of [`decode_typed`].
pub fn decode_rows<R: DeserializeOwned>(
    op: &Operation,
    status: u16,
    body: &[u8],
) -> Result<Envelope<Vec<R>>, Error> {
    let fast = |body: &[u8]| {
        let text = std::str::from_utf8(body).map_err(|e| e.to_string())?;
        decode_rows_fast::<R>(op.service, text).map_err(|e| e.to_string())
    };
    match decode_with(op, status, body, fast)? {
        Decoded::Envelope(envelope) => Ok(envelope),
        Decoded::NoData => empty_result::<Vec<R>>(op, None),
    }
}

impl Operation {
    /// A body the service sent for this operation, with its HTTP `status`,
    /// decoded as a call's answer is: the envelope of `T`, the operation's
    /// typed result (`Vec` of its record, [`ByKey`](crate::types::ByKey) of
    /// it, or the one record), or for "no data found" the empty result of a
    /// list or map operation. For replaying answers kept elsewhere, and for
    /// faces that hold an operation rather than its builder (the Python
    /// package's `seozoom.decode`).
    ///
    /// `T` is the caller's choice; the builder's `send` names the operation's
    /// own (`serde_json::Value` reads any operation's answer, untyped).
    ///
    /// # Errors
    ///
    /// As a call's: [`ErrorKind::Service`] for the service's error (its
    /// status, message and an excerpt of the body), [`ErrorKind::NoData`]
    /// for "no data found" from an operation that answers one object, and
    /// [`ErrorKind::Decode`] naming the field of a body that does not decode
    /// as `T`.
    ///
    /// # Examples
    ///
    /// ```
    /// use seozoom::error::ErrorKind;
    /// use seozoom::operations::KEYWORDS_SERP;
    /// use seozoom::types::{ByKey, Serp};
    ///
    /// let saved = br#"{"ResultRows":1,"UnitsUsed":100,"UnitsRemaining":900,
    ///     "response":{"scarpe":{"1":"https://a.example/","2":"https://b.example/?q=1&amp;p=2"}}}"#;
    /// let envelope = KEYWORDS_SERP.decode::<ByKey<Serp>>(200, saved)?;
    /// assert_eq!(envelope.units_used, 100);
    /// assert_eq!(envelope.response["scarpe"].at(2), Some("https://b.example/?q=1&p=2"));
    ///
    /// // "No data found!" is the empty result of a map operation.
    /// let none = br#"{"status":400,"message":"No data found!"}"#;
    /// let empty = KEYWORDS_SERP.decode::<ByKey<Serp>>(400, none)?;
    /// assert!(empty.no_data && empty.response.is_empty());
    ///
    /// // Another refusal is the service's error.
    /// let refused = br#"{"status":401,"message":"Invalid API key"}"#;
    /// let error = KEYWORDS_SERP.decode::<ByKey<Serp>>(401, refused).unwrap_err();
    /// assert!(matches!(error.kind(), ErrorKind::Service { status: 401, .. }));
    /// # Ok::<(), seozoom::Error>(())
    /// ```
    pub fn decode<T: DeserializeOwned>(
        &self,
        status: u16,
        body: &[u8],
    ) -> Result<Envelope<T>, Error> {
        decode_typed(self, status, body)
    }

    /// [`decode`](Self::decode) for an operation that answers a list of
    /// rows, as a call decodes them: the rows' `Vec` is reserved from the
    /// envelope's row count rather than grown by doubling, which keeps the
    /// peak memory of a large page near the body's size.
    ///
    /// # Errors
    ///
    /// As [`decode`](Self::decode).
    ///
    /// # Examples
    ///
    /// ```
    /// use seozoom::operations::DOMAINS_AUTHORITY;
    /// use seozoom::types::Authority;
    ///
    /// let none = br#"{"status":400,"message":"No data found!"}"#;
    /// let empty = DOMAINS_AUTHORITY.decode_rows::<Authority>(400, none)?;
    /// assert!(empty.no_data && empty.response.is_empty());
    /// # Ok::<(), seozoom::Error>(())
    /// ```
    pub fn decode_rows<R: DeserializeOwned>(
        &self,
        status: u16,
        body: &[u8],
    ) -> Result<Envelope<Vec<R>>, Error> {
        decode_rows(self, status, body)
    }
}

/// The empty result of an operation that returns a list or a map.
pub(crate) fn empty_result<T: DeserializeOwned>(
    op: &Operation,
    units_remaining: Option<i64>,
) -> Result<Envelope<T>, Error> {
    let empty = match op.response.shape {
        Shape::Array => "[]",
        Shape::Map { .. } => "{}",
        _ => {
            return Err(Error::new(op.label(), ErrorKind::NoData));
        }
    };
    let response = serde_json::from_str(empty).map_err(|e| response_error(op, &e))?;
    Ok(Envelope::no_data(response, units_remaining))
}

/// The error of a `response` that cannot be made or re-encoded (no body to show).
fn response_error(op: &Operation, error: &serde_json::Error) -> Error {
    let kind = ErrorKind::Decode {
        path: op.service.envelope_response.into(),
        message: error.to_string(),
        body: String::new(),
        answer: Default::default(),
    };
    Error::new(op.label(), kind)
}

/// The decoder the generated `operations::decode_json` calls for an operation whose result is `T`: the typed decode, then
/// `response` re-encoded as JSON.
///
/// # Errors
///
/// Those of [`decode_typed`], and [`ErrorKind::Decode`] should the result not re-encode as
/// JSON.
pub fn decode_json<T: DeserializeOwned + Serialize>(
    op: &Operation,
    status: u16,
    body: &[u8],
) -> Result<Envelope<serde_json::Value>, Error> {
    let envelope = match decode::<T>(op, status, body)? {
        Decoded::Envelope(envelope) => envelope,
        Decoded::NoData => empty_result::<T>(op, None)?,
    };
    let response = serde_json::to_value(&envelope.response).map_err(|e| response_error(op, &e))?;
    Ok(envelope.map(|_| response))
}
