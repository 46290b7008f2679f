//! Where the key-wide store lives when nobody says: one SQLite file per user,
//! so that every face on one machine (the command line, the MCP server, a
//! Python notebook) shares the cache, the ledger, budgets and rate limits.

use std::path::PathBuf;

/// The default store's URL: a SQLite file under the user's data directory
/// (`$XDG_DATA_HOME/seozoom/store.sqlite3`, else
/// `~/.local/share/seozoom/store.sqlite3`); `memory` when neither is known.
///
/// Opening it needs the `sqlite` feature ([`Store::open`](super::Store::open)).
pub fn default_url() -> String {
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|home| PathBuf::from(home).join(".local/share"))
        });
    match data {
        Some(dir) => format!(
            "sqlite:{}",
            dir.join("seozoom").join("store.sqlite3").display()
        ),
        None => "memory".to_owned(),
    }
}
