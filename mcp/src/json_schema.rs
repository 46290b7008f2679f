//! The JSON Schema words that are also wire names of the API. They are written
//! once, here, so that the schemas built elsewhere hold no literal a reader (or
//! `tests/tests/cross_crate/no_wire_names.rs`) could take for a parameter's name.

/// The keyword that gives a value's type.
pub const TYPE: &str = "type";
