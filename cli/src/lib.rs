//! `seozoom`: the command line of the SEOZoom API v2.
//!
//! ```text
//! seozoom [OPTIONS] <GROUP> <ACTION> [PARAMS]
//! seozoom sandbox [--port N] [--strict [--rate-window SECS]] [--units N] [--drift]
//! seozoom [OPTIONS] mcp [--http ADDR] [--max-result-rows N]
//! seozoom completions bash|zsh|fish|powershell
//! seozoom man
//! seozoom [OPTIONS] drift [--patch]
//! ```
//!
//! The whole command tree (groups, actions, their aliases, parameter flags and
//! help texts) is built at run time from the operation table the `seozoom` crate
//! generates from the spec ([`seozoom::operations::OPERATIONS`]), so an action
//! added to the spec is a subcommand here with no other edit. Parameter values are
//! handed to the library as wire text and checked there, against the same table.
//!
//! Bulk: a list parameter also takes `--<flag>-file FILE` (`-` for standard
//! input, one value per line). A list longer than one request takes is a batched
//! job: repeated values are sent once, the rest split into the fewest requests
//! (a progress bar on stderr when it is a terminal) and the answers merged into
//! one result in input order. An operation that pages takes `--max-rows N`:
//! pages of `--limit` rows until a short page or N rows, printed as each page
//! arrives for `ndjson` and `csv` (memory stays one page's), as one result for
//! `json` and `table`.
//! `--dry-run` prints the requests (key redacted) and the cost estimate of the
//! whole job, and sends nothing.
//!
//! Exit codes: `0` success (including "No data found!", printed as an empty
//! result); `2` refused before anything was sent (a usage error, a parameter
//! breaking a limit or rule, an insecure URL, over budget, no key); `1` the request
//! failed (service error, transport, decode). A bulk job that fails after some
//! of its requests were answered prints the rows they paid for, says on stderr
//! what is missing and why, and exits `1`; so does one stopped by Ctrl-C
//! (the first stops it before its next request, a second quits at once). The
//! API key is never printed.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod cli;
mod columns;
mod completions;
mod drift;
mod dry_run;
mod entry;
mod error_report;
mod exit;
mod fit_budget;
mod format;
mod interrupt;
mod logging;
mod output;
mod paged;
mod progress;
mod result;
mod rows;
mod run;
mod sandbox;
mod store;
mod stream;
mod table_fit;
mod usage;
mod waits;

pub use entry::run;
