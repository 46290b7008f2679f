//! What a session holds: the client (its units ledger and budget are the
//! process's), the default database, the row cap, the held results (each MCP
//! session's own) and the tools; and the last guard on the key, which no
//! answer may carry.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock};
use seozoom::Client;
use tracing_subscriber::filter::LevelFilter;

use super::held::Held;
use super::tools::Catalog;

/// Shortest key scrubbed from answers. Real keys are long; a shorter one (the
/// sandbox takes any) would match ordinary text and garble the answers.
const SCRUBBED_KEY_LEN: usize = 8;

/// One session's state, shared by its requests.
#[derive(Debug)]
pub struct Session {
    /// Sends the calls; clones share its ledger and budget.
    pub client: Client,
    /// The database of a call that names none.
    pub database: String,
    /// The most items of a result in one answer.
    pub max_rows: usize,
    /// Fit a paged call's row cap to the budget (`--fit-budget`).
    pub fit_budget: bool,
    /// Ask the user before a call whose largest estimate is over this many
    /// units (`--confirm-over`).
    pub confirm_over: Option<i64>,
    /// Results cut to `max_rows`, for the `more` tool: this MCP session's
    /// only.
    pub held: Held,
    /// Whether what the service answered is kept in a cache this session
    /// reads (a store other than `none`, without `--refresh`): then the
    /// answered part of a stopped job comes free when the whole is sent again.
    pub reads_cache: bool,
    /// The tools, the same for every session of the process.
    pub catalog: Arc<Catalog>,
    /// The forms of the key that must not appear in an answer.
    secret: Secret,
    /// The level of the library's messages on stderr during a call.
    pub stderr_level: LevelFilter,
}

/// The forms of the key; its `Debug` does not show them.
#[derive(Clone)]
struct Secret(Vec<String>);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

impl Session {
    /// A session with this client and settings; `key` is what the client
    /// sends (never shown).
    pub fn new(
        client: Client,
        key: &str,
        database: String,
        max_rows: usize,
        tools: Option<&[String]>,
        fixture: bool,
        stderr_level: LevelFilter,
    ) -> Session {
        let catalog = Catalog::new(&database, max_rows, tools, fixture);
        let secret = if key.len() >= SCRUBBED_KEY_LEN {
            let mut forms = vec![key.to_owned(), percent_encoded(key)];
            forms.dedup();
            forms
        } else {
            Vec::new()
        };
        Session {
            client,
            database,
            max_rows,
            fit_budget: false,
            confirm_over: None,
            held: Held::default(),
            reads_cache: false,
            catalog: Arc::new(catalog),
            secret: Secret(secret),
            stderr_level,
        }
    }

    /// The state of another MCP session of the same process (over HTTP):
    /// the same client (one budget, one ledger), settings and tools, and no
    /// held results, so that it reads none of this one's.
    pub fn for_another_session(&self) -> Session {
        Session {
            client: self.client.clone(),
            database: self.database.clone(),
            max_rows: self.max_rows,
            fit_budget: self.fit_budget,
            confirm_over: self.confirm_over,
            held: Held::default(),
            reads_cache: self.reads_cache,
            catalog: Arc::clone(&self.catalog),
            secret: self.secret.clone(),
            stderr_level: self.stderr_level,
        }
    }

    /// `result` with the key replaced wherever it appears. The client keeps it
    /// out of its errors already; this also covers text a service might echo.
    pub fn scrub(&self, result: CallToolResult) -> CallToolResult {
        let secret = &self.secret.0;
        if secret.is_empty() {
            return result;
        }
        let Ok(text) = serde_json::to_string(&result) else {
            return result;
        };
        if !secret.iter().any(|form| text.contains(form.as_str())) {
            return result;
        }
        let mut scrubbed = text;
        for form in secret {
            scrubbed = scrubbed.replace(form.as_str(), "<redacted>");
        }
        serde_json::from_str(&scrubbed).unwrap_or_else(|_| {
            CallToolResult::error(vec![ContentBlock::text(
                "the answer was withheld: it held the API key",
            )])
        })
    }
}

/// `text` percent-encoded as a query value (RFC 3986 unreserved kept).
fn percent_encoded(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(key: &str) -> Session {
        let client = Client::builder()
            .api_key(key)
            .base_url("http://127.0.0.1:1")
            .build()
            .unwrap();
        Session::new(client, key, "it".into(), 10, None, false, LevelFilter::WARN)
    }

    #[test]
    fn the_key_is_scrubbed_in_both_forms() {
        let session = session("KEY WITH/SPACE-123");
        let result = CallToolResult::structured(serde_json::json!({
            "a": "x KEY WITH/SPACE-123 y",
            "b": "api_key=KEY%20WITH%2FSPACE-123",
        }));
        let text = serde_json::to_string(&session.scrub(result)).unwrap();
        assert!(!text.contains("KEY WITH"), "{text}");
        assert!(text.contains("<redacted>"), "{text}");
    }

    #[test]
    fn debug_does_not_show_the_key() {
        let session = session("KEY-IN-DEBUG-4711");
        assert!(!format!("{session:?}").contains("KEY-IN-DEBUG-4711"));
    }

    #[test]
    fn a_short_key_is_not_scrubbed_from_ordinary_text() {
        let session = session("it");
        let result = CallToolResult::structured(serde_json::json!({"db": "it"}));
        assert_eq!(session.scrub(result.clone()), result);
    }
}
