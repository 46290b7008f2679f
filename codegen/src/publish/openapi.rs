//! The OpenAPI documents, 3.1 and 3.0.3.
//!
//! OpenAPI allows one operation per path and method, and this API selects its
//! operation with the `action` query parameter. So each group path has one `GET`:
//! `action` is a required enum parameter, the other parameters are those of all
//! the group's actions (`params::union`), the 200 response is any of the actions'
//! envelope schemas with one named example per action, and `x-actions` maps each
//! action to its own parameters, envelope schema and freshness
//! (`x-seozoom-freshness`: how long an answer stays fresh in a cache).
//!
//! The 200 schema lists the envelopes under `anyOf`, not `oneOf`: two actions of a
//! group can answer with the same shape (`winnerpages` and `loserpages`), a row of
//! one record can also fit another (an `urls` `keywords` row fits `intentgap`),
//! and an empty `response` array fits every array-shaped envelope, so "exactly
//! one" would refuse valid answers (Spectral and Redocly both reject the examples
//! under `oneOf`). The body does not tell which action answered; the request's
//! `action` does, and `x-actions` names its schema.

use serde_json::{Map, Value, json};

use seozoom_codegen::model::{Action, FOR_GOOD, Fresh, Group, Spec, duration_text};

use super::answers;
use super::examples;
use super::params;
use seozoom_codegen::schema::{Dialect, cost_words, provenance};

use super::wire::{self, envelope_name};

pub(super) fn info(spec: &Spec) -> Value {
    let notes: Vec<String> = spec.notes.iter().map(|n| format!("- {n}")).collect();
    let description = format!(
        "{}\n\nEvery operation is a `GET` on its group's path, selected by the `{}` query parameter; the API key travels in the query string (`{}`). An integer member of an answer may arrive as an integral float (`12.0`), so it is declared `number` with `multipleOf: 1` (a typed client reads it as a float); every answer is declared under `text/html` too, the `Content-Type` the service sends its JSON with. Generated from the seozoom spec (`seozoom-v2.json`, format `spec.schema.json`).\n\nFacts the reference does not print:\n\n{}",
        spec.description,
        spec.common.action.wire,
        spec.common.key.wire,
        notes.join("\n")
    );
    json!({
        "title": spec.title,
        "description": description,
        "version": env!("CARGO_PKG_VERSION"),
    })
}

/// One action in the operation's description: what it does, its rules, its cost.
pub(super) fn action_line(a: &Action) -> String {
    let mut line = format!("- `{}`: {}", a.wire, a.description);
    if !a.aliases.is_empty() {
        let aliases: Vec<String> = a.aliases.iter().map(|x| format!("`{x}`")).collect();
        line.push_str(&format!(" Aliases: {}.", aliases.join(", ")));
    }
    for rule in &a.rules {
        line.push_str(&format!(" {}", rule.description));
    }
    let rpm = &a.cost.requests_per_minute;
    line.push_str(&format!(
        " Cost: {}. At most {} requests per minute ({}).",
        cost_words(a),
        rpm.value,
        provenance(rpm.source, rpm.note.as_deref())
    ));
    let f = &a.freshness;
    let past = match f.past_days {
        Some(Fresh::ForGood) => "; an answer about a day before today, for good".to_owned(),
        Some(Fresh::For(secs)) => format!(
            "; an answer about a day before today, {}",
            duration_text(secs)
        ),
        None => String::new(),
    };
    // The note is in `x-seozoom-freshness`; the line stays short.
    line.push_str(&format!(
        " An answer stays fresh {}{past} ({}).",
        duration_text(f.ttl_secs),
        provenance(f.source, None)
    ));
    line
}

/// `x-seozoom-freshness`: how long an answer stays fresh in a response cache,
/// in seconds; `past_days` (only for an action with a day parameter) is
/// `for_good` or seconds, for an answer about a day before today.
pub(super) fn freshness(a: &Action) -> Value {
    let f = &a.freshness;
    let mut out = Map::new();
    out.insert("ttl_seconds".into(), json!(f.ttl_secs));
    match f.past_days {
        Some(Fresh::ForGood) => {
            out.insert("past_days".into(), json!(FOR_GOOD));
        }
        Some(Fresh::For(secs)) => {
            out.insert("past_days".into(), json!(secs));
        }
        None => {}
    }
    out.insert("source".into(), json!(f.source.variant().to_lowercase()));
    if let Some(note) = &f.note {
        out.insert("note".into(), json!(note));
    }
    Value::Object(out)
}

fn action_parameter(spec: &Spec, actions: &[&Action]) -> Value {
    let wires: Vec<&str> = actions.iter().map(|a| a.wire.as_str()).collect();
    json!({
        "name": spec.common.action.wire,
        "in": "query",
        "required": true,
        "description": format!(
            "{} Each action's own parameters and response schema are in the operation's `x-actions`.",
            spec.common.action.description
        ),
        "schema": {"type": "string", "enum": wires},
    })
}

fn db_reference(spec: &Spec) -> Value {
    json!({"$ref": format!("#/components/parameters/{}", spec.common.database.wire)})
}

fn operation(d: Dialect, spec: &Spec, g: &Group, actions: &[&Action]) -> Result<Value, String> {
    let mut parameters = vec![action_parameter(spec, actions), db_reference(spec)];
    parameters.extend(params::union(spec, actions)?);

    let lines: Vec<String> = actions.iter().map(|a| action_line(a)).collect();
    let description = format!(
        "{}\n\nThe `{}` query parameter selects the operation; `x-actions` gives each one's parameters, response schema and freshness (`x-seozoom-freshness`).\n\n{}",
        g.description,
        spec.common.action.wire,
        lines.join("\n")
    );
    let wires: Vec<&str> = actions.iter().map(|a| a.wire.as_str()).collect();

    let envelopes: Vec<Value> = actions
        .iter()
        .map(|a| d.reference(&envelope_name(a)))
        .collect();
    let mut examples = Map::new();
    let mut x_actions = Map::new();
    for a in actions {
        examples.insert(
            a.wire.clone(),
            json!({
                "summary": format!("`{}`: {}", a.wire, a.response.description),
                "value": examples::response(spec, a),
            }),
        );
        let mut own = vec![db_reference(spec)];
        own.extend(a.params.iter().map(|p| params::parameter(spec, p)));
        x_actions.insert(
            a.wire.clone(),
            json!({
                "parameters": own,
                "response": d.reference(&envelope_name(a)),
                "x-seozoom-freshness": freshness(a),
            }),
        );
    }

    // The refusals' examples show a query of the group's first action.
    let mut responses = answers::refusals(d, spec, actions[0], false);
    responses.insert(
        "200".into(),
        json!({
            "description": format!(
                "The envelope of the selected action. {} The schema of each action's envelope is named in `x-actions`.",
                spec.envelope.description
            ),
            "content": answers::content(&json!({"anyOf": envelopes}), Some(Value::Object(examples)), false),
        }),
    );

    Ok(json!({
        "operationId": g.wire,
        "tags": [g.wire],
        "summary": format!("{} actions: {}", g.wire, wires.join(", ")),
        "description": description,
        "parameters": parameters,
        "responses": responses,
        "x-actions": x_actions,
    }))
}

/// The OpenAPI document in the dialect's version (3.1.0 or 3.0.3).
pub fn document(d: Dialect, spec: &Spec) -> Result<Value, String> {
    let version = match d {
        Dialect::Oas30 => "3.0.3",
        Dialect::Oas31 | Dialect::Schema => "3.1.0",
    };
    let mut paths = Map::new();
    let mut tags = Vec::new();
    for g in &spec.groups {
        let actions: Vec<&Action> = spec.actions.iter().filter(|a| a.group == g.wire).collect();
        if actions.is_empty() {
            continue;
        }
        paths.insert(
            g.path.clone(),
            json!({"get": operation(d, spec, g, &actions)?}),
        );
        tags.push(json!({"name": g.wire, "description": g.description}));
    }
    let key = &spec.common.key;
    let db = &spec.common.database;
    Ok(json!({
        "openapi": version,
        "info": info(spec),
        "servers": [{"url": spec.base_url, "description": "The service."}],
        "security": [{key.wire.clone(): []}],
        "tags": tags,
        "paths": paths,
        "components": {
            "schemas": wire::definitions(d, spec)?,
            "parameters": {db.wire.clone(): params::parameter(spec, db)},
            "securitySchemes": {key.wire.clone(): {
                "type": "apiKey",
                "in": "query",
                "name": key.wire,
                "description": key.description,
            }},
        },
    }))
}
