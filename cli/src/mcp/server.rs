//! The MCP server: `rmcp`'s [`ServerHandler`] written by hand, since the tools
//! are built at run time from the table rather than declared with macros.
//!
//! Protocol errors (an unknown tool) are JSON-RPC errors; everything about a
//! call itself (bad input, a refusal, a failed request) is a tool result with
//! `isError`, which an agent reads and can act on. No answer holds the key, and
//! a panic while answering becomes an error result instead of a lost reply.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures_util::FutureExt;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeResult, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
    Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use seozoom::operations::SERVICE;

use super::session::Session;
use super::tools::{ESTIMATE, Kind, MORE, USAGE};
use super::{call, own};

/// The server of one process; clones share the session.
#[derive(Debug, Clone)]
pub struct Server {
    session: Arc<Session>,
}

impl Server {
    /// A server answering from this session.
    pub fn new(session: Session) -> Server {
        Server {
            session: Arc::new(session),
        }
    }

    /// The answer of tool `name` (of this `kind`) to these arguments.
    async fn answer(
        &self,
        name: &str,
        kind: Kind,
        request: &CallToolRequestParams,
    ) -> CallToolResult {
        let session = &*self.session;
        let arguments = request.arguments.as_ref();
        match kind {
            Kind::Operation(op) => call::operation(session, name, op, arguments).await,
            Kind::Estimate => own::estimate(session, arguments).await,
            Kind::Usage => own::usage(session, arguments),
            Kind::More => own::more(session, arguments),
        }
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("seozoom", env!("CARGO_PKG_VERSION"))
                    .with_title(SERVICE.title),
            )
            .with_instructions(format!(
                "Read-only SEO data from the {} (a paid service: every call is charged in units). \
                 One tool per operation, named <group>_<action>; each description gives its cost. \
                 `{ESTIMATE}` gives a call's cost range without sending it, `{USAGE}` the session's \
                 spending and budget; a call that may go over the budget is refused before sending. \
                 Results are cut to {} items; `{MORE}` gives the rest without charge.",
                SERVICE.title, self.session.max_rows
            ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(
            self.session.catalog.tools.clone(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.session.catalog.tool(name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(kind) = self.session.catalog.kind(&request.name) else {
            return Err(McpError::invalid_params(
                format!(
                    "unknown tool `{}`: tools/list gives the tools",
                    request.name
                ),
                None,
            ));
        };
        let answer = AssertUnwindSafe(self.answer(&request.name, kind, &request))
            .catch_unwind()
            .await
            .unwrap_or_else(|_| {
                CallToolResult::error(vec![ContentBlock::text(format!(
                    "internal error while answering `{}`; the call may or may not have been sent: `{USAGE}` shows what was spent",
                    request.name
                ))])
            });
        Ok(self.session.scrub(answer).into())
    }
}
