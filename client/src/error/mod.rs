//! The crate's error type: one [`Error`](struct@Error) with the operation as context and an
//! [`ErrorKind`] saying what went wrong, in the manner of smithy-rs's
//! `result.rs`.
//!
//! An error keeps the error it came from ([`std::error::Error::source`]): a
//! transport failure its `reqwest::Error`, an I/O or store failure its
//! `std::io::Error`, `rusqlite::Error` or `redis::RedisError`.
//!
//! No error holds the API key: transport errors are stripped of their URL, and
//! every text an error takes from outside (a response, a URL, a transport
//! message) is scrubbed of the key in one place, `Error::map_text`, which the
//! client applies to every error it returns. So any error may be printed or
//! logged.

pub(crate) mod partial;
mod source;

use std::fmt;
use std::time::Duration;

use reqwest::header::HeaderMap;

pub use crate::charge::Charge;
// Partial holds the error that stopped a job and an error may hold a
// Partial: the two types are one recursive family, so Partial lives here.
use crate::retry::{Attempted, Verdict, classify};
pub(crate) use partial::Partial;
pub(crate) use source::ErrorSource;

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

/// The whole body of an answer that could not be decoded: it was paid for.
/// Its `Debug` shows its size and a bounded excerpt, so that an error stays
/// printable; the bytes are [`Error::answer`]'s.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Answer(Box<[u8]>);

impl Answer {
    /// The body's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl From<&[u8]> for Answer {
    fn from(bytes: &[u8]) -> Self {
        Answer(bytes.into())
    }
}

impl fmt::Debug for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Answer({} bytes: {:?})", self.0.len(), snippet(&self.0))
    }
}

/// An input the client refuses before sending: it names the operation, the
/// parameter, the value and the limit it breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// An unusable client configuration: refused before anything is sent.
///
/// Every text in it is one the user gave (a URL, with any query hidden) or one
/// the HTTP library gave, scrubbed of the key.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// No key was given, or an empty one.
    MissingKey {
        /// The environment variable that can hold it.
        env: &'static str,
    },

    /// [`Client::from_env`](crate::Client::from_env) found no key in the
    /// environment.
    KeyNotSet {
        /// The environment variable read.
        env: &'static str,
    },

    /// The base URL does not parse.
    NotAUrl {
        /// The URL given, any query or fragment hidden.
        url: String,
        /// Why it does not parse.
        reason: String,
    },

    /// The base URL's scheme is neither `https` nor `http`.
    UnsupportedScheme {
        /// The URL given, any query or fragment hidden.
        url: String,
        /// Its scheme.
        scheme: String,
    },

    /// The base URL carries a query or a fragment, where a pasted key could be.
    QueryOrFragment {
        /// The URL given, its query and fragment hidden.
        url: String,
    },

    /// No database was chosen and the spec names no default one.
    NoDefaultDatabase,

    /// The store cannot be used: an unknown URL, a feature not built, a file
    /// that cannot be opened or written, a server that cannot be reached.
    Store {
        /// The store's URL, any password hidden.
        store: String,
        /// What is wrong with it.
        reason: String,
    },

    /// The HTTP client cannot be built (no TLS backend, ...).
    Http {
        /// What the HTTP library said, without URL or key.
        message: String,
    },
}

// Display and Error are written out rather than derived: nine messages do not
// pay for a proc-macro crate in every user's build (BENCHMARKS.md, "Build cost").
impl fmt::Display for InvalidInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let InvalidInput {
            operation,
            param,
            value,
            problem,
        } = self;
        write!(f, "{operation}: parameter `{param}` = {value}: {problem}")
    }
}

impl std::error::Error for InvalidInput {}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::MissingKey { env } => write!(f, "no API key: pass one or set {env}"),
            ConfigError::KeyNotSet { env } => write!(f, "{env} is not set"),
            ConfigError::NotAUrl { url, reason } => {
                write!(f, "base URL `{url}` is not a URL: {reason}")
            }
            ConfigError::UnsupportedScheme { url, scheme } => {
                write!(f, "base URL `{url}`: unsupported scheme `{scheme}`")
            }
            ConfigError::QueryOrFragment { url } => {
                write!(f, "base URL `{url}` must not carry a query or fragment")
            }
            ConfigError::NoDefaultDatabase => f.write_str("the spec gives no default database"),
            ConfigError::Store { store, reason } => write!(f, "store `{store}`: {reason}"),
            ConfigError::Http { message } => f.write_str(message),
        }
    }
}

impl std::error::Error for ConfigError {}

impl ConfigError {
    /// The texts of the error taken from outside, rewritten by `f`.
    fn map_text(self, f: &impl Fn(&str) -> String) -> Self {
        match self {
            ConfigError::NotAUrl { url, reason } => ConfigError::NotAUrl {
                url: f(&url),
                reason: f(&reason),
            },
            ConfigError::UnsupportedScheme { url, scheme } => ConfigError::UnsupportedScheme {
                url: f(&url),
                scheme: f(&scheme),
            },
            ConfigError::QueryOrFragment { url } => ConfigError::QueryOrFragment { url: f(&url) },
            ConfigError::Http { message } => ConfigError::Http {
                message: f(&message),
            },
            ConfigError::Store { store, reason } => ConfigError::Store {
                store: f(&store),
                reason: f(&reason),
            },
            other @ (ConfigError::MissingKey { .. }
            | ConfigError::KeyNotSet { .. }
            | ConfigError::NoDefaultDatabase) => other,
        }
    }
}

/// Everything that can go wrong with a call: the operation it concerns (when
/// it concerns one) and what went wrong ([`ErrorKind`]).
///
/// The kinds of the first group are refused before anything is sent
/// ([`Error::is_refused`]); the others describe a call that was sent.
///
/// ```no_run
/// use seozoom::Client;
/// use seozoom::error::ErrorKind;
///
/// # async fn run(client: Client) {
/// match client.projects().list().send().await {
///     Ok(projects) => println!("{} projects", projects.response.len()),
///     Err(error) => match error.kind() {
///         ErrorKind::Service { status: 401, .. } => eprintln!("check the key"),
///         _ if error.is_retryable() => eprintln!("try again later: {error}"),
///         _ => eprintln!("{error}"),
///     },
/// }
/// # }
/// ```
pub struct Error {
    // Boxed: the error stays within 128 bytes (clippy's `result_large_err`)
    // with its charge.
    context: Box<ErrorContext>,
    kind: ErrorKind,
    /// What the call was charged, when the client knows better than the
    /// kind's default ([`Error::charged`]), packed in 8 bytes
    /// ([`Charge::pack`]).
    charge: i64,
}

/// What an error concerns and where it came from.
struct ErrorContext {
    /// `group action`, or a job's description; `None` for the client's
    /// configuration.
    operation: Option<Box<str>>,
    /// The error this one came from, for [`std::error::Error::source`].
    source: Option<ErrorSource>,
}

/// What went wrong, without the operation (which [`Error::operation`] gives).
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Refused before sending: a parameter breaks a limit or rule of the spec.
    /// Charged nothing.
    InvalidInput(InvalidInput),

    /// Refused before sending: the base URL is plain `http://` to a host that is not
    /// loopback, and the key would travel unencrypted in the query string.
    /// Charged nothing.
    InsecureUrl {
        /// The base URL given, any query or fragment hidden.
        url: String,
    },

    /// Refused before sending: the call's maximum estimated cost exceeds what is
    /// left of the client's unit budget. The operation is `group action`, or
    /// the job's description. Charged nothing.
    OverBudget {
        /// Maximum estimated cost of the call.
        estimate_max: i64,
        /// Units of the budget not yet used.
        budget_left: i64,
        /// The whole budget.
        budget: i64,
    },

    /// Refused before sending: the call's (or job's) maximum estimated cost does
    /// not fit what is left of the key's budget for the UTC day or month, as the
    /// store's ledger counts it across every process on the key. Charged
    /// nothing.
    OverWindowBudget {
        /// Maximum estimated cost of the call or job.
        estimate_max: i64,
        /// Units the ledger records in the window so far.
        spent: i64,
        /// Units running jobs hold.
        held: i64,
        /// The budget of the window.
        budget: i64,
        /// The window.
        window: crate::budget_window::BudgetWindow,
    },

    /// Refused before sending: the client has a unit budget, and the reference
    /// prints no cost for the operation, so no budget can cover the call. The
    /// operation is `group action`, or the job's description. Charged nothing.
    UnknownCost {
        /// The whole budget.
        budget: i64,
    },

    /// Refused before sending: the operation's requests-per-minute figure is used
    /// up and the client is configured to refuse rather than wait. Charged
    /// nothing.
    RateLimited {
        /// The figure applied.
        per_minute: i64,
        /// When a request would be allowed again.
        retry_in: Duration,
    },

    /// Refused: the client configuration is unusable. Charged nothing.
    Config(ConfigError),

    /// Refused before sending: the store (cache, ledger, shared limits) failed
    /// or could not be reached, so the call could not be checked against what
    /// it keeps. Nothing was sent, so charged nothing.
    Store {
        /// The store's URL, any password hidden.
        store: String,
        /// What failed.
        message: String,
    },

    /// The service answered "No data found!" for an operation that returns one
    /// object. (List operations return an empty result instead.) Charged 0
    /// units, and recorded in the ledger.
    NoData,

    /// The service says the account has run out of units (HTTP 402, or an
    /// error whose message says the units are insufficient or exhausted).
    /// Not retryable: the same call fails until units are added. Charged what
    /// the answer reports, usually nothing ([`Error::charged`]); recorded in
    /// the ledger.
    OutOfUnits {
        /// HTTP status.
        status: u16,
        /// The service's own message.
        message: Option<String>,
        /// A bounded excerpt of the raw body.
        body: String,
    },

    /// The service answered with an error: an error status, an error body, or a
    /// page that is not the API's JSON. May have been charged: the units the
    /// body reports, else unknown ([`Error::charged`]); recorded in the ledger.
    Service {
        /// HTTP status.
        status: u16,
        /// The service's own message (`message` or `error` in the body), or what the
        /// body was instead (an HTML page, ...).
        message: Option<String>,
        /// A bounded excerpt of the raw body.
        body: String,
    },

    /// The request did not complete (connection refused or reset, timeout, ...).
    /// Charged unknown: the service may have done the work before the answer
    /// was lost. Not recorded in the ledger (no answer came), but any earlier
    /// answered attempt of the call is.
    Transport {
        /// What failed, with the URL removed.
        message: String,
        /// Whether it was a timeout.
        timeout: bool,
    },

    /// The body is not the documented shape, as a whole: not the envelope,
    /// or a `response` of another shape than the spec's. (A row that cannot
    /// be typed does not fail the call: it is kept raw, see
    /// [`Envelope::raw_rows`](crate::Envelope::raw_rows).) Charged all the
    /// same: the units are read from the body's text even when the rest cannot
    /// be decoded (a body cut after `"UnitsUsed": 10` was charged 10 units),
    /// else unknown; recorded in the ledger. A whole JSON body that was
    /// answered with success is kept in the store's cache: once the spec is
    /// fixed and the client rebuilt, the same call decodes it from there at
    /// no cost.
    Decode {
        /// Path to the failing field (`response[3].KD`), `.` for the whole body.
        path: String,
        /// What was wrong with it.
        message: String,
        /// A bounded excerpt of the raw body.
        body: String,
        /// The whole body, as the service sent it ([`Error::answer`]); empty
        /// when there is none (a result that could not be re-encoded).
        answer: Answer,
    },

    /// The call stopped rather than begin a wait that would take all of its
    /// waits (for rate-limit slots, `Retry-After`s, 429 rate windows,
    /// backoffs) past the bound ([`ClientBuilder::max_wait`](crate::ClientBuilder::max_wait)).
    /// Charged what its answered attempts were (often unknown: a 429 reports
    /// none), nothing if none was sent. A batched job that stops so keeps
    /// the rows received ([`ErrorKind::Partial`]).
    WaitedTooLong {
        /// The wait that was not begun.
        wait: Duration,
        /// What the call had waited before it.
        waited: Duration,
        /// The bound on a call's waits.
        max_wait: Duration,
        /// What it would have waited for, and why: `the service's rate window
        /// (HTTP 429 with an unreadable Retry-After (soon)) before attempt 4`.
        waiting_for: String,
    },

    /// A job (batched or paged) failed or was stopped after some of its
    /// requests were answered: the rows they paid for (in input order, or
    /// page order), what is missing ([`Missing::Inputs`], the inputs to send
    /// again, or [`Missing::Rows`], the offset where the rows stop) and the
    /// error that stopped the job ([`ErrorKind::Stopped`] when its caller
    /// stopped it). Not refused (requests were sent and charged) and not
    /// retryable as a whole: send what is missing instead. A job whose every
    /// request failed gives the first request's error itself. Charged the
    /// received requests' units plus the failed one's charge.
    ///
    /// [`Missing::Inputs`]: crate::job::Missing::Inputs
    /// [`Missing::Rows`]: crate::job::Missing::Rows
    Partial(Box<Partial>),

    /// Not sent: the caller stopped the call or job
    /// ([`Stop`](crate::job::Stop)) before this request went out, or while
    /// it waited (for a rate-limit slot, a `Retry-After`, a 429's window, a
    /// backoff). Nothing was charged for it but what its attempts before the
    /// wait were. A job that received answers before it stopped gives them in
    /// [`ErrorKind::Partial`], with this as the cause.
    Stopped,
}

impl Error {
    /// An error of `operation` (`group action`, or a job's description).
    pub(crate) fn new(operation: impl Into<String>, kind: ErrorKind) -> Self {
        Error {
            context: Box::new(ErrorContext {
                operation: Some(operation.into().into_boxed_str()),
                source: None,
            }),
            kind,
            charge: Charge::NOT_SET,
        }
    }

    /// An error that concerns no operation (the client's configuration).
    pub(crate) fn new_unscoped(kind: ErrorKind) -> Self {
        Error {
            context: Box::new(ErrorContext {
                operation: None,
                source: None,
            }),
            kind,
            charge: Charge::NOT_SET,
        }
    }

    /// The operation the error concerns: `group action`, or a job's description
    /// for a refused job. `None` for a configuration error.
    pub fn operation(&self) -> Option<&str> {
        self.context.operation.as_deref()
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// What went wrong, taken out of the error (to keep the [`Partial`] of a
    /// batched job, say).
    pub fn into_kind(self) -> ErrorKind {
        self.kind
    }

    /// The [`Partial`] of a job that stopped part-way, or the error
    /// itself back for any other kind (its operation kept).
    ///
    /// # Errors
    ///
    /// The error itself, unchanged, when it is not [`ErrorKind::Partial`].
    pub fn into_partial(self) -> Result<Box<Partial>, Error> {
        match self.kind {
            ErrorKind::Partial(partial) => Ok(partial),
            kind => Err(Error { kind, ..self }),
        }
    }

    /// What the call was charged: [`Charge::None`] when it was refused before
    /// sending, the units the service reported (read from the body even when
    /// it could not be decoded), or [`Charge::Unknown`] when the service was
    /// reached and its charge cannot be read. Each [`ErrorKind`] says which it
    /// may be.
    pub fn charged(&self) -> Charge {
        if let Some(charge) = Charge::unpack(self.charge) {
            return charge;
        }
        if self.is_refused() {
            return Charge::None;
        }
        match &self.kind {
            ErrorKind::NoData => Charge::Units(0),
            ErrorKind::Partial(partial) => {
                Charge::Units(partial.units_used()).plus(partial.cause().charged())
            }
            _ => Charge::Unknown,
        }
    }

    /// The error, with the error it came from as its source.
    pub(crate) fn with_source(mut self, source: Option<ErrorSource>) -> Self {
        self.context.source = source;
        self
    }

    /// The error, charged `charge` (the client's own reading of the answer).
    pub(crate) fn with_charge(self, charge: Charge) -> Self {
        Error {
            charge: charge.pack(),
            ..self
        }
    }

    /// The whole body of an answer that could not be decoded at all
    /// ([`ErrorKind::Decode`]), as the service sent it (the key hidden, as in
    /// every error): it was paid for. `None` for any other error.
    pub fn answer(&self) -> Option<&[u8]> {
        match &self.kind {
            ErrorKind::Decode { answer, .. } if !answer.0.is_empty() => Some(answer.as_bytes()),
            _ => None,
        }
    }

    /// HTTP status of a service error (for [`ErrorKind::Partial`], of the error
    /// that stopped the job).
    pub fn status(&self) -> Option<u16> {
        match &self.kind {
            ErrorKind::Service { status, .. } | ErrorKind::OutOfUnits { status, .. } => {
                Some(*status)
            }
            ErrorKind::Partial(partial) => partial.cause().status(),
            _ => None,
        }
    }

    /// Whether the client refused the call, so nothing was sent and nothing charged.
    pub fn is_refused(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::InvalidInput(_)
                | ErrorKind::InsecureUrl { .. }
                | ErrorKind::OverBudget { .. }
                | ErrorKind::OverWindowBudget { .. }
                | ErrorKind::UnknownCost { .. }
                | ErrorKind::RateLimited { .. }
                | ErrorKind::Config(_)
                | ErrorKind::Store { .. }
                | ErrorKind::Stopped
        )
    }

    /// Whether retrying the same call may succeed: connection failures, timeouts,
    /// and HTTP 429, 500, 502, 503 and 504, as the client's own retries judge
    /// them. Never for [`ErrorKind::Partial`]: the whole job again would pay
    /// again for the rows received.
    pub fn is_retryable(&self) -> bool {
        // An error keeps no headers; `Retry-After` only says when, not whether.
        let no_headers = HeaderMap::new();
        let outcome = match &self.kind {
            ErrorKind::Transport { timeout, .. } => Attempted::Failed { timeout: *timeout },
            ErrorKind::Service { status, .. } => Attempted::Answered {
                status: *status,
                headers: &no_headers,
            },
            _ => return false,
        };
        !matches!(classify(&outcome), Verdict::Final)
    }

    /// The error with every text it took from outside (a response, a URL, a
    /// transport or HTTP library message) rewritten by `f`: the one place the
    /// client hides the key. The operation and the figures are the client's
    /// own and are kept; a [`Partial`]'s cause was rewritten when its request
    /// failed.
    pub(crate) fn map_text(self, f: impl Fn(&str) -> String) -> Self {
        let kind = match self.kind {
            ErrorKind::Service {
                status,
                message,
                body,
            } => ErrorKind::Service {
                status,
                message: message.map(|m| f(&m)),
                body: f(&body),
            },
            ErrorKind::OutOfUnits {
                status,
                message,
                body,
            } => ErrorKind::OutOfUnits {
                status,
                message: message.map(|m| f(&m)),
                body: f(&body),
            },
            ErrorKind::Decode {
                path,
                message,
                body,
                answer,
            } => ErrorKind::Decode {
                path: f(&path),
                message: f(&message),
                body: f(&body),
                answer: match std::str::from_utf8(answer.as_bytes()) {
                    Ok(text) => Answer(f(text).into_bytes().into()),
                    Err(_) => Answer(
                        f(&String::from_utf8_lossy(answer.as_bytes()))
                            .into_bytes()
                            .into(),
                    ),
                },
            },
            ErrorKind::Transport { message, timeout } => ErrorKind::Transport {
                message: f(&message),
                timeout,
            },
            ErrorKind::Config(config) => ErrorKind::Config(config.map_text(&f)),
            ErrorKind::Store { store, message } => ErrorKind::Store {
                store: f(&store),
                message: f(&message),
            },
            ErrorKind::InsecureUrl { url } => ErrorKind::InsecureUrl { url: f(&url) },
            // The value is the caller's own, and may hold the key by mistake
            // (a key pasted into a keyword list).
            ErrorKind::InvalidInput(invalid) => ErrorKind::InvalidInput(InvalidInput {
                value: f(&invalid.value),
                ..invalid
            }),
            other => other,
        };
        Error { kind, ..self }
    }
}

impl From<InvalidInput> for Error {
    fn from(invalid: InvalidInput) -> Self {
        Error::new(invalid.operation.clone(), ErrorKind::InvalidInput(invalid))
    }
}

impl From<ConfigError> for Error {
    fn from(error: ConfigError) -> Self {
        Error::new_unscoped(ErrorKind::Config(error))
    }
}

/// An I/O failure outside any request, such as the sandbox's socket
/// (`seozoom::sandbox::Sandbox::start` returns an [`std::io::Error`]), so that `?` works in a function returning
/// [`Error`](struct@Error). It is an [`ErrorKind::Transport`] (a timeout when the I/O
/// error is one) that concerns no operation and was charged nothing: no request
/// was sent. The I/O error is its source.
impl From<std::io::Error> for Error {
    fn from(error: std::io::Error) -> Self {
        let kind = ErrorKind::Transport {
            message: format!("I/O error: {error}"),
            timeout: error.kind() == std::io::ErrorKind::TimedOut,
        };
        Error::new_unscoped(kind)
            .with_charge(Charge::None)
            .with_source(Some(ErrorSource::new(error)))
    }
}

/// The error of a batched job that stopped part-way, given back whole (after
/// [`Error::into_kind`] took it apart, say).
impl From<Box<Partial>> for Error {
    fn from(partial: Box<Partial>) -> Self {
        Error::new(partial.operation().to_owned(), ErrorKind::Partial(partial))
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("operation", &self.context.operation)
            .field("kind", &self.kind)
            .field("charged", &self.charged())
            .finish()
    }
}

/// The texts the CLI prints: they stay as they are.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Every kind below that names its operation is made with one.
        let operation = self.operation().unwrap_or("the call");
        match &self.kind {
            ErrorKind::InvalidInput(invalid) => write!(f, "refused before sending: {invalid}"),
            ErrorKind::InsecureUrl { url } => write!(
                f,
                "refused before sending: base URL `{url}` is plain http to a non-loopback host; the API key would travel unencrypted"
            ),
            ErrorKind::OverBudget {
                estimate_max,
                budget_left,
                budget,
            } => write!(
                f,
                "refused before sending: {operation} may cost up to {estimate_max} units, over the budget left ({budget_left} of {budget})"
            ),
            ErrorKind::OverWindowBudget {
                estimate_max,
                spent,
                held,
                budget,
                window,
            } => write!(
                f,
                "refused before sending: {operation} may cost up to {estimate_max} units, over what is left of the budget of {budget} units per {window} ({spent} spent this {window}, {held} held by running jobs)"
            ),
            ErrorKind::UnknownCost { budget } => write!(
                f,
                "refused before sending: the cost of {operation} is unknown (the reference prints none), so a budget of {budget} units cannot cover it; call it without a budget to have the units it reports counted"
            ),
            ErrorKind::RateLimited {
                per_minute,
                retry_in,
            } => write!(
                f,
                "refused before sending: {operation} is limited to {per_minute} requests per minute; next slot in {retry_in:?}"
            ),
            ErrorKind::Config(config) => write!(f, "configuration: {config}"),
            ErrorKind::Store { store, message } => write!(
                f,
                "refused before sending: {operation}: store `{store}`: {message}"
            ),
            ErrorKind::NoData => write!(f, "{operation}: no data found for this query"),
            ErrorKind::OutOfUnits {
                status, message, ..
            } => {
                write!(
                    f,
                    "{operation}: the account has run out of units (HTTP {status}"
                )?;
                match message {
                    Some(message) => write!(f, ": {message})"),
                    None => f.write_str(")"),
                }
            }
            ErrorKind::Service {
                status, message, ..
            } => {
                write!(f, "{operation}: the service answered HTTP {status}")?;
                match message {
                    Some(message) => write!(f, ": {message}"),
                    None => Ok(()),
                }
            }
            ErrorKind::Transport { message, .. } => {
                write!(f, "{operation}: transport: {message}")
            }
            ErrorKind::Decode {
                path,
                message,
                body,
                ..
            } => write!(
                f,
                "{operation}: cannot decode the response at `{path}`: {message} (body starts: {body})"
            ),
            ErrorKind::WaitedTooLong {
                wait,
                waited,
                max_wait,
                waiting_for,
            } => write!(
                f,
                "{operation}: stopped waiting: {} more for {waiting_for} would pass the longest a call may wait ({}; waited {} so far)",
                crate::shown_duration::shown(*wait),
                crate::shown_duration::shown(*max_wait),
                crate::shown_duration::shown(*waited),
            ),
            ErrorKind::Partial(partial) => fmt::Display::fmt(partial, f),
            ErrorKind::Stopped => write!(
                f,
                "{operation}: stopped by the caller before this request was sent (not charged)"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::InvalidInput(invalid) => Some(invalid),
            ErrorKind::Partial(partial) => std::error::Error::source(partial.as_ref()),
            _ => self.context.source.as_ref().map(ErrorSource::get),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One error of every kind that carries text from outside, each text
    /// holding `secret`.
    fn with_text(secret: &str) -> Vec<Error> {
        let text = || format!("before {secret} after");
        let op = "keywords metrics";
        vec![
            Error::new(
                op,
                ErrorKind::Service {
                    status: 500,
                    message: Some(text()),
                    body: text(),
                },
            ),
            Error::new(
                op,
                ErrorKind::Decode {
                    path: text(),
                    message: text(),
                    body: text(),
                    answer: Answer(text().into_bytes().into()),
                },
            ),
            Error::new(
                op,
                ErrorKind::Transport {
                    message: text(),
                    timeout: false,
                },
            ),
            Error::new_unscoped(ErrorKind::InsecureUrl { url: text() }),
            ConfigError::NotAUrl {
                url: text(),
                reason: text(),
            }
            .into(),
            ConfigError::UnsupportedScheme {
                url: text(),
                scheme: text(),
            }
            .into(),
            ConfigError::QueryOrFragment { url: text() }.into(),
            ConfigError::Http { message: text() }.into(),
        ]
    }

    #[test]
    fn map_text_reaches_every_text_from_outside() {
        for error in with_text("KEY") {
            let shown = format!("{error} {error:?}");
            assert!(shown.contains("KEY"), "the fixture lacks the key: {shown}");
            let hidden = error.map_text(|t| t.replace("KEY", "<redacted>"));
            let shown = format!("{hidden} {hidden:?}");
            assert!(!shown.contains("KEY"), "{shown}");
        }
    }

    #[test]
    fn the_operation_is_context_and_the_texts_stay_as_they_were() {
        let error = Error::new("projects overview", ErrorKind::NoData);
        assert_eq!(error.operation(), Some("projects overview"));
        assert_eq!(
            error.to_string(),
            "projects overview: no data found for this query"
        );
        let error = Error::new(
            "keywords metrics",
            ErrorKind::Service {
                status: 502,
                message: None,
                body: String::new(),
            },
        );
        assert_eq!(
            error.to_string(),
            "keywords metrics: the service answered HTTP 502"
        );
        let error = Error::from(ConfigError::MissingKey {
            env: "SEOZOOM_API_KEY",
        });
        assert_eq!(error.operation(), None);
        assert_eq!(
            error.to_string(),
            "configuration: no API key: pass one or set SEOZOOM_API_KEY"
        );
        assert!(error.is_refused() && !error.is_retryable());
    }

    #[test]
    fn each_refusal_says_what_it_refuses() {
        let text = |s: &str| s.to_owned();
        let cases = [
            (ConfigError::KeyNotSet { env: "K" }, "K is not set"),
            (
                ConfigError::NotAUrl {
                    url: text("u"),
                    reason: text("r"),
                },
                "base URL `u` is not a URL: r",
            ),
            (
                ConfigError::UnsupportedScheme {
                    url: text("u"),
                    scheme: text("ftp"),
                },
                "base URL `u`: unsupported scheme `ftp`",
            ),
            (
                ConfigError::QueryOrFragment { url: text("u") },
                "base URL `u` must not carry a query or fragment",
            ),
            (
                ConfigError::NoDefaultDatabase,
                "the spec gives no default database",
            ),
            (
                ConfigError::Store {
                    store: text("s"),
                    reason: text("r"),
                },
                "store `s`: r",
            ),
            (ConfigError::Http { message: text("m") }, "m"),
        ];
        for (error, message) in cases {
            assert_eq!(error.to_string(), message);
        }
        let input = InvalidInput {
            operation: text("keywords metrics"),
            param: text("keyword"),
            value: text("(none)"),
            problem: text("required"),
        };
        assert_eq!(
            input.to_string(),
            "keywords metrics: parameter `keyword` = (none): required"
        );
    }

    #[test]
    fn retryable_errors_are_those_the_classifier_retries() {
        let service = |status| {
            Error::new(
                "x y",
                ErrorKind::Service {
                    status,
                    message: None,
                    body: String::new(),
                },
            )
        };
        for status in [429, 500, 502, 503, 504] {
            assert!(service(status).is_retryable(), "{status}");
        }
        for status in [400, 401, 404, 501] {
            assert!(!service(status).is_retryable(), "{status}");
        }
        let timeout = ErrorKind::Transport {
            message: "timed out".into(),
            timeout: true,
        };
        assert!(Error::new("x y", timeout).is_retryable());
        assert!(!Error::new("x y", ErrorKind::NoData).is_retryable());
    }

    #[test]
    fn io_errors_are_transport_errors_of_no_operation_charged_nothing() {
        let refused = std::io::Error::new(std::io::ErrorKind::AddrInUse, "port taken");
        let error = Error::from(refused);
        let source = std::error::Error::source(&error).expect("the I/O error");
        assert_eq!(
            source
                .downcast_ref::<std::io::Error>()
                .map(std::io::Error::kind),
            Some(std::io::ErrorKind::AddrInUse),
            "the I/O error is the source"
        );
        assert_eq!(error.operation(), None);
        assert_eq!(error.charged(), Charge::None);
        assert!(!error.is_refused(), "an I/O failure is not a refusal");
        match error.kind() {
            ErrorKind::Transport { message, timeout } => {
                assert!(message.contains("port taken"), "{message}");
                assert!(!timeout);
            }
            other => panic!("expected Transport, got {other:?}"),
        }
        let slow = Error::from(std::io::Error::from(std::io::ErrorKind::TimedOut));
        assert!(matches!(
            slow.kind(),
            ErrorKind::Transport { timeout: true, .. }
        ));
        assert!(
            slow.is_retryable(),
            "a timeout may succeed when tried again"
        );
    }
}
