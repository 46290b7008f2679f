//! The crate's error type. No variant holds the API key: messages are built from
//! redacted text (see [`crate::client`]), so any error may be printed or logged.

use thiserror::Error;

/// Longest piece of a response body kept in an error.
pub const SNIPPET_LEN: usize = 200;

/// A bounded, printable excerpt of a body.
pub(crate) fn snippet(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let mut out: String = text.chars().take(SNIPPET_LEN).collect();
    if text.chars().nth(SNIPPET_LEN).is_some() {
        out.push('…');
    }
    out
}

/// An input the client refuses before sending: it names the operation, the
/// parameter, the value and the limit it breaks.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{operation}: parameter `{param}` = {value}: {problem}")]
pub struct InvalidInput {
    /// `group action`.
    pub operation: String,
    /// Wire name of the parameter.
    pub param: String,
    /// The offending value, as given (`(none)` when missing).
    pub value: String,
    /// The rule or limit broken, with its provenance.
    pub problem: String,
}

/// Everything that can go wrong with a call.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// Refused before sending: a parameter breaks a limit or rule of the spec.
    #[error("refused before sending: {0}")]
    InvalidInput(#[from] InvalidInput),

    /// Refused: the client configuration is unusable (no key, bad base URL, ...).
    #[error("configuration: {0}")]
    Config(String),

    /// The service answered with an error status or an error body.
    #[error("{operation}: the service answered HTTP {status}{}", message.as_deref().map(|m| format!(": {m}")).unwrap_or_default())]
    Service {
        /// `group action`.
        operation: String,
        /// HTTP status.
        status: u16,
        /// The service's own message (`message` or `error` in the body), if any.
        message: Option<String>,
        /// A bounded excerpt of the raw body.
        body: String,
    },

    /// The request did not complete (connection, timeout, ...).
    #[error("{operation}: transport: {message}")]
    Transport {
        /// `group action`.
        operation: String,
        /// What failed, with the URL removed.
        message: String,
        /// Whether it was a timeout.
        timeout: bool,
    },

    /// The body is not the documented shape.
    #[error("{operation}: cannot decode the response at `{path}`: {message} (body starts: {body})")]
    Decode {
        /// `group action`.
        operation: String,
        /// Path to the failing field (`response[3].KD`), `.` for the whole body.
        path: String,
        /// What was wrong with it.
        message: String,
        /// A bounded excerpt of the raw body.
        body: String,
    },
}

impl Error {
    /// HTTP status of a service error.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Service { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// Whether nothing was sent (the call was refused by the client).
    pub fn is_refused(&self) -> bool {
        matches!(self, Error::InvalidInput(_) | Error::Config(_))
    }
}
