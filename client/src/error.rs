//! The crate's error type. No variant holds the API key: transport errors are
//! stripped of their URL and every text taken from a response is scrubbed of the
//! key (see `client`), so any error may be printed or logged.

use std::time::Duration;

use thiserror::Error;

use crate::partial::Partial;

/// Longest piece of a response body kept in an error.
pub const SNIPPET_LEN: usize = 200;

/// A bounded, printable excerpt of a body (invalid UTF-8 shown as U+FFFD).
pub(crate) fn snippet(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let mut out: String = text.chars().take(SNIPPET_LEN).collect();
    if text.chars().nth(SNIPPET_LEN).is_some() {
        out.push('…');
    }
    out
}

/// Longest text taken from a response into an error (the service's message, a
/// decoder's message, a field path), in characters: a body can hold a
/// megabyte-long message or key, and an error must stay printable.
pub(crate) const MESSAGE_LEN: usize = 500;

/// `text` cut to [`MESSAGE_LEN`] characters (with `…` when cut).
pub(crate) fn bounded(text: String) -> String {
    match text.char_indices().nth(MESSAGE_LEN) {
        Some((cut, _)) => {
            let mut out = text;
            out.truncate(cut);
            out.push('…');
            out
        }
        None => text,
    }
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
///
/// The first group of variants is refused before anything is sent
/// ([`Error::is_refused`]); the others describe a call that was sent.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// Refused before sending: a parameter breaks a limit or rule of the spec.
    #[error("refused before sending: {0}")]
    InvalidInput(#[from] InvalidInput),

    /// Refused before sending: the base URL is plain `http://` to a host that is not
    /// loopback, and the key would travel unencrypted in the query string.
    #[error(
        "refused before sending: base URL `{url}` is plain http to a non-loopback host; the API key would travel unencrypted"
    )]
    InsecureUrl {
        /// The base URL given.
        url: String,
    },

    /// Refused before sending: the call's maximum estimated cost exceeds what is
    /// left of the client's unit budget.
    #[error(
        "refused before sending: {operation} may cost up to {estimate_max} units, over the budget left ({budget_left} of {budget})"
    )]
    OverBudget {
        /// `group action`, or the job's description.
        operation: String,
        /// Maximum estimated cost of the call.
        estimate_max: i64,
        /// Units of the budget not yet used.
        budget_left: i64,
        /// The whole budget.
        budget: i64,
    },

    /// Refused before sending: the client has a unit budget, and the reference
    /// prints no cost for the operation, so no budget can cover the call.
    #[error(
        "refused before sending: the cost of {operation} is unknown (the reference prints none), so a budget of {budget} units cannot cover it; call it without a budget to have the units it reports counted"
    )]
    UnknownCost {
        /// `group action`, or the job's description.
        operation: String,
        /// The whole budget.
        budget: i64,
    },

    /// Refused before sending: the operation's requests-per-minute figure is used
    /// up and the client is configured to refuse rather than wait.
    #[error(
        "refused before sending: {operation} is limited to {per_minute} requests per minute; next slot in {retry_in:?}"
    )]
    RateLimited {
        /// `group action`.
        operation: String,
        /// The figure applied.
        per_minute: i64,
        /// When a request would be allowed again.
        retry_in: Duration,
    },

    /// Refused: the client configuration is unusable (no key, unparsable URL, ...).
    #[error("configuration: {0}")]
    Config(String),

    /// The service answered "No data found!" for an operation that returns one
    /// object. (List operations return an empty result instead.)
    #[error("{operation}: no data found for this query")]
    NoData {
        /// `group action`.
        operation: String,
    },

    /// The service answered with an error: an error status, an error body, or a
    /// page that is not the API's JSON.
    #[error("{operation}: the service answered HTTP {status}{}", message.as_deref().map(|m| format!(": {m}")).unwrap_or_default())]
    Service {
        /// `group action`.
        operation: String,
        /// HTTP status.
        status: u16,
        /// The service's own message (`message` or `error` in the body), or what the
        /// body was instead (an HTML page, ...).
        message: Option<String>,
        /// A bounded excerpt of the raw body.
        body: String,
    },

    /// The request did not complete (connection refused or reset, timeout, ...).
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

    /// A batched job failed after some of its requests were answered: the rows
    /// they paid for (in input order), the inputs without an answer and the
    /// error that stopped the job. Not refused (requests were sent and
    /// charged) and not retryable as a whole: send [`Missing::values`]
    /// again instead. A job whose every request failed gives the first
    /// request's error itself.
    ///
    /// [`Missing::values`]: crate::job::Missing::values
    #[error(transparent)]
    Partial(Box<Partial>),
}

impl Error {
    /// HTTP status of a service error (for [`Error::Partial`], of the error
    /// that stopped the job).
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Service { status, .. } => Some(*status),
            Error::Partial(partial) => partial.cause().status(),
            _ => None,
        }
    }

    /// Whether the client refused the call, so nothing was sent and nothing charged.
    pub fn is_refused(&self) -> bool {
        matches!(
            self,
            Error::InvalidInput(_)
                | Error::InsecureUrl { .. }
                | Error::OverBudget { .. }
                | Error::UnknownCost { .. }
                | Error::RateLimited { .. }
                | Error::Config(_)
        )
    }

    /// Whether retrying the same call may succeed: connection failures, timeouts,
    /// and HTTP 429, 500, 502, 503 and 504. Never for [`Error::Partial`]: the
    /// whole job again would pay again for the rows received.
    pub fn is_retryable(&self) -> bool {
        match self {
            Error::Transport { .. } => true,
            Error::Service { status, .. } => matches!(status, 429 | 500 | 502 | 503 | 504),
            _ => false,
        }
    }
}
