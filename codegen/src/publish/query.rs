//! The JSON Schema of each action's query: its parameters as one object, which
//! is where the rules between parameters can be said (`bypage` needs `page`).
//!
//! OpenAPI gives each query parameter a schema of its own, so a rule that ties
//! one parameter's value to another's presence has no place there. Here the
//! query is an object: `db` and the action's parameters are its members (a list
//! as an array of its values), the required ones are `required`, nothing else is
//! allowed, and each rule is an `if`/`then` under `allOf`. `x-seozoom-rules`
//! keeps the rules as the spec states them, with their provenance. The key and
//! `action` are left out: the key is the security scheme, and `action` is fixed
//! by the document.

use serde_json::{Map, Value, json};

use seozoom_codegen::model::{Action, Param, ParamType, Rule, Spec};

use seozoom_codegen::schema::param::{as_array, description};
use seozoom_codegen::schema::provenance;

/// The rule's `equal_to` as a value of the parameter's type.
fn typed_value(p: &Param, text: &str) -> Value {
    match p.ty {
        ParamType::Integer => text
            .parse::<i64>()
            .map_or_else(|_| json!(text), |n| json!(n)),
        _ => json!(text),
    }
}

fn find<'a>(action: &'a Action, wire: &str) -> Result<&'a Param, String> {
    action
        .params
        .iter()
        .find(|p| p.wire == wire)
        .ok_or_else(|| {
            format!(
                "`{} {}`: a rule names `{wire}`, which the action does not take",
                action.group, action.wire
            )
        })
}

/// One rule as `if`/`then`: when the parameter has the value, the other is
/// present (or, with `equal_to`, has that value; absent counts as its default).
fn condition(action: &Action, rule: &Rule) -> Result<Value, String> {
    let when = find(action, &rule.if_param)?;
    let then_param = find(action, &rule.require)?;
    let mut then = Map::new();
    match &rule.equal_to {
        Some(value) => {
            let expected = typed_value(then_param, value);
            let defaulted = then_param
                .default
                .as_deref()
                .map(|d| typed_value(then_param, d));
            if defaulted.as_ref() != Some(&expected) {
                then.insert("required".into(), json!([rule.require]));
            }
            then.insert(
                "properties".into(),
                json!({rule.require.clone(): {"const": expected}}),
            );
        }
        None => {
            then.insert("required".into(), json!([rule.require]));
        }
    }
    Ok(json!({
        "description": rule.description,
        "if": {
            "required": [rule.if_param],
            "properties": {rule.if_param.clone(): {"const": typed_value(when, &rule.if_value)}},
        },
        "then": Value::Object(then),
    }))
}

/// The rules as the spec states them.
pub fn rules(action: &Action) -> Value {
    let rules: Vec<Value> = action
        .rules
        .iter()
        .map(|r| {
            let mut rule = json!({
                "if_param": r.if_param,
                "if_value": r.if_value,
                "require": r.require,
                "source": provenance(r.source, None),
                "description": r.description,
            });
            if let Some(value) = &r.equal_to {
                rule["equal_to"] = json!(value);
            }
            rule
        })
        .collect();
    Value::Array(rules)
}

/// Name of the query schema of an action (`DomainsKeywordsQuery`).
pub fn query_name(action: &Action) -> String {
    format!("{}Query", action.type_name)
}

/// The schema of one action's query, without `$schema`.
pub fn query(spec: &Spec, action: &Action) -> Result<Value, String> {
    let db = &spec.common.database;
    let mut properties = Map::new();
    let mut required = Vec::new();
    for p in std::iter::once(db).chain(&action.params) {
        let mut schema = as_array(spec, p);
        schema["description"] = json!(description(spec, p));
        properties.insert(p.wire.clone(), schema);
        if p.required {
            required.push(p.wire.clone());
        }
    }
    let mut schema = json!({
        "title": query_name(action),
        "description": format!(
            "The query of `{} {}` (`GET {}?{}={}`) as an object: `{}` and the action's parameters, a list as an array of its values (joined with `{}` on the wire). The key (`{}`) and `{}` are not members. Rules between parameters are under `allOf`, as `if`/`then`, and in `x-seozoom-rules` as the spec states them.",
            action.group,
            action.wire,
            action.path,
            spec.common.action.wire,
            action.wire,
            db.wire,
            spec.list_separator,
            spec.common.key.wire,
            spec.common.action.wire,
        ),
        "type": "object",
        "properties": properties,
        "additionalProperties": false,
    });
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    if !action.rules.is_empty() {
        let conditions: Result<Vec<Value>, String> =
            action.rules.iter().map(|r| condition(action, r)).collect();
        schema["allOf"] = Value::Array(conditions?);
        schema["x-seozoom-rules"] = rules(action);
    }
    Ok(schema)
}
