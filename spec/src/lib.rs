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
