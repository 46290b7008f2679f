//! `seozoom sandbox [--port N] [--strict]`: the subcommand that serves the
//! built-in sandbox on its own, and reading it back.

use std::time::Duration;

use clap::{Arg, ArgAction, ArgMatches, value_parser};

use super::args::rate_window;

/// Name of the subcommand that runs the sandbox on its own.
pub const SANDBOX_COMMAND: &str = "sandbox";

/// Ids of the subcommand's own arguments.
const PORT: &str = "option:port";
const STRICT: &str = "option:strict";

/// The `sandbox` subcommand.
pub fn subcommand() -> clap::Command {
    clap::Command::new(SANDBOX_COMMAND)
                .about("Serve the built-in sandbox (key `sandbox`) until interrupted; prints its base URL")
                .arg(
                    Arg::new(PORT)
                        .long("port")
                        .value_name("N")
                        .value_parser(value_parser!(u16))
                        .help("Port on 127.0.0.1 (default: any free port)"),
                )
                .arg(
                    Arg::new(STRICT)
                        .long("strict")
                        .action(ArgAction::SetTrue)
                        .help("Enforce the requests-per-minute figures per operation and key over a rolling --rate-window (default 60 s), answering 429 with Retry-After as the service would"),
                )
}

/// The port asked for (`None`: any free one), and with `--strict` the window
/// the requests-per-minute figures are enforced over.
pub fn read(root: &ArgMatches, sub: &ArgMatches) -> (Option<u16>, Option<Duration>) {
    let strict = sub
        .get_flag(STRICT)
        .then(|| rate_window(&[sub, root]).unwrap_or(seozoom::sandbox::Sandbox::RATE_WINDOW));
    (sub.get_one::<u16>(PORT).copied(), strict)
}
