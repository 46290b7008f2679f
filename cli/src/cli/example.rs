//! The example command at the end of each action's `--help`: the library's
//! example call of the action ([`Operation::example_arguments`], made from the
//! spec), written as a command line. Nothing here names a parameter.

use seozoom::operation_table::Operation;
use seozoom::operations::RECORDS;

use super::spelling::{BIN, flag_name};

/// The help section: `Example:` and the command.
pub fn help(op: &Operation) -> String {
    format!("Example:\n  {}", command(op))
}

/// The example command line of `op`, quoted for a POSIX shell.
pub fn command(op: &Operation) -> String {
    let mut line = vec![BIN.to_owned(), op.group.to_owned(), op.action.to_owned()];
    for (param, value) in op.example_arguments(RECORDS) {
        line.push(format!("--{}", flag_name(param.wire)));
        line.push(quote(&value));
    }
    line.join(" ")
}

/// A value as one word of a POSIX shell.
fn quote(value: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=,@".contains(c);
    if !value.is_empty() && value.chars().all(plain) {
        value.to_owned()
    } else {
        format!("'{}'", value.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use seozoom::operations::{OPERATIONS, SERVICE};

    /// Split an example back into words (its quoting is single quotes only).
    fn words(line: &str) -> Vec<String> {
        let mut words = Vec::new();
        let mut word = String::new();
        let mut quoted = false;
        for c in line.chars() {
            match c {
                '\'' => quoted = !quoted,
                ' ' if !quoted => words.push(std::mem::take(&mut word)),
                _ => word.push(c),
            }
        }
        words.push(word);
        words
    }

    #[test]
    fn every_example_is_a_valid_call() {
        for op in OPERATIONS {
            let line = command(op);
            let crate::cli::Command::Call(call) =
                crate::cli::parse(words(&line)).unwrap_or_else(|e| panic!("{line}: {e}"))
            else {
                panic!("{line}: not a call");
            };
            call.request
                .validate(&SERVICE, "it")
                .unwrap_or_else(|e| panic!("{line}: {e}"));
            for param in op.params.iter().filter(|p| p.required && !p.implicit) {
                assert!(
                    line.contains(&format!("--{} ", flag_name(param.wire))),
                    "{line}"
                );
            }
        }
    }

    #[test]
    fn values_follow_the_fields_hints() {
        let metrics = Operation::find("keywords", "metrics").unwrap();
        assert_eq!(
            command(metrics),
            "seozoom keywords metrics --keyword 'running shoes'"
        );
    }
}
