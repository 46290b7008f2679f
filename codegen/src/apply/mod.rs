//! `seozoom-codegen apply PATCH [SPEC]`: merge a patch (what `seozoom drift
//! --patch` prints: the spec's own TOML format) into the spec, keeping its
//! formatting and comments, or refuse a patch that conflicts with it.
//!
//! A patch holds `[[records]]`, each a `name` and `fields`, and `[[enums]]`,
//! each a `name` and `values`, one inline table per entry:
//!
//! - a field the record does not have is added at the end of its `fields`;
//! - a field it has may only have its `presence` widened (a patch never
//!   narrows one; a field of a fieldset is changed in the fieldset, for every
//!   record that includes it);
//! - an enum value the enum does not list is added at the end of its `values`.
//!
//! It conflicts with the spec, and nothing is written, when it names a record
//! or an enum the spec does not have, gives a field the record has another
//! `type` or `rust` name, adds a field or a value whose Rust name the record or
//! enum already uses, or when the merged spec does not validate. `diff` then
//! shows the semver effect of what was merged.

mod command;
mod merge;

pub use command::{Args, run};
pub use merge::{Applied, apply};
