//! The one JSON-RPC message this server writes itself rather than through
//! `rmcp`: the error answer to input that is not a message (stdio and HTTP).

use rmcp::model::ErrorCode;
use serde_json::{Value, json};

/// The member of a message's id.
pub const ID: &str = "id";

/// Input that is not JSON.
pub const PARSE_ERROR: i32 = ErrorCode::PARSE_ERROR.0;
/// JSON that is not a JSON-RPC message.
pub const INVALID_REQUEST: i32 = ErrorCode::INVALID_REQUEST.0;

/// The error answer with this code and message. Its `id` is `null`, as
/// JSON-RPC 2.0 asks when the request's id could not be read (`rmcp` leaves
/// the member out).
pub fn error_without_id(code: i32, message: String) -> Value {
    json!({
        "jsonrpc": "2.0",
        ID: null,
        "error": {"code": code, "message": message},
    })
}
