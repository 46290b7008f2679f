//! The command line: the command tree, built at run time from the operation
//! table, and reading a command line back into what it asks for (a generic
//! [`seozoom::request::Request`] for an operation).
//!
//! Nothing here names a group, an action or a parameter of the API: groups come
//! from the distinct [`seozoom::operation_table::Operation::group`]s, actions from
//! [`seozoom::operation_table::Operation::action`] (with its aliases), flags from its
//! params, help texts from their descriptions, limits and provenance.
//!
//! - [`global_options`]: the global options, their ids, and where a call goes;
//! - [`spelling`]: how the binary and the flags are spelled;
//! - [`operations`]: the groups' and actions' subcommands, from the table,
//!   each action's help ending in its [`example`] command;
//! - [`sandbox_command`], [`usage_command`], [`drift_command`], [`print_commands`]: the other
//!   subcommands; [`mcp_command`]: the global options an MCP session takes
//!   (the `mcp` subcommand itself is `seozoom_mcp`'s);
//! - [`tree`]: the whole tree; [`parse`]: reading it back into a [`Command`].

mod drift_command;
mod example;
mod global_options;
mod mcp_command;
mod operations;
mod parse;
mod parsed;
mod print_commands;
mod sandbox_command;
mod spelling;
mod tree;
mod usage_command;

pub use drift_command::Drift;
pub use example::command as example_command;
pub use global_options::{Target, default_db};
pub use parse::parse;
pub use parsed::{Command, Invocation};
pub use print_commands::Print;
pub use spelling::BIN;
pub use tree::command;
pub use usage_command::Usage;
