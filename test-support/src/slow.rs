//! The switch of the slow tests.
//!
//! A newcomer's `cargo test --workspace` should be quick, so the tests that
//! take minutes (building a regenerated copy of the workspace, twenty thousand
//! calls of the soak) run in full only when `SEOZOOM_SLOW_TESTS=1`; without it
//! they are skipped or shortened, with a note that says so. CI sets the switch
//! (`.ci/run`), and under `CI=true` a missing switch is a failure, never a
//! skip, so that CI cannot silently lose them.

/// The environment variable that runs the slow tests in full: `1` (or `true`).
pub const SLOW_TESTS: &str = "SEOZOOM_SLOW_TESTS";

/// Whether the slow tests run in full: [`SLOW_TESTS`] is `1` or `true`.
///
/// Otherwise prints a note that `what` (what the test leaves out, e.g. "the
/// regeneration test is skipped") and returns `false`; under `CI=true` it
/// panics instead.
pub fn slow_tests(what: &str) -> bool {
    let value = std::env::var(SLOW_TESTS).unwrap_or_default();
    if matches!(value.as_str(), "1" | "true") {
        return true;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{SLOW_TESTS} is not set to 1, and CI=true: {what}, which CI must not do \
         (set {SLOW_TESTS}=1, as .ci/run does)"
    );
    eprintln!("note: {what} (set {SLOW_TESTS}=1 to run it in full; under CI=true this fails)");
    false
}
