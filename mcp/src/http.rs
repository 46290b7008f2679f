//! `--http ADDR`: the server over streamable HTTP at `http://ADDR/mcp`, on a
//! loopback address only (the endpoint has no authentication). `rmcp` checks
//! the `Host` header against loopback names, so a web page cannot reach it
//! through DNS rebinding.

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
use super::jsonrpc;
use super::server::Server;

/// The longest request body read (16 MiB, as a line on stdio).
const MAX_BODY: usize = 16 << 20;

/// A POST whose body is not JSON gets a JSON-RPC parse error (-32700, `id`
/// null) with HTTP 400, as on stdio; `rmcp` would answer 415 with plain text,
/// which a JSON-RPC client cannot read.
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
    if let Err(error) = serde_json::from_slice::<serde_json::Value>(&bytes) {
        return reply(format!("Parse error: {error}"));
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
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
        .layer(axum::middleware::from_fn(parse_error));
    println!("http://{local}{PATH}");
    eprintln!(
        "mcp: serving streamable HTTP on http://{local}{PATH}; the budget and usage cover every session of this process. Stop with Ctrl-C."
    );
    match axum::serve(listener, router).await {
        Ok(()) => Ended::Normally,
        Err(error) => {
            eprintln!("error: the HTTP server stopped: {error}");
            Ended::Failed
        }
    }
}
