//! `seozoom usage [--since YYYY-MM-DD]`: the subcommand that reports the
//! store's ledger, and reading it back with the global options it takes.

use clap::{Arg, ArgMatches};
use seozoom::operations::SERVICE;

use super::global_options::{Target, opt};
use crate::format::Format;

/// Name of the subcommand that reports the ledger.
pub const USAGE_COMMAND: &str = "usage";

/// Id of `--since`.
const SINCE: &str = "option:since";

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

/// `seozoom usage [--since YYYY-MM-DD]`.
pub fn subcommand() -> clap::Command {
    clap::Command::new(USAGE_COMMAND)
        .about("What the store's ledger holds for the key, per operation: calls, cache hits, units used and saved, and the last balance reported")
        .arg(
            Arg::new(SINCE)
                .long("since")
                .value_name("YYYY-MM-DD")
                .value_parser(|text: &str| {
                    text.parse::<seozoom::types::Date>()
                        .map_err(|e| format!("`{text}` is not a date written YYYY-MM-DD: {e}"))
                })
                .help("Only what was recorded from this UTC day on (default: everything)"),
        )
}

/// The `--since` of `usage`, as milliseconds since the epoch (0 without one).
pub fn since_ms(matches: &ArgMatches) -> i64 {
    matches
        .get_one::<seozoom::types::Date>(SINCE)
        .map_or(0, |day| day.to_unix_days().saturating_mul(86_400_000))
}

/// `seozoom usage`, read from the root's options and its own.
pub fn read(root: &ArgMatches, sub: &ArgMatches) -> Usage {
    let (target, store, format) = reporting(root, sub);
    Usage {
        target,
        store,
        since_ms: since_ms(sub),
        format,
    }
}

/// What a command that reports what the store holds reads of the global
/// options, given at the root or after the subcommand: whose (the key, or the
/// sandbox's), which store, and the format (a table by default).
pub fn reporting(
    root: &ArgMatches,
    sub: &ArgMatches,
) -> (Target, crate::store::StoreOptions, Format) {
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
    let format = string(opt::FORMAT)
        .as_deref()
        .and_then(Format::from_word)
        .unwrap_or(Format::Table);
    (target, crate::store::read(&[sub, root]), format)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Command, parse};

    fn usage(args: &[&str]) -> Usage {
        match parse(["seozoom"].iter().chain(args)) {
            Ok(Command::Usage(usage)) => usage,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn since_format_and_target_are_read_from_both_levels() {
        let all = usage(&["--api-key", "k", "usage"]);
        assert_eq!(all.since_ms, 0);
        assert_eq!(all.format, Format::Table);
        assert!(matches!(all.target, Target::Service { api_key: Some(key), .. } if key == "k"));

        let day_two = usage(&["--format", "csv", "usage", "--since", "1970-01-02"]);
        assert_eq!(day_two.since_ms, 86_400_000);
        assert_eq!(day_two.format, Format::Csv);

        let sandbox = usage(&["usage", "--sandbox", "--format", "json"]);
        assert!(matches!(sandbox.target, Target::Sandbox));
        assert_eq!(sandbox.format, Format::Json);
    }
}
