//! Routing and validation: from a raw HTTP request to an answer. The path picks
//! the group, `action` (or one of its aliases) the operation; the query is
//! checked by the client's own validator ([`Request::validate`]), so the sandbox
//! refuses exactly what the client refuses, with the same message.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::Response;

use crate::operation_table::{Api, Operation, Shape};
use crate::request::Request;

use super::comma_lists;
use super::data::{self, Generated};
use super::encode_quirks;
use super::faults::Injector;
use super::list_keys;
use super::strict::Strict;
use super::units::{self, Account};

/// Message of a request without a usable key.
pub(super) const INVALID_KEY: &str = "Invalid API key";
/// Message of a request the balance cannot cover.
pub(super) const INSUFFICIENT_UNITS: &str = "Insufficient units";

/// State shared by every connection of a sandbox.
#[derive(Debug)]
pub(super) struct SandboxState {
    /// The API it stands in for.
    pub(super) api: &'static Api,
    /// The account balance.
    pub(super) balance: Account,
    /// HTTP requests received.
    pub(super) requests: AtomicU64,
    /// The faults it injects, if any.
    pub(super) faults: Option<Injector>,
    /// Rows of every paged query, when set ([`super::SandboxBuilder::paged_rows`]).
    pub(super) paged_rows: Option<i64>,
    /// The rate windows it enforces, in strict mode.
    pub(super) strict: Option<Strict>,
    /// Whether its answers drift from the spec.
    pub(super) drift: bool,
}

/// Every path goes to [`handle`], which routes by the operation table.
pub(super) fn router(shared: Arc<SandboxState>) -> Router {
    Router::new().fallback(handle).with_state(shared)
}

async fn handle(State(shared): State<Arc<SandboxState>>, method: Method, uri: Uri) -> Response {
    shared.requests.fetch_add(1, Ordering::SeqCst);
    let query = uri.query().unwrap_or_default();
    // Before anything else, in every mode: a list sent as repeated keys.
    let refused = repeated_list_key(shared.api, &method, uri.path(), query);
    let real = || answer(&shared, &method, uri.path(), query);
    let fault = shared
        .faults
        .as_ref()
        .filter(|_| refused.is_none())
        .and_then(|faults| Some((faults, faults.pick(&parse_query(query))?)));
    let response = match (refused, fault) {
        (Some(refused), _) => refused,
        (None, Some((faults, fault))) => faults.answer(fault, real).await,
        (None, None) => real(),
    };
    tracing::debug!(
        path = uri.path(),
        status = response.status().as_u16(),
        "sandbox request"
    );
    response
}

/// A list sent as repeated keys to an operation, refused in every mode before
/// anything else is decided (`list_keys.rs`); `None` for any other request,
/// which the rest of the routing answers.
fn repeated_list_key(api: &Api, method: &Method, path: &str, raw: &str) -> Option<Response> {
    if method != Method::GET {
        return None;
    }
    let pairs = parse_query(raw);
    let action = lookup(&pairs, api.service.action.wire)?;
    list_keys::refuse_repeated(operation(api, path, action)?, raw)
}

/// The query's `name=value` pairs, decoded as a form is (`+` is a space, then
/// percent-decoding; invalid UTF-8 becomes U+FFFD rather than an error), in
/// first-seen order; a repeated name keeps its last value (as PHP does; a
/// repeated list parameter never gets here, `list_keys.rs`).
pub(super) fn parse_query(raw: &str) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for (name, value) in url::form_urlencoded::parse(raw.as_bytes()) {
        match pairs.iter_mut().find(|(n, _)| *n == name) {
            Some(pair) => pair.1 = value.into_owned(),
            None => pairs.push((name.into_owned(), value.into_owned())),
        }
    }
    pairs
}

fn lookup<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// The operation at `path` whose action or alias is `action`.
fn operation(api: &Api, path: &str, action: &str) -> Option<&'static Operation> {
    api.operations
        .iter()
        .copied()
        .find(|op| op.path == path && (op.action == action || op.aliases.contains(&action)))
}

/// The generic request the query describes: every pair but the key and the
/// action, list parameters split on the separator.
fn request(op: &'static Operation, pairs: &[(String, String)]) -> Request {
    let mut request = Request::new(op, None);
    let service = op.service;
    for (name, value) in pairs {
        if name == service.key.wire || name == service.action.wire {
            continue;
        }
        if name == service.database.wire {
            request.set_database(value);
            continue;
        }
        let values = if op.param(name).is_some_and(|p| p.list) {
            value
                .split(service.list_separator)
                .map(str::to_owned)
                .collect()
        } else {
            vec![value.clone()]
        };
        request.set(name, values);
    }
    request
}

fn answer(shared: &SandboxState, method: &Method, path: &str, raw_query: &str) -> Response {
    if method != Method::GET {
        let mut refused = encode_quirks::error(
            StatusCode::METHOD_NOT_ALLOWED,
            "Method not allowed: the API is read with GET",
        );
        // A 405 names the methods that are allowed (RFC 9110, 15.5.6).
        refused
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET"));
        return refused;
    }
    let (api, service) = (shared.api, shared.api.service);
    if !api.operations.iter().any(|op| op.path == path) {
        return encode_quirks::error(StatusCode::NOT_FOUND, &format!("Not found: {path}"));
    }
    let pairs = parse_query(raw_query);
    let key = lookup(&pairs, service.key.wire).unwrap_or_default();
    if key.trim().is_empty() {
        return encode_quirks::error(StatusCode::UNAUTHORIZED, INVALID_KEY);
    }
    let action = lookup(&pairs, service.action.wire).unwrap_or_default();
    let Some(op) = operation(api, path, action) else {
        let message = if action.is_empty() {
            format!("Missing action under {path}")
        } else {
            format!("Unknown action `{action}` under {path}")
        };
        return encode_quirks::error(StatusCode::NOT_FOUND, &message);
    };
    if let Some(refused) = shared.strict.as_ref().and_then(|s| s.admit(op, key)) {
        return refused;
    }
    let default_db = service.database.default.unwrap_or_default();
    let query = match request(op, &pairs).validate(service, default_db) {
        Ok(query) => query,
        Err(invalid) => return encode_quirks::error(StatusCode::BAD_REQUEST, &invalid.to_string()),
    };
    // As the service: a list joined with commas matches nothing (`comma_lists.rs`).
    let comma_joined_list = comma_lists::comma_joined(op, &query);
    let outcome = if comma_joined_list {
        Generated::NoData
    } else {
        data::respond(op, api.records, &query, shared.paged_rows)
    };
    match outcome {
        Generated::Data { mut response, rows } => {
            if shared.drift
                && let Some(record) = api.records.iter().find(|r| r.name == op.response.payload)
            {
                let single = op.response.shape == Shape::Single;
                super::drift::drift(&mut response, record, single);
            }
            let cost = units::cost(op, rows);
            match shared.balance.spend(cost) {
                Some(remaining) => {
                    encode_quirks::envelope(service, rows, cost, remaining, response)
                }
                None => encode_quirks::error(StatusCode::FORBIDDEN, INSUFFICIENT_UNITS),
            }
        }
        Generated::NoData => {
            let status =
                StatusCode::from_u16(service.no_data_status).unwrap_or(StatusCode::BAD_REQUEST);
            encode_quirks::error(status, service.no_data_message)
        }
        Generated::Unsupported(message) => {
            encode_quirks::error(StatusCode::INTERNAL_SERVER_ERROR, &message)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::{API, OPERATIONS};

    #[test]
    fn queries_are_decoded_like_php() {
        let pairs = parse_query("a=1&&b=x+y%2Bz&a=2&c&d=caff%C3%A8|%FF");
        assert_eq!(
            pairs,
            [
                ("a".to_owned(), "2".to_owned()),
                ("b".to_owned(), "x y+z".to_owned()),
                ("c".to_owned(), String::new()),
                ("d".to_owned(), "caffè|\u{fffd}".to_owned()),
            ]
        );
    }

    #[test]
    fn only_a_routed_operation_s_list_keys_are_refused() {
        let op = OPERATIONS
            .iter()
            .find(|op| op.params.iter().any(|p| p.list))
            .unwrap();
        let list = op.params.iter().find(|p| p.list).unwrap().wire;
        let action = API.service.action.wire;
        let raw = format!("{action}={}&{list}=a&{list}=b", op.action);
        let get = Method::GET;
        let refused = repeated_list_key(&API, &get, op.path, &raw).expect("refused");
        assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
        // Another path or method, or no action: the routing answers it.
        assert!(repeated_list_key(&API, &get, "/nowhere/", &raw).is_none());
        assert!(repeated_list_key(&API, &Method::POST, op.path, &raw).is_none());
        let no_action = format!("{list}=a&{list}=b");
        assert!(repeated_list_key(&API, &get, op.path, &no_action).is_none());
    }

    #[test]
    fn aliases_route_to_their_operation() {
        for op in OPERATIONS {
            assert_eq!(operation(&API, op.path, op.action), Some(*op));
            for alias in op.aliases {
                assert_eq!(operation(&API, op.path, alias), Some(*op));
            }
        }
        assert_eq!(operation(&API, "/api/v2/nowhere/", "list"), None);
    }
}
