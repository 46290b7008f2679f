//! Model items spelled as the report writes them: Rust types and calls as the
//! generated crate has them, limits with their provenance.

use crate::model::{Action, Field, FieldType, Limit, ListItem, ParamType, Payload, Shape, Source};

pub(super) fn quoted(s: &str) -> String {
    format!("`{s}`")
}

pub(super) fn source_name(s: Source) -> &'static str {
    match s {
        Source::Stated => "stated",
        Source::Inferred => "inferred",
        Source::Observed => "observed",
        Source::Decided => "decided",
    }
}

pub(super) fn limit_text(l: &Limit) -> String {
    format!("{} ({})", l.value, source_name(l.source))
}

pub(super) fn param_type_name(t: &ParamType) -> String {
    match t {
        ParamType::String => "string".into(),
        ParamType::Integer => "integer".into(),
        ParamType::Date => "date".into(),
        ParamType::Enum { type_name, .. } => type_name.clone(),
    }
}

/// The Rust type of a field as the generated record has it (short paths).
pub(super) fn field_rust_type(f: &Field) -> String {
    let ty = match &f.ty {
        FieldType::Integer => "i64".to_owned(),
        FieldType::Number => "f64".to_owned(),
        FieldType::String => "String".to_owned(),
        FieldType::BoolWord => "Option<bool>".to_owned(),
        FieldType::Flag => "bool".to_owned(),
        FieldType::Date => "Date".to_owned(),
        FieldType::DateTime => "DateTime".to_owned(),
        FieldType::Time => "Time".to_owned(),
        FieldType::Serp => "Serp".to_owned(),
        FieldType::CommaList(ListItem::String) => "Vec<String>".to_owned(),
        FieldType::CommaList(ListItem::Enum { type_name }) => format!("Vec<{type_name}>"),
        FieldType::List { type_name, .. } => format!("Vec<{type_name}>"),
    };
    if f.is_option() {
        format!("Option<{ty}>")
    } else {
        ty
    }
}

/// The spec's name of a field type, with its flags (`integer, nullable`).
pub(super) fn field_type_name(f: &Field) -> String {
    let mut name = match &f.ty {
        FieldType::Integer => "integer".to_owned(),
        FieldType::Number => "number".to_owned(),
        FieldType::String => "string".to_owned(),
        FieldType::BoolWord => "bool_word".to_owned(),
        FieldType::Flag => "flag".to_owned(),
        FieldType::Date => "date".to_owned(),
        FieldType::DateTime => "datetime".to_owned(),
        FieldType::Time => "time".to_owned(),
        FieldType::Serp => "serp".to_owned(),
        FieldType::CommaList(ListItem::String) => "comma_list of string".to_owned(),
        FieldType::CommaList(ListItem::Enum { type_name }) => format!("comma_list of {type_name}"),
        FieldType::List { record, .. } => format!("list of {record}"),
    };
    if f.nullable {
        name.push_str(", nullable");
    }
    if f.optional {
        name.push_str(", optional");
    }
    name
}

pub(super) fn output_type(a: &Action) -> String {
    let payload = match &a.response.payload {
        Payload::Record { type_name, .. } => type_name.clone(),
        Payload::Serp => "Serp".into(),
    };
    match &a.response.shape {
        Shape::Array => format!("Vec<{payload}>"),
        Shape::Single => payload,
        Shape::Map { key } => format!("ByKey<{payload}> by {key}"),
    }
}

/// `client.domains().keywords`.
pub(super) fn method(a: &Action) -> String {
    let mut group = String::new();
    for (i, c) in a.group_type.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            group.push('_');
        }
        group.push(c.to_ascii_lowercase());
    }
    format!("client.{group}().{}", a.rust)
}

/// `client.domains().keywords(domain, keyword_type, limit)`.
pub(super) fn call(a: &Action) -> String {
    let args: Vec<&str> = a
        .params
        .iter()
        .filter(|p| p.required)
        .map(|p| p.rust.as_str())
        .collect();
    format!("{}({})", method(a), args.join(", "))
}

/// What a new or narrower limit refuses.
pub(super) fn refused(upper: bool, items: bool, value: i64) -> String {
    match (upper, items) {
        (true, false) => format!("values above {value} are now refused"),
        (false, false) => format!("values below {value} are now refused"),
        (true, true) => format!("more than {value} values are now refused"),
        (false, true) => format!("fewer than {value} values are now refused"),
    }
}
