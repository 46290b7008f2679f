//! How the command line spells what the operation table names: the binary,
//! the long flag of a parameter, and the flag that reads a list parameter's
//! values from a file. The help, its examples, the completions and the parser
//! all spell them here.

/// The binary's name, as the scripts register it and the examples call it.
pub const BIN: &str = "seozoom";

/// The long flag of a parameter: its wire name with `_` written as `-`.
pub fn flag_name(wire: &str) -> String {
    wire.replace('_', "-")
}

/// The long flag that reads a list parameter's values from a file.
pub fn file_flag_name(wire: &str) -> String {
    format!("{}-file", flag_name(wire))
}
