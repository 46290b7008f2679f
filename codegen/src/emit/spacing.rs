//! Blank lines between items, as a person writes them: prettyplease puts none.
//!
//! A line that starts an item (a doc comment, an attribute, a `pub`, `impl`,
//! `fn`, ... line) gets a blank line before it when the line before ends an
//! item (`}` or `;`) at the same depth or deeper. Fields, variants, match arms
//! and statements end with `,` or start with none of those words, so they stay
//! together; a run of `use` lines stays together.

/// What an item's first line starts with, after its indentation.
const ITEM_STARTS: &[&str] = &[
    "///", "//!", "#[", "#![", "pub ", "pub(", "impl ", "impl<", "fn ", "const ", "static ",
    "struct ", "enum ", "mod ", "type ", "trait ", "use ",
];

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

fn starts_item(line: &str) -> bool {
    let text = line.trim_start();
    ITEM_STARTS.iter().any(|start| text.starts_with(start))
}

fn ends_item(line: &str) -> bool {
    let text = line.trim_end();
    // A doc comment ends no item, even when its text (an example's code)
    // ends as a statement does.
    let comment = text.trim_start().starts_with("//");
    !comment && (text.ends_with('}') || text.ends_with(';'))
}

fn is_use(line: &str) -> bool {
    let text = line.trim_start();
    text.starts_with("use ") || text.starts_with("pub use ")
}

/// `code` with a blank line between consecutive items at every depth.
pub fn space_out_items(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + code.len() / 16);
    let mut previous: Option<&str> = None;
    for line in code.lines() {
        if let Some(before) = previous {
            let between_items = !line.trim().is_empty()
                && starts_item(line)
                && ends_item(before)
                && indent(before) >= indent(line)
                && !(is_use(before) && is_use(line));
            if between_items {
                out.push('\n');
            }
        }
        out.push_str(line);
        out.push('\n');
        previous = Some(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::space_out_items;

    #[test]
    fn code_in_a_doc_comment_is_not_spaced_out() {
        let code = "/// ```\n/// let a = 1;\n/// f(a);\n/// ```\npub fn f() {}\n";
        assert_eq!(space_out_items(code), code);
    }

    #[test]
    fn items_are_spaced_and_members_are_not() {
        let code = "use a::b;\nuse c::d;\npub struct A {\n    pub x: i64,\n    /// y\n    pub y: i64,\n}\nimpl A {\n    fn f() {}\n    /// g\n    fn g() {\n        let x = 1;\n        x\n    }\n}\npub static B: i64 = f()\n    .g();\n/// C\npub static C: i64 = 1;\n";
        let spaced = "use a::b;\nuse c::d;\n\npub struct A {\n    pub x: i64,\n    /// y\n    pub y: i64,\n}\n\nimpl A {\n    fn f() {}\n\n    /// g\n    fn g() {\n        let x = 1;\n        x\n    }\n}\n\npub static B: i64 = f()\n    .g();\n\n/// C\npub static C: i64 = 1;\n";
        assert_eq!(space_out_items(code), spaced);
    }
}
