//! `seozoom.postman_collection.json`: the API as a Postman collection
//! (format v2.1), which Postman, Insomnia and Bruno import and newman runs.
//!
//! A folder per group, a request per action, on the action's group path with
//! its `action` fixed. Every parameter is in the query with its example value
//! (a list `|`-joined, as the service reads it): the required ones, and those
//! a rule requires given the example values, are on; the other optional ones
//! are there but off, ready to be ticked. The key and the base URL are the
//! collection variables `apiKey` and `baseUrl`, so that one edit (or newman's
//! `--env-var`) points every request at an account or at the sandbox. Each
//! request tests that the answer is HTTP 200 and an envelope whose payload has
//! the action's shape; the bodies are read as JSON whatever their
//! `Content-Type` says.

use serde_json::{Value, json};

use seozoom_codegen::model::{Action, Param, Shape, Spec};

use super::examples;

/// Where the collection goes under the published directory.
pub const PATH: &str = "seozoom.postman_collection.json";

/// The collection format's schema.
const SCHEMA: &str = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
/// The collection variable holding the base URL.
const BASE_URL: &str = "baseUrl";
/// The collection variable holding the API key.
const API_KEY: &str = "apiKey";

/// A parameter's example as it goes in a query: list values joined.
fn query_value(spec: &Spec, p: &Param) -> String {
    let text = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_owned);
    match examples::parameter(p) {
        Value::Array(items) => items
            .iter()
            .map(text)
            .collect::<Vec<_>>()
            .join(&spec.list_separator.to_string()),
        one => text(&one),
    }
}

/// The query of `action`'s request: (name, value, on, description).
fn query(spec: &Spec, action: &Action) -> Vec<(String, String, bool, String)> {
    let mut query = vec![
        (
            spec.common.key.wire.clone(),
            format!("{{{{{API_KEY}}}}}"),
            true,
            spec.common.key.description.clone(),
        ),
        (
            spec.common.action.wire.clone(),
            action.wire.clone(),
            true,
            spec.common.action.description.clone(),
        ),
    ];
    let db = &spec.common.database;
    let params = std::iter::once(db).chain(&action.params);
    query.extend(params.map(|p| {
        let mut value = query_value(spec, p);
        // A rule that fixes the value a parameter must have.
        if let Some(fixed) = action
            .rules
            .iter()
            .find(|r| r.require == p.wire)
            .and_then(|r| r.equal_to.clone())
        {
            value = fixed;
        }
        (p.wire.clone(), value, p.required, p.description.clone())
    }));
    // A parameter a rule requires, given the values that are on, is on too.
    for rule in &action.rules {
        let triggered = query
            .iter()
            .any(|(name, value, on, _)| *on && *name == rule.if_param && *value == rule.if_value);
        if triggered {
            for entry in query.iter_mut().filter(|e| e.0 == rule.require) {
                entry.2 = true;
            }
        }
    }
    query
}

/// The test script of `action`'s request.
fn tests(spec: &Spec, action: &Action) -> Vec<String> {
    let e = &spec.envelope;
    let members = [
        &e.result_rows.wire,
        &e.units_used.wire,
        &e.units_remaining.wire,
        &e.response.wire,
    ];
    let members = members
        .iter()
        .map(|m| format!("\"{m}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let shape = match action.response.shape {
        Shape::Array => "pm.expect(body[\"RESPONSE\"]).to.be.an(\"array\");",
        Shape::Single | Shape::Map { .. } => "pm.expect(body[\"RESPONSE\"]).to.be.an(\"object\");",
    }
    .replace("RESPONSE", &e.response.wire);
    vec![
        "// The service labels its JSON `text/html`: the body is read as JSON whatever the header says.".into(),
        "pm.test(\"HTTP 200\", function () {".into(),
        "    pm.response.to.have.status(200);".into(),
        "});".into(),
        format!("pm.test(\"an envelope of `{} {}`\", function () {{", action.group, action.wire),
        "    const body = JSON.parse(pm.response.text());".into(),
        format!("    pm.expect(body).to.include.all.keys({members});"),
        format!("    {shape}"),
        "});".into(),
    ]
}

fn request(spec: &Spec, action: &Action) -> Value {
    let query = query(spec, action);
    let on: Vec<String> = query
        .iter()
        .filter(|(_, _, on, _)| *on)
        .map(|(name, value, _, _)| format!("{name}={value}"))
        .collect();
    let mut path: Vec<&str> = action.path.trim_start_matches('/').split('/').collect();
    if path.last() != Some(&"") && action.path.ends_with('/') {
        path.push("");
    }
    let query: Vec<Value> = query
        .into_iter()
        .map(|(key, value, on, description)| {
            let mut entry = json!({"key": key, "value": value, "description": description});
            if !on {
                entry["disabled"] = json!(true);
            }
            entry
        })
        .collect();
    json!({
        "name": action.wire,
        "request": {
            "method": "GET",
            "header": [],
            "url": {
                "raw": format!("{{{{{BASE_URL}}}}}{}?{}", action.path, on.join("&")),
                "host": [format!("{{{{{BASE_URL}}}}}")],
                "path": path,
                "query": query,
            },
            "description": action.description,
        },
        "event": [{
            "listen": "test",
            "script": {"type": "text/javascript", "exec": tests(spec, action)},
        }],
    })
}

/// The collection.
pub fn collection(spec: &Spec) -> Value {
    let folders: Vec<Value> = spec
        .groups
        .iter()
        .filter_map(|g| {
            let requests: Vec<Value> = spec
                .actions
                .iter()
                .filter(|a| a.group == g.wire)
                .map(|a| request(spec, a))
                .collect();
            (!requests.is_empty())
                .then(|| json!({"name": g.wire, "description": g.description, "item": requests}))
        })
        .collect();
    json!({
        "info": {
            "name": spec.title,
            "description": format!(
                "{}\n\nGenerated by `seozoom-codegen publish` from the seozoom spec. Set the collection variables `{API_KEY}` (your key) and `{BASE_URL}` (the service, or a seozoom sandbox: `seozoom sandbox --port 18080`, then `http://127.0.0.1:18080`). Each request has its required parameters filled with examples; tick an optional one to send it. A list is one value, joined with `{}`.",
                spec.description, spec.list_separator
            ),
            "schema": SCHEMA,
        },
        "item": folders,
        "variable": [
            {"key": BASE_URL, "value": spec.base_url, "type": "string"},
            {"key": API_KEY, "value": "", "type": "string"},
        ],
    })
}
