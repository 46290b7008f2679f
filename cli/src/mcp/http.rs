//! `--http ADDR`: the server over streamable HTTP at `http://ADDR/mcp`, on a
//! loopback address only (the endpoint has no authentication). `rmcp` checks
//! the `Host` header against loopback names, so a web page cannot reach it
//! through DNS rebinding.

use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

use super::server::Server;
use crate::{EXIT_FAILED, EXIT_REFUSED};

/// The path of the MCP endpoint.
pub const PATH: &str = "/mcp";

/// Serve until the process is ended: the endpoint's URL on stdout (one line,
/// for scripts), what it is on stderr. The exit code.
pub async fn serve(server: Server, addr: SocketAddr) -> u8 {
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("error: cannot listen on {addr}: {error}");
            return EXIT_REFUSED;
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
    let router = axum::Router::new().route_service(PATH, service);
    println!("http://{local}{PATH}");
    eprintln!(
        "mcp: serving streamable HTTP on http://{local}{PATH}; the budget and usage cover every session of this process. Stop with Ctrl-C."
    );
    match axum::serve(listener, router).await {
        Ok(()) => crate::EXIT_OK,
        Err(error) => {
            eprintln!("error: the HTTP server stopped: {error}");
            EXIT_FAILED
        }
    }
}
