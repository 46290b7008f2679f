//! `seozoom drift [--patch]`: the subcommand that reports what the service
//! sent that the spec does not say, and reading it back with the global
//! options it takes.

use clap::{Arg, ArgAction, ArgMatches};

use super::global_options::Target;
use super::usage_command;
use crate::format::Format;

/// Name of the subcommand that reports the drift.
pub const DRIFT_COMMAND: &str = "drift";

/// Id of `--patch`.
const PATCH: &str = "option:patch";

/// `seozoom drift`: whose drift, of which origin, in which store, and how to
/// print it.
#[derive(Debug)]
pub struct Drift {
    /// The key, and the base URL whose origin is reported.
    pub target: Target,
    /// The store options.
    pub store: crate::store::StoreOptions,
    /// How to print it.
    pub format: Format,
    /// `--patch`: print the drift as a patch of the spec instead.
    pub patch: bool,
}

/// `seozoom drift [--patch]`.
pub fn subcommand() -> clap::Command {
    clap::Command::new(DRIFT_COMMAND)
        .about("What the service at --base-url sent that the spec does not say, as the store recorded it for the key: unknown members, missing or null ones the spec calls required, values of another type, unlisted enum values, unnamed statuses, charges that differ from the spec's cost")
        .long_about("What the service at --base-url (the service by default) sent that the spec does not say, as the store recorded it for the key, per operation: members the spec does not know (with the JSON types seen), members it calls required that were missing or null, values of another JSON type, enum values it does not list, HTTP statuses it does not name, charges that differ from its cost. Each with how often, in how many rows, when first and last, and an example value. Nothing is sent.\n\nWith --patch, the same as a patch in the spec's own TOML format, for `seozoom-codegen apply PATCH spec/seozoom-v2.toml`.")
        .arg(
            Arg::new(PATCH)
                .long("patch")
                .action(ArgAction::SetTrue)
                .help("Print the drift as a patch of the spec (TOML): new fields, widened presence, new enum values, each observed with its counts and dates"),
        )
}

/// `seozoom drift`, read from the root's options and its own.
pub fn read(root: &ArgMatches, sub: &ArgMatches) -> Drift {
    let (target, store, format) = usage_command::reporting(root, sub);
    Drift {
        target,
        store,
        format,
        patch: sub.get_flag(PATCH),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Command, parse};

    #[test]
    fn the_patch_flag_and_the_target_are_read() {
        let drift = match parse([
            "seozoom",
            "--base-url",
            "http://127.0.0.1:9",
            "drift",
            "--patch",
        ]) {
            Ok(Command::Drift(drift)) => drift,
            other => panic!("{other:?}"),
        };
        assert!(drift.patch);
        assert!(
            matches!(&drift.target, Target::Service { base_url, .. } if base_url == "http://127.0.0.1:9")
        );
        assert_eq!(drift.format, Format::Table);
    }
}
