//! Starting a session as its options ask (the sandbox or the service, the
//! client on its store and budget) and serving it on a transport until it
//! ends: stdio, streamable HTTP, or any pair of byte streams.

use std::io::IsTerminal;

use rmcp::ServiceExt;
use seozoom::Client;
use seozoom::sandbox::Sandbox;
use seozoom::store::Store;
use tokio::io::{AsyncRead, AsyncWrite};

use super::command::Options;
use super::ended::Ended;
use super::server::Server;
use super::session::Session;
use super::{http, stdio};

/// Serve a session as `options` ask, on stdin and stdout or, with
/// [`Options::http`], over streamable HTTP; how it ended.
pub async fn serve(options: Options) -> Ended {
    let http = options.http;
    let (server, _sandbox) = match start(options).await {
        Ok(started) => started,
        Err(ended) => return ended,
    };
    match http {
        Some(addr) => http::serve(server, addr).await,
        None => serve_stdio(server).await,
    }
}

/// Serve one session on `input` and `output`, one JSON-RPC message per line
/// as on stdio, until `input` ends (for a host that runs the server in
/// process); [`Options::http`] is not used. How it ended.
pub async fn serve_on<R, W>(options: Options, input: R, output: W) -> Ended
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (server, _sandbox) = match start(options).await {
        Ok(started) => started,
        Err(ended) => return ended,
    };
    serve_transport(server, stdio::Stdio::new(input, output)).await
}

/// The server `options` ask for, and the sandbox it calls (kept alive with
/// it; it stops when dropped); how it ended if it cannot start.
async fn start(options: Options) -> Result<(Server, Option<Sandbox>), Ended> {
    let settings = options.settings;
    // The sandbox takes any key: a key given is used, so that it is handled
    // as it would be against the service.
    let key = match (settings.api_key.clone(), settings.sandbox) {
        (Some(key), _) => key,
        (None, true) => Sandbox::API_KEY.to_owned(),
        (None, false) => {
            eprintln!(
                "error: no API key: pass --api-key or set {} (or use --sandbox)",
                seozoom::config::API_KEY_ENV
            );
            return Err(Ended::Refused);
        }
    };
    let mut builder = Client::builder()
        .api_key(key.clone())
        .base_url(settings.base_url.clone())
        .refresh(settings.refresh)
        .store_fallback(settings.store_fallback);
    if let Some(window) = settings.rate_window {
        builder = builder.rate_window(window);
    }
    if let Some(max_wait) = settings.max_wait {
        builder = builder.max_wait(max_wait);
    }
    if let Some(budget) = settings.budget {
        builder = builder.budget_limit(budget);
    }
    let store = Store::open_or_default(settings.store.as_deref());
    // `Store::none` keeps nothing; `--refresh` reads nothing.
    let reads_cache = !settings.refresh
        && store
            .as_ref()
            .is_ok_and(|store| store.name() != Store::none().name());
    let started = match store {
        Err(error) => Err(error),
        // One sandbox wherever it listens: its cache and balance go on from
        // the last session's on the same store.
        Ok(store) if settings.sandbox => Sandbox::builder()
            .start_with_client(builder.store(store))
            .await
            .map(|(sandbox, client)| (client, Some(sandbox))),
        Ok(store) => builder.store(store).build().map(|client| (client, None)),
    };
    let (client, sandbox) = match started {
        Ok(started) => started,
        Err(error) => {
            eprintln!("error: {error}");
            return Err(if error.is_refused() {
                Ended::Refused
            } else {
                Ended::Failed
            });
        }
    };
    let mut session = Session::new(
        client,
        &key,
        settings.database,
        options.max_result_rows,
        options.tools.as_deref(),
        options.conformance_fixture,
        settings.log_level,
    );
    session.fit_budget = settings.fit_budget;
    session.confirm_over = options.confirm_over;
    session.reads_cache = reads_cache;
    Ok((Server::new(session), sandbox))
}

/// Serve over stdio until the client closes it; how it ended.
async fn serve_stdio(server: Server) -> Ended {
    if std::io::stdin().is_terminal() {
        // Someone ran it by hand: say what it waits for (stdout is the
        // protocol's, so this goes to stderr).
        eprintln!(
            "mcp: serving the Model Context Protocol on stdin/stdout; an MCP client starts this command (see `seozoom mcp --help`). Stop with Ctrl-D."
        );
    }
    serve_transport(
        server,
        stdio::Stdio::new(tokio::io::stdin(), tokio::io::stdout()),
    )
    .await
}

/// Serve one session on a line-delimited transport until it closes.
async fn serve_transport<R, W>(server: Server, transport: stdio::Stdio<R, W>) -> Ended
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let running = match server.serve(transport).await {
        Ok(running) => running,
        Err(error) => {
            eprintln!("error: the MCP session did not start: {error}");
            return Ended::Failed;
        }
    };
    match running.waiting().await {
        Ok(_) => Ended::Normally,
        Err(error) => {
            eprintln!("error: the MCP session ended abnormally: {error}");
            Ended::Failed
        }
    }
}
