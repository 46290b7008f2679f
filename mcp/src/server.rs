//! The MCP server: `rmcp`'s [`ServerHandler`] written by hand, since the tools
//! are built at run time from the table rather than declared with macros.
//!
//! Protocol errors (an unknown tool) are JSON-RPC errors; everything about a
//! call itself (bad input, a refusal, a failed request) is a tool result with
//! `isError`, which an agent reads and can act on. No answer holds the key, and
//! a panic while answering becomes an error result instead of a lost reply.
//!
//! While a call runs, its progress and the library's waits, retries and cache
//! hits reach the agent ([`super::report`], [`super::trace`]); a cancel (or
//! the connection closing) stops a batched job before its next request.

#![allow(deprecated)] // rmcp marks MCP logging deprecated (SEP-2577); clients still use it.

use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, PoisonError};

use futures_util::FutureExt;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult,
    ContentBlock, CustomRequest, CustomResult, GetPromptRequestParams, GetPromptResponse,
    Implementation, InitializeResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, LoggingLevel, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ServerCapabilities,
    ServerConfig, SetLevelRequestParams, SubscribeRequestParams, Tool, UnsubscribeRequestParams,
};
use rmcp::service::{Peer, RequestContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use seozoom::job::Stop;
use seozoom::operations::SERVICE;
use tracing::instrument::WithSubscriber;

use super::report::Reporter;
use super::session::Session;
use super::spent::Spent;
use super::tool_names::{ARG_FIELDS, ARG_MAX_WAIT_S, ESTIMATE, MORE, RESUME, USAGE};
use super::tools::Kind;
use super::{call, fixture_answer, own, prompts, protocol, resources, trace};

/// The server of one MCP session; clones share its state (the held results,
/// the log level); [`Server::for_new_session`] shares only the process's (the
/// client and its budget, the tools).
#[derive(Debug, Clone)]
pub struct Server {
    session: Arc<Session>,
    /// What this MCP session spent (over HTTP, one of the process's).
    spent: Arc<Spent>,
    /// The level `logging/setLevel` asked for; no log messages before.
    level: Arc<Mutex<Option<LoggingLevel>>>,
}

impl Server {
    /// A server answering from this session.
    pub fn new(session: Session) -> Server {
        Server {
            session: Arc::new(session),
            spent: Arc::default(),
            level: Arc::default(),
        }
    }

    /// A server for another MCP session (over HTTP): the same client and
    /// tools; its own held results, spending and log level.
    pub fn for_new_session(&self) -> Server {
        Server {
            session: Arc::new(self.session.for_another_session()),
            spent: Arc::default(),
            level: Arc::default(),
        }
    }

    fn level(&self) -> Option<LoggingLevel> {
        *self.level.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The answer of tool `name` (of this `kind`) to these arguments.
    async fn answer(
        &self,
        name: &str,
        kind: Kind,
        request: &CallToolRequestParams,
        reporter: &Arc<Reporter>,
        stop: &Stop,
        peer: &Peer<RoleServer>,
    ) -> CallToolResult {
        let session = &*self.session;
        let arguments = request.arguments.as_ref();
        match kind {
            Kind::Operation(op) => {
                call::operation(session, name, op, arguments, reporter, stop, Some(peer)).await
            }
            Kind::Estimate => own::estimate(session, arguments).await,
            Kind::Usage => own::usage(session, &self.spent, arguments).await,
            Kind::More => own::more(session, arguments),
            Kind::Fixture(fixture) => {
                fixture_answer::answer(fixture, arguments, session, reporter, stop).await
            }
        }
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        InitializeResult::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_logging()
                .enable_resources()
                .enable_resources_list_changed()
                .enable_prompts()
                .build(),
        )
            .with_server_info(
                Implementation::new("seozoom", env!("CARGO_PKG_VERSION"))
                    .with_title(SERVICE.title),
            )
            .with_instructions(format!(
                "Read-only SEO data from the {} (a paid service: every call is charged in units). \
                 One tool per operation, named <group>_<action>; each description gives its cost and limits (a call over the per-minute figure waits for a slot). \
                 `{ESTIMATE}` gives a call's cost range without sending it, `{USAGE}` the spending (this session's and the key's on the store), \
                 the cache hits and the held results; a call that may go over the budget is refused before sending. \
                 A result is the service's envelope (ResultRows, UnitsUsed, UnitsRemaining, response) plus `from_cache` \
                 (true when the whole answer came from the store, 0 units; `cached_items` when only some items did), `no_data`, \
                 `rows` (start, returned, total: which items of the whole result `response` holds) and `more` (null, or the `{MORE}` arguments for the next items: result, start, hint). Results are cut to {} items; `{MORE}` gives the rest without charge, \
                 and with no arguments lists what is held. A long list is a batched job, and `max_rows` pages a paged tool's rows: \
                 with a progressToken either reports progress after each request (naming waits for the rate window); a cancel \
                 stops it before its next request, and the rows it paid for are held for `{MORE}`; its answer's `resume` \
                 (`{{\"{RESUME}\": HANDLE}}`: call the same tool with it, and only `{ARG_MAX_WAIT_S}` and `{ARG_FIELDS}` beside it) sends exactly the missing part. Every tool whose rows are records takes `{ARG_FIELDS}` (the columns to return, \
                 by the output schema's row names, or a column an answer's table showed that the spec does not know; `{MORE}` keeps them); every operation's tool takes `{ARG_MAX_WAIT_S}` (the most \
                 seconds the call may wait, at most the server's --max-wait; a longer wait stops it, keeping what came). \
                 The text content is a summary and the rows as a tab-separated table; held rows are also a resource (resource_link).",
                SERVICE.title, self.session.max_rows
            ))
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        protocol::no_cursor("tools/list", request.as_ref())?;
        Ok(ListToolsResult::with_all_items(
            self.session.catalog.tools.clone(),
        ))
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        protocol::no_cursor("resources/list", request.as_ref())?;
        Ok(ListResourcesResult::with_all_items(resources::list(
            &self.session,
        )))
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        protocol::no_cursor("resources/templates/list", request.as_ref())?;
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(&self.session),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        resources::read(&self.session, &request.uri)
            .map(|contents| ReadResourceResult::new(contents).into())
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        *self.level.lock().unwrap_or_else(PoisonError::into_inner) = Some(request.level);
        Ok(())
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, McpError> {
        Err(protocol::unrecognised(&request))
    }

    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        Err(protocol::not_found("completion/complete"))
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        protocol::no_cursor("prompts/list", request.as_ref())?;
        let mut listed = prompts::list();
        if self.session.catalog.fixture {
            listed.extend(super::fixture::prompts());
        }
        Ok(ListPromptsResult::with_all_items(listed))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        let arguments = request.arguments.as_ref();
        if self.session.catalog.fixture
            && let Some(prompt) = super::fixture::prompt(&request.name, arguments)
        {
            return Ok(prompt.into());
        }
        prompts::get(&request.name, arguments).map(Into::into)
    }

    async fn subscribe(
        &self,
        _request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        Err(protocol::not_found("resources/subscribe"))
    }

    async fn unsubscribe(
        &self,
        _request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        Err(protocol::not_found("resources/unsubscribe"))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.session.catalog.tool(name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
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
        let held_before = self.session.held.version();
        let (reporter, queue) = Reporter::new(
            &request.name,
            Arc::clone(&self.spent),
            context.meta.get_progress_token(),
            self.level(),
        );
        let reporter = Arc::new(reporter);
        let stop = Stop::new();
        let work = async {
            let answer = AssertUnwindSafe(self.answer(
                &request.name,
                kind,
                &request,
                &reporter,
                &stop,
                &context.peer,
            ))
            .catch_unwind();
            let mut answer = std::pin::pin!(answer);
            // A cancel, or the client gone: the job sends nothing more, and
            // its answer (what it received, held for `more`) is still made.
            let answer = tokio::select! {
                answer = &mut answer => answer,
                () = context.ct.cancelled() => {
                    stop.stop();
                    answer.await
                }
            };
            reporter.close();
            answer
        }
        .with_subscriber(trace::dispatch(
            Arc::clone(&reporter),
            self.session.stderr_level,
        ));
        let (answer, ()) = tokio::join!(work, queue.forward(&context.peer));
        // A result held (and the oldest perhaps dropped): the list of
        // resources changed. Said before the answer, so that a host reading
        // the answer's link finds the list already up to date.
        if self.session.held.version() != held_before {
            let _ = context.peer.notify_resource_list_changed().await;
        }
        let answer = answer.unwrap_or_else(|_| {
                CallToolResult::error(vec![ContentBlock::text(format!(
                    "internal error while answering `{}`; the call may or may not have been sent: `{USAGE}` shows what was spent",
                    request.name
                ))])
            });
        Ok(self.session.scrub(answer).into())
    }
}
