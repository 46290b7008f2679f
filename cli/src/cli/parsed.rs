//! What a command line asks for, once read: the types the rest of the
//! program runs.

use std::time::Duration;

use seozoom::request::Request;

use super::global_options::Target;
use super::usage_command::Usage;
use crate::format::Format;

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    /// Call one operation.
    Call(Invocation),
    /// Serve the sandbox until interrupted, on this port (an ephemeral one if none).
    Sandbox {
        /// The port to listen on.
        port: Option<u16>,
        /// `--strict`: enforce the requests-per-minute figures over this window.
        strict: Option<Duration>,
        /// `--units N`: the balance the account starts with (else the default).
        units: Option<i64>,
        /// `--drift`: answers that drift from the spec.
        drift: bool,
    },
    /// Serve the Model Context Protocol (`seozoom mcp`).
    Mcp(seozoom_mcp::Options),
    /// Print a completion script or the man page.
    Print(super::print_commands::Print),
    /// Report the store's ledger (`seozoom usage`).
    Usage(Usage),
    /// Report what the service sent that the spec does not say (`seozoom drift`).
    Drift(super::drift_command::Drift),
}

/// One call read from the command line.
#[derive(Debug)]
pub struct Invocation {
    /// The operation and the values given, as wire text (not yet validated).
    pub request: Request,
    /// Where to send it.
    pub target: Target,
    /// How to print the result.
    pub format: Format,
    /// `--columns`: these columns, in this order (checked against the
    /// operation's columns).
    pub columns: Option<Vec<String>>,
    /// A unit budget: a call that may cost more is refused.
    pub budget: Option<crate::store::Budget>,
    /// Where the key-wide memory lives, and whether to skip cache reads.
    pub store: crate::store::StoreOptions,
    /// Print the requests and the cost estimate instead of sending anything.
    pub dry_run: bool,
    /// Page through a paged operation's rows up to this many (`--max-rows`).
    pub max_rows: Option<usize>,
    /// The period the requests-per-minute figures apply to (`--rate-window`).
    pub rate_window: Option<Duration>,
    /// The longest a call may spend waiting, all its waits together
    /// (`--max-wait`; the library's default when not given).
    pub max_wait: Option<Duration>,
    /// `--fit-budget`: a paged job takes as many pages as the budget's worst
    /// case covers, instead of being refused whole.
    pub fit_budget: bool,
}
