//! Rust-name checks and case conversions. Names are made safe here, once, in the
//! model; the emitter never adjusts a name.

/// Rust's strict and reserved keywords (2024 edition), which no generated name may be.
pub const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Why `name` is not a usable snake_case identifier, if it is not.
pub fn snake_problem(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let starts_well = chars.next().is_some_and(|c| c.is_ascii_lowercase());
    let rest_ok = name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !starts_well || !rest_ok || name.ends_with('_') || name.contains("__") {
        return Some(format!(
            "`{name}` is not a snake_case Rust name (lower-case ASCII letters, digits and single `_`, starting with a letter)"
        ));
    }
    if KEYWORDS.contains(&name) {
        return Some(format!("`{name}` is a Rust keyword"));
    }
    None
}

/// Why `name` is not a usable PascalCase identifier, if it is not.
pub fn pascal_problem(name: &str) -> Option<String> {
    let starts_well = name.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    let rest_ok = name.chars().all(|c| c.is_ascii_alphanumeric());
    if !starts_well || !rest_ok {
        return Some(format!(
            "`{name}` is not a PascalCase Rust name (ASCII letters and digits, starting with an upper-case letter)"
        ));
    }
    if matches!(name, "Self") {
        return Some(format!("`{name}` is a Rust keyword"));
    }
    None
}

/// `best_pages` -> `BestPages`.
pub fn to_pascal(snake: &str) -> String {
    snake
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// `best_pages` -> `BEST_PAGES`.
pub fn to_screaming(snake: &str) -> String {
    snake.to_ascii_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_names() {
        assert_eq!(snake_problem("positions_1_to_3"), None);
        assert!(snake_problem("1a3").is_some());
        assert!(snake_problem("KD").is_some());
        assert!(snake_problem("type").unwrap().contains("keyword"));
        assert!(snake_problem("a__b").is_some());
        assert!(snake_problem("").is_some());
    }

    #[test]
    fn pascal_names() {
        assert_eq!(pascal_problem("DomainKeyword"), None);
        assert!(pascal_problem("domain_keyword").is_some());
        assert!(pascal_problem("Self").is_some());
    }

    #[test]
    fn conversions() {
        assert_eq!(
            to_pascal("pages_with_more_keywords"),
            "PagesWithMoreKeywords"
        );
        assert_eq!(to_pascal("ai_keywords"), "AiKeywords");
        assert_eq!(to_screaming("serp_history"), "SERP_HISTORY");
    }
}
