//! The protocol's edges, as a client should meet them: `rmcp` answers an
//! unknown method with -32601 whose message is only the method's name, and
//! takes a known method with malformed params (`tools/call` with no params,
//! or `arguments: [1]`) for an unknown one. The handler ([`super::server`])
//! answers both from here: "Method not found: NAME", and -32602 naming what
//! is wrong with the params.

#![allow(deprecated)] // rmcp marks MCP logging deprecated (SEP-2577); clients still use it.

use rmcp::ErrorData as McpError;
use rmcp::model::{
    CallToolRequestParams, CustomRequest, ErrorCode, GetPromptRequestParams,
    InitializeRequestParams, ReadResourceRequestParams, SetLevelRequestParams,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::jsonrpc::ID;

/// The -32601 error of a method this server does not serve.
pub fn not_found(method: &str) -> McpError {
    McpError::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!("Method not found: {method}"),
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
/// was initialized: -32600 saying so, with the request's id. `None` for
/// `initialize`, a notification, or a request of the inline lifecycle
/// (`rmcp` answers those). The transports ask while no `initialize` was
/// seen (stdio) or when a request names no session (HTTP).
pub fn before_initialize(message: &Value) -> Option<Value> {
    let method = message.get("method")?.as_str()?;
    let id = message.get(ID)?;
    let inline = message
        .pointer("/params/_meta")
        .and_then(|meta| meta.get(INLINE_VERSION))
        .is_some();
    if method == "initialize" || inline {
        return None;
    }
    Some(serde_json::json!({
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
