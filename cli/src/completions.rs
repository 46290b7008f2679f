//! `seozoom completions SHELL` and `seozoom man`: a completion script
//! (clap_complete) and a man page (clap_mangen), both made from the command
//! tree [`crate::cli::command`] builds from the operation table, so an action
//! added to the spec completes and is documented with no other edit.

use std::io::{self, Write};

use clap_mangen::roff::{Roff, bold, italic, roman};

use crate::cli::{BIN, Print};
use crate::exit;

/// `seozoom completions SHELL`, `seozoom man`: print it; the exit code.
pub fn print(print: Print) -> u8 {
    let mut stdout = std::io::stdout().lock();
    match write(print, &mut stdout).and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write it: {error}");
            exit::FAILED
        }
        _ => exit::OK,
    }
}

/// Write the script or the page to `out`.
pub fn write(print: Print, out: &mut impl Write) -> io::Result<()> {
    let mut command = crate::cli::command();
    match print {
        Print::Completions(shell) => {
            // Made in memory first: the generator panics on a failed write
            // (`| head`), a buffer cannot fail.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, BIN, &mut script);
            out.write_all(&script)
        }
        Print::Man => out.write_all(&man_page(command)?),
    }
}

/// The man page: clap_mangen's sections of the root command, and one section
/// listing every command (each action with its example) in place of its
/// pointers to per-subcommand pages, so that the page stands alone.
fn man_page(command: clap::Command) -> io::Result<Vec<u8>> {
    let man = clap_mangen::Man::new(command.clone());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    page.extend(commands_section(&command).to_roff().into_bytes());
    man.render_version_section(&mut page)?;
    Ok(page)
}

/// `COMMANDS`: every group's actions (what each does, and an example), then
/// the other subcommands.
fn commands_section(root: &clap::Command) -> Roff {
    let mut roff = Roff::new();
    roff.control("SH", ["COMMANDS"]);
    let about = |command: &clap::Command| {
        command
            .get_about()
            .map(|text| text.to_string())
            .unwrap_or_default()
    };
    for sub in root.get_subcommands() {
        let actions: Vec<&clap::Command> = sub.get_subcommands().collect();
        if actions.is_empty() {
            roff.control("TP", [])
                .text([bold(format!("{BIN} {}", sub.get_name()))])
                .text([roman(about(sub))]);
            continue;
        }
        for action in actions {
            let Some(op) =
                seozoom::operation_table::Operation::find(sub.get_name(), action.get_name())
            else {
                continue;
            };
            roff.control("TP", [])
                .text([bold(format!("{BIN} {} {}", op.group, op.action))])
                .text([roman(about(action))])
                .control("br", [])
                .text([roman("Example: "), italic(crate::cli::example_command(op))]);
        }
    }
    roff
}
