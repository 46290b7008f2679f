//! The schemas made from the spec by the generator's schema module, as the
//! published documents' are: the build script (`build.rs`) writes them to
//! `OUT_DIR`, and they are read here once. `input_schema` and
//! `output_schema` add what is the server's own on top.
//!
//! The build script and the `seozoom` crate read the same spec (the
//! `seozoom-spec` crate), so every operation of the table has its schemas; a
//! lookup that finds none gives an empty object (any value), never a panic.

use std::sync::OnceLock;

use seozoom::operation_table::Operation;
use serde_json::{Map, Value};

/// The member of an enum parameter's schema that holds what each value
/// means (`[[value, meaning], ...]`), as `build.rs` writes it.
pub const VALUES: &str = "x-seozoom-values";

/// What `build.rs` wrote.
const WRITTEN: &str = include_str!(concat!(env!("OUT_DIR"), "/tool_schemas.json"));

fn all() -> &'static Value {
    static ALL: OnceLock<Value> = OnceLock::new();
    ALL.get_or_init(|| serde_json::from_str(WRITTEN).unwrap_or_default())
}

fn object(value: &Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

fn operation(op: &Operation) -> &'static Value {
    &all()["operations"][op.label()]
}

/// The schema of `op`'s parameter `wire` as a caller gives it (a list as an
/// array of values), with its bounds, pattern, values and default.
pub fn param(op: &Operation, wire: &str) -> Map<String, Value> {
    object(&operation(op)["params"][wire])
}

/// The schema of the database every operation takes.
pub fn database() -> Map<String, Value> {
    object(&all()["database"])
}

/// The schema of one payload value of `op` (its record, or a search-result
/// list) as the client decodes it, the records it holds written out in place.
pub fn payload(op: &Operation) -> Value {
    operation(op)["payload"].clone()
}

/// The envelope around a payload, its `response` member empty.
pub fn envelope() -> Map<String, Value> {
    object(&all()["envelope"])
}

#[cfg(test)]
mod tests {
    use seozoom::operations::OPERATIONS;

    /// Every operation of the table has the schema of each of its
    /// parameters and of its payload, and the envelope is there.
    #[test]
    fn every_operation_has_its_schemas() {
        for op in OPERATIONS {
            for param in op.params.iter().filter(|p| !p.implicit) {
                assert!(
                    !super::param(op, param.wire).is_empty(),
                    "{} {}",
                    op.label(),
                    param.wire
                );
            }
            assert!(super::payload(op).is_object(), "{}", op.label());
        }
        assert!(!super::database().is_empty());
        assert_eq!(
            super::envelope()["properties"].as_object().map(|p| p.len()),
            Some(4)
        );
    }
}
