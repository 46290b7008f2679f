//! The store options every command that calls the service shares: where the
//! key-wide memory lives (`--store`, `SEOZOOM_STORE`, by default a SQLite
//! file under the user's data directory), `--refresh`, and what `--budget`
//! means (`N` for this command, `N/day` or `N/month` for the key's UTC
//! calendar window); and `seozoom usage`, the ledger per operation.

use std::io::Write;

use clap::{Arg, ArgAction, ArgMatches};
use seozoom::error::Error;
use seozoom::store::Store;
use seozoom::{Client, ClientBuilder};

/// Environment variable naming the store when `--store` is not given.
pub const STORE_ENV: &str = "SEOZOOM_STORE";

/// Ids of the store options.
pub(crate) mod opt {
    pub const STORE: &str = "option:store";
    pub const REFRESH: &str = "option:refresh";
    pub const FALLBACK: &str = "option:store-fallback";
    pub const SINCE: &str = "option:since";
}

/// Name of the subcommand that reports the ledger.
pub const USAGE_COMMAND: &str = "usage";

/// What `--budget` guards: the library's grammar, shared with MCP and Python.
pub use seozoom::store::Budget;

/// The store options of one command.
#[derive(Debug, Clone, Default)]
pub struct StoreOptions {
    /// `--store` or `SEOZOOM_STORE`, if given.
    pub url: Option<String>,
    /// `--refresh`: skip cache reads.
    pub refresh: bool,
    /// `--store-fallback`: go on without the store when it fails.
    pub fallback: bool,
}

/// `--store` and `--refresh`, for the root command.
pub fn args(option: impl Fn(&'static str, &'static str) -> Arg) -> [Arg; 3] {
    [
        option(opt::STORE, "store")
            .value_name("URL")
            .env(STORE_ENV)
            // A Redis URL may carry a password.
            .hide_env_values(true)
            .help("Where the cache, the ledger, budget windows and shared rate limits live: sqlite:PATH, redis://HOST:PORT/N, memory (this run only) or none [default: sqlite: on $XDG_DATA_HOME/seozoom/store.sqlite3]"),
        option(opt::REFRESH, "refresh")
            .action(ArgAction::SetTrue)
            .help("Send every call even when the cache holds a fresh answer (the answer is cached anew)"),
        option(opt::FALLBACK, "store-fallback")
            .action(ArgAction::SetTrue)
            .help("If the store fails or cannot be reached, go on without the cache and under this process's rate limits only, with a warning (default: fail, naming the store)"),
    ]
}

/// The store options given on a command line (global options are read where
/// given: after the action, or at the root).
pub fn read(matches: &[&ArgMatches]) -> StoreOptions {
    let url = matches
        .iter()
        .find_map(|m| m.try_get_one::<String>(opt::STORE).ok().flatten())
        .cloned();
    let flag = |id: &str| {
        matches
            .iter()
            .any(|m| m.try_get_one::<bool>(id).ok().flatten() == Some(&true))
    };
    StoreOptions {
        url,
        refresh: flag(opt::REFRESH),
        fallback: flag(opt::FALLBACK),
    }
}

/// The default store: a SQLite file under the user's data directory
/// (`$XDG_DATA_HOME/seozoom/store.sqlite3`, else
/// `~/.local/share/seozoom/store.sqlite3` on Linux), an error where the system
/// knows none. The library's, so that the Python package finds the same file.
pub fn default_url() -> Result<String, Error> {
    seozoom::store::default_url()
}

impl StoreOptions {
    /// The store these options name.
    pub fn open(&self) -> Result<Store, Error> {
        let url = match &self.url {
            Some(url) => url.clone(),
            None => default_url()?,
        };
        Store::open(&url)
    }

    /// `builder` with the store, `--refresh` and the budget applied.
    pub fn apply(
        &self,
        builder: ClientBuilder,
        budget: Option<Budget>,
    ) -> Result<ClientBuilder, Error> {
        let mut builder = builder
            .store(self.open()?)
            .refresh(self.refresh)
            .store_fallback(self.fallback);
        match budget {
            Some(Budget::Client(units)) => builder = builder.budget(units),
            Some(Budget::Per(units, window)) => builder = builder.budget_per(units, window),
            None => {}
        }
        Ok(builder)
    }
}

/// `seozoom usage [--since YYYY-MM-DD]`.
pub fn usage_subcommand() -> clap::Command {
    clap::Command::new(USAGE_COMMAND)
        .about("What the store's ledger holds for the key, per operation: calls, cache hits, units used and saved, and the last balance reported")
        .arg(
            Arg::new(opt::SINCE)
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
        .get_one::<seozoom::types::Date>(opt::SINCE)
        .map_or(0, |day| day.to_unix_days().saturating_mul(86_400_000))
}

/// When a cached answer was fetched, as UTC text (`2026-11-23 18:55:10 UTC`).
pub fn utc_text(at: std::time::SystemTime) -> String {
    let secs = at
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
    let Ok(day) = seozoom::types::Date::from_unix_days(secs.div_euclid(86_400)) else {
        return format!("{secs} s after 1970-01-01 UTC");
    };
    let second = secs.rem_euclid(86_400);
    format!(
        "{day} {:02}:{:02}:{:02} UTC",
        second / 3_600,
        second % 3_600 / 60,
        second % 60
    )
}

/// The client of `usage`: the key (or the sandbox's) on the store, sending
/// nothing.
pub fn usage_client(api_key: String, options: &StoreOptions) -> Result<Client, Error> {
    options
        .apply(Client::builder().api_key(api_key), None)?
        .build()
}

/// The columns of `seozoom usage`, as its JSON members and CSV header.
const USAGE_COLUMNS: [&str; 6] = [
    "group",
    "action",
    "calls",
    "cache_hits",
    "units_used",
    "units_saved",
];

/// One operation's line of `seozoom usage`, as JSON.
fn usage_object(usage: &seozoom::store::Usage) -> serde_json::Value {
    serde_json::json!({
        "group": usage.group,
        "action": usage.action,
        "calls": usage.calls,
        "cache_hits": usage.cache_hits,
        "units_used": usage.units_used,
        "units_saved": usage.units_saved,
    })
}

/// `seozoom usage`: the ledger per operation; the exit code.
pub async fn report_usage(usage: crate::cli::Usage) -> u8 {
    let api_key = match usage.target {
        crate::cli::Target::Sandbox => crate::sandbox::API_KEY.to_owned(),
        crate::cli::Target::Service { api_key, .. } => api_key.unwrap_or_default(),
    };
    let client = match usage_client(api_key, &usage.store) {
        Ok(client) => client,
        Err(error) => return crate::report(&error),
    };
    let (rows, balance) = match (
        client.usage(usage.since_ms).await,
        client.last_balance().await,
    ) {
        (Ok(rows), Ok(balance)) => (rows, balance),
        (Err(error), _) | (_, Err(error)) => return crate::report(&error),
    };
    let mut stdout = std::io::stdout().lock();
    let written =
        write_usage(usage.format, &rows, balance, &mut stdout).and_then(|()| stdout.flush());
    match written {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write the usage: {error}");
            crate::EXIT_FAILED
        }
        _ => crate::EXIT_OK,
    }
}

/// The ledger's lines in `format`; the table also shows the last balance
/// reported (the other formats are the documented list of objects).
fn write_usage(
    format: crate::output::Format,
    rows: &[seozoom::store::Usage],
    balance: Option<seozoom::store::Balance>,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    use crate::output::Format;
    match format {
        Format::Json => {
            let list: Vec<_> = rows.iter().map(usage_object).collect();
            serde_json::to_writer_pretty(&mut *out, &list)?;
            writeln!(out)
        }
        Format::Ndjson => rows.iter().try_for_each(|row| {
            serde_json::to_writer(&mut *out, &usage_object(row))?;
            writeln!(out)
        }),
        Format::Csv => {
            let mut csv = csv::Writer::from_writer(out);
            csv.write_record(USAGE_COLUMNS)?;
            for row in rows {
                csv.write_record(usage_line(row))?;
            }
            csv.flush()
        }
        Format::Table => {
            let mut table = comfy_table::Table::new();
            table.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
            table.set_header(USAGE_COLUMNS.map(|c| c.replace('_', " ")));
            for row in rows {
                table.add_row(usage_line(row));
            }
            writeln!(out, "{table}")?;
            match balance {
                Some(balance) => {
                    let at = u64::try_from(balance.at_ms).unwrap_or(0);
                    let at = std::time::UNIX_EPOCH + std::time::Duration::from_millis(at);
                    writeln!(
                        out,
                        "last balance reported: {} units, at {}",
                        balance.units_remaining,
                        utc_text(at)
                    )
                }
                None => writeln!(out, "no balance reported yet"),
            }
        }
    }
}

fn usage_line(row: &seozoom::store::Usage) -> [String; 6] {
    [
        row.group.clone(),
        row.action.clone(),
        row.calls.to_string(),
        row.cache_hits.to_string(),
        row.units_used.to_string(),
        row.units_saved.to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fetch_times_read_in_utc() {
        let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_795_460_110);
        assert_eq!(utc_text(at), "2026-11-23 18:55:10 UTC");
    }
}
