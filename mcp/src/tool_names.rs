//! The names an agent calls: the server's own tools (`estimate`, `usage`,
//! `more`, whose names have no `_` so that no operation's can be the same),
//! their arguments, and the name of an operation's tool. Every module of the
//! server that names a tool or an argument reads it here.

use seozoom::operation_table::Operation;

/// The tool that gives a call's cost range without sending it.
pub const ESTIMATE: &str = "estimate";
/// The tool that reports the session's spending.
pub const USAGE: &str = "usage";
/// The tool that hands out the rest of a cut result.
pub const MORE: &str = "more";

/// Arguments of `estimate` and `more`.
pub const ARG_TOOL: &str = "tool";
/// Arguments of `estimate`.
pub const ARG_ARGUMENTS: &str = "arguments";
/// Arguments of `more` (not `limit`, which some operations take).
pub const ARG_COUNT: &str = "count";
/// Arguments of a row tool: the columns to return, by the output schema's
/// names or those of members an answer's rows carry that the spec does not
/// know ([`super::fields`]).
pub const ARG_FIELDS: &str = "fields";
/// Arguments of every operation's tool: the most the call may wait, in
/// seconds (the library's `RunOptions::max_wait`), at most the server's
/// `--max-wait`.
pub const ARG_MAX_WAIT_S: &str = "max_wait_s";
/// The argument of a batched or paged operation's tool that goes on with a
/// stopped job: the handle a stopped job's answer gives (its held result's
/// id); the call sends exactly the part that job is missing. Also the
/// member of a stopped job's answer, and of its line in `usage` and `more`,
/// that gives the arguments to go on with: `{"resume": HANDLE}`.
pub const RESUME: &str = "resume";
/// The list of held results, in `more` (called with no arguments).
pub const HELD: &str = "held";
/// The row cap of a paged operation's tool: its rows page by page up to it
/// (the library's `RunOptions::max_rows`; Python's `max_rows=`).
pub const ARG_MAX_ROWS: &str = "max_rows";

/// The name of an operation's tool: `<group>_<action>`, wire names.
pub fn tool_name(op: &Operation) -> String {
    format!("{}_{}", op.group, op.action)
}
