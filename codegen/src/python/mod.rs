//! The Python face of the spec: the typed surface of the `seozoom` Python
//! package (`python/`), as two files written next to its hand-written runtime.
//!
//! - [`Python::module`] (`_generated.py`): a `TypedDict` per record, a
//!   `Literal` alias per enum, and a class per group whose methods (one per
//!   action, named by the spec's Rust names) hand the call to the runtime's one
//!   generic entry point, `_call(group, action, params, ...)`;
//! - [`Python::stub`] (`_generated.pyi`): the same names with their
//!   signatures, what type checkers and editors read, with a synchronous and
//!   an `async` flavour of each group.
//!
//! - [`Python::dispatch`] (Rust, for the package's `OUT_DIR`): each
//!   operation's typed result handed to the native side's generic code.
//!
//! As with the Rust emitter, the model has decided every name and figure; this
//! stage only spells them. Parameters are Rust names (a Python keyword gets a
//! trailing `_`), records' keys are the Rust field names, and every docstring
//! comes from the spec's descriptions, limits (with provenance) and costs.

mod names;
mod native;
mod records;
mod surface;
mod text;

use crate::model::Spec;

/// The two generated files of the Python package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Python {
    /// `seozoom/_generated.py`: what runs.
    pub module: String,
    /// `seozoom/_generated.pyi`: what type checkers read.
    pub stub: String,
    /// Rust source the native side includes: each operation's typed result
    /// type handed to a generic visitor, so that rows go from the typed
    /// records to Python objects with no JSON value between.
    pub dispatch: String,
}

/// File names of [`Python::module`] and [`Python::stub`] in the package.
pub const MODULE_FILE: &str = "_generated.py";
/// See [`MODULE_FILE`].
pub const STUB_FILE: &str = "_generated.pyi";
pub use native::DISPATCH_FILE;

/// The Python surface of a spec. `Err` names a parameter whose Python name
/// would take the place of one every method has (`db`, `max_rows`).
///
/// # Errors
///
/// The message naming the clashing parameter.
pub fn emit(spec: &Spec) -> Result<Python, String> {
    names::check(spec)?;
    let mut module = text::header(spec, false);
    let mut stub = text::header(spec, true);
    let aliases = records::aliases(spec) + &surface::group_alias(spec);
    let typed = records::typed_dicts(spec);
    module.push_str(&aliases);
    stub.push_str(&aliases);
    module.push_str(&typed);
    stub.push_str(&typed);
    module.push_str(&records::monthly(spec));
    module.push_str(&surface::module(spec));
    stub.push_str(&surface::stub(spec));
    let all = text::all(spec);
    module.push_str(&all);
    module.push_str(text::REGISTER);
    stub.push_str(&all);
    let dispatch = native::dispatch(spec);
    Ok(Python {
        module,
        stub,
        dispatch,
    })
}

/// [`emit`] for a spec held in memory (what the package's build script calls).
///
/// # Errors
///
/// Every problem of the spec, located, as [`crate::load_str`] reports them, and a name clash as
/// [`emit`] reports it.
pub fn generate_str(name: &str, text: &str) -> Result<Python, crate::Diagnostics> {
    let spec = crate::load_str(name, text)?;
    emit(&spec).map_err(|message| {
        crate::Diagnostics(vec![crate::Diagnostic {
            file: name.to_owned(),
            line: 0,
            column: 0,
            message,
        }])
    })
}

#[cfg(test)]
mod tests;
