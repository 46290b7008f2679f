//! Reading a command line back into what it asks for: a generic [`Request`]
//! for an operation (list values also read from files), or another
//! subcommand's options.

use std::ffi::OsString;
use std::time::Duration;

use clap::ArgMatches;
use seozoom::operation_table::{Operation, Param};
use seozoom::operations::SERVICE;
use seozoom::request::Request;

use super::global_options::{Target, opt, rate_window};
use super::operations::file_id;
use super::parsed::{Command, Invocation};
use super::spelling::file_flag_name;
use super::tree::command;
use super::{drift_command, mcp_command, print_commands, sandbox_command, usage_command};
use crate::format::Format;

/// The file name that means standard input.
const STDIN: &str = "-";

/// Read a command line.
pub fn parse<I, T>(args: I) -> Result<Command, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let mut tree = command();
    let matches = tree.try_get_matches_from_mut(args)?;
    let Some((group, group_matches)) = matches.subcommand() else {
        return Err(tree.error(
            clap::error::ErrorKind::MissingSubcommand,
            "a group is required",
        ));
    };
    if group == sandbox_command::SANDBOX_COMMAND {
        let (port, strict) = sandbox_command::read(&matches, group_matches);
        let units = sandbox_command::units(group_matches);
        let drift = sandbox_command::drift(group_matches);
        return Ok(Command::Sandbox {
            port,
            strict,
            units,
            drift,
        });
    }
    if let Some(print) = print_commands::read(group, group_matches) {
        return Ok(Command::Print(print));
    }
    if group == usage_command::USAGE_COMMAND {
        return Ok(Command::Usage(usage_command::read(&matches, group_matches)));
    }
    if group == drift_command::DRIFT_COMMAND {
        return Ok(Command::Drift(drift_command::read(&matches, group_matches)));
    }
    if group == seozoom_mcp::COMMAND {
        return mcp_command::read(&matches, group_matches)
            .map(Command::Mcp)
            .map_err(|(kind, message)| tree.error(kind, message));
    }
    let Some((action, action_matches)) = group_matches.subcommand() else {
        return Err(tree.error(
            clap::error::ErrorKind::MissingSubcommand,
            format!("`{group}` needs an action"),
        ));
    };
    let Some(op) = Operation::find(group, action) else {
        return Err(tree.error(
            clap::error::ErrorKind::InvalidSubcommand,
            format!("no operation `{group} {action}`"),
        ));
    };
    let mut stdin = std::io::stdin().lock();
    let call = invocation(op, &matches, action_matches, &mut stdin)
        .map_err(|message| tree.error(clap::error::ErrorKind::Io, message))?;
    if let Some(columns) = &call.columns {
        crate::columns::check(op, columns)
            .map_err(|message| tree.error(clap::error::ErrorKind::InvalidValue, message))?;
    }
    Ok(Command::Call(call))
}

/// The values of a list file: one per line, trimmed, blank lines skipped.
pub fn read_values(input: impl std::io::BufRead) -> std::io::Result<Vec<String>> {
    let mut values = Vec::new();
    for line in input.lines() {
        let line = line?;
        let value = line.trim();
        if !value.is_empty() {
            values.push(value.to_owned());
        }
    }
    Ok(values)
}

/// The values of the `--<flag>-file` arguments of `param`, in the order given
/// (`None` when there is none); `stdin` is read for `-` (once).
fn file_values(
    param: &Param,
    action: &ArgMatches,
    stdin: &mut dyn std::io::BufRead,
    stdin_read: &mut bool,
) -> Result<Option<Vec<String>>, String> {
    let Some(paths) = action.get_many::<String>(&file_id(param.wire)) else {
        return Ok(None);
    };
    let mut values = Vec::new();
    let flag = file_flag_name(param.wire);
    for path in paths {
        let read = if path == STDIN {
            if std::mem::replace(stdin_read, true) {
                return Err(format!(
                    "--{flag} -: standard input can be read for one file flag only"
                ));
            }
            read_values(&mut *stdin)
        } else {
            std::fs::File::open(path).and_then(|file| read_values(std::io::BufReader::new(file)))
        };
        values.extend(read.map_err(|e| format!("--{flag} {path}: cannot read it: {e}"))?);
    }
    Ok(Some(values))
}

/// The call of `op`: options from the root, parameters from the action, list
/// values from files (`stdin` for `-`).
fn invocation(
    op: &'static Operation,
    root: &ArgMatches,
    action: &ArgMatches,
    stdin: &mut dyn std::io::BufRead,
) -> Result<Invocation, String> {
    // Global options are propagated to the action's matches; root-only ones are
    // read at the root.
    let string = |id: &str| -> Option<String> {
        action
            .try_get_one::<String>(id)
            .ok()
            .flatten()
            .or_else(|| root.get_one::<String>(id))
            .cloned()
    };
    let flag = |id: &str| {
        action
            .try_get_one::<bool>(id)
            .ok()
            .flatten()
            .copied()
            .unwrap_or(false)
            || root.get_flag(id)
    };
    let budget = action
        .try_get_one::<crate::store::Budget>(opt::BUDGET)
        .ok()
        .flatten()
        .or_else(|| root.get_one::<crate::store::Budget>(opt::BUDGET))
        .copied();

    let mut request = Request::new(op, None);
    if let Some(db) = string(opt::DB) {
        request.set_database(&db);
    }
    let mut stdin_read = false;
    for param in op.params.iter().filter(|p| !p.implicit) {
        let mut values: Option<Vec<String>> = action
            .get_many::<String>(param.wire)
            .map(|v| v.cloned().collect());
        if param.list
            && let Some(from_files) = file_values(param, action, stdin, &mut stdin_read)?
        {
            values.get_or_insert_with(Vec::new).extend(from_files);
        }
        if let Some(values) = values {
            request.set(param.wire, values);
        }
    }

    let max_rows = action
        .try_get_one::<u64>(opt::MAX_ROWS)
        .ok()
        .flatten()
        .map(|&n| usize::try_from(n).unwrap_or(usize::MAX));

    let target = if flag(opt::SANDBOX) {
        Target::Sandbox
    } else {
        Target::Service {
            api_key: string(opt::API_KEY),
            base_url: string(opt::BASE_URL).unwrap_or_else(|| SERVICE.base_url.to_owned()),
        }
    };
    let format = string(opt::FORMAT)
        .as_deref()
        .and_then(Format::from_word)
        .unwrap_or(Format::Table);
    let columns = action
        .try_get_many::<String>(opt::COLUMNS)
        .ok()
        .flatten()
        .or_else(|| root.get_many::<String>(opt::COLUMNS))
        .map(|names| names.map(|name| name.trim().to_owned()).collect());
    Ok(Invocation {
        request,
        target,
        format,
        columns,
        budget,
        store: crate::store::read(&[action, root]),
        dry_run: flag(opt::DRY_RUN),
        max_rows,
        rate_window: rate_window(&[action, root]),
        max_wait: [action, root]
            .iter()
            .find_map(|m| m.try_get_one::<Duration>(opt::MAX_WAIT).ok().flatten())
            .copied(),
        fit_budget: flag(opt::FIT_BUDGET),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_back_as_given() {
        let Command::Call(call) = parse([
            "seozoom",
            "--db",
            "fr",
            "keywords",
            "metrics",
            "--keyword",
            "a b",
            "--keyword",
            "c",
        ])
        .unwrap() else {
            panic!("a call expected")
        };
        assert_eq!(
            call.request.get("keyword"),
            Some(&["a b".to_owned(), "c".to_owned()][..])
        );
        let query = call.request.validate(&SERVICE, "it").unwrap();
        assert_eq!(query[0], ("db", "fr".to_owned()));
    }
}
