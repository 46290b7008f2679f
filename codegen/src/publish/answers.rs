//! What an operation answers, in both kinds of OpenAPI document (the whole API
//! and one action): the media types every answer is declared under, and the
//! refusals, one explicit status each.
//!
//! Every refusal is the `{status, message}` body (`wire::ERROR`), under its own
//! status from the spec's `refusals` (and the no-match answer's status), never
//! a range such as `4XX`: generators turn a range into a type that does not
//! compile (orval's `status: 4XX`, TS1351), and a status left out is an answer
//! a typed client does not expect. The one that asks the caller to wait (429)
//! declares `Retry-After`. Each refusal shows the sandbox's answer as its
//! example (`refusal_examples.rs`).

use serde_json::{Map, Value, json};

use seozoom_codegen::model::{Action, Refusal, Spec};

use seozoom_codegen::schema::{Dialect, provenance};

use super::examples;
use super::refusal_examples;
use super::wire::ERROR;

/// The media types every answer is declared under: what the body is, then what
/// the service labels it (`Content-Type: text/html; charset=UTF-8`). A
/// generator that takes the first type it knows takes JSON; a tool that checks
/// the header (schemathesis) finds it declared, and reads the body with the
/// schema when told to parse `text/html` as JSON.
pub const MEDIA_TYPES: [&str; 2] = ["application/json", "text/html"];

/// The header a refusal that asks the caller to wait carries.
pub const RETRY_AFTER: &str = "Retry-After";

/// `content` of an answer: `schema` under every media type, with `examples`
/// under the JSON one only when `examples_everywhere` is false (the whole-API
/// documents, whose examples are many), else under both.
pub fn content(schema: &Value, examples: Option<Value>, examples_everywhere: bool) -> Value {
    let mut content = Map::new();
    for (i, media) in MEDIA_TYPES.into_iter().enumerate() {
        let mut object = json!({"schema": schema});
        if let Some(examples) = &examples
            && (i == 0 || examples_everywhere)
        {
            object["examples"] = examples.clone();
        }
        content.insert(media.to_owned(), object);
    }
    Value::Object(content)
}

/// Seconds in the `Retry-After` example (what a strict sandbox asks for when
/// its window has that long left).
const RETRY_AFTER_EXAMPLE: u64 = 12;

/// `Retry-After` as HTTP defines it (RFC 9110, 10.2.3): a number of seconds or
/// an HTTP date.
fn retry_after_header() -> Value {
    json!({
        RETRY_AFTER: {
            "description": "How long to wait before asking again: a number of seconds, or an HTTP date (RFC 9110). Not always given; without it, wait about a minute (the figures are per minute). The seozoom sandbox sends seconds; the seozoom client reads both.",
            "required": false,
            "schema": {"oneOf": [
                {"type": "integer", "minimum": 0},
                {"type": "string", "format": "http-date"},
            ]},
            "example": RETRY_AFTER_EXAMPLE,
        },
    })
}

/// `text` with its first letter in lower case, to continue a sentence.
pub fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
}

fn description(refusal: &Refusal) -> String {
    format!(
        "{} ({})",
        refusal.description,
        provenance(
            refusal.provenance.source,
            refusal.provenance.note.as_deref()
        )
    )
}

/// Every refusal of the spec as a response object, by status: the `Error`
/// body under every media type, the sandbox's answer as an example
/// (`refusal_examples.rs`, a query of `action`), the no-match example on the
/// no-match status, and `Retry-After` where the spec says so.
pub fn refusals(
    d: Dialect,
    spec: &Spec,
    action: &Action,
    examples_everywhere: bool,
) -> Map<String, Value> {
    let error = d.reference(ERROR);
    let no_data = &spec.no_data;
    let no_data_text = format!(
        "The answer to a query that matches nothing: `{}` ({}), not charged.",
        no_data.message,
        provenance(no_data.source, None)
    );
    let no_data_example =
        || json!({"summary": "The query matched nothing", "value": examples::no_data(spec)});
    let mut responses = Map::new();
    for refusal in &spec.refusals {
        let mut text = description(refusal);
        let mut examples = Map::new();
        if refusal.status == no_data.status {
            text.push_str(&format!(" Also {}", lower_first(&no_data_text)));
            examples.insert("no_data".into(), no_data_example());
        }
        if let Some((name, summary, body)) = refusal_examples::example(spec, action, refusal) {
            examples.insert(name.into(), json!({"summary": summary, "value": body}));
        }
        let examples = (!examples.is_empty()).then_some(Value::Object(examples));
        let mut response = json!({
            "description": text,
            "content": content(&error, examples, examples_everywhere),
        });
        if refusal.retry_after {
            response["headers"] = retry_after_header();
        }
        responses.insert(refusal.status.to_string(), response);
    }
    responses
        .entry(no_data.status.to_string())
        .or_insert_with(|| {
            json!({
                "description": no_data_text,
                "content": content(&error, Some(json!({"no_data": no_data_example()})), examples_everywhere),
            })
        });
    responses
}
