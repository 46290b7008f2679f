//! `--http ADDR`: the server over streamable HTTP at `http://ADDR/mcp`, on a
//! loopback address only (the endpoint has no authentication). `rmcp` checks
//! the `Host` header against loopback names, and a request whose `Origin` is
//! not this machine is answered 403 ([`super::origin`]), so a web page cannot
//! reach it through DNS rebinding.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

use super::ended::Ended;
use super::server::Server;
use super::{jsonrpc, protocol};

/// The header that names an HTTP request's MCP session.
const SESSION_HEADER: &str = "mcp-session-id";

/// The longest request body read (16 MiB, as a line on stdio).
const MAX_BODY: usize = 16 << 20;

/// A POST whose body is not JSON gets a JSON-RPC parse error (-32700, `id`
/// null) with HTTP 400, as on stdio; `rmcp` would answer 415 with plain text,
/// which a JSON-RPC client cannot read. A request before `initialize` is
/// told so (a `ping` answered), and one `rmcp` cannot read or of a method
/// not served is answered with its id, in JSON-RPC, as on stdio.
async fn parse_error(request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        return reply(format!(
            "Parse error: the body is unreadable or longer than {MAX_BODY} bytes"
        ));
    };
    let message = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(message) => message,
        Err(error) => return reply(format!("Parse error: {error}")),
    };
    // A request that names no session, other than `initialize`: `rmcp`
    // would answer "Session ID is required" in plain text. A request it
    // cannot read would get an error without its id, and a method not
    // served its bare name.
    let initialized = parts.headers.contains_key(SESSION_HEADER);
    if let Some(answer) = protocol::answered_here(&message, initialized) {
        let status = if answer.get("error").is_some() {
            StatusCode::BAD_REQUEST
        } else {
            StatusCode::OK
        };
        return (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            answer.to_string(),
        )
            .into_response();
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// A request from a web page elsewhere (its `Origin` is not this machine's)
/// gets 403 with a JSON-RPC error without an id, as the transport asks.
async fn foreign_origin(request: Request, next: Next) -> Response {
    let origin = request.headers().get(header::ORIGIN).map(|value| {
        value
            .to_str()
            .map_or_else(|_| String::from("(not text)"), str::to_owned)
    });
    match origin {
        Some(origin) if !super::origin::is_allowed(&origin) => {
            let body = jsonrpc::error_without_id(
                jsonrpc::INVALID_REQUEST,
                format!(
                    "Forbidden: the Origin {origin} is not this machine; the endpoint serves local MCP clients only"
                ),
            );
            (
                StatusCode::FORBIDDEN,
                [(header::CONTENT_TYPE, "application/json")],
                body.to_string(),
            )
                .into_response()
        }
        _ => next.run(request).await,
    }
}

fn reply(message: String) -> Response {
    let body = jsonrpc::error_without_id(jsonrpc::PARSE_ERROR, message);
    (
        StatusCode::BAD_REQUEST,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// The path of the MCP endpoint.
pub const PATH: &str = "/mcp";

/// Serve until the process is ended: the endpoint's URL on stdout (one line,
/// for scripts), what it is on stderr. How it ended.
pub async fn serve(server: Server, addr: SocketAddr) -> Ended {
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("error: cannot listen on {addr}: {error}");
            return Ended::Refused;
        }
    };
    let local = listener.local_addr().unwrap_or(addr);
    // Every session shares the server's state: one client, so one budget and
    // one ledger for the process.
    let service = StreamableHttpService::new(
        move || Ok(server.for_new_session()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new()
        .route_service(PATH, service)
        .layer(axum::middleware::from_fn(parse_error))
        // The outer layer: a foreign page's request is refused before its
        // body is read.
        .layer(axum::middleware::from_fn(foreign_origin));
    println!("http://{local}{PATH}");
    eprintln!(
        "mcp: serving streamable HTTP on http://{local}{PATH}; the budget covers every session of this process; each session's `usage` and held results are its own. Stop with Ctrl-C."
    );
    match axum::serve(listener, router).await {
        Ok(()) => Ended::Normally,
        Err(error) => {
            eprintln!("error: the HTTP server stopped: {error}");
            Ended::Failed
        }
    }
}
