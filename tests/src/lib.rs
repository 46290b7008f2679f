//! This crate only holds tests, in one test binary (`tests/cross_crate/`):
//! checks that a builder's request carries the values it was given
//! (`requests.rs`) and that the correct forms of the calls compile
//! (`correct_usage.rs`; their misuse is checked in the `seozoom-compile-fail`
//! package), the agreement of the Rust types' JSON Schemas with the published
//! ones (`published_schemas.rs`), and every sandbox answer against the
//! published schemas (`published_sandbox.rs`, feature `sandbox`).
//! It has no code of its own and is never published.
