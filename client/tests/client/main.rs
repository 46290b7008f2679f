//! The client's integration tests, one module per subject, in one test binary.
//!
//! One binary rather than one per file: each binary links the whole runtime
//! (tokio, reqwest, hyper, axum, rusqlite, redis), so a dozen of them cost a
//! newcomer's first `cargo test` more time in the linker than in the tests.
//! Run one subject with `cargo test -p seozoom --test client sandbox::`.
//! The modules that need the sandbox are built with the feature only, so that
//! `cargo test -p seozoom` with the default features (`.ci/default-features`)
//! still builds and runs the others. No module sets environment variables or
//! the working directory: they share one process.

mod props;
mod support;

mod absurd;
mod accounting;
mod envelope_drift;
mod faults;
mod golden;
mod lenient;
mod operations;
mod progress;
mod properties_decode;
mod properties_drift;
mod values_as_sent;

#[cfg(feature = "sandbox")]
mod bulk;
#[cfg(feature = "sandbox")]
mod learned;
#[cfg(feature = "sandbox")]
mod partial;
#[cfg(feature = "sandbox")]
mod properties_requests;
#[cfg(feature = "sandbox")]
mod properties_same_input;
#[cfg(feature = "sandbox")]
mod run;
#[cfg(feature = "sandbox")]
mod same_input;
#[cfg(feature = "sandbox")]
mod sandbox;
#[cfg(feature = "sandbox")]
mod sandbox_edges;
#[cfg(feature = "sandbox")]
mod soak;
#[cfg(feature = "sandbox")]
mod store;
