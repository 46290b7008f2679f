//! The command line's integration tests, one module per subject, in one test
//! binary.
//!
//! One binary rather than one per file: each binary links the whole runtime
//! and the CLI's own dependencies, so a dozen of them cost a newcomer's first
//! `cargo test` more time in the linker than in the tests. Run one subject with
//! `cargo test -p seozoom-cli --test cli tables::`. No module sets environment
//! variables or the working directory: they share one process (each test gives
//! its child `seozoom` process the environment it needs).

mod support;

mod bulk;
mod columns;
mod completions;
mod drift;
mod drifting_answers;
mod failures;
mod mcp_command;
mod operations;
mod partial;
mod refusals;
mod same_input;
mod sandbox;
mod store;
mod streaming;
mod tables;
mod unknown_cost;
