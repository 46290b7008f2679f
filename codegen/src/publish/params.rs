//! Query parameters as OpenAPI parameter objects: each action's own (for
//! `x-actions`), and, for the one operation of a group path, the union of its
//! actions' parameters; and for the per-action documents (`action_doc.rs`),
//! each action's own with its lists as arrays.
//!
//! In the group documents a list parameter is a string, its values joined by
//! the list separator: that is what goes on the wire, and every tool reads a
//! string parameter the same way. Its `pattern` forbids empty values and bounds
//! the number of values; `x-list` gives the separator and the counts
//! (`minItems`, `maxItems`) to tools that build the string from an array. In the
//! per-action documents it is an array, `style: pipeDelimited` and
//! `explode: false` when the separator is `|` (`array_parameter`), so that a
//! generated client takes a list.

use serde_json::{Map, Value, json};

use seozoom_codegen::model::{Action, Limit, Param, ParamType, Spec};

use super::examples;
use super::wire::{DATE_PATTERN, class_escape, provenance, regex_escape};

fn limit_words(l: &Limit) -> String {
    format!("{} ({})", l.value, provenance(l.source, l.note.as_deref()))
}

/// What Rust's `str::trim` removes, and so what the client's validator reads
/// as blank: the Unicode `White_Space` characters, as a regex class body. (Not
/// `\s`: ECMAScript's also holds U+FEFF and lacks U+0085.)
const WHITE_SPACE: &str =
    "\\u0009-\\u000d\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

/// The pattern one value of a parameter matches (no anchors).
fn item_pattern(spec: &Spec, ty: &ParamType) -> String {
    match ty {
        // Not blank, and no separator.
        ParamType::String => {
            let sep = class_escape(spec.list_separator);
            format!("[^{sep}]*[^{sep}{WHITE_SPACE}][^{sep}]*")
        }
        ParamType::Integer => "-?[0-9]+".into(),
        ParamType::Date => "[0-9]{4}-[0-9]{2}-[0-9]{2}".into(),
        ParamType::Enum { values, .. } => {
            let words: Vec<String> = values
                .iter()
                .map(|v| v.chars().map(regex_escape).collect())
                .collect();
            format!("(?:{})", words.join("|"))
        }
    }
}

/// `lo..=hi` values of `ty` joined by the separator (`hi` `None`: no maximum).
fn list_pattern(spec: &Spec, ty: &ParamType, lo: i64, hi: Option<i64>) -> String {
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

/// The schema of one action's parameter.
pub fn schema(spec: &Spec, p: &Param) -> Value {
    if p.list {
        let lo = p.min_items.as_ref().map_or(1, |l| l.value);
        let hi = p.max_items.as_ref().map(|l| l.value);
        return json!({"type": "string", "pattern": list_pattern(spec, &p.ty, lo, hi)});
    }
    value_schema(spec, p)
}

/// The bounds of an integer parameter: its own `min` and `max`, else the
/// range the client holds it in ([`ParamType::INTEGER_RANGE`]), so that no
/// value the schema accepts is refused for its size.
fn integer_bounds(p: &Param) -> (i64, i64) {
    let (lo, hi) = ParamType::INTEGER_RANGE;
    (
        p.min.as_ref().map_or(lo, |l| l.value),
        p.max.as_ref().map_or(hi, |l| l.value),
    )
}

/// The schema of one value of a parameter (of each item, for a list), with its
/// bounds and default.
fn value_schema(spec: &Spec, p: &Param) -> Value {
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

/// The description of one action's parameter, its limits spelt out with their
/// provenance.
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

/// The schema of one action's parameter with a list as an array of its values,
/// their count bounded by `minItems` and `maxItems`.
pub fn array_schema(spec: &Spec, p: &Param) -> Value {
    if !p.list {
        return value_schema(spec, p);
    }
    let mut schema = json!({"type": "array", "items": value_schema(spec, p)});
    if let Some(l) = &p.min_items {
        schema["minItems"] = json!(l.value);
    }
    if let Some(l) = &p.max_items {
        schema["maxItems"] = json!(l.value);
    }
    schema
}

/// The OpenAPI `style` that joins an array's values with `separator`
/// (`explode: false`), if OpenAPI has one.
fn delimited_style(separator: char) -> Option<&'static str> {
    match separator {
        '|' => Some("pipeDelimited"),
        ' ' => Some("spaceDelimited"),
        ',' => Some("form"),
        _ => None,
    }
}

/// One action's parameter for its own document: a list is an array, sent with
/// its values joined by the separator. A parameter's role (`offset`,
/// `page_size`, ...) is in `x-seozoom-role`, for tools that page or fill in
/// values.
pub fn array_parameter(spec: &Spec, p: &Param) -> Result<Value, String> {
    let mut object = json!({
        "name": p.wire,
        "in": "query",
        "required": p.required,
        "description": description(spec, p),
        "schema": array_schema(spec, p),
        "example": examples::parameter(p),
    });
    if p.list {
        let Some(style) = delimited_style(spec.list_separator) else {
            return Err(format!(
                "parameter `{}`: OpenAPI has no style that joins values with `{}`",
                p.wire, spec.list_separator
            ));
        };
        object["style"] = json!(style);
        object["explode"] = json!(false);
    }
    if let Some(role) = p.role {
        object["x-seozoom-role"] = json!(role.word());
    }
    Ok(object)
}

fn x_list(spec: &Spec, lo: Option<i64>, hi: Option<i64>) -> Value {
    let mut list = Map::new();
    list.insert("separator".into(), json!(spec.list_separator.to_string()));
    if let Some(lo) = lo {
        list.insert("minItems".into(), json!(lo));
    }
    if let Some(hi) = hi {
        list.insert("maxItems".into(), json!(hi));
    }
    Value::Object(list)
}

/// One action's parameter as an OpenAPI parameter object.
pub fn parameter(spec: &Spec, p: &Param) -> Value {
    let mut object = json!({
        "name": p.wire,
        "in": "query",
        "required": p.required,
        "description": description(spec, p),
        "schema": schema(spec, p),
    });
    if p.list {
        object["x-list"] = x_list(
            spec,
            p.min_items.as_ref().map(|l| l.value),
            p.max_items.as_ref().map(|l| l.value),
        );
    }
    object
}

fn same_kind(a: &ParamType, b: &ParamType) -> bool {
    match (a, b) {
        (ParamType::Enum { type_name: x, .. }, ParamType::Enum { type_name: y, .. }) => x == y,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

fn action_list(actions: &[&Action]) -> String {
    let names: Vec<String> = actions.iter().map(|a| format!("`{}`", a.wire)).collect();
    names.join(", ")
}

/// The parameters of the one operation that serves every action of a group: each
/// parameter any action takes, required only when every action requires it, its
/// schema the loosest of the actions' own, and its description per action.
pub fn union(spec: &Spec, actions: &[&Action]) -> Result<Vec<Value>, String> {
    let mut names: Vec<&str> = Vec::new();
    for a in actions {
        for p in &a.params {
            if !names.contains(&p.wire.as_str()) {
                names.push(&p.wire);
            }
        }
    }
    names
        .into_iter()
        .map(|name| {
            let uses: Vec<(&Action, &Param)> = actions
                .iter()
                .filter_map(|a| a.params.iter().find(|p| p.wire == name).map(|p| (*a, p)))
                .collect();
            union_one(spec, actions, name, &uses)
        })
        .collect()
}

fn union_one(
    spec: &Spec,
    actions: &[&Action],
    name: &str,
    uses: &[(&Action, &Param)],
) -> Result<Value, String> {
    let (first_action, first) = uses[0];
    if let Some((a, _)) = uses.iter().find(|(_, p)| !same_kind(&p.ty, &first.ty)) {
        return Err(format!(
            "parameter `{name}` has one type in `{}` and another in `{}` of the same group; one OpenAPI operation per path cannot describe both",
            first_action.wire, a.wire
        ));
    }
    let everywhere = uses.len() == actions.len();
    let required = everywhere && uses.iter().all(|(_, p)| p.required);

    let schemas: Vec<Value> = uses.iter().map(|(_, p)| schema(spec, p)).collect();
    let mut merged = if schemas.iter().all(|s| *s == schemas[0]) {
        schemas[0].clone()
    } else {
        merged_schema(spec, uses)
    };
    if !everywhere && let Some(object) = merged.as_object_mut() {
        // A default would be sent to actions that do not take the parameter.
        object.remove("default");
    }

    let descriptions: Vec<String> = uses.iter().map(|(_, p)| description(spec, p)).collect();
    let description = if everywhere && descriptions.iter().all(|d| *d == descriptions[0]) {
        descriptions[0].clone()
    } else {
        let mut lines = Vec::new();
        if !everywhere {
            let takers: Vec<&Action> = uses.iter().map(|(a, _)| *a).collect();
            lines.push(format!("Taken by {} only.", action_list(&takers)));
        }
        let mut seen: Vec<(String, bool, Vec<&Action>)> = Vec::new();
        for ((a, p), d) in uses.iter().zip(descriptions) {
            match seen
                .iter_mut()
                .find(|(text, req, _)| *text == d && *req == p.required)
            {
                Some((_, _, takers)) => takers.push(a),
                None => seen.push((d, p.required, vec![a])),
            }
        }
        for (text, req, takers) in seen {
            let presence = if req { "required" } else { "optional" };
            lines.push(format!("- {} ({presence}): {text}", action_list(&takers)));
        }
        lines.join("\n")
    };

    let mut object = json!({
        "name": name,
        "in": "query",
        "required": required,
        "description": description,
        "schema": merged,
    });
    if uses.iter().any(|(_, p)| p.list) {
        let (lo, hi) = counts(uses);
        object["x-list"] = x_list(spec, Some(lo), hi);
    }
    Ok(object)
}

/// Fewest and most values over the actions (a single value counts as one).
fn counts(uses: &[(&Action, &Param)]) -> (i64, Option<i64>) {
    let lo = uses
        .iter()
        .map(|(_, p)| match p.list {
            true => p.min_items.as_ref().map_or(1, |l| l.value),
            false => 1,
        })
        .min()
        .unwrap_or(1);
    let his: Option<Vec<i64>> = uses
        .iter()
        .map(|(_, p)| match p.list {
            true => p.max_items.as_ref().map(|l| l.value),
            false => Some(1),
        })
        .collect();
    (lo, his.and_then(|his| his.into_iter().max()))
}

/// The loosest schema that every action's own schema fits in.
fn merged_schema(spec: &Spec, uses: &[(&Action, &Param)]) -> Value {
    let ty = &uses[0].1.ty;
    if *ty == ParamType::Integer {
        let bounds = uses.iter().map(|(_, p)| integer_bounds(p));
        let min = bounds.clone().map(|(lo, _)| lo).min();
        let max = bounds.map(|(_, hi)| hi).max();
        return json!({"type": "integer", "format": "int64", "minimum": min, "maximum": max});
    }
    if uses.iter().any(|(_, p)| p.list) {
        let (lo, hi) = counts(uses);
        return json!({"type": "string", "pattern": list_pattern(spec, ty, lo, hi)});
    }
    // Single values of one enum, date or string type: the first action's schema,
    // without a default.
    let mut schema = schema(spec, uses[0].1);
    if let Some(object) = schema.as_object_mut() {
        object.remove("default");
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::WHITE_SPACE;

    /// `WHITE_SPACE` is exactly what `char::is_whitespace` (and so `str::trim`) takes.
    #[test]
    fn white_space_is_what_trim_removes() {
        // `\uAAAA` alone, or `\uAAAA-\uBBBB`: split on `\u`; a range's start ends in `-`.
        let mut ranges = Vec::new();
        let mut start = None;
        for part in WHITE_SPACE.split("\\u").filter(|p| !p.is_empty()) {
            let code = u32::from_str_radix(part.trim_end_matches('-'), 16).unwrap();
            match (part.ends_with('-'), start.take()) {
                (true, _) => start = Some(code),
                (false, Some(lo)) => ranges.push((lo, code)),
                (false, None) => ranges.push((code, code)),
            }
        }
        let listed = |c: u32| ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&c));
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            assert_eq!(c.is_whitespace(), listed(c as u32), "U+{:04X}", c as u32);
        }
    }
}
