//! The store options every command that calls the service shares: where the
//! key-wide memory lives (`--store`, `SEOZOOM_STORE`, by default a SQLite
//! file under the user's data directory), `--refresh`, and what `--budget`
//! means (`N` for this command, `N/day` or `N/month` for the key's UTC
//! calendar window); and when a cached answer was fetched, as people read it.

use clap::{Arg, ArgAction, ArgMatches};
use seozoom::ClientBuilder;
use seozoom::error::Error;
use seozoom::store::Store;

/// Environment variable naming the store when `--store` is not given.
pub const STORE_ENV: &str = "SEOZOOM_STORE";

/// Ids of the store options.
pub(crate) mod opt {
    pub const STORE: &str = "option:store";
    pub const REFRESH: &str = "option:refresh";
    pub const FALLBACK: &str = "option:store-fallback";
}

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

impl StoreOptions {
    /// The store these options name (the default one if none).
    pub fn open(&self) -> Result<Store, Error> {
        Store::open_or_default(self.url.as_deref())
    }

    /// `builder` with the store, `--refresh` and the budget applied.
    pub fn apply(
        &self,
        builder: ClientBuilder,
        budget: Option<Budget>,
    ) -> Result<ClientBuilder, Error> {
        let builder = builder
            .store(self.open()?)
            .refresh(self.refresh)
            .store_fallback(self.fallback);
        Ok(match budget {
            Some(budget) => builder.budget_limit(budget),
            None => builder,
        })
    }
}

/// When a cached answer was fetched, as UTC text (`2026-11-23 18:55:10 UTC`).
pub fn utc_text(at: std::time::SystemTime) -> String {
    format!("{} UTC", seozoom::types::DateTime::utc(at))
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
