//! No code: this package holds the compile-fail checks of the generated
//! builders (`tests/compile_fail.rs`, cases in `tests/ui/`). It is never
//! published.
