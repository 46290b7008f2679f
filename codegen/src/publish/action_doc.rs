//! One OpenAPI 3.1 document per action (`actions/GROUP.ACTION.openapi.json`),
//! so that a generator or a fuzzer reads each action exactly.
//!
//! OpenAPI allows one operation per path and method, and this API selects its
//! action with a query parameter; in the group documents each group path has
//! one operation with the union of its actions' parameters. Here the document
//! holds one action, so everything in it is that action's own:
//!
//! - `action` is required, `const` the action's wire name and defaulting to it,
//!   so a generated Python function fills it in and a TypeScript call must
//!   name it;
//! - `db` is optional with its default, as in the spec; a generated Python
//!   client sends the default, openapi-fetch sends only what the call gives
//!   (the README says to give it: the reference shows no server default);
//! - the action's parameters with their own required set, bounds and default; a
//!   list is an array sent joined by the separator (`params::array_parameter`);
//! - the 200 answer is the action's envelope, declared as `application/json`
//!   (what the body is, so generated clients parse it as JSON) and as
//!   `text/html` (what the service labels it), the same schema under both;
//! - every refusal is the `{status, message}` envelope (`wire::error`) under
//!   its own status, under both media types too (`answers.rs`);
//! - the rules between parameters, which a parameter's own schema cannot say,
//!   are in `x-seozoom-query` (the action's query as one JSON Schema object,
//!   rules as `if`/`then`, the same as `schemas/queries/GROUP.ACTION.schema.json`)
//!   and in `x-seozoom-rules` as the spec states them.
//!
//! The components hold only the schemas the action reaches.

use serde_json::{Value, json};

use seozoom_codegen::model::{Action, Spec};

use super::answers;
use super::examples;
use super::openapi::{action_line, freshness};
use super::params;
use super::query;
use seozoom_codegen::schema::{self, Dialect};

use super::wire::{self, envelope_name};

/// `operationId` of an action: group and action wire names (`keywords_metrics`).
pub fn operation_id(action: &Action) -> String {
    format!("{}_{}", action.group, action.wire)
}

fn action_parameter(spec: &Spec, action: &Action) -> Value {
    let a = &spec.common.action;
    json!({
        "name": a.wire,
        "in": "query",
        "required": true,
        "description": format!("{} Always `{}` in this document.", a.description, action.wire),
        "schema": {"type": "string", "const": action.wire, "default": action.wire},
    })
}

fn responses(spec: &Spec, action: &Action) -> Value {
    let mut responses = answers::refusals(Dialect::Oas31, spec, action, true);
    responses.insert(
        "200".into(),
        json!({
            "description": format!(
                "The envelope of `{} {}`. {}",
                action.group, action.wire, spec.envelope.description
            ),
            "content": answers::content(
                &Dialect::Oas31.reference(&envelope_name(action)),
                Some(json!({action.wire.clone(): {"value": examples::response(spec, action)}})),
                true,
            ),
        }),
    );
    Value::Object(responses)
}

/// The document of one action.
pub fn document(spec: &Spec, action: &Action) -> Result<Value, String> {
    let mut parameters = vec![
        action_parameter(spec, action),
        params::array_parameter(spec, &spec.common.database)?,
    ];
    for p in &action.params {
        parameters.push(params::array_parameter(spec, p)?);
    }
    let group = spec
        .groups
        .iter()
        .find(|g| g.wire == action.group)
        .ok_or_else(|| format!("`{}`: no group `{}`", action.wire, action.group))?;
    let mut operation = json!({
        "operationId": operation_id(action),
        "tags": [action.group],
        "summary": format!("{} {}: {}", action.group, action.wire, action.description),
        "description": format!(
            "{}\n\nThe `{}` query parameter is fixed to `{}`; a list parameter is an array whose values go on the wire joined by `{}`.",
            action_line(action),
            spec.common.action.wire,
            action.wire,
            spec.list_separator
        ),
        "parameters": parameters,
        "responses": responses(spec, action),
        "x-seozoom-query": query::query(spec, action)?,
        "x-seozoom-freshness": freshness(action),
    });
    if !action.rules.is_empty() {
        operation["x-seozoom-rules"] = query::rules(action);
    }

    let defs = wire::definitions(Dialect::Oas31, spec)?;
    let schemas = schema::reached(Dialect::Oas31, &defs, &operation);
    let key = &spec.common.key;
    Ok(json!({
        "openapi": "3.1.0",
        "info": {
            "title": format!("{}: {} {}", spec.title, action.group, action.wire),
            "description": format!(
                "{}\n\nThis document holds one action, `{} {}` (`GET {}?{}={}`): its own parameters, limits, rules and answers. The whole API is in `openapi.json`; every action has a document like this one in `actions/`.",
                spec.description,
                action.group,
                action.wire,
                action.path,
                spec.common.action.wire,
                action.wire,
            ),
            "version": env!("CARGO_PKG_VERSION"),
        },
        "servers": [{"url": spec.base_url, "description": "The service."}],
        "security": [{key.wire.clone(): []}],
        "tags": [{"name": group.wire, "description": group.description}],
        "paths": {action.path.clone(): {"get": operation}},
        "components": {
            "schemas": schemas,
            "securitySchemes": {key.wire.clone(): {
                "type": "apiKey",
                "in": "query",
                "name": key.wire,
                "description": key.description,
            }},
        },
    }))
}
