//! `seozoom-codegen diff [--format text|json|changelog] [--current VERSION] OLD NEW`: the comparison
//! on the command line. The binary parses the arguments (clap) into [`Args`] and
//! calls [`run`].

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::{Level, Version, diff, level, render_changelog, render_json, render_text};
use crate::diagnostics::Diagnostics;
use crate::model::Spec;

/// Exit status when no change is breaking (or there is no change).
pub const EXIT_COMPATIBLE: u8 = 0;
/// Exit status when a spec cannot be read or is not valid.
pub const EXIT_SPEC_ERROR: u8 = 1;
/// Exit status for a bad command line.
pub const EXIT_USAGE: u8 = 2;
/// Exit status when at least one change is breaking.
pub const EXIT_BREAKING: u8 = 3;

/// The command line of `diff`.
pub const USAGE: &str =
    "seozoom-codegen diff [--format text|json|changelog] [--current VERSION] OLD NEW";

const EXIT_STATUS: &str = "\
Exit status: 0 no breaking change (or no change), 3 at least one breaking change,
1 a spec cannot be read or is invalid (every error located), 2 bad command line.";

/// Compares two versions of the spec and reports what changed for users of the
/// seozoom crate.
///
/// Every added, removed or changed group, action, parameter, rule, record, field,
/// enum value, type, limit, name and figure, each classified as BREAKING, minor
/// or patch, then the version bump they imply.
#[derive(Debug, clap::Args)]
#[command(override_usage = USAGE, after_help = EXIT_STATUS)]
pub struct Args {
    /// How to print the report: `text` (a line per change, then the bump),
    /// `json` (the same for tools) or `changelog` (the lines of a
    /// CHANGELOG.md entry, breaking changes first).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The same as `--format json`.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// The version the bump starts from; by default the workspace's.
    #[arg(long, value_name = "VERSION", value_parser = parse_version, default_value_t = Version::current())]
    pub current: Version,
    /// The spec before the change.
    #[arg(value_name = "OLD")]
    pub old: PathBuf,
    /// The spec after the change.
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
}

/// The forms of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A line per change, a count by level and the version bump.
    Text,
    /// The same as JSON, for tools.
    Json,
    /// The lines of a CHANGELOG.md entry (Keep a Changelog), breaking first.
    Changelog,
}

fn parse_version(text: &str) -> Result<Version, String> {
    Version::parse(text).ok_or_else(|| format!("`{text}` is not a version (MAJOR.MINOR.PATCH)"))
}

/// Read and validate the spec at `path`.
///
/// # Errors
///
/// Every problem as a located diagnostic ([`crate::load_file`]).
pub fn load(path: &Path) -> Result<Spec, Diagnostics> {
    crate::load_file(path)
}

/// Read and validate the older spec at `path`, which may be written in an
/// earlier version of the format ([`crate::load_file_older`]).
///
/// # Errors
///
/// As [`load`].
pub fn load_older(path: &Path) -> Result<Spec, Diagnostics> {
    crate::load_file_older(path)
}

/// Runs `diff`: the report goes to stdout, diagnostics to stderr; the status is
/// one of the `EXIT_` constants.
pub fn run(args: &Args) -> ExitCode {
    let (old, new) = match (load_older(&args.old), load(&args.new)) {
        (Ok(old), Ok(new)) => (old, new),
        (old, new) => {
            for diagnostics in [old.err(), new.err()].into_iter().flatten() {
                eprintln!("{diagnostics}");
            }
            return ExitCode::from(EXIT_SPEC_ERROR);
        }
    };
    let changes = diff(&old, &new);
    let format = if args.json { Format::Json } else { args.format };
    match format {
        Format::Text => print!("{}", render_text(&changes, args.current)),
        Format::Json => print!("{}", render_json(&changes, args.current)),
        Format::Changelog => print!("{}", render_changelog(&changes)),
    }
    if level(&changes) == Some(Level::Breaking) {
        ExitCode::from(EXIT_BREAKING)
    } else {
        ExitCode::from(EXIT_COMPATIBLE)
    }
}
