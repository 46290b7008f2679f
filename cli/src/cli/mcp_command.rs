//! `seozoom [global options] mcp ...`: the global options that apply to an
//! MCP session read into the server's [`seozoom_mcp::Settings`], and the
//! subcommand's own arguments handed to the server's crate, which owns them.

use clap::ArgMatches;
use clap::error::ErrorKind;
use clap::parser::ValueSource;
use seozoom::operations::SERVICE;

use super::global_options::{opt, rate_window};

/// The session asked for by the root's matches and the subcommand's; a usage
/// error (kind and message) for options that do not apply or are out of range.
pub fn read(
    root: &ArgMatches,
    sub: &ArgMatches,
) -> Result<seozoom_mcp::Options, (ErrorKind, String)> {
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
    let flag = |id: &str| {
        [sub, root]
            .iter()
            .any(|m| m.try_get_one::<bool>(id).ok().flatten().copied() == Some(true))
    };
    let budget = sub
        .try_get_one::<crate::store::Budget>(opt::BUDGET)
        .ok()
        .flatten()
        .or_else(|| root.get_one::<crate::store::Budget>(opt::BUDGET))
        .copied();
    let sandbox = flag(opt::SANDBOX);
    let store = crate::store::read(&[sub, root]);
    let settings = seozoom_mcp::Settings {
        api_key: string(opt::API_KEY).filter(|key| !key.trim().is_empty()),
        base_url: string(opt::BASE_URL).unwrap_or_else(|| SERVICE.base_url.to_owned()),
        sandbox,
        database: string(opt::DB).unwrap_or_default(),
        budget,
        store: store.url,
        refresh: store.refresh,
        store_fallback: store.fallback,
        rate_window: rate_window(&[sub, root]),
        max_wait: [sub, root].iter().find_map(|m| {
            m.try_get_one::<std::time::Duration>(opt::MAX_WAIT)
                .ok()
                .flatten()
                .copied()
        }),
        fit_budget: flag(opt::FIT_BUDGET),
        log_level: crate::logging::stderr_log_level(),
    };
    seozoom_mcp::read(sub, settings)
}
