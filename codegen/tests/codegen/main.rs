//! The generator's integration tests, one module per subject, in one test
//! binary (one link instead of five; run one subject with
//! `cargo test -p seozoom-codegen --test codegen published::`).
//!
//! The modules that run the binary or compare with the formatted golden file
//! are built with the features they need only, as their own targets were
//! (`required-features`). No module sets environment variables or the working
//! directory: they share one process.

mod common;

mod features;
mod spec_errors;

#[cfg(feature = "cli")]
mod apply;
#[cfg(feature = "cli")]
mod committed;
#[cfg(feature = "cli")]
mod diff;
#[cfg(feature = "format")]
mod generation;
#[cfg(feature = "cli")]
mod published;
#[cfg(feature = "cli")]
mod python_surface;
