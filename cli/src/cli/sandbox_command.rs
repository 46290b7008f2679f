//! `seozoom sandbox [--port N] [--strict] [--units N] [--drift]`: the subcommand that serves the
//! built-in sandbox on its own, and reading it back.

use std::time::Duration;

use clap::{Arg, ArgAction, ArgMatches, value_parser};

use super::global_options::rate_window;

/// Name of the subcommand that runs the sandbox on its own.
pub const SANDBOX_COMMAND: &str = "sandbox";

/// Ids of the subcommand's own arguments.
const PORT: &str = "option:port";
const STRICT: &str = "option:strict";
const UNITS: &str = "option:units";
const DRIFT: &str = "option:drift";

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
        .arg(
            Arg::new(UNITS)
                .long("units")
                .value_name("N")
                .value_parser(value_parser!(i64).range(0..))
                .help(format!(
                    "Units the account starts with (default {}); a long test, a fuzzer say, needs more, or every answer past the balance is 403",
                    seozoom::sandbox::Sandbox::STARTING_UNITS
                )),
        )
        .arg(
            Arg::new(DRIFT)
                .long("drift")
                .action(ArgAction::SetTrue)
                .help(format!(
                    "Answer as a service that moved on from its spec: some rows carry a member the spec does not know (`{}`) or an enum value it does not list (`{}`), a metric null or a number as a string, and the first row of each answer leaves out what names it; for trying `seozoom drift` offline",
                    seozoom::sandbox::EXTRA_MEMBER,
                    seozoom::sandbox::UNLISTED_VALUE
                )),
        )
}

/// Whether `--drift` was given: answers that drift from the spec.
pub fn drift(sub: &ArgMatches) -> bool {
    sub.get_flag(DRIFT)
}

/// The balance asked for with `--units` (`None`: the sandbox's default).
pub fn units(sub: &ArgMatches) -> Option<i64> {
    sub.get_one::<i64>(UNITS).copied()
}

/// The port asked for (`None`: any free one), and with `--strict` the window
/// the requests-per-minute figures are enforced over.
pub fn read(root: &ArgMatches, sub: &ArgMatches) -> (Option<u16>, Option<Duration>) {
    let strict = sub
        .get_flag(STRICT)
        .then(|| rate_window(&[sub, root]).unwrap_or(seozoom::sandbox::Sandbox::RATE_WINDOW));
    (sub.get_one::<u16>(PORT).copied(), strict)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Command, parse};

    fn sandbox(args: &[&str]) -> (Option<u16>, Option<Duration>) {
        match parse(["seozoom"].iter().chain(args)) {
            Ok(Command::Sandbox { port, strict, .. }) => (port, strict),
            other => panic!("{args:?}: {other:?}"),
        }
    }

    fn units(args: &[&str]) -> Result<Option<i64>, String> {
        match parse(["seozoom"].iter().chain(args)) {
            Ok(Command::Sandbox { units, .. }) => Ok(units),
            Ok(other) => panic!("{args:?}: {other:?}"),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn the_starting_balance_is_read_and_never_negative() {
        assert_eq!(units(&["sandbox"]), Ok(None));
        assert_eq!(
            units(&["sandbox", "--units", "1000000000000"]),
            Ok(Some(1_000_000_000_000))
        );
        assert_eq!(units(&["sandbox", "--units", "0"]), Ok(Some(0)));
        let refused = units(&["sandbox", "--units=-5"]).unwrap_err();
        assert!(refused.contains("--units"), "{refused}");
        assert!(units(&["sandbox", "--units", "many"]).is_err());
    }

    #[test]
    fn the_port_and_the_strict_window_are_read_wherever_written() {
        assert_eq!(sandbox(&["sandbox"]), (None, None));
        assert_eq!(sandbox(&["sandbox", "--port", "7"]), (Some(7), None));
        // The environment's window, when it sets one, stands in for the default.
        if std::env::var_os(crate::cli::global_options::RATE_WINDOW_ENV).is_none() {
            let default = Some(seozoom::sandbox::Sandbox::RATE_WINDOW);
            assert_eq!(sandbox(&["sandbox", "--strict"]), (None, default));
        }
        let half = Some(Duration::from_millis(500));
        assert_eq!(
            sandbox(&["sandbox", "--strict", "--rate-window", "0.5"]),
            (None, half)
        );
        assert_eq!(
            sandbox(&["--rate-window", "0.5", "sandbox", "--strict"]),
            (None, half)
        );
        // A window without --strict enforces nothing.
        assert_eq!(sandbox(&["--rate-window", "0.5", "sandbox"]), (None, None));
    }
}
