//! The spec of the SEOZoom API v2 that the `seozoom` crate is generated from:
//! one hand-written TOML file, documented in this crate's README.
//!
//! A crate of its own so that the spec reaches every build the same way, in the
//! workspace and from crates.io alike: `seozoom`'s build script and
//! `seozoom-codegen`'s tests depend on it instead of reading a file by path.
//! Editing the file rebuilds this crate, which reruns the build scripts that use it.
//!
//! ```
//! assert!(seozoom_spec::TEXT.contains("[[actions]]"));
//! assert_eq!(seozoom_spec::FILE_NAME, "seozoom-v2.toml");
//! ```

#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

/// The name of the spec file, beside this crate's `Cargo.toml`; generators
/// report errors in the spec under this name.
pub const FILE_NAME: &str = "seozoom-v2.toml";

/// The text of the spec file (`seozoom-v2.toml`).
pub const TEXT: &str = include_str!("../seozoom-v2.toml");

/// The spec as published for other languages (`published/seozoom-v2.json`,
/// written by `seozoom-codegen publish` and checked for staleness by the
/// workspace's tests), for servers that hand it out, such as the MCP server's
/// resources.
pub const PUBLISHED_JSON: &str = include_str!("../published/seozoom-v2.json");

/// The published OpenAPI 3.1 document (`published/openapi.json`), beside
/// [`PUBLISHED_JSON`].
pub const PUBLISHED_OPENAPI: &str = include_str!("../published/openapi.json");
