//! A query parameter's schema: one value's, a list as an array of values (what a
//! caller gives), or a list as the one string the wire carries, the values
//! joined by the list separator.
//!
//! A string value must not be blank or hold the separator, as the client's
//! validator says; an integer has its bounds, a date its pattern, an enum its
//! values, and each its default.

use serde_json::{Map, Value, json};

use super::patterns::{DATE_PATTERN, WHITE_SPACE, class_escape, regex_escape};
use super::words::limit_words;
use crate::model::{Param, ParamType, Spec};

/// The pattern one value of a parameter matches (no anchors).
fn item_pattern(spec: &Spec, ty: &ParamType) -> String {
    match ty {
        // Not blank, and no separator.
        ParamType::String => {
            let sep = class_escape(spec.list_separator);
            format!("[^{sep}]*[^{sep}{WHITE_SPACE}][^{sep}]*")
        }
        ParamType::Integer => "-?[0-9]+".into(),
        ParamType::Date => DATE_PATTERN
            .trim_start_matches('^')
            .trim_end_matches('$')
            .into(),
        ParamType::Enum { values, .. } => {
            let words: Vec<String> = values
                .iter()
                .map(|v| v.chars().map(regex_escape).collect())
                .collect();
            format!("(?:{})", words.join("|"))
        }
    }
}

/// `lo..=hi` values of `ty` joined by the separator (`hi` `None`: no maximum),
/// as one string.
pub fn list_pattern(spec: &Spec, ty: &ParamType, lo: i64, hi: Option<i64>) -> String {
    let item = item_pattern(spec, ty);
    let sep = regex_escape(spec.list_separator);
    let more_lo = (lo - 1).max(0);
    let more_hi = hi.map_or(String::new(), |hi| (hi - 1).max(0).to_string());
    let list = format!("{item}(?:{sep}{item}){{{more_lo},{more_hi}}}");
    if lo <= 0 {
        format!("^(?:{list})?$")
    } else {
        format!("^{list}$")
    }
}

/// The default as a JSON value of the parameter's type.
pub fn default_value(p: &Param) -> Option<Value> {
    let default = p.default.as_ref()?;
    Some(match p.ty {
        ParamType::Integer => default
            .parse::<i64>()
            .map_or_else(|_| json!(default), |n| json!(n)),
        _ => json!(default),
    })
}

/// The bounds of an integer parameter: its own `min` and `max`, else the
/// range the client holds it in ([`ParamType::INTEGER_RANGE`]), so that no
/// value a schema accepts is refused for its size.
pub fn integer_bounds(p: &Param) -> (i64, i64) {
    let (lo, hi) = ParamType::INTEGER_RANGE;
    (
        p.min.as_ref().map_or(lo, |l| l.value),
        p.max.as_ref().map_or(hi, |l| l.value),
    )
}

/// The schema of one value of a parameter (of each item, for a list), with its
/// bounds and default.
pub fn value(spec: &Spec, p: &Param) -> Value {
    let mut schema = Map::new();
    match &p.ty {
        ParamType::String => {
            schema.insert("type".into(), json!("string"));
            schema.insert(
                "pattern".into(),
                json!(format!("^{}$", item_pattern(spec, &p.ty))),
            );
        }
        ParamType::Integer => {
            let (min, max) = integer_bounds(p);
            schema.insert("type".into(), json!("integer"));
            schema.insert("format".into(), json!("int64"));
            schema.insert("minimum".into(), json!(min));
            schema.insert("maximum".into(), json!(max));
        }
        ParamType::Date => {
            schema.insert("type".into(), json!("string"));
            schema.insert("format".into(), json!("date"));
            schema.insert("pattern".into(), json!(DATE_PATTERN));
        }
        ParamType::Enum { values, .. } => {
            schema.insert("type".into(), json!("string"));
            schema.insert("enum".into(), json!(values));
        }
    }
    if let Some(default) = default_value(p) {
        schema.insert("default".into(), default);
    }
    Value::Object(schema)
}

/// The schema of a parameter as a caller gives it: a list is an array of its
/// values, their count bounded by `minItems` and `maxItems`.
pub fn as_array(spec: &Spec, p: &Param) -> Value {
    if !p.list {
        return value(spec, p);
    }
    let mut schema = json!({"type": "array", "items": value(spec, p)});
    if let Some(l) = &p.min_items {
        schema["minItems"] = json!(l.value);
    }
    if let Some(l) = &p.max_items {
        schema["maxItems"] = json!(l.value);
    }
    schema
}

/// The schema of a parameter as the wire carries it: a list is one string, its
/// values joined by the separator, their count in its pattern.
pub fn as_string(spec: &Spec, p: &Param) -> Value {
    if p.list {
        let lo = p.min_items.as_ref().map_or(1, |l| l.value);
        let hi = p.max_items.as_ref().map(|l| l.value);
        return json!({"type": "string", "pattern": list_pattern(spec, &p.ty, lo, hi)});
    }
    value(spec, p)
}

/// What each value of an enum parameter means, as the spec says it: the
/// values in the spec's order, each with its description; empty for a
/// parameter of another type. For a face that states the meanings beside the
/// values (a tool's input schema), since an `enum` lists the values alone.
pub fn value_meanings<'a>(spec: &'a Spec, p: &Param) -> Vec<(&'a str, &'a str)> {
    let ParamType::Enum { type_name, .. } = &p.ty else {
        return Vec::new();
    };
    spec.enums
        .iter()
        .find(|e| &e.type_name == type_name)
        .map(|e| {
            e.values
                .iter()
                .map(|v| (v.wire.as_str(), v.description.as_str()))
                .collect()
        })
        .unwrap_or_default()
}

/// The description of a parameter, its limits spelt out with their provenance.
pub fn description(spec: &Spec, p: &Param) -> String {
    let mut parts = vec![p.description.clone()];
    if p.list {
        let mut counts = Vec::new();
        if let Some(l) = &p.min_items {
            counts.push(format!("at least {}", limit_words(l)));
        }
        if let Some(l) = &p.max_items {
            counts.push(format!("at most {}", limit_words(l)));
        }
        if !counts.is_empty() {
            parts.push(format!("Number of values: {}.", counts.join("; ")));
        }
    }
    if p.ty == ParamType::String {
        parts.push(format!(
            "A value must not be empty, blank or contain `{}`.",
            spec.list_separator
        ));
    }
    if let Some(l) = &p.min {
        parts.push(format!("Minimum {}.", limit_words(l)));
    }
    if let Some(l) = &p.max {
        parts.push(format!("Maximum {}.", limit_words(l)));
    }
    if let Some(default) = &p.default {
        parts.push(format!("Default `{default}`: sent when none is given."));
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::value_meanings;

    #[test]
    fn an_enum_parameter_has_each_value_with_its_meaning_and_others_none() {
        let spec = crate::load_str(seozoom_spec::FILE_NAME, seozoom_spec::TEXT)
            .expect("the workspace's spec is valid");
        let database = value_meanings(&spec, &spec.common.database);
        let e = spec
            .enums
            .iter()
            .find(|e| e.name == "db")
            .expect("the database enum");
        assert_eq!(database.len(), e.values.len());
        for ((wire, meaning), value) in database.iter().zip(&e.values) {
            assert_eq!(
                (*wire, *meaning),
                (value.wire.as_str(), value.description.as_str())
            );
            assert!(!meaning.is_empty(), "{wire}");
        }
        let text = spec
            .actions
            .iter()
            .flat_map(|a| &a.params)
            .find(|p| p.ty == crate::model::ParamType::String)
            .expect("a text parameter");
        assert!(value_meanings(&spec, text).is_empty());
    }
}
