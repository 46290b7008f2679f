//! Compile-time guarantees of the generated builders: a required parameter
//! cannot be left out, a list cannot stand where one value is allowed, and values
//! of the wrong type are refused. `pass_correct_usage` compiles and runs the
//! correct form of the same calls, so each failing case fails for the reason it
//! names and not because of a typo.
//!
//! After a change to the generated code, regenerate the `.stderr` snapshots with
//! `TRYBUILD=overwrite cargo test -p seozoom-tests --test compile_fail` and review
//! each one.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass_correct_usage.rs");
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
