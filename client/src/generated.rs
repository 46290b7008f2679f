//! The code generated from the spec by `seozoom-codegen` in the build script:
//! the records and enums (`types`), the request builders (`builder`) and the
//! operation table (`operations`). It uses the runtime through `__private`;
//! the runtime never uses it.

include!(concat!(env!("OUT_DIR"), "/generated.rs"));
