//! Compile-time guarantees of the generated builders: a required parameter
//! cannot be left out, a list cannot stand where one value is allowed, and values
//! of the wrong type are refused. `tests/tests/cross_crate/correct_usage.rs` (in
//! `seozoom-tests`) compiles and runs the correct form of the same calls, so
//! each failing case fails for the reason it names and not because of a typo.
//! With no `pass` case here, trybuild only checks (`cargo check`) its copy of
//! the dependencies, and builds none of them.
//!
//! After a change to the generated code, regenerate the `.stderr` snapshots with
//! `TRYBUILD=overwrite cargo test -p seozoom-compile-fail` and review each one.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    // A required parameter left out.
    t.compile_fail("tests/ui/missing_limit.rs");
    t.compile_fail("tests/ui/missing_date.rs");
    // A list where one value is allowed.
    t.compile_fail("tests/ui/list_for_one_domain.rs");
    t.compile_fail("tests/ui/list_for_one_url.rs");
    // A value of the wrong type.
    t.compile_fail("tests/ui/limit_as_string.rs");
    t.compile_fail("tests/ui/type_as_string.rs");
    t.compile_fail("tests/ui/date_as_string.rs");
    t.compile_fail("tests/ui/domain_as_integer.rs");
}
