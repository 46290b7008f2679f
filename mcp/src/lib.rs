//! `seozoom-mcp`: the Model Context Protocol server for the SEOZoom API v2,
//! for AI agents; the `seozoom mcp` command serves it.
//!
//! Every operation of the spec is a tool, built at start from the operation
//! table ([`seozoom::operations::OPERATIONS`] and `RECORDS`) with no per-tool
//! code: its name (`<group>_<action>`), description with costs and rules,
//! `inputSchema` from the parameters and `outputSchema` from the records, whose
//! schemas the build script makes from the spec with the generator's schema
//! module (`seozoom_codegen::schema`, as the published documents' are). The
//! calls go through the `seozoom` client, as the command line's do: the same
//! validation, batching of long lists, and one budget for the whole session.
//!
//! The entry point is small: the subcommand's own arguments ([`subcommand`],
//! read back by [`read`] together with the [`Settings`] a host takes from its
//! global options), and [`serve`] (stdio or streamable HTTP) or [`serve_on`]
//! (any pair of byte streams), which say how the session [`Ended`]. The crate
//! depends on `seozoom` alone.
//!
//! Inside (private modules):
//!
//! - `command`: the subcommand's arguments and the session they ask for;
//!   `ended`: how a session ended;
//! - `tool_names`: the names of the server's own tools and their arguments;
//! - `tools`, `describe`, `input_schema`, `output_schema`, `json_schema`: the
//!   tool list; `shared_schemas`: the schemas `build.rs` made from the spec
//!   with the generator's schema module (as the published documents'),
//!   `agent_schema`: what the tool list leaves out of them;
//! - `args`: a call's JSON arguments to a request; `fields`: the columns a
//!   row tool is asked for; `shown`: a value as a message repeats it;
//! - `call`, `own`: answering the operations' tools and the server's own;
//!   `stopped`: a job that stopped part-way, and going on by its handle;
//!   `confirm`: the user's yes before a call over `--confirm-over`;
//! - `prompts`: workflows with the budget in mind, for a host to offer;
//! - `envelope`, `held`: the structured answer, cut to the row cap;
//!   `brief`: its text content, a summary and the rows as a compact table;
//! - `resources`: held results, the cost table and the spec, for a host to
//!   read;
//! - `serve`: a session started and served until it ends;
//! - `spent`: what one MCP session spent (for `usage` over HTTP);
//! - `session`, `server`, `protocol`, `report`, `trace`: the state, the
//!   protocol handler and its errors made plain, and what a call tells the
//!   agent while it runs;
//! - `stdio`, `http`, `origin`, `jsonrpc`: the transports, the origins HTTP
//!   serves, and their JSON-RPC errors;
//! - `fixture`: the conformance suite's test tools, on the sandbox only;
//!   `fixture_answer`: what they do.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod agent_schema;
mod args;
mod brief;
mod call;
mod command;
mod confirm;
mod describe;
mod ended;
mod envelope;
mod failure;
mod fields;
mod fixture;
mod fixture_answer;
mod held;
mod http;
mod input_schema;
mod json_schema;
mod jsonrpc;
mod origin;
mod output_schema;
mod own;
mod prompts;
mod protocol;
mod report;
mod resources;
mod serve;
mod server;
mod session;
mod shared_schemas;
mod shown;
mod spent;
mod stdio;
mod stopped;
mod tool_names;
mod tools;
mod trace;

pub use command::{COMMAND, Options, Settings, read, subcommand};
pub use ended::Ended;
pub use serve::{serve, serve_on};
