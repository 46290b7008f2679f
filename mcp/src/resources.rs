//! What a host can read without passing it through the model
//! (`resources/list`, `resources/read`): the results the session holds
//! (`seozoom://held/{id}`, the whole response as JSON), the cost table of
//! every operation (`seozoom://costs`, from the operation table) and the
//! published spec (`seozoom://spec/seozoom-v2.json` and its OpenAPI
//! document). Held results come and go: the server says so with
//! `notifications/resources/list_changed` ([`super::server`]).
//!
//! With the conformance fixture, the suite's test resources too
//! ([`super::fixture`]).

use rmcp::ErrorData as McpError;
use rmcp::model::{Resource, ResourceContents, ResourceTemplate};
use seozoom::operations::OPERATIONS;
use seozoom::units::unit_parts;
use serde_json::{Value, json};

use super::envelope;
use super::held::HeldResult;
use super::session::Session;
use super::tool_names::tool_name;

/// The scheme of this server's resources.
const SCHEME: &str = "seozoom://";
/// A held result's URI, before its id.
pub const HELD_PREFIX: &str = "seozoom://held/";
/// The cost table.
pub const COSTS: &str = "seozoom://costs";
/// The published spec, as JSON.
pub const SPEC: &str = "seozoom://spec/seozoom-v2.json";
/// The published OpenAPI document.
pub const OPENAPI: &str = "seozoom://spec/openapi.json";

/// JSON's media type.
const JSON: &str = "application/json";

/// The published spec and its OpenAPI document, as the spec's crate carries
/// them (checked for staleness by the workspace's tests).
const SPEC_TEXT: &str = seozoom_spec::PUBLISHED_JSON;
const OPENAPI_TEXT: &str = seozoom_spec::PUBLISHED_OPENAPI;

/// The URI of held result `id`.
pub fn held_uri(id: &str) -> String {
    format!("{HELD_PREFIX}{id}")
}

/// The URI of what the stopped job held as `id` is missing: the arguments
/// its handle stands for, whole (the inputs not answered).
pub fn missing_uri(id: &str) -> String {
    format!("{HELD_PREFIX}{id}{MISSING_SUFFIX}")
}

/// The end of a stopped job's missing part's URI.
const MISSING_SUFFIX: &str = "/missing";

/// A held result as a resource (also the `resource_link` of an answer that
/// holds rows): its URI, name, what it is and its size.
pub fn held_resource(id: &str, held: &HeldResult) -> Resource {
    let items = envelope::total(held.shape, &held.response);
    let whole = if held.complete {
        "the whole result"
    } else {
        "what a job that stopped part-way received"
    };
    Resource::new(held_uri(id), format!("held result {id}"))
        .with_title(format!("{} result {id}", held.tool))
        .with_description(format!(
            "{whole} of `{}`: {items} {}, charged {} units when fetched; reading it costs nothing",
            held.tool,
            if items == 1 { "item" } else { "items" },
            held.units,
        ))
        .with_mime_type(JSON)
}

/// Every resource the session can read now: the static ones, then the held
/// results, oldest first.
pub fn list(session: &Session) -> Vec<Resource> {
    let mut resources = vec![
        Resource::new(COSTS, "costs")
            .with_title("Cost table")
            .with_description(
                "Every operation's cost: units per request and per returned row, the most items or rows per request, requests per minute",
            )
            .with_mime_type(JSON),
        Resource::new(SPEC, "spec")
            .with_title("The published spec")
            .with_description("Every operation, parameter and record of the API, with provenance")
            .with_mime_type(JSON)
            .with_size(SPEC_TEXT.len() as u64),
        Resource::new(OPENAPI, "openapi")
            .with_title("OpenAPI document")
            .with_description("The API as OpenAPI 3.1")
            .with_mime_type(JSON)
            .with_size(OPENAPI_TEXT.len() as u64),
    ];
    resources.extend(
        session
            .held
            .list()
            .iter()
            .map(|(id, held)| held_resource(id, held)),
    );
    if session.catalog.fixture {
        resources.extend(super::fixture::resources());
    }
    resources
}

/// The templates of the resources that come and go.
pub fn templates(session: &Session) -> Vec<ResourceTemplate> {
    let mut templates = vec![
        ResourceTemplate::new(format!("{HELD_PREFIX}{{id}}"), "held")
            .with_title("A held result")
            .with_description("A result cut to the row cap, or what a stopped job received, whole (ids as `more` and `usage` list them)")
            .with_mime_type(JSON),
        ResourceTemplate::new(format!("{HELD_PREFIX}{{id}}{MISSING_SUFFIX}"), "missing")
            .with_title("What a stopped job is missing")
            .with_description("The arguments a stopped job's handle stands for, whole: the inputs not answered, or where its rows stop")
            .with_mime_type(JSON),
    ];
    if session.catalog.fixture {
        templates.extend(super::fixture::resource_templates());
    }
    templates
}

/// The contents of the resource at `uri`.
///
/// # Errors
///
/// -32002 (resource not found) naming the URI and what may be read.
pub fn read(session: &Session, uri: &str) -> Result<Vec<ResourceContents>, McpError> {
    let json_text = |text: String| vec![ResourceContents::text(text, uri).with_mime_type(JSON)];
    match uri {
        COSTS => return Ok(json_text(cost_table().to_string())),
        SPEC => return Ok(json_text(SPEC_TEXT.to_owned())),
        OPENAPI => return Ok(json_text(OPENAPI_TEXT.to_owned())),
        _ => {}
    }
    if let Some(id) = uri.strip_prefix(HELD_PREFIX) {
        let (id, missing) = match id.strip_suffix(MISSING_SUFFIX) {
            Some(id) => (id, true),
            None => (id, false),
        };
        let held = session
            .held
            .get(id)
            .filter(|held| !missing || held.resume.is_some());
        return match held {
            Some(held) if missing => {
                let (arguments, count) = held.resume.unwrap_or_default();
                Ok(json_text(
                    json!({"tool": held.tool, "missing": count, "arguments": arguments})
                        .to_string(),
                ))
            }
            Some(held) => Ok(json_text(held.response.to_string())),
            None => Err(McpError::resource_not_found(
                format!(
                    "{uri}: no such held result, or it expired (the latest {} are kept); resources/list gives those held",
                    super::held::KEPT
                ),
                Some(json!({"uri": uri})),
            )),
        };
    }
    if session.catalog.fixture
        && let Some(contents) = super::fixture::read_resource(uri)
    {
        return Ok(contents);
    }
    let known = if uri.starts_with(SCHEME) {
        "not a resource of this server"
    } else {
        "not a URI of this server (they start with seozoom://)"
    };
    Err(McpError::resource_not_found(
        format!("{uri}: {known}; resources/list gives them"),
        Some(json!({"uri": uri})),
    ))
}

/// The cost table: one entry per operation, its parts named as `estimate`
/// counts them.
fn cost_table() -> Value {
    let operations: Vec<Value> = OPERATIONS
        .iter()
        .map(|op| {
            let parts = unit_parts(op);
            json!({
                "tool": tool_name(op),
                "operation": op.label(),
                "unknown": parts.is_none(),
                "per_request": parts.and_then(|p| p.per_request),
                "per_row": parts.and_then(|p| p.per_row).map(|(low, high)| json!({"low": low, "high": high})),
                "printed": op.cost.printed,
                "most_per_request": op.cost.per_request.value,
                "requests_per_minute": op.cost.requests_per_minute.value,
                "source": op.cost.charged_source.phrase(),
            })
        })
        .collect();
    json!({ "operations": operations })
}
