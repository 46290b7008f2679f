//! The generated tokens as text without a formatter (the `format` feature off):
//! what a build script writes, so it needs neither syn nor prettyplease.
//!
//! Tokens are spaced as `proc_macro2` prints them; lines break after each
//! attribute and block and after each `;` and `,` directly in a block, and
//! around each parameter of a function, with blocks indented. Not pretty, but every item and
//! statement has a line of its own, so a compiler message or "go to definition"
//! lands on something readable, and lints that read the layout (a `}` and an
//! `if` on one line looks like a missing `else`) see the same shape as in the
//! formatted file.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// `tokens` as lines of Rust.
pub fn lines(tokens: TokenStream) -> String {
    let mut out = Writer::default();
    out.stream(tokens, true);
    out.text.push('\n');
    out.text
}

#[derive(Default)]
struct Writer {
    text: String,
    depth: usize,
    /// The line has only indentation so far.
    fresh: bool,
    /// The last token glues to the next (a joint punctuation: `::`, `=>`, `'a`).
    joint: bool,
}

impl Writer {
    /// The tokens of a file or block (`block`: lines break after `;`), or of
    /// parentheses or brackets.
    fn stream(&mut self, tokens: TokenStream, block: bool) {
        let mut tokens = tokens.into_iter().peekable();
        let mut hash = false;
        // After `fn`, until its parameters: they go a line each, so a compiler
        // note that quotes a signature quotes the parameter it is about.
        let mut signature = false;
        while let Some(token) = tokens.next() {
            let next_is_glued = is_glued(tokens.peek());
            match token {
                TokenTree::Group(group)
                    if signature && group.delimiter() == Delimiter::Parenthesis =>
                {
                    signature = false;
                    self.word("(");
                    if !group.stream().is_empty() {
                        self.depth += 1;
                        self.newline();
                        self.stream(group.stream(), true);
                        self.depth -= 1;
                        self.newline();
                    }
                    self.joint = true;
                    self.word(")");
                }
                TokenTree::Group(group) if group.delimiter() == Delimiter::Brace => {
                    self.word("{");
                    if !group.stream().is_empty() {
                        self.depth += 1;
                        self.newline();
                        self.stream(group.stream(), true);
                        self.depth -= 1;
                        self.newline();
                    }
                    self.word("}");
                    if !next_is_glued {
                        self.newline();
                    }
                }
                TokenTree::Group(group) => {
                    let (open, close) = match group.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Bracket => ("[", "]"),
                        _ => ("", ""),
                    };
                    self.word(open);
                    self.joint = true;
                    self.stream(group.stream(), false);
                    self.joint = true;
                    self.word(close);
                    // An attribute: `#[...]` on a line of its own.
                    if hash && group.delimiter() == Delimiter::Bracket {
                        self.newline();
                    }
                }
                TokenTree::Punct(punct) => {
                    self.word(&punct.as_char().to_string());
                    self.joint = punct.spacing() == Spacing::Joint;
                    if block && matches!(punct.as_char(), ';' | ',') {
                        self.newline();
                    }
                    hash = punct.as_char() == '#';
                    continue;
                }
                TokenTree::Ident(ident) => {
                    signature |= ident == "fn";
                    self.word(&ident.to_string());
                }
                TokenTree::Literal(literal) => self.word(&literal.to_string()),
            }
            hash = false;
        }
    }

    fn word(&mut self, word: &str) {
        if !self.fresh && !self.joint && !self.text.is_empty() {
            self.text.push(' ');
        }
        self.text.push_str(word);
        self.fresh = false;
        self.joint = false;
    }

    /// Starts a line at the current depth (or re-indents a line just started).
    fn newline(&mut self) {
        if self.fresh {
            let start = self.text.rfind('\n').map_or(0, |i| i + 1);
            self.text.truncate(start);
        } else {
            self.text.push('\n');
        }
        for _ in 0..self.depth {
            self.text.push_str("    ");
        }
        self.fresh = true;
    }
}

/// Whether a token right after a block stays on its line: punctuation (`},`,
/// `}.len()`, `};`), `else`, and the end of the enclosing group (`})`, `}]`).
fn is_glued(token: Option<&TokenTree>) -> bool {
    match token {
        None | Some(TokenTree::Punct(_)) => true,
        Some(TokenTree::Ident(ident)) => ident == "else",
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::lines;

    #[test]
    fn items_statements_and_blocks_get_lines_of_their_own() {
        let tokens = quote! {
            #[doc = " A function."]
            pub fn f(x: [u8; 2], y: u8) -> u8 {
                if x[0] > 1 { g(); } else { h(); }
                if let Some(v) = x.first() { return *v; }
                match x[1] { 0 => 1, _ => 2 }
            }
        };
        assert_eq!(
            lines(tokens),
            "# [doc = \" A function.\"]\n\
             pub fn f (\n\
             \x20   x : [u8 ; 2] ,\n\
             \x20   y : u8\n\
             ) -> u8 {\n\
             \x20   if x [0] > 1 {\n\
             \x20       g () ;\n\
             \x20   } else {\n\
             \x20       h () ;\n\
             \x20   }\n\
             \x20   if let Some (v) = x . first () {\n\
             \x20       return * v ;\n\
             \x20   }\n\
             \x20   match x [1] {\n\
             \x20       0 => 1 ,\n\
             \x20       _ => 2\n\
             \x20   }\n\
             }\n"
        );
    }
}
