//! `README.md` of the published directory: `readme.md` (beside this file) with
//! its `{{name}}` placeholders filled in from the spec, so that every name,
//! status and figure it shows is the spec's.

use seozoom_codegen::model::{FieldType, ParamType, Spec};

use super::answers::lower_first;
use super::paths::{document_path, query_path};
use super::template::fill;
use super::wire::envelope_name;

const TEMPLATE: &str = include_str!("readme.md");

/// The README, every placeholder of the template filled in.
pub fn readme(spec: &Spec) -> String {
    fill("readme.md", TEMPLATE, &values(spec))
}

fn values(spec: &Spec) -> Vec<(&'static str, String)> {
    let rows: Vec<String> = spec
        .actions
        .iter()
        .map(|a| {
            format!(
                "| `{}` | `{}` | `{}` | `{}` | `{}` |",
                a.path,
                a.wire,
                document_path(&a.group, &a.wire),
                envelope_name(a),
                query_path(&a.group, &a.wire),
            )
        })
        .collect();
    let params = || spec.actions.iter().flat_map(|a| &a.params);
    let list_param = params()
        .find(|p| p.list)
        .map_or("name", |p| p.wire.as_str());
    let mut unbounded: Vec<String> = params()
        .filter(|p| p.ty == ParamType::Integer && p.max.is_none())
        .map(|p| format!("`{}`", p.wire))
        .collect();
    unbounded.sort();
    unbounded.dedup();
    let rule = spec
        .actions
        .iter()
        .flat_map(|a| &a.rules)
        .next()
        .map_or_else(
            || "one parameter needed when another has a value".to_owned(),
            |r| format!("`{}={}` needs `{}`", r.if_param, r.if_value, r.require),
        );
    let action = &spec.common.action.wire;
    let missing_action = spec
        .refusals
        .iter()
        .find(|r| r.description.contains(&format!("`{action}`")))
        .map_or_else(|| "a refusal".to_owned(), |r| r.status.to_string());
    let refusals: Vec<String> = spec
        .refusals
        .iter()
        .map(|r| {
            let what = r.description.split(':').next().unwrap_or_default();
            format!("{} ({})", r.status, lower_first(what.trim_end_matches('.')))
        })
        .collect();
    // The document of an action that takes a list, else of the first action.
    let fuzz_doc = spec
        .actions
        .iter()
        .find(|a| a.params.iter().any(|p| p.list))
        .or(spec.actions.first())
        .map_or_else(String::new, |a| document_path(&a.group, &a.wire));
    let int_field = spec
        .records
        .iter()
        .flat_map(|r| &r.fields)
        .find(|f| f.ty == FieldType::Integer && f.hint.is_none())
        .map_or("count", |f| f.wire.as_str());
    vec![
        ("title", spec.title.clone()),
        ("action", action.clone()),
        ("db", spec.common.database.wire.clone()),
        ("key", spec.common.key.wire.clone()),
        ("base_url", spec.base_url.clone()),
        (
            "db_default",
            spec.common.database.default.clone().unwrap_or_default(),
        ),
        ("sep", spec.list_separator.to_string()),
        ("list", list_param.to_owned()),
        ("unbounded", unbounded.join(", ")),
        ("int_max", ParamType::INTEGER_RANGE.1.to_string()),
        ("int_field", int_field.to_owned()),
        ("rule", rule),
        ("missing_action_status", missing_action),
        ("refusals", refusals.join(", ")),
        ("no_data_status", spec.no_data.status.to_string()),
        ("no_data", spec.no_data.message.clone()),
        ("fuzz_doc", fuzz_doc),
        ("rows", rows.join("\n")),
    ]
}
