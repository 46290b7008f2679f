//! The JSON Schemas made from the spec: each parameter's and each record's,
//! the SERP's and the envelope's, in one place (feature `schema`).
//!
//! Every face that states a schema takes it from here, from the validated
//! [model](crate::model), at build or publish time:
//!
//! - `seozoom-codegen publish` (the published documents in `spec/published/`);
//! - the MCP server's build script, as the Python package's build script uses
//!   the generator: it writes these schemas to its `OUT_DIR`, and the server
//!   adds what is its own on top (the session's default database, the batch
//!   list taking any number of values, shorter descriptions);
//! - the `seozoom` crate's build script with its `schemars` feature: the
//!   envelope's schema, into which the runtime puts the payload's, and the
//!   SERP's, which its `Serp` type states.
//!
//! Why here and not in the operation table: the table is compiled into every
//! user's program and read at run time, and it carries what the runtime needs,
//! not a schema's provenance words or patterns; a schema is made once per build
//! from the model, which has all of it. A program that wants a schema at run
//! time reads what its build script wrote.
//!
//! Two [`View`]s of a response body: what the service sends ([`View::Wire`]), and
//! the client's typed result written back as JSON with the API's names
//! ([`View::Decoded`]). Three [`Dialect`]s spell references and `null`: a
//! standalone JSON Schema (draft 2020-12), OpenAPI 3.1 and OpenAPI 3.0.3.

mod dialect;
mod envelope;
pub mod param;
mod patterns;
mod record;
mod words;

pub use dialect::{Dialect, View};
pub use envelope::{envelope, envelope_frame};
pub use patterns::{
    BOOL_WORD_PATTERN, DATE_PATTERN, DATETIME_PATTERN, POSITION_PATTERN, TIME_PATTERN,
    class_escape, regex_escape,
};
pub use record::{define, definitions, field, inline, integer, reached, record, serp, standalone};

pub use crate::model::SERP;
pub use words::{cost_words, limit_words, provenance};
