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
    if given(opt::DRY_RUN) {
        return Err((
            ErrorKind::ArgumentConflict,
            "--dry-run does not apply to `mcp`: its `estimate` tool gives the cost of a call without sending it".into(),
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
        log_level: crate::logging::stderr_log_level(),
    };
    seozoom_mcp::read(sub, settings)
}
