//! The command tree, built at run time from the operation table, and reading a
//! command line back into a generic [`Request`].
//!
//! Nothing here names a group, an action or a parameter of the API: groups come
//! from the distinct [`Operation::group`]s, actions from [`Operation::action`]
//! (with [`Operation::aliases`]), flags from [`Operation::params`], help texts from
//! their descriptions, limits and provenance.
//!
//! Every parameter flag takes any number of values and none is required by clap:
//! the library's validator checks presence, multiplicity, values and rules, so
//! every such mistake gets one message naming the parameter, the value and the
//! limit, and exits 2 with nothing sent.

use std::ffi::OsString;
use std::time::Duration;

use clap::{Arg, ArgAction, ArgMatches, value_parser};
use seozoom::operations::{GROUPS, OPERATIONS, SERVICE};
use seozoom::request::Request;
use seozoom::table::Operation;
use seozoom::table::{Charged, Counts, Group, Limit, Param, ParamKind};

use crate::format::Format;

/// Environment variable holding the key when `--api-key` is not given.
pub const API_KEY_ENV: &str = seozoom::config::API_KEY_ENV;
/// Environment variable holding the base URL when `--base-url` is not given.
pub const BASE_URL_ENV: &str = "SEOZOOM_BASE_URL";
/// Environment variable holding the rate window when `--rate-window` is not given.
pub const RATE_WINDOW_ENV: &str = "SEOZOOM_RATE_WINDOW";

/// Ids of the options that come before the group. A parameter's id is its wire
/// name; these have a prefix no wire name has, so that the two never mix.
pub(crate) mod opt {
    pub const API_KEY: &str = "option:api-key";
    pub const BASE_URL: &str = "option:base-url";
    pub const DB: &str = "option:db";
    pub const FORMAT: &str = "option:format";
    pub const SANDBOX: &str = "option:sandbox";
    pub const BUDGET: &str = "option:budget";
    pub const DRY_RUN: &str = "option:dry-run";
    pub const MAX_ROWS: &str = "option:max-rows";
    pub const PORT: &str = "option:port";
    pub const COLUMNS: &str = "option:columns";
    pub const RATE_WINDOW: &str = "option:rate-window";
    pub const MAX_WAIT: &str = "option:max-wait";
    pub const FIT_BUDGET: &str = "option:fit-budget";
    pub const STRICT: &str = "option:strict";
}

/// Help heading of the options that come before the group.
const OPTIONS_HEADING: &str = "Global options";
/// Help heading of an operation's parameters.
const PARAMS_HEADING: &str = "Parameters";

/// Prefix of the id of a list parameter's `--<flag>-file` argument (no wire name
/// has it, so the two never mix).
const FILE_ID: &str = "file:";
/// The file name that means standard input.
const STDIN: &str = "-";

/// Name of the subcommand that runs the sandbox on its own.
pub const SANDBOX_COMMAND: &str = "sandbox";

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    /// Call one operation.
    Call(Invocation),
    /// Serve the sandbox until interrupted, on this port (an ephemeral one if none).
    Sandbox {
        /// The port to listen on.
        port: Option<u16>,
        /// `--strict`: enforce the requests-per-minute figures over this window.
        strict: Option<Duration>,
    },
    /// Serve the Model Context Protocol (`seozoom mcp`).
    Mcp(crate::mcp::Options),
    /// Print a completion script or the man page.
    Print(crate::completions::Print),
    /// Report the store's ledger (`seozoom usage`).
    Usage(Usage),
}

/// `seozoom usage`: whose ledger, in which store, from when, and how to print it.
#[derive(Debug)]
pub struct Usage {
    /// Whose: the key (flag or environment) or the sandbox's.
    pub target: Target,
    /// The store options.
    pub store: crate::store::StoreOptions,
    /// From when (ms since the epoch; 0 for everything).
    pub since_ms: i64,
    /// How to print it.
    pub format: Format,
}

/// Where a call goes.
#[derive(Debug)]
pub enum Target {
    /// The service (or anything that speaks its API) at `base_url`.
    Service {
        /// The key, if one was given (flag or environment).
        api_key: Option<String>,
        /// The base URL, without `/api/v2`.
        base_url: String,
    },
    /// A sandbox started in this process for the call.
    Sandbox,
}

/// One call read from the command line.
#[derive(Debug)]
pub struct Invocation {
    /// The operation and the values given, as wire text (not yet validated).
    pub request: Request,
    /// Where to send it.
    pub target: Target,
    /// How to print the result.
    pub format: Format,
    /// `--columns`: these columns, in this order (checked against the
    /// operation's columns).
    pub columns: Option<Vec<String>>,
    /// A unit budget: a call that may cost more is refused.
    pub budget: Option<crate::store::Budget>,
    /// Where the key-wide memory lives, and whether to skip cache reads.
    pub store: crate::store::StoreOptions,
    /// Print the requests and the cost estimate instead of sending anything.
    pub dry_run: bool,
    /// Page through a paged operation's rows up to this many (`--max-rows`).
    pub max_rows: Option<usize>,
    /// The period the requests-per-minute figures apply to (`--rate-window`).
    pub rate_window: Option<Duration>,
    /// The longest a call may spend waiting, all its waits together
    /// (`--max-wait`; the library's default when not given).
    pub max_wait: Option<Duration>,
    /// `--fit-budget`: a paged job takes as many pages as the budget's worst
    /// case covers, instead of being refused whole.
    pub fit_budget: bool,
}

/// A number of seconds greater than 0, decimals allowed (`--rate-window 0.5`).
fn seconds(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("`{text}` is not a number of seconds greater than 0"))
}

/// `--rate-window` (or its environment variable), wherever it was written.
pub(crate) fn rate_window(matches: &[&ArgMatches]) -> Option<Duration> {
    matches
        .iter()
        .find_map(|m| m.try_get_one::<Duration>(opt::RATE_WINDOW).ok().flatten())
        .copied()
}

/// The long flag of a parameter: its wire name with `_` written as `-`.
pub fn flag_name(wire: &str) -> String {
    wire.replace('_', "-")
}

/// The long flag that reads a list parameter's values from a file.
pub fn file_flag_name(wire: &str) -> String {
    format!("{}-file", flag_name(wire))
}

/// Whether some operation has a flag with this long name (then an option of the
/// same name cannot also be given after the group).
fn taken_by_a_param(long: &str) -> bool {
    OPERATIONS
        .iter()
        .flat_map(|op| op.params)
        .any(|p| flag_name(p.wire) == long)
}

/// An option of the root command. It may also be written after the group and
/// action, unless some parameter has the same flag.
fn option(id: &'static str, long: &'static str) -> Arg {
    Arg::new(id)
        .long(long)
        .global(!taken_by_a_param(long))
        .help_heading(OPTIONS_HEADING)
}

/// `provenance` for help texts.
fn limit_phrase(limit: &Limit) -> String {
    format!("{} ({})", limit.value, limit.source.phrase())
}

/// The help text of a parameter: description, type, limits with provenance,
/// presence and default.
fn param_help(param: &Param) -> String {
    let mut parts = vec![param.description.trim_end_matches('.').to_owned() + "."];
    match param.kind {
        ParamKind::Integer => parts.push("A whole number.".into()),
        ParamKind::Date => parts.push("A date written yyyy-MM-dd.".into()),
        ParamKind::Enum { values, .. } => parts.push(format!("One of: {}.", values.join(", "))),
        _ => {}
    }
    if let Some(min) = &param.min {
        parts.push(format!("At least {}.", limit_phrase(min)));
    }
    if let Some(max) = &param.max {
        parts.push(format!("At most {}.", limit_phrase(max)));
    }
    if param.list {
        let mut count = "Repeat the flag for several values".to_owned();
        if let Some(min) = &param.min_items {
            count.push_str(&format!(
                "; at least {} value{} ({})",
                min.value,
                plural(min.value),
                min.source.phrase()
            ));
        }
        if let Some(max) = &param.max_items {
            count.push_str(&format!(
                "; at most {} value{} ({})",
                max.value,
                plural(max.value),
                max.source.phrase()
            ));
        }
        if let Some(max) = &param.max_items {
            count.push_str(&format!(
                ". More values are sent as a batched job: repeated ones once, at most {} per request, results merged in input order",
                max.value
            ));
        }
        parts.push(count + ".");
    } else {
        parts.push("One value.".into());
    }
    match (param.required, param.default) {
        (true, _) => parts.push("Required.".into()),
        (false, Some(default)) => parts.push(format!("Default: {default}.")),
        (false, None) => parts.push("Optional.".into()),
    }
    parts.join(" ")
}

fn plural(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The value placeholder of a parameter in usage lines.
fn value_name(param: &Param) -> String {
    match param.kind {
        ParamKind::Date => "YYYY-MM-DD".into(),
        ParamKind::Integer => "N".into(),
        _ => param.wire.to_uppercase(),
    }
}

/// The flag of one parameter: any number of values, never required by clap.
fn param_arg(param: &'static Param) -> Arg {
    let mut arg = Arg::new(param.wire)
        .long(flag_name(param.wire))
        .value_name(value_name(param))
        .help(param_help(param))
        .help_heading(PARAMS_HEADING)
        .action(ArgAction::Append)
        .num_args(1)
        .required(false);
    if param.kind == ParamKind::Integer {
        // So that `--position -1` reaches the validator instead of being a flag.
        arg = arg.allow_negative_numbers(true);
    }
    arg
}

/// The `--<flag>-file` argument of a list parameter.
fn file_arg(param: &'static Param) -> Arg {
    Arg::new(format!("{FILE_ID}{}", param.wire))
        .long(file_flag_name(param.wire))
        .value_name("FILE")
        .help(format!(
            "Read --{} values from FILE, one per line (blank lines skipped; `-` reads standard input). Adds to the values of --{}.",
            flag_name(param.wire),
            flag_name(param.wire)
        ))
        .help_heading(PARAMS_HEADING)
        .action(ArgAction::Append)
        .num_args(1)
        .required(false)
}

/// The cost of an operation, for its long help.
fn cost_help(op: &Operation) -> String {
    let cost = &op.cost;
    let charged = match cost.charged {
        Charged::PerCall => "per call",
        Charged::PerRow => "per returned row",
        _ => "charged",
    };
    let counts = match cost.per_request_counts {
        Counts::Items => "input values",
        Counts::Rows => "rows",
        _ => "items",
    };
    let units = match (cost.printed, cost.charged) {
        (Some(printed), _) => format!("{printed} units {charged}"),
        _ => "unknown, the reference prints none; --budget refuses the call".to_owned(),
    };
    format!(
        "Cost: {units} ({}). At most {} {counts} per request ({}); {} requests per minute ({}).",
        cost.charged_source.phrase(),
        cost.per_request.value,
        cost.per_request.source.phrase(),
        cost.requests_per_minute.value,
        cost.requests_per_minute.source.phrase(),
    )
}

/// The conditional rules of an operation, for its help.
fn rules_help(op: &Operation) -> Option<String> {
    if op.rules.is_empty() {
        return None;
    }
    let mut text = String::from("Rules:");
    for rule in op.rules {
        let then = match rule.equal_to {
            Some(value) => format!("--{} must be {value}", flag_name(rule.require)),
            None => format!("--{} is required", flag_name(rule.require)),
        };
        text.push_str(&format!(
            "\n  --{} {}: {then} ({}).",
            flag_name(rule.if_param),
            rule.if_value,
            rule.source.phrase(),
        ));
    }
    Some(text)
}

/// The first sentence of a description, for short help.
fn first_sentence(text: &str) -> String {
    match text.find(". ") {
        Some(end) => text[..=end].to_owned(),
        None => text.to_owned(),
    }
}

/// The subcommand of one operation.
fn action_command(op: &'static Operation) -> clap::Command {
    let mut long_about = format!("{}\n\n{}", op.description, cost_help(op));
    if !op.aliases.is_empty() {
        long_about.push_str(&format!("\n\nAlso called: {}.", op.aliases.join(", ")));
    }
    let mut command = clap::Command::new(op.action)
        .visible_aliases(op.aliases.iter().copied())
        .about(first_sentence(op.description))
        .long_about(long_about)
        .args(op.params.iter().filter(|p| !p.implicit).map(param_arg))
        .args(
            op.params
                .iter()
                .filter(|p| !p.implicit && p.list)
                .map(file_arg),
        );
    if let Some(paging) = op.paging() {
        command = command.arg(max_rows_arg(op, &paging));
    }
    let example = crate::example::help(op);
    command.after_help(match rules_help(op) {
        Some(rules) => format!("{rules}\n\n{example}"),
        None => example,
    })
}

/// `--max-rows` of a paged operation ([`Operation::paging`]).
fn max_rows_arg(op: &Operation, paging: &seozoom::job::Paging) -> Arg {
    let (offset, limit) = (flag_name(paging.offset.wire), flag_name(paging.limit.wire));
    Arg::new(opt::MAX_ROWS)
        .long("max-rows")
        .value_name("N")
        .value_parser(value_parser!(u64).range(1..))
        .help(format!(
            "Page through the rows: requests of --{limit} rows each (default {}, the most one request takes) from --{offset} on, until a page comes back short or N rows have come. ndjson and csv print each page as it arrives (memory stays one page's); json and table print one result after the last page. The estimate and --budget cover the whole job.",
            op.cost.per_request.value
        ))
        .help_heading(PARAMS_HEADING)
}

/// The subcommand of one group, with its actions.
fn group_command(group: &'static Group) -> clap::Command {
    let ops = OPERATIONS
        .iter()
        .copied()
        .filter(|op| op.group == group.name);
    clap::Command::new(group.name)
        .about(format!("{} ({})", group.description, group.path))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommands(ops.into_iter().map(action_command))
}

/// The database used when `--db` is not given: the spec's default, or its
/// first database if it names none. The one place the CLI decides it.
pub fn default_db() -> &'static str {
    let first = match SERVICE.database.kind {
        ParamKind::Enum { values, .. } => values.first().copied(),
        _ => None,
    };
    SERVICE.database.default.or(first).unwrap_or_default()
}

/// The whole command tree.
pub fn command() -> clap::Command {
    let databases = match SERVICE.database.kind {
        ParamKind::Enum { values, .. } => values.join(", "),
        _ => String::new(),
    };
    let default_db = default_db();
    clap::Command::new("seozoom")
        .version(env!("CARGO_PKG_VERSION"))
        .about(format!("Command line for the {}", SERVICE.title))
        .long_about(format!(
            "Command line for the {}.\n\n\
             Every operation is `seozoom [OPTIONS] <GROUP> <ACTION> --<param> VALUE ...`; \
             a list parameter is given by repeating its flag. Every limit and rule of the \
             spec is checked before anything is sent.\n\n\
             Exit codes: 0 success (\"no data\" prints an empty result); 2 refused before \
             anything was sent; 1 the request failed.",
            SERVICE.title
        ))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .arg(
            option(opt::API_KEY, "api-key")
                .value_name("KEY")
                .env(API_KEY_ENV)
                .hide_env_values(true)
                .help("API key (never printed)"),
        )
        .arg(
            option(opt::BASE_URL, "base-url")
                .value_name("URL")
                .env(BASE_URL_ENV)
                .hide_env_values(true)
                .default_value(SERVICE.base_url)
                .help("Service address without /api/v2; plain http only to loopback"),
        )
        .arg(
            option(opt::DB, SERVICE.database.wire)
                .value_name("DB")
                .default_value(default_db)
                .help(format!("Country database: one of {databases}")),
        )
        .arg(
            option(opt::FORMAT, "format")
                .value_name("FORMAT")
                .value_parser(Format::WORDS)
                .default_value("table")
                .help("Output: json (the envelope with the API's field names), ndjson (one JSON object per record), csv or table (fitted to the terminal; COLUMNS sets its width)"),
        )
        .arg(
            option(opt::COLUMNS, "columns")
                .value_name("NAME,...")
                .value_delimiter(',')
                .action(ArgAction::Append)
                .help("Only these columns, in this order, by the names of the CSV header (wire names; `list.name` inside a nested list), in every format"),
        )
        .arg(
            option(opt::SANDBOX, "sandbox")
                .action(ArgAction::SetTrue)
                .help("Run against a built-in sandbox started for the call (no key needed; ignores --api-key and --base-url)"),
        )
        .arg(
            option(opt::BUDGET, "budget")
                .value_name("UNITS[/day|/month]")
                .value_parser(|text: &str| text.parse::<crate::store::Budget>())
                .help("Refuse the call, sending nothing, if it may cost more than UNITS; UNITS/day or UNITS/month: more than what is left of the key's budget for the UTC day or month, counted in the store across every process"),
        )
        .args(crate::store::args(option))
        .arg(
            option(opt::DRY_RUN, "dry-run")
                .action(ArgAction::SetTrue)
                .help("Print the requests (key redacted) and the cost estimate, and send nothing (no key needed)"),
        )
        .arg(
            option(opt::RATE_WINDOW, "rate-window")
                .value_name("SECS")
                .env(RATE_WINDOW_ENV)
                .value_parser(seconds)
                .help("Seconds the requests-per-minute figures apply to (default 60), here and in `sandbox --strict`"),
        )
        .arg(
            option(opt::MAX_WAIT, "max-wait")
                .value_name("SECS")
                .value_parser(seconds)
                .help(format!(
                    "The longest a call may spend waiting, all its waits together (rate-limit slots, Retry-After, 429 rate windows, backoffs; default {}): a wait that would pass it is not begun, and the call stops naming it (rows received are kept)",
                    seozoom::config::DEFAULT_MAX_WAIT.as_secs()
                )),
        )
        .arg(
            option(opt::FIT_BUDGET, "fit-budget")
                .action(ArgAction::SetTrue)
                .help("With --budget and --max-rows: take as many rows as the budget covers at worst (said on stderr before the first request) instead of refusing the job"),
        )
        .subcommands(GROUPS.iter().map(group_command))
        .subcommand(
            clap::Command::new(SANDBOX_COMMAND)
                .about("Serve the built-in sandbox (key `sandbox`) until interrupted; prints its base URL")
                .arg(
                    Arg::new(opt::PORT)
                        .long("port")
                        .value_name("N")
                        .value_parser(value_parser!(u16))
                        .help("Port on 127.0.0.1 (default: any free port)"),
                )
                .arg(
                    Arg::new(opt::STRICT)
                        .long("strict")
                        .action(ArgAction::SetTrue)
                        .help("Enforce the requests-per-minute figures per operation and key over a rolling --rate-window (default 60 s), answering 429 with Retry-After as the service would"),
                ),
        )
        .subcommand(crate::store::usage_subcommand())
        .subcommand(crate::mcp::subcommand())
        .subcommands(crate::completions::subcommands())
}

/// Read a command line.
pub fn parse<I, T>(args: I) -> Result<Command, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let mut tree = command();
    let matches = tree.try_get_matches_from_mut(args)?;
    let Some((group, group_matches)) = matches.subcommand() else {
        return Err(tree.error(
            clap::error::ErrorKind::MissingSubcommand,
            "a group is required",
        ));
    };
    if group == SANDBOX_COMMAND {
        let strict = group_matches.get_flag(opt::STRICT).then(|| {
            rate_window(&[group_matches, &matches])
                .unwrap_or(seozoom::sandbox::Sandbox::RATE_WINDOW)
        });
        return Ok(Command::Sandbox {
            port: group_matches.get_one::<u16>(opt::PORT).copied(),
            strict,
        });
    }
    if let Some(print) = crate::completions::read(group, group_matches) {
        return Ok(Command::Print(print));
    }
    if group == crate::store::USAGE_COMMAND {
        return Ok(Command::Usage(usage(&matches, group_matches)));
    }
    if group == crate::mcp::COMMAND {
        return crate::mcp::read(&matches, group_matches)
            .map(Command::Mcp)
            .map_err(|(kind, message)| tree.error(kind, message));
    }
    let Some((action, action_matches)) = group_matches.subcommand() else {
        return Err(tree.error(
            clap::error::ErrorKind::MissingSubcommand,
            format!("`{group}` needs an action"),
        ));
    };
    let Some(op) = Operation::find(group, action) else {
        return Err(tree.error(
            clap::error::ErrorKind::InvalidSubcommand,
            format!("no operation `{group} {action}`"),
        ));
    };
    let mut stdin = std::io::stdin().lock();
    let call = invocation(op, &matches, action_matches, &mut stdin)
        .map_err(|message| tree.error(clap::error::ErrorKind::Io, message))?;
    if let Some(columns) = &call.columns {
        crate::columns::check(op, columns)
            .map_err(|message| tree.error(clap::error::ErrorKind::InvalidValue, message))?;
    }
    Ok(Command::Call(call))
}

/// The values of a list file: one per line, trimmed, blank lines skipped.
pub fn read_values(input: impl std::io::BufRead) -> std::io::Result<Vec<String>> {
    let mut values = Vec::new();
    for line in input.lines() {
        let line = line?;
        let value = line.trim();
        if !value.is_empty() {
            values.push(value.to_owned());
        }
    }
    Ok(values)
}

/// The values of the `--<flag>-file` arguments of `param`, in the order given
/// (`None` when there is none); `stdin` is read for `-` (once).
fn file_values(
    param: &Param,
    action: &ArgMatches,
    stdin: &mut dyn std::io::BufRead,
    stdin_read: &mut bool,
) -> Result<Option<Vec<String>>, String> {
    let Some(paths) = action.get_many::<String>(&format!("{FILE_ID}{}", param.wire)) else {
        return Ok(None);
    };
    let mut values = Vec::new();
    let flag = file_flag_name(param.wire);
    for path in paths {
        let read = if path == STDIN {
            if std::mem::replace(stdin_read, true) {
                return Err(format!(
                    "--{flag} -: standard input can be read for one file flag only"
                ));
            }
            read_values(&mut *stdin)
        } else {
            std::fs::File::open(path).and_then(|file| read_values(std::io::BufReader::new(file)))
        };
        values.extend(read.map_err(|e| format!("--{flag} {path}: cannot read it: {e}"))?);
    }
    Ok(Some(values))
}

/// The call of `op`: options from the root, parameters from the action, list
/// values from files (`stdin` for `-`).
fn invocation(
    op: &'static Operation,
    root: &ArgMatches,
    action: &ArgMatches,
    stdin: &mut dyn std::io::BufRead,
) -> Result<Invocation, String> {
    // Global options are propagated to the action's matches; root-only ones are
    // read at the root.
    let string = |id: &str| -> Option<String> {
        action
            .try_get_one::<String>(id)
            .ok()
            .flatten()
            .or_else(|| root.get_one::<String>(id))
            .cloned()
    };
    let flag = |id: &str| {
        action
            .try_get_one::<bool>(id)
            .ok()
            .flatten()
            .copied()
            .unwrap_or(false)
            || root.get_flag(id)
    };
    let budget = action
        .try_get_one::<crate::store::Budget>(opt::BUDGET)
        .ok()
        .flatten()
        .or_else(|| root.get_one::<crate::store::Budget>(opt::BUDGET))
        .copied();

    let mut request = Request::new(op, None);
    if let Some(db) = string(opt::DB) {
        request.set_database(&db);
    }
    let mut stdin_read = false;
    for param in op.params.iter().filter(|p| !p.implicit) {
        let mut values: Option<Vec<String>> = action
            .get_many::<String>(param.wire)
            .map(|v| v.cloned().collect());
        if param.list
            && let Some(from_files) = file_values(param, action, stdin, &mut stdin_read)?
        {
            values.get_or_insert_with(Vec::new).extend(from_files);
        }
        if let Some(values) = values {
            request.set(param.wire, values);
        }
    }

    let max_rows = action
        .try_get_one::<u64>(opt::MAX_ROWS)
        .ok()
        .flatten()
        .map(|&n| usize::try_from(n).unwrap_or(usize::MAX));
    if let (Some(_), Some(paging)) = (max_rows, op.paging())
        && request.get(paging.limit.wire).is_none()
    {
        // Pages as large as one request takes: the fewest requests.
        request.one(paging.limit.wire, &op.cost.per_request.value);
    }

    let target = if flag(opt::SANDBOX) {
        Target::Sandbox
    } else {
        Target::Service {
            api_key: string(opt::API_KEY),
            base_url: string(opt::BASE_URL).unwrap_or_else(|| SERVICE.base_url.to_owned()),
        }
    };
    let format = string(opt::FORMAT)
        .as_deref()
        .and_then(Format::from_word)
        .unwrap_or(Format::Table);
    let columns = action
        .try_get_many::<String>(opt::COLUMNS)
        .ok()
        .flatten()
        .or_else(|| root.get_many::<String>(opt::COLUMNS))
        .map(|names| names.map(|name| name.trim().to_owned()).collect());
    Ok(Invocation {
        request,
        target,
        format,
        columns,
        budget,
        store: crate::store::read(&[action, root]),
        dry_run: flag(opt::DRY_RUN),
        max_rows,
        rate_window: rate_window(&[action, root]),
        max_wait: [action, root]
            .iter()
            .find_map(|m| m.try_get_one::<Duration>(opt::MAX_WAIT).ok().flatten())
            .copied(),
        fit_budget: flag(opt::FIT_BUDGET),
    })
}

/// `seozoom usage`, read from the root's options and its own.
fn usage(root: &ArgMatches, sub: &ArgMatches) -> Usage {
    let string = |id: &str| -> Option<String> {
        sub.try_get_one::<String>(id)
            .ok()
            .flatten()
            .or_else(|| root.get_one::<String>(id))
            .cloned()
    };
    let sandbox = [sub, root]
        .iter()
        .any(|m| m.try_get_one::<bool>(opt::SANDBOX).ok().flatten() == Some(&true));
    let target = if sandbox {
        Target::Sandbox
    } else {
        Target::Service {
            api_key: string(opt::API_KEY),
            base_url: string(opt::BASE_URL).unwrap_or_else(|| SERVICE.base_url.to_owned()),
        }
    };
    Usage {
        target,
        store: crate::store::read(&[sub, root]),
        since_ms: crate::store::since_ms(sub),
        format: string(opt::FORMAT)
            .as_deref()
            .and_then(Format::from_word)
            .unwrap_or(Format::Table),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_is_well_formed() {
        command().debug_assert();
    }

    #[test]
    fn every_operation_is_a_subcommand() {
        let tree = command();
        for op in OPERATIONS {
            let group = tree.find_subcommand(op.group).expect(op.group);
            let action = group.find_subcommand(op.action).expect(op.action);
            for param in op.params.iter().filter(|p| !p.implicit) {
                assert!(
                    action
                        .get_arguments()
                        .any(|a| a.get_long() == Some(flag_name(param.wire).as_str())),
                    "{} has no --{}",
                    op.label(),
                    param.wire
                );
            }
            for alias in op.aliases {
                assert!(group.find_subcommand(alias).is_some(), "alias {alias}");
            }
        }
    }

    #[test]
    fn values_are_read_back_as_given() {
        let Command::Call(call) = parse([
            "seozoom",
            "--db",
            "fr",
            "keywords",
            "metrics",
            "--keyword",
            "a b",
            "--keyword",
            "c",
        ])
        .unwrap() else {
            panic!("a call expected")
        };
        assert_eq!(
            call.request.get("keyword"),
            Some(&["a b".to_owned(), "c".to_owned()][..])
        );
        let query = call.request.validate(&SERVICE, "it").unwrap();
        assert_eq!(query[0], ("db", "fr".to_owned()));
    }
}
