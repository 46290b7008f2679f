//! The protocol's edges, as a client should meet them: `rmcp` answers an
//! unknown method with -32601 whose message is only the method's name, takes
//! a known method with malformed params (`tools/call` with no params, or
//! `arguments: [1]`) for an unknown one, cannot read a request whose params
//! are not an object at all, and refuses `ping` before `initialize`. The
//! handler ([`super::server`]) and the transports ([`answered_here`])
//! answer these from here: "Method not found: NAME", -32602 with the request's id naming
//! what is wrong with the params, `ping` answered at any time, and -32602 for
//! a list cursor this server never gave.

#![allow(deprecated)] // rmcp marks MCP logging deprecated (SEP-2577); clients still use it.

use rmcp::model::{
    CallToolRequestParams, CustomRequest, ErrorCode, GetPromptRequestParams,
    InitializeRequestParams, PaginatedRequestParams, ReadResourceRequestParams,
    SetLevelRequestParams,
};
use rmcp::service::RxJsonRpcMessage;
use rmcp::{ErrorData as McpError, RoleServer};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::jsonrpc::ID;

/// The prefix of every -32601 message.
const NOT_FOUND: &str = "Method not found";

/// The methods this server serves; a request for any other is answered
/// "Method not found: NAME" before `rmcp` sees it (which would answer a
/// method of an extension this server does not declare, such as
/// `tasks/get`, with the bare name).
const SERVED: [&str; 11] = [
    "initialize",
    "server/discover",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "logging/setLevel",
    "prompts/list",
    "prompts/get",
];

/// The answer the transport gives `message` itself, if any: before the
/// session is `initialized`, [`before_initialize`]'s; then -32601 for a
/// method not served, or [`unreadable`]'s. `None`: `rmcp` answers it.
pub fn answered_here(message: &Value, initialized: bool) -> Option<Value> {
    if !initialized && let Some(answer) = before_initialize(message) {
        return Some(answer);
    }
    unserved(message).or_else(|| unreadable(message))
}

/// -32601 naming the method of a request this server does not serve.
fn unserved(message: &Value) -> Option<Value> {
    let id = message.get(ID)?;
    let method = message.get("method")?.as_str()?;
    if SERVED.contains(&method) {
        return None;
    }
    let error = not_found(method);
    Some(json!({
        "jsonrpc": "2.0",
        ID: id,
        "error": {"code": error.code.0, "message": error.message},
    }))
}

/// -32602 for a list request that names a cursor: every list is answered in
/// one page, so no cursor is one this server gave.
///
/// # Errors
///
/// The error, naming the method and the cursor.
pub fn no_cursor(method: &str, request: Option<&PaginatedRequestParams>) -> Result<(), McpError> {
    match request.and_then(|request| request.cursor.as_deref()) {
        None => Ok(()),
        Some(cursor) => Err(McpError::invalid_params(
            format!(
                "Invalid params for {method}: the cursor {cursor:?} is not one this server gave (it answers {method} in one page, with no nextCursor)"
            ),
            Some(json!({"cursor": cursor})),
        )),
    }
}

/// The answer to `message` when it is a request (it has a method and an id)
/// that `rmcp` cannot read: -32602 with its id when its params are not an
/// object, else -32600 with its id. `None` for a message `rmcp` reads, or
/// one without an id (answered without one by the transport).
fn unreadable(message: &Value) -> Option<Value> {
    let id = message
        .get(ID)
        .filter(|id| id.is_string() || id.is_number())?;
    let method = message.get("method")?.as_str()?;
    let error = serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(message.clone()).err()?;
    let (code, text) = match message.get("params") {
        Some(params) if !params.is_object() && !params.is_null() => (
            ErrorCode::INVALID_PARAMS.0,
            format!("Invalid params for {method}: params must be an object, not {params}"),
        ),
        _ => (
            ErrorCode::INVALID_REQUEST.0,
            format!("Invalid request ({method}): {error}"),
        ),
    };
    Some(json!({
        "jsonrpc": "2.0",
        ID: id,
        "error": {"code": code, "message": text},
    }))
}

/// The -32601 error of a method this server does not serve.
pub fn not_found(method: &str) -> McpError {
    McpError::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!("{NOT_FOUND}: {method}"),
        None,
    )
}

/// The error of a request `rmcp` did not recognise: -32602 for a method this
/// server serves whose params do not read as that method's, else -32601.
pub fn unrecognised(request: &CustomRequest) -> McpError {
    malformed(request).unwrap_or_else(|| not_found(&request.method))
}

/// The -32602 error of a request of a method this server knows whose params
/// do not read as that method's (which `rmcp` hands on as a custom request).
fn malformed(request: &CustomRequest) -> Option<McpError> {
    let params = request.params.clone().unwrap_or(Value::Null);
    let problem = match request.method.as_str() {
        "tools/call" => problem::<CallToolRequestParams>(params),
        "resources/read" => problem::<ReadResourceRequestParams>(params),
        "prompts/get" => problem::<GetPromptRequestParams>(params),
        "logging/setLevel" => problem::<SetLevelRequestParams>(params),
        "initialize" => problem::<InitializeRequestParams>(params),
        _ => None,
    }?;
    Some(McpError::invalid_params(
        format!("Invalid params for {}: {problem}", request.method),
        None,
    ))
}

/// Why `params` do not read as a `P`, if they do not.
fn problem<P: DeserializeOwned>(params: Value) -> Option<String> {
    let shown = match &params {
        Value::Null => "no params".to_owned(),
        other => format!("params {other}"),
    };
    serde_json::from_value::<P>(params)
        .err()
        .map(|error| format!("{shown}: {error}"))
}

/// The `_meta` member that carries a request's own protocol version (a
/// client of the inline lifecycle, protocol 2026-07-28 on, needs no
/// `initialize`).
const INLINE_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

/// The answer to `message` when it is a request sent before the session
/// was initialized: `ping`'s empty result (the protocol allows a ping at any
/// time), else -32600 saying so, with the request's id. `None` for
/// `initialize`, a notification, or a request of the inline lifecycle
/// (`rmcp` answers those). The transports ask while no `initialize` was
/// seen (stdio) or when a request names no session (HTTP).
fn before_initialize(message: &Value) -> Option<Value> {
    let method = message.get("method")?.as_str()?;
    let id = message.get(ID)?;
    let inline = message
        .pointer("/params/_meta")
        .and_then(|meta| meta.get(INLINE_VERSION))
        .is_some();
    if method == "initialize" || inline {
        return None;
    }
    if method == "ping" {
        return Some(json!({"jsonrpc": "2.0", ID: id, "result": {}}));
    }
    Some(json!({
        "jsonrpc": "2.0",
        ID: id,
        "error": {
            "code": ErrorCode::INVALID_REQUEST.0,
            "message": format!(
                "The session is not initialized: send `initialize` before `{method}` (a client of protocol 2026-07-28 or later may instead give `{INLINE_VERSION}` and its capabilities in each request's _meta)"
            ),
        },
    }))
}
