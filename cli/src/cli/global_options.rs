//! The global options: those written before the group (and, unless a
//! parameter has the same flag, after the action too), their ids and
//! environment variables, where a call goes, and the database a call names
//! when `--db` is not given. Every subcommand reads these ids; this module
//! imports none of theirs.

use std::time::Duration;

use clap::{Arg, ArgAction, ArgMatches};
use seozoom::operation_table::ParamKind;
use seozoom::operations::{OPERATIONS, SERVICE};

use super::spelling::flag_name;
use crate::format::Format;

/// Environment variable holding the key when `--api-key` is not given.
pub const API_KEY_ENV: &str = seozoom::config::API_KEY_ENV;
/// Environment variable holding the base URL when `--base-url` is not given.
pub const BASE_URL_ENV: &str = "SEOZOOM_BASE_URL";
/// Environment variable holding the rate window when `--rate-window` is not given.
pub const RATE_WINDOW_ENV: &str = "SEOZOOM_RATE_WINDOW";

/// Ids of the options that come before the group. A parameter's id is its wire
/// name; these have a prefix no wire name has, so that the two never mix.
pub mod opt {
    pub const API_KEY: &str = "option:api-key";
    pub const BASE_URL: &str = "option:base-url";
    pub const DB: &str = "option:db";
    pub const FORMAT: &str = "option:format";
    pub const SANDBOX: &str = "option:sandbox";
    pub const BUDGET: &str = "option:budget";
    pub const DRY_RUN: &str = "option:dry-run";
    pub const MAX_ROWS: &str = "option:max-rows";
    pub const COLUMNS: &str = "option:columns";
    pub const RATE_WINDOW: &str = "option:rate-window";
    pub const MAX_WAIT: &str = "option:max-wait";
    pub const FIT_BUDGET: &str = "option:fit-budget";
}

/// Help heading of the options that come before the group.
const OPTIONS_HEADING: &str = "Global options";

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
pub fn rate_window(matches: &[&ArgMatches]) -> Option<Duration> {
    matches
        .iter()
        .find_map(|m| m.try_get_one::<Duration>(opt::RATE_WINDOW).ok().flatten())
        .copied()
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

/// The database used when `--db` is not given: the spec's default, or its
/// first database if it names none. The one place the CLI decides it.
pub fn default_db() -> &'static str {
    let first = match SERVICE.database.kind {
        ParamKind::Enum { values, .. } => values.first().copied(),
        _ => None,
    };
    SERVICE.database.default.or(first).unwrap_or_default()
}

/// The global options, in the order the help lists them.
pub fn global() -> Vec<Arg> {
    let databases = match SERVICE.database.kind {
        ParamKind::Enum { values, .. } => values.join(", "),
        _ => String::new(),
    };
    let default_db = default_db();
    let mut args = vec![
        option(opt::API_KEY, "api-key")
            .value_name("KEY")
            .env(API_KEY_ENV)
            .hide_env_values(true)
            .help("API key (never printed)"),
        option(opt::BASE_URL, "base-url")
            .value_name("URL")
            .env(BASE_URL_ENV)
            .hide_env_values(true)
            .default_value(SERVICE.base_url)
            .help("Service address without /api/v2; plain http only to loopback"),
        option(opt::DB, SERVICE.database.wire)
            .value_name("DB")
            .default_value(default_db)
            .help(format!("Country database: one of {databases}")),
        option(opt::FORMAT, "format")
            .value_name("FORMAT")
            .value_parser(Format::WORDS)
            .default_value("table")
            .help("Output: json (the envelope with the API's field names), ndjson (one JSON object per record), csv or table (fitted to the terminal; COLUMNS sets its width)"),
        option(opt::COLUMNS, "columns")
            .value_name("NAME,...")
            .value_delimiter(',')
            .action(ArgAction::Append)
            .help("Only these columns, in this order, by the names of the CSV header (wire names; `list.name` inside a nested list), in every format"),
        option(opt::SANDBOX, "sandbox")
            .action(ArgAction::SetTrue)
            .help("Run against a built-in sandbox started for the call (no key needed; ignores --api-key and --base-url)"),
        option(opt::BUDGET, "budget")
            .value_name("UNITS[/day|/month]")
            .value_parser(|text: &str| text.parse::<crate::store::Budget>())
            .help("Refuse the call, sending nothing, if it may cost more than UNITS; UNITS/day or UNITS/month: more than what is left of the key's budget for the UTC day or month, counted in the store across every process"),
    ];
    args.extend(crate::store::args(option));
    args.extend([
        option(opt::DRY_RUN, "dry-run")
            .action(ArgAction::SetTrue)
            .help("Print the requests (key redacted) and the cost estimate, and send nothing (no key needed)"),
        option(opt::RATE_WINDOW, "rate-window")
            .value_name("SECS")
            .env(RATE_WINDOW_ENV)
            .value_parser(seconds)
            .help("Seconds the requests-per-minute figures apply to (default 60), here and in `sandbox --strict`"),
        option(opt::MAX_WAIT, "max-wait")
            .value_name("SECS")
            .value_parser(seconds)
            .help(format!(
                "The longest a call may spend waiting, all its waits together (rate-limit slots, Retry-After, 429 rate windows, backoffs; default {}): a wait that would pass it is not begun, and the call stops naming it (rows received are kept)",
                seozoom::config::DEFAULT_MAX_WAIT.as_secs()
            )),
        option(opt::FIT_BUDGET, "fit-budget")
            .action(ArgAction::SetTrue)
            .help("With --budget and --max-rows: take as many rows as the budget covers at worst (said on stderr before the first request) instead of refusing the job"),
    ]);
    args
}
