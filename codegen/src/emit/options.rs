//! How the generated code reaches its runtime ([`Options`]).

use proc_macro2::TokenStream;
use quote::quote;

/// How the generated code reaches its runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The path of the runtime's `__private` module: `crate::__private` when the
    /// code is compiled inside the `seozoom` crate (its build script),
    /// `::seozoom::__private` when compiled in another crate (the generator's
    /// per-feature goldens, compiled by the `seozoom-tests` crate).
    pub runtime: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            runtime: "crate::__private".to_owned(),
        }
    }
}

impl Options {
    /// Options for code compiled outside the runtime's crate.
    pub fn external() -> Self {
        Options {
            runtime: "::seozoom::__private".to_owned(),
        }
    }

    /// Whether the code is compiled inside the runtime's own crate, where it
    /// may add inherent methods to the runtime's types.
    pub fn in_runtime_crate(&self) -> bool {
        self.runtime == "crate" || self.runtime.starts_with("crate::")
    }

    pub(super) fn runtime_path(&self) -> TokenStream {
        self.runtime
            .parse()
            .unwrap_or_else(|_| quote!(crate::__private))
    }
}
