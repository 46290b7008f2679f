//! Encoding bodies the way the service does: JSON members in spec order, every
//! `/` written `\/`, and `Content-Type: text/html; charset=UTF-8`, for data and
//! errors alike.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};

use crate::envelope::{Envelope, WithWireNames};
use crate::operation_table::Service;

/// The content type the service sends its JSON with.
pub(super) const CONTENT_TYPE: &str = "text/html; charset=UTF-8";

/// A generated JSON value. Objects keep their members in insertion order (spec
/// order for records, numeric order for SERP positions), whatever serde_json's
/// map ordering is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Node {
    /// `null`.
    Null,
    /// A whole number.
    Int(i64),
    /// A decimal number (an integral one is written `12.0`).
    Float(f64),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Node>),
    /// An object, members in order.
    Obj(Vec<(String, Node)>),
}

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Null => s.serialize_unit(),
            Node::Int(n) => s.serialize_i64(*n),
            Node::Float(x) => s.serialize_f64(*x),
            Node::Str(text) => s.serialize_str(text),
            Node::Arr(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Node::Obj(members) => {
                let mut map = s.serialize_map(Some(members.len()))?;
                for (name, value) in members {
                    map.serialize_entry(name, value)?;
                }
                map.end()
            }
        }
    }
}

/// JSON text with every `/` escaped as `\/`, as PHP's `json_encode` writes it.
/// Outside strings JSON has no `/`, so replacing them all only touches strings.
fn encode(body: &impl Serialize) -> Option<String> {
    serde_json::to_string(body)
        .ok()
        .map(|json| json.replace('/', "\\/"))
}

/// A response with the service's content type.
fn respond(status: StatusCode, text: String) -> Response {
    let mut response = (status, text).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE));
    response
}

/// An error body `{"status": N, "message": "..."}` with that HTTP status.
pub(super) fn error(status: StatusCode, message: &str) -> Response {
    #[derive(Serialize)]
    struct ErrorBody<'a> {
        status: u16,
        message: &'a str,
    }
    let body = ErrorBody {
        status: status.as_u16(),
        message,
    };
    match encode(&body) {
        Some(text) => respond(status, text),
        None => respond(
            StatusCode::INTERNAL_SERVER_ERROR,
            r#"{"status":500,"message":"sandbox: cannot encode an error"}"#.to_owned(),
        ),
    }
}

/// The envelope of an answered request, with `service`'s member names.
pub(super) fn envelope(
    service: &Service,
    rows: i64,
    used: i64,
    remaining: i64,
    response: Node,
) -> Response {
    let envelope = Envelope::received(rows, used, Some(remaining), response);
    let body = WithWireNames {
        envelope: &envelope,
        service,
    };
    match encode(&body) {
        Some(text) => respond(StatusCode::OK, text),
        None => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "sandbox: cannot encode the response",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slashes_are_escaped_and_order_kept() {
        let node = Node::Obj(vec![
            ("url".into(), Node::Str("https://a.it/b?x=1&amp;y=2".into())),
            ("2".into(), Node::Float(12.0)),
            ("10".into(), Node::Null),
            ("1".into(), Node::Arr(vec![Node::Int(-3)])),
        ]);
        assert_eq!(
            encode(&node).unwrap(),
            r#"{"url":"https:\/\/a.it\/b?x=1&amp;y=2","2":12.0,"10":null,"1":[-3]}"#
        );
    }

    #[test]
    fn envelope_members_use_the_wire_names() {
        let envelope = Envelope::received(1, 10, Some(90), Node::Arr(vec![]));
        let body = WithWireNames {
            envelope: &envelope,
            service: &crate::operations::SERVICE,
        };
        assert_eq!(
            encode(&body).unwrap(),
            r#"{"ResultRows":1,"UnitsUsed":10,"UnitsRemaining":90,"response":[]}"#
        );
    }
}
