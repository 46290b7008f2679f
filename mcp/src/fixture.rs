//! The conformance fixture: tools that the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`) calls by name in its scenarios, and
//! that a real session never has. They are listed only when the server runs
//! on the offline sandbox and `--conformance-fixture` (hidden) asks for them
//! (`.ci/mcp-checks` does), so that the suite can check the real mechanism.
//!
//! Those that check a mechanism do their job through the path the
//! operations' tools take, so that a passing scenario says something about
//! the product: the logging tool makes one operation's example call (from
//! the spec, as in `--help`) a few times on the sandbox, and the repeats are
//! answered from the store's cache, whose hits reach the agent as log
//! messages through [`super::trace`], as in any session; the progress tool
//! runs a batched job of three requests, whose progress reaches the agent as
//! any job's does. The others check what the protocol carries (a text, an
//! error result, a JSON Schema 2020-12 input schema kept whole), and are
//! answered as the suite asks; so are its test resources and prompts. What each tool does is in [`super::fixture_answer`], so that
//! the catalogue of tools, which lists these, does not depend on a session.

use rmcp::model::{
    ContentBlock, GetPromptResult, JsonObject, Prompt, PromptArgument, PromptMessage, Resource,
    ResourceContents, ResourceTemplate, Role, Tool, ToolAnnotations,
};
use serde_json::{Map, Value, json};
use std::sync::Arc;

use super::input_schema::object;
use super::json_schema::TYPE;

/// How often the logging tool repeats its call after the first: the suite
/// wants at least three log messages during the call.
pub(super) const REPEATS: usize = 3;

/// Requests of the progress tool's batched job: the suite wants at least
/// three progress notifications.
pub(super) const PROGRESS_REQUESTS: usize = 3;

/// The text `test_simple_text` answers, as the suite asks.
pub(super) const SIMPLE_TEXT: &str = "This is a simple text response for testing.";

/// The error text `test_error_handling` answers, as the suite asks.
pub(super) const ERROR_TEXT: &str = "This tool intentionally returns an error for testing";

/// A tool of the conformance fixture.
#[derive(Debug, Clone, Copy)]
pub enum Fixture {
    /// `test_tool_with_logging` (scenario `tools-call-with-logging`): log
    /// messages during a call, at the level the client set.
    Logging,
    /// `test_tool_with_progress` (scenario `tools-call-with-progress`):
    /// progress notifications of a real batched job.
    Progress,
    /// `json_schema_2020_12_tool` (scenario `json-schema-2020-12`): an input
    /// schema with `$schema`, `$defs` and `$ref`, listed whole.
    JsonSchema,
    /// `test_simple_text` (scenario `tools-call-simple-text`).
    SimpleText,
    /// `test_error_handling` (scenario `tools-call-error`): an error result.
    Error,
}

impl Fixture {
    /// Every fixture tool.
    pub const ALL: [Fixture; 5] = [
        Fixture::Logging,
        Fixture::Progress,
        Fixture::JsonSchema,
        Fixture::SimpleText,
        Fixture::Error,
    ];

    /// The tool as listed.
    pub fn tool(self) -> Tool {
        let no_arguments = || object(Map::new(), Vec::new());
        let (name, description, schema) = match self {
            Fixture::Logging => (
                "test_tool_with_logging",
                format!(
                    "Conformance fixture (sandbox only): makes one operation's example call, then repeats it {REPEATS} times; each repeat is answered from the cache and logged (info) at the level set with logging/setLevel."
                ),
                no_arguments(),
            ),
            Fixture::Progress => (
                "test_tool_with_progress",
                format!(
                    "Conformance fixture (sandbox only): runs a batched job of {PROGRESS_REQUESTS} requests on the first listed operation that takes a list; its progress is reported after each request."
                ),
                no_arguments(),
            ),
            Fixture::JsonSchema => (
                "json_schema_2020_12_tool",
                "Conformance fixture (sandbox only): a tool whose input schema uses JSON Schema 2020-12 ($schema, $defs, $ref); it echoes its arguments.".to_owned(),
                json_schema_2020_12(),
            ),
            Fixture::SimpleText => (
                "test_simple_text",
                "Conformance fixture (sandbox only): answers one text.".to_owned(),
                no_arguments(),
            ),
            Fixture::Error => (
                "test_error_handling",
                "Conformance fixture (sandbox only): always answers an error result.".to_owned(),
                no_arguments(),
            ),
        };
        Tool::new(name, description, Arc::new(schema))
            .with_annotations(ToolAnnotations::new().read_only(true).open_world(false))
    }
}

/// The input schema the suite's JSON Schema 2020-12 scenario looks for.
fn json_schema_2020_12() -> Map<String, Value> {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        TYPE: "object",
        "$defs": {
            "address": {
                TYPE: "object",
                "properties": {
                    "street": {TYPE: "string"},
                    "city": {TYPE: "string"},
                },
            },
        },
        "properties": {
            "name": {TYPE: "string"},
            "address": {"$ref": "#/$defs/address"},
        },
        "additionalProperties": false,
    });
    match schema {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The suite's static text resource (scenario `resources-read-text`).
const STATIC_TEXT: &str = "test://static-text";
/// The suite's static binary resource (scenario `resources-read-binary`).
const STATIC_BINARY: &str = "test://static-binary";
/// The suite's resource template (scenario `resources-templates-read`),
/// before and after its `{id}`.
const TEMPLATE: (&str, &str) = ("test://template/", "/data");
/// The bytes of the binary resource, in base64: a 1x1 PNG image.
const PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/// The suite's test resources, as listed.
pub fn resources() -> Vec<Resource> {
    vec![
        Resource::new(STATIC_TEXT, "static-text")
            .with_description("Conformance fixture (sandbox only): a static text")
            .with_mime_type("text/plain"),
        Resource::new(STATIC_BINARY, "static-binary")
            .with_description("Conformance fixture (sandbox only): a static image")
            .with_mime_type("image/png"),
    ]
}

/// The suite's resource template, as listed.
pub fn resource_templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(format!("{}{{id}}{}", TEMPLATE.0, TEMPLATE.1), "template")
            .with_description("Conformance fixture (sandbox only): data for an id")
            .with_mime_type("application/json"),
    ]
}

/// The contents of the suite's test resource at `uri`, if it is one.
pub fn read_resource(uri: &str) -> Option<Vec<ResourceContents>> {
    let contents = match uri {
        STATIC_TEXT => {
            ResourceContents::text("This is the content of the static text resource.", uri)
        }
        STATIC_BINARY => ResourceContents::blob(PNG_BASE64, uri).with_mime_type("image/png"),
        _ => {
            let id = uri.strip_prefix(TEMPLATE.0)?.strip_suffix(TEMPLATE.1)?;
            ResourceContents::text(json!({"id": id, "templateTest": true}).to_string(), uri)
                .with_mime_type("application/json")
        }
    };
    Some(vec![contents])
}

/// The suite's test prompts (scenarios `prompts-get-simple`,
/// `prompts-get-with-args`, `prompts-get-embedded-resource`,
/// `prompts-get-with-image`), as listed.
pub fn prompts() -> Vec<Prompt> {
    let argument = |name: &str| {
        PromptArgument::new(name)
            .with_description(format!("Conformance fixture: {name}"))
            .with_required(true)
    };
    let prompt = |name: &str, arguments: Option<Vec<PromptArgument>>| {
        Prompt::new(name, Some("Conformance fixture (sandbox only)"), arguments)
    };
    vec![
        prompt(SIMPLE_PROMPT, None),
        prompt(
            ARGUMENTS_PROMPT,
            Some(vec![argument("arg1"), argument("arg2")]),
        ),
        prompt(RESOURCE_PROMPT, Some(vec![argument("resourceUri")])),
        prompt(IMAGE_PROMPT, None),
    ]
}

/// The suite's test prompt `name` filled in with `arguments`, if it is one.
pub fn prompt(name: &str, arguments: Option<&JsonObject>) -> Option<GetPromptResult> {
    let argument = |key: &str| {
        arguments
            .and_then(|a| a.get(key))
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let message = |content: ContentBlock| PromptMessage::new(Role::User, content);
    let messages = match name {
        SIMPLE_PROMPT => vec![message(ContentBlock::text(
            "This is a simple prompt for testing.",
        ))],
        ARGUMENTS_PROMPT => vec![message(ContentBlock::text(format!(
            "Prompt with arguments: arg1='{}', arg2='{}'",
            argument("arg1"),
            argument("arg2")
        )))],
        RESOURCE_PROMPT => {
            let uri = argument("resourceUri");
            vec![
                message(ContentBlock::embedded_text(
                    uri.clone(),
                    "Embedded resource content for testing.",
                )),
                message(ContentBlock::text(format!(
                    "Please process the embedded resource {uri}."
                ))),
            ]
        }
        IMAGE_PROMPT => vec![
            message(ContentBlock::image(PNG_BASE64, "image/png")),
            message(ContentBlock::text("Please analyze the image above.")),
        ],
        _ => return None,
    };
    Some(GetPromptResult::new(messages))
}

/// The suite's test prompts' names.
const SIMPLE_PROMPT: &str = "test_simple_prompt";
const ARGUMENTS_PROMPT: &str = "test_prompt_with_arguments";
const RESOURCE_PROMPT: &str = "test_prompt_with_embedded_resource";
const IMAGE_PROMPT: &str = "test_prompt_with_image";
