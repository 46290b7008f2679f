//! `seozoom completions SHELL` and `seozoom man`: the subcommands that print a
//! page made from the command tree, and reading them back.

use clap::{Arg, ArgMatches};
use clap_complete::Shell;

/// Name of the subcommand that prints a completion script.
pub const COMPLETIONS: &str = "completions";
/// Name of the subcommand that prints the man page.
pub const MAN: &str = "man";
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
