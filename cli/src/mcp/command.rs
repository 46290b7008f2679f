//! `seozoom [global options] mcp [--http ADDR] [--max-result-rows N]`: the
//! subcommand's arguments, and reading them back with the global options that
//! apply to a session (key, base URL, database, budget, sandbox).

use std::net::SocketAddr;

use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{Arg, ArgMatches, value_parser};
use seozoom::operation_table::ParamKind;
use seozoom::operations::{OPERATIONS, SERVICE};

use super::tool_names::{ESTIMATE, MORE, USAGE, tool_name};
use crate::cli::opt;

/// Name of the subcommand.
pub const COMMAND: &str = "mcp";

/// Rows of one result shown to an agent when `--max-result-rows` is not given:
/// enough for most questions, small enough not to flood its context.
pub const DEFAULT_MAX_RESULT_ROWS: usize = 100;

/// Ids of the subcommand's own arguments (prefixed like the root's, so they
/// never meet a parameter's wire name).
const HTTP: &str = "mcp:http";
const MAX_RESULT_ROWS: &str = "mcp:max-result-rows";
const TOOLS: &str = "mcp:tools";
const CONFORMANCE_FIXTURE: &str = "mcp:conformance-fixture";

/// A session as the command line asks for it. Its `Debug` never shows the key.
pub struct Options {
    /// The key given (flag or environment), if not blank.
    pub api_key: Option<String>,
    /// The service's base URL (ignored with `sandbox`).
    pub base_url: String,
    /// Send the calls to a built-in sandbox started for the session.
    pub sandbox: bool,
    /// The database of a call that names none (`--db`).
    pub database: String,
    /// Units the whole session may spend (`--budget N`), or the key's budget
    /// per UTC day or month (`--budget N/day`).
    pub budget: Option<crate::store::Budget>,
    /// Where the key-wide memory lives (`--store`, `--refresh`).
    pub store: crate::store::StoreOptions,
    /// The most rows of a result put in one tool answer.
    pub max_result_rows: usize,
    /// Serve streamable HTTP on this loopback address instead of stdio.
    pub http: Option<SocketAddr>,
    /// The period the requests-per-minute figures apply to (`--rate-window`).
    pub rate_window: Option<std::time::Duration>,
    /// The longest a call may spend waiting (`--max-wait`; the library's
    /// default when not given).
    pub max_wait: Option<std::time::Duration>,
    /// Fit a paged call's row cap (`max_rows`) to the budget (`--fit-budget`).
    pub fit_budget: bool,
    /// The operations' tools exposed (`--tools`): names and groups; `None`
    /// for all.
    pub tools: Option<Vec<String>>,
    /// List the conformance suite's test tools too (`--conformance-fixture`,
    /// hidden; only with `sandbox`).
    pub conformance_fixture: bool,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("base_url", &self.base_url)
            .field("sandbox", &self.sandbox)
            .field("database", &self.database)
            .field("budget", &self.budget)
            .field("max_result_rows", &self.max_result_rows)
            .field("http", &self.http)
            .field("rate_window", &self.rate_window)
            .field("max_wait", &self.max_wait)
            .field("fit_budget", &self.fit_budget)
            .field("tools", &self.tools)
            .field("conformance_fixture", &self.conformance_fixture)
            .finish()
    }
}

/// The `mcp` subcommand.
pub fn subcommand() -> clap::Command {
    clap::Command::new(COMMAND)
        .about("Serve the Model Context Protocol over stdio: one tool per operation, with cost estimates and the --budget guard")
        .long_about(format!(
            "Serve the Model Context Protocol over stdio (or streamable HTTP on loopback with --http), for AI agents.\n\n\
             Every operation of the spec is a tool named <group>_<action> ({}, ...), \
             with typed arguments and results. Three more tools: `{ESTIMATE}` (the cost range of a call, nothing sent), \
             `{USAGE}` (the session's spending) and `{MORE}` (the rest of a result that was cut to --max-result-rows, free).\n\n\
             The global options --api-key (or SEOZOOM_API_KEY), --base-url, --db (the default database), --budget \
             (for the whole session: a call that may go over is refused before sending), --sandbox, the store options, \
             --rate-window, --max-wait and --fit-budget (for a paged tool's max_rows) apply; --dry-run, --columns and \
             --format are refused. With \
             --sandbox no key is needed; a key given is sent to the sandbox, which takes any.",
            OPERATIONS
                .iter()
                .take(2)
                .map(|op| tool_name(op))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .arg(
            Arg::new(HTTP)
                .long("http")
                .value_name("ADDR")
                .value_parser(value_parser!(SocketAddr))
                .help("Serve streamable HTTP at http://ADDR/mcp instead of stdio; ADDR must be a loopback address such as 127.0.0.1:8750 (port 0: any free port, printed on stdout)"),
        )
        .arg(
            Arg::new(TOOLS)
                .long("tools")
                .value_name("LIST")
                .value_delimiter(',')
                .help(format!(
                    "Expose only these operations' tools: tool names or groups, comma-separated (--tools keywords,domains_metrics); `{ESTIMATE}`, `{USAGE}` and `{MORE}` are always there. Default: all"
                )),
        )
        .arg(
            Arg::new(MAX_RESULT_ROWS)
                .long("max-result-rows")
                .value_name("N")
                .value_parser(value_parser!(u64).range(1..))
                .default_value(DEFAULT_MAX_RESULT_ROWS.to_string())
                .help("The most rows of a result put in one tool answer; the rest is held for the `more` tool"),
        )
        .arg(
            // Hidden: for the MCP conformance suite in CI, never for agents.
            Arg::new(CONFORMANCE_FIXTURE)
                .long("conformance-fixture")
                .action(clap::ArgAction::SetTrue)
                .hide(true)
                .help("With --sandbox: also list the MCP conformance suite's test tools (test_tool_with_logging), which make example calls on the sandbox"),
        )
}

/// The session asked for by the root's matches and the subcommand's; a usage
/// error (kind and message) for options that do not apply or are out of range.
pub fn read(root: &ArgMatches, sub: &ArgMatches) -> Result<Options, (ErrorKind, String)> {
    // Global options may be written before or after `mcp`.
    let string = |id: &str| -> Option<String> {
        sub.try_get_one::<String>(id)
            .ok()
            .flatten()
            .or_else(|| root.get_one::<String>(id))
            .cloned()
    };
    let given = |id: &str| {
        [sub, root]
            .iter()
            .any(|m| matches!(m.value_source(id), Some(ValueSource::CommandLine)))
    };
    // Options of a command's output: a tool answers with structured JSON
    // (every field, as its outputSchema says). Refused, so that none is taken
    // to be honoured.
    let refused = [
        (
            opt::DRY_RUN,
            "--dry-run does not apply to `mcp`: its `estimate` tool gives the cost of a call without sending it",
        ),
        (
            opt::COLUMNS,
            "--columns does not apply to `mcp`: a tool's result is structured JSON with every field of its outputSchema",
        ),
        (
            opt::FORMAT,
            "--format does not apply to `mcp`: a tool's result is structured JSON (its outputSchema)",
        ),
    ];
    if let Some((_, why)) = refused.iter().find(|(id, _)| given(id)) {
        return Err((ErrorKind::ArgumentConflict, (*why).to_owned()));
    }
    let database = string(opt::DB).unwrap_or_default();
    if let ParamKind::Enum { values, .. } = SERVICE.database.kind
        && !values.contains(&database.as_str())
    {
        return Err((
            ErrorKind::InvalidValue,
            format!("--db {database}: must be one of {}", values.join(", ")),
        ));
    }
    let budget = sub
        .try_get_one::<crate::store::Budget>(opt::BUDGET)
        .ok()
        .flatten()
        .or_else(|| root.get_one::<crate::store::Budget>(opt::BUDGET))
        .copied();
    let sandbox = [sub, root].iter().any(|m| {
        m.try_get_one::<bool>(opt::SANDBOX)
            .ok()
            .flatten()
            .copied()
            .unwrap_or(false)
    });
    let api_key = string(opt::API_KEY).filter(|key| !key.trim().is_empty());
    let base_url = string(opt::BASE_URL).unwrap_or_else(|| SERVICE.base_url.to_owned());
    let http = sub.get_one::<SocketAddr>(HTTP).copied();
    if let Some(addr) = http
        && !addr.ip().is_loopback()
    {
        // The endpoint has no authentication: anyone who reaches it spends the
        // key's units.
        return Err((
            ErrorKind::InvalidValue,
            format!(
                "--http {addr}: must be a loopback address (127.0.0.1 or [::1]); the endpoint has no authentication"
            ),
        ));
    }
    let tools: Option<Vec<String>> = sub.get_many::<String>(TOOLS).map(|names| {
        names
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .collect()
    });
    if let Some(names) = &tools {
        let known = |name: &str| {
            OPERATIONS
                .iter()
                .any(|op| op.group == name || tool_name(op) == name)
        };
        if let Some(unknown) = names.iter().find(|name| !known(name)) {
            let mut groups: Vec<&str> = OPERATIONS.iter().map(|op| op.group).collect();
            groups.dedup();
            return Err((
                ErrorKind::InvalidValue,
                format!(
                    "--tools {unknown}: not a group or an operation's tool; the groups are {} and the tools <group>_<action> (tools/list gives them)",
                    groups.join(", ")
                ),
            ));
        }
        if names.is_empty() {
            return Err((
                ErrorKind::InvalidValue,
                "--tools: name at least one group or tool".into(),
            ));
        }
    }
    let conformance_fixture = sub.get_flag(CONFORMANCE_FIXTURE);
    if conformance_fixture && !sandbox {
        // Its tools make calls of their own: never on a key that is charged.
        return Err((
            ErrorKind::ArgumentConflict,
            "--conformance-fixture: only with --sandbox; its test tools are for the MCP conformance suite, not for a real session".into(),
        ));
    }
    let max_result_rows = sub
        .get_one::<u64>(MAX_RESULT_ROWS)
        .map_or(DEFAULT_MAX_RESULT_ROWS, |&n| {
            usize::try_from(n).unwrap_or(usize::MAX)
        });
    Ok(Options {
        api_key,
        base_url,
        sandbox,
        database,
        budget,
        store: crate::store::read(&[sub, root]),
        max_result_rows,
        http,
        rate_window: crate::cli::rate_window(&[sub, root]),
        max_wait: [sub, root].iter().find_map(|m| {
            m.try_get_one::<std::time::Duration>(opt::MAX_WAIT)
                .ok()
                .flatten()
                .copied()
        }),
        fit_budget: [sub, root].iter().any(|m| {
            m.try_get_one::<bool>(opt::FIT_BUDGET)
                .ok()
                .flatten()
                .copied()
                .unwrap_or(false)
        }),
        tools,
        conformance_fixture,
    })
}
