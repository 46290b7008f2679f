//! The whole command tree: the root with its global options, the operations'
//! groups, and the other subcommands.

use seozoom::operations::{GROUPS, SERVICE};

use super::spelling::BIN;
use super::{
    drift_command, global_options, operations, print_commands, sandbox_command, usage_command,
};

/// The whole command tree.
pub fn command() -> clap::Command {
    clap::Command::new(BIN)
        .version(env!("CARGO_PKG_VERSION"))
        .about(format!("Command line for the {}", SERVICE.title))
        .long_about(format!(
            "Command line for the {}.\n\n\
             Every operation is `seozoom [OPTIONS] <GROUP> <ACTION> --<param> VALUE ...`; \
             a list parameter is given by repeating its flag. Every limit and rule of the \
             spec is checked before anything is sent.\n\n\
             Exit codes: 0 success (\"no data\" prints an empty result); 2 refused before \
             anything was sent; 1 the request failed.",
            SERVICE.title
        ))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .args(global_options::global())
        .subcommands(GROUPS.iter().map(operations::group_command))
        .subcommand(sandbox_command::subcommand())
        .subcommand(usage_command::subcommand())
        .subcommand(drift_command::subcommand())
        .subcommand(seozoom_mcp::subcommand())
        .subcommands(print_commands::subcommands())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::spelling::flag_name;
    use seozoom::operations::OPERATIONS;

    #[test]
    fn the_tree_is_well_formed() {
        command().debug_assert();
    }

    #[test]
    fn every_operation_is_a_subcommand() {
        let tree = command();
        for op in OPERATIONS {
            let group = tree.find_subcommand(op.group).expect(op.group);
            let action = group.find_subcommand(op.action).expect(op.action);
            for param in op.params.iter().filter(|p| !p.implicit) {
                assert!(
                    action
                        .get_arguments()
                        .any(|a| a.get_long() == Some(flag_name(param.wire).as_str())),
                    "{} has no --{}",
                    op.label(),
                    param.wire
                );
            }
            for alias in op.aliases {
                assert!(group.find_subcommand(alias).is_some(), "alias {alias}");
            }
        }
    }
}
