//! Prompts (`prompts/list`, `prompts/get`): workflows a user picks in a host
//! to start a task with the budget in mind: estimate first, ask for the
//! columns needed (`fields`), take the rest from `more` for free, and end
//! with `usage`. They name the server's own tools and arguments only; the
//! operations' tools are found by their descriptions, so that no prompt
//! names an operation (those live in the spec).

use rmcp::ErrorData as McpError;
use rmcp::model::{GetPromptResult, JsonObject, Prompt, PromptArgument, PromptMessage, Role};
use serde_json::{Value, json};

use super::tool_names::{ARG_FIELDS, ARG_MAX_WAIT_S, ESTIMATE, MORE, RESUME, USAGE};

/// The research of any question within a budget.
const RESEARCH: &str = "research_within_budget";
/// The keywords a domain ranks for, above a search volume.
const KEYWORDS: &str = "keyword_research_for_domain";

/// The prompts, as `prompts/list` gives them.
pub fn list() -> Vec<Prompt> {
    let budget = || {
        PromptArgument::new("budget")
            .with_description("The most units to spend on the task (a whole number); none: ask before any call estimated over 1,000 units")
            .with_required(false)
    };
    vec![
        Prompt::new(
            RESEARCH,
            Some("Answer an SEO question with the fewest units: estimate each call, ask only for the columns needed, take the rest of a result for free, and report what was spent."),
            Some(vec![
                PromptArgument::new("question")
                    .with_description("What to find out, in words")
                    .with_required(true),
                budget(),
            ]),
        )
        .with_title("Research within a budget"),
        Prompt::new(
            KEYWORDS,
            Some("The keywords a domain ranks for, at or above a search volume, fetched within a budget."),
            Some(vec![
                PromptArgument::new("site")
                    .with_description("The site's domain, such as example.com")
                    .with_required(true),
                PromptArgument::new("min_search_volume")
                    .with_description("The least monthly search volume of a keyword kept (a whole number; default 100)")
                    .with_required(false),
                budget(),
            ]),
        )
        .with_title("Keyword research for a domain"),
    ]
}

/// The messages of prompt `name` with these arguments.
///
/// # Errors
///
/// -32602 naming an unknown prompt, or a required argument missing or a
/// number that is not one.
pub fn get(name: &str, arguments: Option<&JsonObject>) -> Result<GetPromptResult, McpError> {
    let argument = |key: &str| -> Option<String> {
        match arguments?.get(key)? {
            Value::String(text) if !text.trim().is_empty() => Some(text.trim().to_owned()),
            Value::Number(number) => Some(number.to_string()),
            _ => None,
        }
    };
    let required = |key: &str| {
        argument(key).ok_or_else(|| {
            McpError::invalid_params(
                format!(
                    "Invalid params for prompts/get: prompt `{name}` needs the argument `{key}`"
                ),
                Some(json!({"prompt": name, "argument": key})),
            )
        })
    };
    let whole = |key: &str, default: u64| -> Result<u64, McpError> {
        match argument(key) {
            None => Ok(default),
            Some(text) => text.parse().map_err(|_| {
                McpError::invalid_params(
                    format!(
                        "Invalid params for prompts/get: `{key}` = {text:?} must be a whole number"
                    ),
                    Some(json!({"prompt": name, "argument": key})),
                )
            }),
        }
    };
    let budget = match argument("budget") {
        None => "No budget was given: ask me before any call whose estimate's `max` is over 1,000 units.".to_owned(),
        Some(_) => format!("Spend at most {} units in all.", whole("budget", 0)?),
    };
    let (description, task) = match name {
        RESEARCH => (
            "Research within a budget",
            format!("Find out: {}", required("question")?),
        ),
        KEYWORDS => (
            "Keyword research for a domain",
            format!(
                "Find the keywords the domain {} ranks for with a monthly search volume of at least {}. Use the tool whose description says it lists a domain's keywords; keep the keyword, its search volume and the domain's position.",
                required("site")?,
                whole("min_search_volume", 100)?
            ),
        ),
        other => {
            return Err(McpError::invalid_params(
                format!(
                    "Invalid params for prompts/get: no prompt `{other}`; prompts/list gives them"
                ),
                Some(json!({"prompt": other})),
            ));
        }
    };
    let text = format!(
        "{task}\n\n{budget}\n\nWork this way:\n\
         1. Pick the tools from their descriptions (each gives its cost per request and per row).\n\
         2. Before each call, call `{ESTIMATE}` with the tool and its arguments; if its `max` is over what is left of the budget, ask for fewer rows (`limit`, `max_rows`) or ask me.\n\
         3. Call the tool with `{ARG_FIELDS}` set to only the columns you need (the tool's schema lists them).\n\
         4. A result cut to the row cap gives `more`: call `{MORE}` with it for the rest (free) rather than calling the tool again.\n\
         5. A job that stops part-way gives `{RESUME}`: call the same tool with it to fetch only what is missing (give a larger `{ARG_MAX_WAIT_S}` if it stopped on the wait).\n\
         6. End with `{USAGE}` and tell me the units spent beside the answer."
    );
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(description),
    )
}
