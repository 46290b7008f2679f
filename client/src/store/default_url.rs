//! Where the key-wide store lives when nobody says: one SQLite file per user,
//! so that every face on one machine (the command line, the MCP server, a
//! Python notebook) shares the cache, the ledger, budgets and rate limits.

use crate::error::{ConfigError, Error};

/// The default store's URL: `sqlite:` and the file `seozoom/store.sqlite3` in
/// the user's data directory, as the `dirs` crate finds it
/// (`$XDG_DATA_HOME`, else `~/.local/share` on Linux; `~/Library/Application
/// Support` on macOS; the roaming `AppData` folder on Windows).
///
/// Opening it needs the `sqlite` feature ([`Store::open`](super::Store::open)),
/// which this function comes with.
///
/// # Errors
///
/// [`ConfigError::Store`] where the system knows no data directory for the
/// user. The caller hears of it, rather than being handed a store that
/// forgets everything when the process ends, and can name a store itself.
pub fn default_url() -> Result<String, Error> {
    match dirs::data_dir() {
        Some(dir) => Ok(format!(
            "sqlite:{}",
            dir.join("seozoom").join("store.sqlite3").display()
        )),
        None => Err(ConfigError::Store {
            store: "(default)".to_owned(),
            reason: "no data directory is known for this user, so there is no default store \
                     file: name a store (a `sqlite:PATH`, `redis://...`, or `memory`)"
                .to_owned(),
        }
        .into()),
    }
}
