//! This crate only holds tests: the compile-fail checks of the generated request
//! builders (`tests/compile_fail.rs`, cases in `tests/ui/`) and checks that a
//! builder's request carries the values it was given (`tests/requests.rs`).
//! It has no code of its own and is never published.
