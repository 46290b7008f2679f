//! Python names and types of the model's parameters and fields.

use crate::model::{FieldType, ListItem, Param, ParamType, Spec};

/// Python's keywords that are not Rust's (the model's names are never Rust
/// keywords), and the soft keywords a name should not take either.
const KEYWORDS: &[&str] = &[
    "and", "assert", "class", "def", "del", "elif", "except", "finally", "from", "global", "is",
    "lambda", "nonlocal", "not", "or", "pass", "raise", "with", "case",
];

/// The alias of the groups' names (`Literal[...]`), which `estimate` takes.
pub const GROUP_ALIAS: &str = "GroupName";

/// Keyword arguments every method has, which no parameter may take.
pub const RESERVED: &[&str] = &["db", "max_rows", "self"];

/// A Rust name as a Python identifier: PEP 8's trailing `_` for a keyword.
pub fn ident(rust: &str) -> String {
    if KEYWORDS.contains(&rust) {
        format!("{rust}_")
    } else {
        rust.to_owned()
    }
}

/// Whether a record key must be written in `TypedDict`'s functional form.
pub fn is_keyword(rust: &str) -> bool {
    KEYWORDS.contains(&rust)
}

/// No parameter takes a reserved name.
pub fn check(spec: &Spec) -> Result<(), String> {
    for a in &spec.actions {
        for p in a.params.iter().filter(|p| !p.implicit) {
            let name = ident(&p.rust);
            if RESERVED.contains(&name.as_str()) {
                return Err(format!(
                    "{} {}: parameter `{}` would be the Python keyword argument `{name}`, which every method has",
                    a.group, a.wire, p.wire
                ));
            }
        }
    }
    Ok(())
}

/// A `Literal[...]` of wire values.
pub fn literal(values: &[String]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
    format!("Literal[{}]", quoted.join(", "))
}

/// The type a parameter's value is given as (without `Optional`).
pub fn param_type(p: &Param) -> String {
    let one = match &p.ty {
        ParamType::String => "str".to_owned(),
        ParamType::Integer => "int".to_owned(),
        ParamType::Date => "datetime.date".to_owned(),
        ParamType::Enum { type_name, .. } => type_name.clone(),
    };
    if p.list {
        format!("Sequence[{one}]")
    } else {
        one
    }
}

/// The type of a record field's value, as the runtime hands it to Python.
pub fn field_type(ty: &FieldType, may_be_missing: bool) -> String {
    let one = match ty {
        FieldType::Integer => "int".to_owned(),
        FieldType::Number => "float".to_owned(),
        FieldType::String => "str".to_owned(),
        // A boolean word that is absent or unknown is `None`.
        FieldType::BoolWord => return "Optional[bool]".to_owned(),
        FieldType::Flag => "bool".to_owned(),
        FieldType::Date => "datetime.date".to_owned(),
        FieldType::DateTime => "datetime.datetime".to_owned(),
        FieldType::Time => "datetime.time".to_owned(),
        FieldType::Serp => "List[SerpResult]".to_owned(),
        // Lists are empty rather than `None` when missing.
        FieldType::CommaList(ListItem::String) => return "List[str]".to_owned(),
        FieldType::CommaList(ListItem::Enum { type_name }) => {
            return format!("List[{type_name}]");
        }
        FieldType::List { type_name, .. } => return format!("List[{type_name}]"),
    };
    if may_be_missing {
        format!("Optional[{one}]")
    } else {
        one
    }
}
