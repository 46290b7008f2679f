//! `seozoom completions SHELL` and `seozoom man`: a completion script
//! (clap_complete) and a man page (clap_mangen), both made from the command
//! tree [`crate::cli::command`] builds from the operation table, so an action
//! added to the spec completes and is documented with no other edit.

use std::io::{self, Write};

use clap::{Arg, ArgMatches};
use clap_complete::Shell;
use clap_mangen::roff::{Roff, bold, italic, roman};

/// Name of the subcommand that prints a completion script.
pub const COMPLETIONS: &str = "completions";
/// Name of the subcommand that prints the man page.
pub const MAN: &str = "man";
/// The binary's name, as the scripts register it.
pub const BIN: &str = "seozoom";

/// Id of the shell argument.
const SHELL: &str = "option:shell";

/// The shells a script is made for, as `completions` takes them.
const SHELLS: [(&str, Shell); 4] = [
    ("bash", Shell::Bash),
    ("zsh", Shell::Zsh),
    ("fish", Shell::Fish),
    ("powershell", Shell::PowerShell),
];

/// What to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Print {
    /// The completion script of a shell.
    Completions(Shell),
    /// The man page.
    Man,
}

/// The two subcommands.
pub fn subcommands() -> [clap::Command; 2] {
    [
        clap::Command::new(COMPLETIONS)
            .about("Print a shell completion script (bash, zsh, fish or powershell)")
            .long_about(
                "Print a shell completion script for bash, zsh, fish or powershell. \
                 It completes groups, actions and their parameters, from the same \
                 operation table as the commands. See the README for where each shell \
                 reads it from; for bash: `source <(seozoom completions bash)`.",
            )
            .arg(
                Arg::new(SHELL)
                    .value_name("SHELL")
                    .required(true)
                    .value_parser(SHELLS.map(|(name, _)| name)),
            ),
        clap::Command::new(MAN).about("Print the man page (roff); e.g. `seozoom man > seozoom.1`"),
    ]
}

/// The print a subcommand asks for, if it is one of these.
pub fn read(name: &str, matches: &ArgMatches) -> Option<Print> {
    match name {
        COMPLETIONS => {
            let word = matches.get_one::<String>(SHELL)?;
            SHELLS
                .iter()
                .find(|(name, _)| name == word)
                .map(|(_, shell)| Print::Completions(*shell))
        }
        MAN => Some(Print::Man),
        _ => None,
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
            let Some(op) = seozoom::table::Operation::find(sub.get_name(), action.get_name())
            else {
                continue;
            };
            roff.control("TP", [])
                .text([bold(format!("{BIN} {} {}", op.group, op.action))])
                .text([roman(about(action))])
                .control("br", [])
                .text([roman("Example: "), italic(crate::example::command(op))]);
        }
    }
    roff
}
