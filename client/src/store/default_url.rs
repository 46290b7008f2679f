//! Where the key-wide store lives when nobody says: one SQLite file per user,
//! so that every face on one machine (the command line, the MCP server, a
//! Python notebook) shares the cache, the ledger, budgets and rate limits.

use super::Store;
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

impl Store {
    /// The store at `url`, or the default store ([`default_url`]) when no
    /// URL is given: what the command line, the MCP server and the Python
    /// package open when asked for a store or for none in particular.
    ///
    /// # Errors
    ///
    /// Those of [`default_url`] and [`Store::open`].
    pub fn open_or_default(url: Option<&str>) -> Result<Store, Error> {
        match url {
            Some(url) => Store::open(url),
            None => Store::open(&default_url()?),
        }
    }
}
