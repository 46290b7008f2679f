//! The cross-crate tests, one module per subject, in one test binary (one link
//! of the client instead of eight; run one subject with
//! `cargo test -p seozoom-tests --test cross_crate requests::`).
//!
//! No module sets environment variables or the working directory: they share
//! one process.

mod correct_usage;
mod feature_goldens;
mod jiff;
mod module_graph;
mod namespaces;
mod no_wire_names;
mod published_schemas;
mod regeneration;
mod requests;

#[cfg(feature = "sandbox")]
mod published_refusals;
#[cfg(feature = "sandbox")]
mod published_sandbox;
