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

/// The rustc flags trybuild gives the check of the cases
/// (trybuild 1.0.122, `cargo::build_all_tests`), given to its check of the
/// dependencies too.
///
/// trybuild checks its copy of the dependencies with one set of flags, then
/// the cases with that set and `--diagnostic-width=140`. Cargo hashes the
/// flags into every unit, so on a first run every dependency was checked a
/// second time (14 s of a 43 s test here). trybuild drops `RUSTFLAGS` from
/// its cargo commands but keeps `CARGO_ENCODED_RUSTFLAGS`, which cargo ranks
/// above its `--config` flags: both checks get these, and diagnostics are
/// those trybuild would print.
const RUSTFLAGS: &str =
    "--cfg\x1ftrybuild\x1f--verbose\x1f-A\x1fdead_code\x1f--diagnostic-width=140";

#[test]
fn ui() {
    // Flags of the caller's own (coverage, say) are left to trybuild.
    if std::env::var_os("RUSTFLAGS").is_none()
        && std::env::var_os("CARGO_ENCODED_RUSTFLAGS").is_none()
    {
        // SAFETY: this binary's only test, set before trybuild starts any
        // process; no other thread reads the environment.
        unsafe { std::env::set_var("CARGO_ENCODED_RUSTFLAGS", RUSTFLAGS) };
    }
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
