//! This crate only holds tests: the compile-fail checks of the generated request
//! builders (`tests/cross_crate/compile_fail.rs`, cases in `tests/ui/`), checks that a
//! builder's request carries the values it was given (`tests/cross_crate/requests.rs`), the
//! agreement of the Rust types' JSON Schemas with the published ones
//! (`tests/cross_crate/published_schemas.rs`), and every sandbox answer against the published
//! schemas (`tests/cross_crate/published_sandbox.rs`, feature `sandbox`).
//! It has no code of its own and is never published.
