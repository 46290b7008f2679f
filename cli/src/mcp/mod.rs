//! `seozoom mcp`: the Model Context Protocol server, for AI agents.
//!
//! Every operation of the spec is a tool, built at start from the operation
//! table ([`seozoom::operations::OPERATIONS`] and `RECORDS`) with no per-tool
//! code: its name (`<group>_<action>`), description with costs and rules,
//! `inputSchema` from the parameters and `outputSchema` from the records. The
//! calls go through the same client as the command line: the same validation,
//! batching of long lists, and one budget for the whole session.
//!
//! - [`command`]: the subcommand's arguments and the session they ask for;
//! - [`tool_names`]: the names of the server's own tools and their arguments;
//! - [`tools`], [`describe`], [`input_schema`], [`output_schema`]: the tool list;
//! - [`args`]: a call's JSON arguments to a request;
//! - [`call`], [`own`]: answering the operations' tools and the server's own;
//!   [`failure`]: an error as a tool result;
//! - [`envelope`], [`held`]: the structured answer, cut to the row cap;
//! - [`session`], [`server`], [`http`]: the state, the protocol handler, and
//!   the HTTP transport;
//! - [`fixture`]: the conformance suite's test tools, on the sandbox only;
//!   [`fixture_answer`]: what they do.

mod args;
mod call;
mod command;
mod describe;
mod envelope;
mod failure;
mod fixture;
mod fixture_answer;
mod held;
mod http;
mod input_schema;
mod json_schema;
mod jsonrpc;
mod output_schema;
mod own;
mod report;
mod server;
mod session;
mod stdio;
mod tool_names;
mod tools;
mod trace;

use std::io::IsTerminal;

use rmcp::ServiceExt;
use seozoom::Client;

pub use command::{COMMAND, Options, read, subcommand};

use crate::{exit, sandbox};
use server::Server;
use session::Session;

/// Serve a session as `options` ask; the exit code.
pub async fn serve(options: Options) -> u8 {
    // Kept alive for the session; it stops when dropped.
    let _sandbox;
    let (key, base_url) = if options.sandbox {
        match sandbox::start().await {
            Ok(running) => {
                let base_url = running.base_url();
                _sandbox = running;
                // The sandbox takes any key: a key given is used, so that it
                // is handled as it would be against the service.
                let key = options
                    .api_key
                    .clone()
                    .unwrap_or_else(|| sandbox::API_KEY.to_owned());
                (key, base_url)
            }
            Err(error) => {
                eprintln!("error: cannot start the sandbox: {error}");
                return exit::FAILED;
            }
        }
    } else {
        match options.api_key.clone() {
            Some(key) => (key, options.base_url.clone()),
            None => {
                eprintln!(
                    "error: no API key: pass --api-key or set {} (or use --sandbox)",
                    seozoom::config::API_KEY_ENV
                );
                return exit::REFUSED;
            }
        }
    };
    let mut builder = Client::builder().api_key(key.clone()).base_url(base_url);
    if let Some(window) = options.rate_window {
        builder = builder.rate_window(window);
    }
    if let Some(max_wait) = options.max_wait {
        builder = builder.max_wait(max_wait);
    }
    let client = match options
        .store
        .apply(builder, options.budget)
        .and_then(|builder| builder.build())
    {
        Ok(client) => client,
        Err(error) => {
            eprintln!("error: {error}");
            return if error.is_refused() {
                exit::REFUSED
            } else {
                exit::FAILED
            };
        }
    };
    let mut session = Session::new(
        client,
        &key,
        options.database,
        options.max_result_rows,
        options.tools.as_deref(),
        options.conformance_fixture,
    );
    session.fit_budget = options.fit_budget;
    let server = Server::new(session);
    match options.http {
        Some(addr) => http::serve(server, addr).await,
        None => serve_stdio(server).await,
    }
}

/// Serve over stdio until the client closes it; the exit code.
async fn serve_stdio(server: Server) -> u8 {
    if std::io::stdin().is_terminal() {
        // Someone ran it by hand: say what it waits for (stdout is the
        // protocol's, so this goes to stderr).
        eprintln!(
            "mcp: serving the Model Context Protocol on stdin/stdout; an MCP client starts this command (see `seozoom mcp --help`). Stop with Ctrl-D."
        );
    }
    let running = match server.serve(stdio::Stdio::new()).await {
        Ok(running) => running,
        Err(error) => {
            eprintln!("error: the MCP session did not start: {error}");
            return exit::FAILED;
        }
    };
    match running.waiting().await {
        Ok(_) => exit::OK,
        Err(error) => {
            eprintln!("error: the MCP session ended abnormally: {error}");
            exit::FAILED
        }
    }
}
