//! Doc comments from spec text.

use proc_macro2::TokenStream;
use quote::quote;

/// `#[doc]` attributes, one per line, each paragraph separated by an empty line.
pub fn doc(paragraphs: &[&str]) -> TokenStream {
    let mut lines = Vec::new();
    for paragraph in paragraphs.iter().filter(|p| !p.trim().is_empty()) {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.extend(
            paragraph
                .trim()
                .lines()
                .map(|line| format!(" {}", line.trim_end())),
        );
    }
    quote! { #( #[doc = #lines] )* }
}
