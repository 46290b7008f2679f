//! `seozoom [global options] mcp [--http ADDR] [--max-result-rows N]`: the
//! subcommand's own arguments, and the session they ask for together with
//! the settings the host's global options give ([`Settings`]: key, base URL,
//! database, budget, store, sandbox). The host reads its global options
//! itself; nothing here knows their ids.

use std::net::SocketAddr;
use std::time::Duration;

use clap::error::ErrorKind;
use clap::{Arg, ArgMatches, value_parser};
use seozoom::operation_table::ParamKind;
use seozoom::operations::{OPERATIONS, SERVICE};
use seozoom::store::Budget;
use tracing_subscriber::filter::LevelFilter;

use super::tool_names::{ESTIMATE, MORE, USAGE, tool_name};

/// Name of the subcommand.
pub const COMMAND: &str = "mcp";

/// Rows of one result shown to an agent when `--max-result-rows` is not given:
/// enough for most questions, small enough not to flood its context.
pub const DEFAULT_MAX_RESULT_ROWS: usize = 20;

/// Ids of the subcommand's own arguments (prefixed like the root's, so they
/// never meet a parameter's wire name).
const HTTP: &str = "mcp:http";
const MAX_RESULT_ROWS: &str = "mcp:max-result-rows";
const CONFIRM_OVER: &str = "mcp:confirm-over";
const TOOLS: &str = "mcp:tools";
const CONFORMANCE_FIXTURE: &str = "mcp:conformance-fixture";

/// What the host's global options give a session. Its `Debug` never shows
/// the key.
pub struct Settings {
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
    pub budget: Option<Budget>,
    /// The store's URL (`--store`); `None` for the default store.
    pub store: Option<String>,
    /// Skip cache reads (`--refresh`).
    pub refresh: bool,
    /// Go on without the store when it fails (`--store-fallback`).
    pub store_fallback: bool,
    /// The period the requests-per-minute figures apply to (`--rate-window`).
    pub rate_window: Option<Duration>,
    /// The longest a call may spend waiting (`--max-wait`; the library's
    /// default when not given).
    pub max_wait: Option<Duration>,
    /// Fit a paged call's row cap (`max_rows`) to the budget (`--fit-budget`).
    pub fit_budget: bool,
    /// The level of the library's messages on stderr (`SEOZOOM_LOG`).
    pub log_level: LevelFilter,
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("base_url", &self.base_url)
            .field("sandbox", &self.sandbox)
            .field("database", &self.database)
            .field("budget", &self.budget)
            .field("store", &self.store)
            .field("refresh", &self.refresh)
            .field("store_fallback", &self.store_fallback)
            .field("rate_window", &self.rate_window)
            .field("max_wait", &self.max_wait)
            .field("fit_budget", &self.fit_budget)
            .field("log_level", &self.log_level)
            .finish()
    }
}

/// A session as the command line asks for it.
#[derive(Debug)]
pub struct Options {
    /// What the global options give.
    pub settings: Settings,
    /// The most rows of a result put in one tool answer.
    pub max_result_rows: usize,
    /// Serve streamable HTTP on this loopback address instead of stdio.
    pub http: Option<SocketAddr>,
    /// The operations' tools exposed (`--tools`): names and groups; `None`
    /// for all.
    pub tools: Option<Vec<String>>,
    /// Ask the user before a call whose largest estimate is over this many
    /// units (`--confirm-over`).
    pub confirm_over: Option<i64>,
    /// List the conformance suite's test tools too (`--conformance-fixture`,
    /// hidden; only with `sandbox`).
    pub conformance_fixture: bool,
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
             --format are refused. With --sandbox no key is needed; a key given is sent to the sandbox, which takes any.",
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
            Arg::new(CONFIRM_OVER)
                .long("confirm-over")
                .value_name("UNITS")
                .value_parser(value_parser!(u64).range(0..=i64::MAX as u64))
                .help("Ask the user (MCP elicitation) before sending a call whose estimate may pass UNITS units; a client that cannot ask gets such a call refused before sending"),
        )
        .arg(
            // Hidden: for the MCP conformance suite in CI, never for agents.
            Arg::new(CONFORMANCE_FIXTURE)
                .long("conformance-fixture")
                .action(clap::ArgAction::SetTrue)
                .hide(true)
                .help("With --sandbox: also list the MCP conformance suite's test tools and resources (test_tool_with_logging, test_tool_with_progress, ...); those that check a mechanism make example calls on the sandbox"),
        )
}

/// The session asked for by the subcommand's matches and the host's
/// settings; a usage error (kind and message) for options that do not apply
/// or are out of range.
pub fn read(sub: &ArgMatches, settings: Settings) -> Result<Options, (ErrorKind, String)> {
    let database = &settings.database;
    if let ParamKind::Enum { values, .. } = SERVICE.database.kind
        && !values.contains(&database.as_str())
    {
        return Err((
            ErrorKind::InvalidValue,
            format!("--db {database}: must be one of {}", values.join(", ")),
        ));
    }
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
    if conformance_fixture && !settings.sandbox {
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
    let confirm_over = sub
        .get_one::<u64>(CONFIRM_OVER)
        .map(|&units| i64::try_from(units).unwrap_or(i64::MAX));
    Ok(Options {
        settings,
        confirm_over,
        max_result_rows,
        http,
        tools,
        conformance_fixture,
    })
}
