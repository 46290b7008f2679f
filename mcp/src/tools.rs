//! The tool list, built at start from the operation table: one tool per
//! operation, named `<group>_<action>` with the wire names, and three of the
//! server's own (`estimate`, `usage`, `more`), whose names have no `_` so that
//! no operation's can be the same; and, on the sandbox when asked, the
//! conformance fixture's ([`super::fixture`]).

use std::collections::HashMap;
use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use seozoom::operation_table::Operation;
use seozoom::operations::{OPERATIONS, SERVICE};
use serde_json::{Map, Value, json};

use super::json_schema::TYPE;

use super::envelope;
use super::fixture::Fixture;
use super::input_schema::{input_schema, object};
use super::output_schema::{more_schema, output_schema, rows_schema};
use super::tool_names::{
    ARG_ARGUMENTS, ARG_COUNT, ARG_TOOL, ESTIMATE, HELD, MORE, USAGE, tool_name,
};
use super::{describe, held};

/// What a tool does.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// Call this operation.
    Operation(&'static Operation),
    /// The cost range of an operation's call.
    Estimate,
    /// The session's spending.
    Usage,
    /// The rest of a cut result.
    More,
    /// A tool of the conformance fixture.
    Fixture(Fixture),
}

/// Every tool, in list order, and what each does by name.
#[derive(Debug)]
pub struct Catalog {
    /// The tools as `tools/list` gives them.
    pub tools: Vec<Tool>,
    kinds: HashMap<String, (Kind, usize)>,
    /// Whether the conformance fixture is on (its tools and resources).
    pub fixture: bool,
}

impl Catalog {
    /// The tools of a session whose calls name no database go to
    /// `database`, and whose results are cut to `max_rows` items.
    ///
    /// `selected` names the operations' tools exposed, by tool name or group
    /// (`None`: all); the server's own tools are always there, and the
    /// conformance fixture's when `fixture` is set.
    pub fn new(
        database: &str,
        max_rows: usize,
        selected: Option<&[String]>,
        fixture: bool,
    ) -> Catalog {
        let chosen = |op: &Operation| {
            selected.is_none_or(|names| {
                names
                    .iter()
                    .any(|name| name == op.group || *name == tool_name(op))
            })
        };
        let ops: Vec<&'static Operation> =
            OPERATIONS.iter().copied().filter(|op| chosen(op)).collect();
        let mut tools: Vec<(Kind, Tool)> = ops
            .iter()
            .map(|op| (Kind::Operation(op), operation_tool(op, database)))
            .collect();
        tools.push((Kind::Estimate, estimate_tool(&ops)));
        tools.push((Kind::Usage, usage_tool()));
        tools.push((Kind::More, more_tool(max_rows)));
        if fixture {
            tools.extend(Fixture::ALL.map(|f| (Kind::Fixture(f), f.tool())));
        }
        let kinds = tools
            .iter()
            .enumerate()
            .map(|(i, (kind, tool))| (tool.name.to_string(), (*kind, i)))
            .collect();
        Catalog {
            tools: tools.into_iter().map(|(_, tool)| tool).collect(),
            kinds,
            fixture,
        }
    }

    /// What the tool of this name does.
    pub fn kind(&self, name: &str) -> Option<Kind> {
        self.kinds.get(name).map(|(kind, _)| *kind)
    }

    /// The tool of this name.
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.kinds.get(name).and_then(|(_, i)| self.tools.get(*i))
    }

    /// The operations whose tools are listed, in list order.
    pub fn operations(&self) -> impl Iterator<Item = &'static Operation> + '_ {
        self.tools
            .iter()
            .filter_map(|tool| self.operation(&tool.name))
    }

    /// The operation whose tool has this name.
    pub fn operation(&self, name: &str) -> Option<&'static Operation> {
        match self.kind(name) {
            Some(Kind::Operation(op)) => Some(op),
            _ => None,
        }
    }
}

fn operation_tool(op: &'static Operation, database: &str) -> Tool {
    Tool::new(
        tool_name(op),
        describe::operation(op),
        Arc::new(input_schema(op, database)),
    )
    .with_title(op.label())
    .with_raw_output_schema(Arc::new(output_schema(op)))
    // Read-only: the API only reads; open world: it reaches a paid service
    // whose data changes. Not idempotent: every call is charged.
    .with_annotations(ToolAnnotations::new().read_only(true).open_world(true))
}

/// A tool of the server's own: read-only, and it never reaches the service.
fn own_tool(
    name: &'static str,
    title: &str,
    description: String,
    input: JsonObject,
    output: JsonObject,
) -> Tool {
    Tool::new(name, description, Arc::new(input))
        .with_title(title)
        .with_raw_output_schema(Arc::new(output))
        .with_annotations(ToolAnnotations::new().read_only(true).open_world(false))
}

fn estimate_tool(ops: &[&'static Operation]) -> Tool {
    let names: Vec<String> = ops.iter().map(|op| tool_name(op)).collect();
    let mut properties = Map::new();
    properties.insert(
        ARG_TOOL.into(),
        json!({TYPE: "string", "enum": names, "description": "The operation's tool."}),
    );
    properties.insert(
        ARG_ARGUMENTS.into(),
        json!({TYPE: "object", "description": "The arguments the call would have.", "default": {}}),
    );
    let input = object(properties, vec![json!(ARG_TOOL)]);
    let output = object_schema(
        &[
            (ARG_TOOL, json!({TYPE: "string"})),
            (
                "requests",
                json!({TYPE: "integer", "minimum": 0, "description": "Requests the call sends."}),
            ),
            (
                "min",
                json!({TYPE: "integer", "description": "The least the call may cost, in units."}),
            ),
            (
                "unknown",
                json!({TYPE: "boolean", "description": "The spec gives no unit cost for (part of) the call: `max` is null, and a budget refuses the call."}),
            ),
            (
                "max",
                json!({TYPE: ["integer", "null"], "description": "The most the call may cost; null when unknown (or a paged job has no row cap)."}),
            ),
            (
                "budget",
                json!({TYPE: ["integer", "null"], "description": "The server's --budget (every session's), or null."}),
            ),
            (
                "budget_left",
                json!({TYPE: ["integer", "null"], "description": "Units of the budget left, or null."}),
            ),
            (
                "within_budget",
                json!({TYPE: "boolean", "description": "Whether the call's maximum is within the budget left (it would be sent)."}),
            ),
            (
                "basis",
                json!({TYPE: "string", "enum": ["spec", "observed"], "description": "`observed`: made from what this key was charged before (`learned`; a call may cost more)."}),
            ),
            (
                "learned",
                json!({TYPE: ["object", "null"], "description": "Units per row this key was charged recently (rounded up), over how many rows; null when the spec's figures hold.", "properties": {"per_row": {TYPE: "integer"}, "rows": {TYPE: "integer"}}, "required": ["per_row", "rows"]}),
            ),
            (
                "per_row",
                json!({TYPE: ["object", "null"], "description": "What a row (or input) costs, lowest and highest; null when charged per call or unknown.", "properties": {"low": {TYPE: "integer"}, "high": {TYPE: "integer"}}, "required": ["low", "high"]}),
            ),
        ],
        &[
            ARG_TOOL,
            "requests",
            "unknown",
            "min",
            "max",
            "basis",
            "learned",
            "per_row",
            "budget",
            "budget_left",
            "within_budget",
        ],
    );
    own_tool(
        ESTIMATE,
        "estimate a call's cost",
        "The cost range in units of calling an operation's tool with these arguments, from the spec's figures (or, where it gives none, what this key was charged before); nothing is sent or charged. The arguments are checked as the call would; a batched or paged job is estimated whole.".into(),
        input,
        output,
    )
}

fn usage_tool() -> Tool {
    let output = object_schema(
        &[
            (
                "units_used",
                json!({TYPE: "integer", "description": "Units this session's calls were charged."}),
            ),
            (
                "calls",
                json!({TYPE: "integer", "description": "Requests this session's calls sent."}),
            ),
            (
                "cache_hits",
                json!({TYPE: "integer", "description": "This session's answers wholly from the cache (0 units)."}),
            ),
            (
                "cached_items",
                json!({TYPE: "integer", "description": "Inputs of batched jobs answered from the cache, the rest sent."}),
            ),
            (
                "units_remaining",
                json!({TYPE: ["integer", "null"], "description": "Units left on the account, as last reported; null before any."}),
            ),
            (
                "budget",
                json!({TYPE: ["integer", "null"], "description": "The server's --budget (every session's), or null."}),
            ),
            (
                "budget_left",
                json!({TYPE: ["integer", "null"], "description": "Units of the budget left (all sessions), or null."}),
            ),
            (
                "process",
                json!({TYPE: "object", "description": "What every session of this process spent together.", "properties": {"units_used": {TYPE: "integer"}, "calls": {TYPE: "integer"}}, "required": ["units_used", "calls"]}),
            ),
            (
                "key",
                json!({TYPE: "object", "description": "The key's ledger on the store, every session and process: calls, cache_hits, units_used, units_saved, last_balance."}),
            ),
            (
                HELD,
                json!({TYPE: "array", "description": "This session's results held for `more`; a stopped job's with `missing` (inputs or rows) and `resume` (its handle)."}),
            ),
        ],
        &[
            "units_used",
            "calls",
            "cache_hits",
            "cached_items",
            "units_remaining",
            "budget",
            "budget_left",
            "process",
            "key",
            HELD,
        ],
    );
    own_tool(
        USAGE,
        "spending, cache and held results",
        "This session's units, requests and cache hits; the budget left and what the process spent; the account's balance; the key's ledger on the store; this session's held results. Free.".into(),
        object(Map::new(), Vec::new()),
        output,
    )
}

fn more_tool(max_rows: usize) -> Tool {
    let mut properties = Map::new();
    properties.insert(
        envelope::RESULT.into(),
        json!({TYPE: "string", "description": "The held result's id."}),
    );
    properties.insert(
        envelope::START.into(),
        json!({TYPE: "integer", "minimum": 0, "default": 0, "description": "Position of the first item wanted."}),
    );
    properties.insert(
        ARG_COUNT.into(),
        json!({TYPE: "integer", "minimum": 1, "maximum": max_rows, "default": max_rows, "description": "Items wanted at most."}),
    );
    let input = object(properties, Vec::new());
    let output = object_schema(
        &[
            (envelope::RESULT, json!({TYPE: "string"})),
            (
                envelope::TOOL,
                json!({TYPE: "string", "description": "The tool that answered the call."}),
            ),
            (
                SERVICE.envelope_response,
                json!({TYPE: ["array", "object"], "description": "The items asked for, as in the call's `response`."}),
            ),
            (envelope::ROWS, rows_schema()),
            (envelope::MORE, more_schema()),
            (
                HELD,
                json!({TYPE: "array", "description": "With no arguments: the results held, as `usage` lists them."}),
            ),
        ],
        &[],
    );
    own_tool(
        MORE,
        "the rest of a cut or stopped result",
        format!(
            "Items of a held result from `start` (one cut to the row cap, {max_rows}, or what a stopped job received); free. With no arguments: the held results (the latest {}).",
            held::KEPT
        ),
        input,
        output,
    )
}

/// An object schema with these properties, all of `required` present.
fn object_schema(properties: &[(&str, Value)], required: &[&str]) -> JsonObject {
    let mut schema = Map::new();
    schema.insert(TYPE.into(), json!("object"));
    schema.insert(
        "properties".into(),
        Value::Object(
            properties
                .iter()
                .map(|(name, schema)| ((*name).to_owned(), schema.clone()))
                .collect(),
        ),
    );
    schema.insert("required".into(), json!(required));
    schema
}
