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

use seozoom_codegen::model::{Action, Param, ParamType, Spec};
use seozoom_codegen::schema::param::{
    as_array, as_string, description, integer_bounds, list_pattern,
};

use super::examples;

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
        "schema": as_array(spec, p),
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
        "schema": as_string(spec, p),
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

    let schemas: Vec<Value> = uses.iter().map(|(_, p)| as_string(spec, p)).collect();
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
    let mut schema = as_string(spec, uses[0].1);
    if let Some(object) = schema.as_object_mut() {
        object.remove("default");
    }
    schema
}
