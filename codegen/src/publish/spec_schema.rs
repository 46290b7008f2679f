//! `spec.schema.json`: the JSON Schema (draft 2020-12) of the spec *format*, the
//! layout documented in `spec/README.md` and read by `parse.rs`.
//!
//! It holds what a schema can say: the tables and their keys (every table refuses
//! unknown keys, as `parse.rs` does), which keys are required, value types, the
//! closed vocabularies (`source`, field types, `shape`, `charged`, ...), name
//! patterns, non-empty descriptions and the `note` that `decided` needs. Checks
//! that relate one part of the spec to another (references, figures, uniqueness)
//! stay with the generator (`validate.rs`), which remains the authority: a spec
//! the schema accepts can still be refused there, with a located message.

use serde_json::{Value, json};

use seozoom_codegen::model::{FOR_GOOD, Fold, Role, Source, ValueKind};
use seozoom_codegen::names::KEYWORDS;

/// Field types a record field may have (`validate.rs`, `field_type`).
const FIELD_TYPES: [&str; 11] = [
    "integer",
    "number",
    "string",
    "bool_word",
    "flag",
    "date",
    "datetime",
    "time",
    "serp",
    "comma_list",
    "list",
];

/// A duration as the spec writes it (`model::duration_secs` reads it).
const DURATION: &str = "^[0-9]+[smhd]$";

fn text(description: &str) -> Value {
    json!({"type": "string", "pattern": "\\S", "description": description})
}

fn reference(name: &str, description: &str) -> Value {
    json!({"$ref": format!("#/$defs/{name}"), "description": description})
}

/// A name (string) that refers to a definition written once, or a table of
/// the kind `name` written in place.
fn named_or(name: &str, what: &str, description: &str) -> Value {
    json!({
        "anyOf": [{"type": "string", "description": what}, {"$ref": format!("#/$defs/{name}")}],
        "description": description,
    })
}

/// Named definitions: a table whose keys are names and whose values are `name` tables.
fn named_tables(name: &str, description: &str) -> Value {
    json!({"type": "object", "additionalProperties": {"$ref": format!("#/$defs/{name}")}, "description": description})
}

fn array_of(name: &str, description: &str) -> Value {
    json!({"type": "array", "items": {"$ref": format!("#/$defs/{name}")}, "description": description})
}

fn flag(description: &str) -> Value {
    json!({"type": "boolean", "description": description})
}

/// A table: its keys, which of them are required, and no others.
fn table(description: &str, required: &[&str], properties: Value) -> Value {
    json!({
        "type": "object",
        "description": description,
        "required": required,
        "additionalProperties": false,
        "properties": properties,
    })
}

/// A `decided` value must say why.
fn decided_needs_note(mut schema: Value) -> Value {
    schema["if"] = json!({"properties": {"source": {"const": "decided"}}, "required": ["source"]});
    schema["then"] = json!({"required": ["note"]});
    schema
}

/// A provenance given once: `source` (and `note`), or `why`.
fn provenance_required(mut schema: Value) -> Value {
    schema["oneOf"] = json!([{"required": ["source"]}, {"required": ["why"]}]);
    schema
}

fn provenance_keys() -> Value {
    json!({
        "source": reference("source", "Provenance."),
        "note": text("Why; required when `source` is `decided`."),
    })
}

fn definitions() -> Value {
    let sources: Vec<&str> = Source::ALL.iter().map(|(word, _)| *word).collect();
    let roles: Vec<&str> = Role::ALL.iter().map(|(word, _)| *word).collect();
    let kinds: Vec<&str> = ValueKind::ALL.iter().map(|(word, _)| *word).collect();
    let role = json!({"enum": roles, "description": "What the runtime does with the parameter: `input` (what the call is about; a list input is what batching splits), `id`, `offset` and `page_size` (paging), `result_page`, `result_position`, `day`."});
    let folds: Vec<&str> = Fold::ALL.iter().map(|(word, _)| *word).collect();
    let mut compare_keys = provenance_keys();
    compare_keys["fold"] = json!({"type": "array", "uniqueItems": true, "items": {"enum": folds}, "description": "What two values may differ in and still be the same input: `trim` (surrounding spaces), `case` (letter case), `host_case` (the letter case of a URL's scheme and host), `www` (a leading `www.` of the host), `trailing_slash` (a trailing `/`). Empty: compared exactly."});
    let compare = decided_needs_note(table(
        "What counts as the same input (every `input` parameter says, no other): deduplication, the cache, matching rows back to inputs and the estimate compare values so.",
        &["fold", "source"],
        compare_keys,
    ));
    let mut limit = provenance_keys();
    limit["value"] = json!({"type": "integer", "description": "The figure. A cost's `per_request` or `requests_per_minute` without one takes it from `trailing`."});
    limit["why"] = json!({"type": "string", "description": "The name of a provenance under `[provenance]`, instead of `source` and `note`."});
    let param_keys = json!({
        "use": {"type": "string", "description": "A shared parameter (`[params.NAME]`) this one builds on."},
        "wire": text("Query parameter name."),
        "rust": reference("snake_name", "Builder name, when `wire` is not usable."),
        "type": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$", "description": "`string`, `integer`, `date` (`YYYY-MM-DD`), or an enum name."},
        "description": reference("description", "Docs."),
        "required": flag("`true`: every call carries it. A parameter with a `default` is not required."),
        "presence": named_or("provenance", "A provenance under `[provenance]`.", "Provenance of `required`."),
        "list": flag("`true`: several values, joined with `list_separator`."),
        "min_items": named_or("limit", "`per_request`: the action's first trailing figure.", "Fewest values (list parameters only)."),
        "max_items": named_or("limit", "`per_request`: the action's first trailing figure.", "Most values (list parameters only)."),
        "min": named_or("limit", "`per_request`: the action's first trailing figure.", "Smallest value (integer parameters only)."),
        "max": named_or("limit", "`per_request`: the action's first trailing figure.", "Largest value (integer parameters only)."),
        "default": {"type": ["string", "integer"], "description": "Sent when the caller gives none; fits the type and the range."},
        "implicit": flag("Filled in by the client (`api_key`, `action` only)."),
        "role": role.clone(),
        "compare": compare.clone(),
    });
    let cost_keys = json!({
        "use": {"type": "string", "description": "A shared cost reading (`[costs.NAME]`) this one builds on."},
        "printed": text("The unit figure(s) exactly as printed (`\"100\"`, `\"50 and 10\"`)."),
        "trailing": text("The two trailing figures exactly as printed (`\"10.000 / 20\"`; the dot separates thousands)."),
        "units": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "integer", "minimum": 1}, "description": "The figures of `printed`: one or two positive integers. Read from `printed` when left out."},
        "charged": {"enum": ["per_row", "per_call", "unknown"], "description": "`per_row` (units x `ResultRows`), `per_call` (the figure once), or `unknown` (the reference prints no cost: no `printed`; estimates say unknown and a budget refuses the call)."},
        "charged_source": named_or("provenance", "A provenance under `[provenance]`.", "Provenance of `charged`."),
        "per_request": named_or("limit", "Not a name here.", "The first trailing figure."),
        "per_request_counts": {"enum": ["items", "rows"], "description": "`items`: the figure bounds the input values of a parameter. `rows`: it bounds the rows returned."},
        "requests_per_minute": named_or("limit", "Not a name here.", "The second trailing figure."),
    });
    let duration = "A whole number and one unit: `s`, `m`, `h` or `d` (`24h`).";
    let mut freshness = provenance_keys();
    freshness["ttl"] = json!({"type": "string", "pattern": DURATION, "description": format!("How long an answer stays fresh after it is fetched. {duration}")});
    freshness["past_days"] = json!({
        "anyOf": [{"const": FOR_GOOD}, {"type": "string", "pattern": DURATION}],
        "description": format!("Only for an action with a `day` parameter: how long an answer about a day before today (UTC) stays fresh, `{FOR_GOOD}` (it never changes) or a duration. Without it, such an answer is kept for `ttl`. {duration}"),
    });
    freshness["use"] = json!({"type": "string", "description": "A shared freshness (`[freshness.NAME]`) this one builds on; a provenance given here replaces its whole."});
    freshness["why"] = json!({"type": "string", "description": "The name of a provenance under `[provenance]`, instead of `source` and `note`."});
    let mut no_data = provenance_keys();
    no_data["status"] = json!({"type": "integer", "minimum": 100, "maximum": 599, "description": "HTTP status of the answer."});
    no_data["message"] = text("The body's `message`.");
    let mut refusal = provenance_keys();
    refusal["status"] = json!({"type": "integer", "minimum": 400, "maximum": 599, "description": "HTTP status of the answer; each status once."});
    refusal["description"] = reference("description", "When the service answers with it.");
    refusal["retry_after"] = flag(
        "`true`: the answer may carry `Retry-After`, the seconds to wait before asking again.",
    );
    json!({
        "description": text("Docs: what the item means, from the reference when it says. Never empty."),
        "snake_name": {
            "type": "string",
            "pattern": "^[a-z][a-z0-9]*(_[a-z0-9]+)*$",
            "not": {"enum": KEYWORDS},
            "description": "A snake_case name: lower-case ASCII letters, digits and single `_`, starting with a letter; not a Rust keyword.",
        },
        "pascal_name": {
            "type": "string",
            "pattern": "^[A-Z][A-Za-z0-9]*$",
            "not": {"const": "Self"},
            "description": "A PascalCase name: ASCII letters and digits, starting with an upper-case letter.",
        },
        "source": {
            "enum": sources,
            "description": "Provenance: `stated` (printed in the reference), `inferred` (read from the cost table's trailing figures), `observed` (seen in the reference's examples or in public use), `decided` (the reference says \"not shown\": a defensive choice, with a `note`).",
        },
        "provenance": decided_needs_note(table(
            "Where a fact comes from: `{ source = \"...\", note = \"...\" }`. `note` is required when `source = \"decided\"`.",
            &["source"],
            provenance_keys(),
        )),
        "limit": decided_needs_note(table(
            "A figure and its provenance: `{ value = N, source = \"...\", note = \"...\" }`, or `{ value = N, why = \"NAME\" }` with the provenance written once under `[provenance]`.",
            &[],
            limit,
        )),
        "api": table(
            "The service: title, description, address, list separator, the no-match answer and facts the reference does not print.",
            &["title", "description", "base_url", "list_separator", "no_data"],
            json!({
                "title": text("Crate-level title."),
                "description": text("Crate-level docs."),
                "base_url": {"type": "string", "pattern": "^https://", "description": "Service address without `/api/v2`. Starts with `https://`, because the key travels in the query string."},
                "list_separator": {"type": "string", "minLength": 1, "maxLength": 1, "description": "The one character that joins the values of a list parameter on the wire (`|`). A value containing it, or an empty value, is refused before sending."},
                "no_data": {"$ref": "#/$defs/no_data"},
                "refusals": {"type": "array", "items": {"$ref": "#/$defs/refusal"}, "description": "The other refusals the service answers with, one per HTTP status, each with a `{status, message}` body."},
                "notes": {"type": "array", "items": {"$ref": "#/$defs/description"}, "description": "Facts known from public use of the API that the reference does not print."},
            }),
        ),
        "no_data": decided_needs_note(table(
            "How the service answers a query that matches nothing: `{ status, message, source }`.",
            &["status", "message", "source"],
            no_data,
        )),
        "refusal": decided_needs_note(table(
            "A refusal: `{ status, description, retry_after, source, note }`.",
            &["status", "description", "source"],
            refusal,
        )),
        "envelope": table(
            "The response envelope every operation shares. Each member is keyed by its role in the runtime; only `wire` changes if the service renames it.",
            &["description", "result_rows", "units_used", "units_remaining", "response"],
            json!({
                "description": reference("description", "Docs of the envelope."),
                "result_rows": reference("envelope_member", "The row count (`ResultRows`)."),
                "units_used": reference("envelope_member", "The units charged (`UnitsUsed`)."),
                "units_remaining": reference("envelope_member", "The units left (`UnitsRemaining`)."),
                "response": reference("envelope_member", "The payload (`response`)."),
            }),
        ),
        "envelope_member": table(
            "One envelope member.",
            &["wire", "description"],
            json!({
                "wire": text("Exact JSON member name."),
                "description": reference("description", "Docs."),
            }),
        ),
        "common": table(
            "The parameters every call carries, keyed by role. `key` and `action` are implicit strings (the client fills them in); `database` is an enum with a `default`.",
            &["key", "database", "action"],
            json!({
                "key": reference("param", "The API key parameter (`api_key`)."),
                "database": reference("param", "The country database parameter (`db`)."),
                "action": reference("param", "The action parameter (`action`)."),
            }),
        ),
        "group": table(
            "A group of operations sharing one path.",
            &["name", "rust", "path", "description"],
            json!({
                "name": reference("snake_name", "Group name (`projects`, `domains`, ...)."),
                "rust": reference("snake_name", "Accessor method on the client; its PascalCase form is the accessor type."),
                "path": {"type": "string", "pattern": "^/(.*/)?$", "description": "Path on the service. Starts and ends with `/`; the trailing slash is kept."},
                "description": reference("description", "Docs."),
            }),
        ),
        "enum": table(
            "A set of wire values.",
            &["name", "rust", "description", "values"],
            json!({
                "name": reference("snake_name", "Name used by `type` and `items` elsewhere."),
                "rust": reference("pascal_name", "Type name."),
                "description": reference("description", "Docs."),
                "open": flag("`true`: an unknown wire value is kept instead of failing. Leave it out for a closed enum."),
                "source": named_or("provenance", "A provenance under `[provenance]`.", "Provenance of the list of values."),
                "values": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/enum_value"}, "description": "The values, at least one."},
            }),
        ),
        "enum_value": table(
            "One value of an enum.",
            &["wire", "rust", "description"],
            json!({
                "wire": text("The value on the wire."),
                "rust": {
                    "allOf": [{"$ref": "#/$defs/pascal_name"}, {"not": {"const": "Other"}}],
                    "description": "PascalCase variant name (not `Other`, which open enums use for unknown values).",
                },
                "description": reference("description", "Docs."),
                "source": named_or("provenance", "A provenance under `[provenance]`.", "Where the value is known from, when not from the reference (`observed`: seen from the service, as `seozoom drift --patch` writes it)."),
            }),
        ),
        "presence_def": provenance_required(decided_needs_note(table(
            "How a record's member may arrive, and why: neither flag (required: a row without it is kept raw), `optional` (absent from some rows), `nullable` (`null`), or both; with its provenance, `source` and `note` or `why`.",
            &[],
            json!({
                "optional": flag("`true` when the member may be absent from a row."),
                "nullable": flag("`true` when the value may be JSON `null`."),
                "source": reference("source", "Provenance."),
                "note": text("Why; required when `source` is `decided`."),
                "why": {"type": "string", "description": "The name of a provenance under `[provenance]`, instead of `source` and `note`."},
            }),
        ))),
        "fieldset": table(
            "A named list of fields that several records share (named among a record's `fields`, or in its `include`).",
            &["name", "description", "fields"],
            json!({
                "name": reference("snake_name", "Name used by `include`."),
                "description": reference("description", "Docs."),
                "fields": array_of("field", "The fields, in order."),
            }),
        ),
        "record": table(
            "A response row type. Its fields are the included fieldsets' fields, in `include` order, then its own.",
            &["name", "rust", "description"],
            json!({
                "name": reference("snake_name", "Record name, used by `items` and `of`."),
                "rust": reference("pascal_name", "Type name."),
                "description": reference("description", "Docs."),
                "key": text("The text field that names a row's input: how the rows of a batched job are matched to its inputs."),
                "include": {"type": "array", "items": {"$ref": "#/$defs/snake_name"}, "description": "Fieldset names whose fields come first."},
                "fields": {"type": "array", "items": named_or("field", "A fieldset name: its fields, in this place.", "A field."), "description": "The record's fields, in order (after the `include`d ones)."},
            }),
        ),
        "field": table(
            "One member of a record.",
            &["wire", "type", "presence", "description"],
            json!({
                "wire": text("Exact JSON member name, including the service's spellings."),
                "priority": {"type": "integer", "minimum": 1, "maximum": 9, "description": "One of the record's main measures, what a reader came for: 1 (most wanted) to 9. Tables keep these first, after the row's key."},
                "rust": reference("snake_name", "snake_case field name; leave it out when `wire` already is one."),
                "type": {
                    "enum": FIELD_TYPES,
                    "description": "Wire type: integer (an integral float such as 12.0 is accepted), number, string, bool_word (a string holding a boolean word), flag (1/0), date (`YYYY-MM-DD`), datetime (`YYYY-MM-DD HH:MM:SS`), time (`HH:MM:SS`), serp (position -> URL), comma_list (comma-separated string), list (array of records).",
                },
                "items": reference("snake_name", "For `list`: a record name. For `comma_list`: `string` or an enum name."),
                "presence": named_or("presence_def", "A shared presence (`[presence.NAME]`).", "Whether the member may be absent or `null`, and why."),
                "kind": {"enum": kinds, "description": "Value hint: what the value is. Published as `x-seozoom-kind`; never a constraint."},
                "range": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer"}, "description": "Value hint: the range the reference gives, `[low, high]`. Published as `x-seozoom-range`; never a constraint."},
                "description": reference("description", "Meaning, unit, format."),
            }),
        ),
        "action": table(
            "One operation: a group and the `action` value that selects it.",
            &["group", "wire", "rust", "description", "response", "cost", "freshness"],
            json!({
                "group": reference("snake_name", "A group `name`."),
                "wire": {"type": "string", "pattern": "^\\S+$", "description": "The `action` value sent (one word)."},
                "rust": reference("snake_name", "Method on the group accessor."),
                "aliases": {"type": "array", "items": {"type": "string", "pattern": "^\\S+$"}, "description": "Other names the reference uses for the same action."},
                "source": named_or("provenance", "A provenance under `[provenance]`.", "Where the action is known from, when the reference does not list it (`observed`)."),
                "description": reference("description", "Docs."),
                "params": {"type": "array", "items": named_or("param_def", "A shared parameter (`[params.NAME]`).", "A parameter: a shared one by name, a shared one with overrides (`use`), or one written in place."), "description": "Parameters, in the reference's order."},
                "rules": array_of("rule", "Conditional requirements."),
                "response": reference("response", "The payload's layout."),
                "cost": named_or("cost_def", "A shared cost reading (`[costs.NAME]`).", "Unit cost and per-request figures."),
                "freshness": named_or("freshness_def", "A shared freshness (`[freshness.NAME]`).", "How long an answer stays fresh in a response cache."),
            }),
        ),
        "freshness_def": decided_needs_note(table(
            "How long an answer stays fresh in a response cache, as written: a shared one or an action's own, which may build on a shared one (`use`). Written out (the plain form) it has `ttl` and `source`, and `note` when decided.",
            &[],
            freshness,
        )),
        "param_def": table(
            "A parameter as written: a shared definition or an action's own. With `use`, it builds on a shared parameter; in an action, it may then only replace what that one has.",
            &[],
            param_keys.clone(),
        ),
        "cost_def": table(
            "A cost as written: a shared reading or an action's own, which may build on a shared one (`use`).",
            &[],
            cost_keys,
        ),
        "param": table(
            "A query parameter.",
            &["wire", "type", "description", "required"],
            json!({
                "wire": text("Query parameter name."),
                "rust": reference("snake_name", "Builder name, when `wire` is not usable."),
                "type": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$", "description": "`string`, `integer`, `date` (`YYYY-MM-DD`), or an enum name."},
                "description": reference("description", "Docs."),
                "required": flag("`true`: every call carries it. A parameter with a `default` is not required."),
                "presence": reference("provenance", "Provenance of `required`."),
                "list": flag("`true`: several values, joined with `list_separator`."),
                "min_items": reference("limit", "Fewest values (list parameters only)."),
                "max_items": reference("limit", "Most values (list parameters only)."),
                "min": reference("limit", "Smallest value (integer parameters only)."),
                "max": reference("limit", "Largest value (integer parameters only)."),
                "default": {"type": ["string", "integer"], "description": "Sent when the caller gives none; fits the type and the range."},
                "implicit": flag("Filled in by the client (`api_key`, `action` only)."),
                "role": role,
                "compare": compare,
            }),
        ),
        "rule": table(
            "`if_param = if_value` requires `require` (equal to `equal_to`, when given).",
            &["if_param", "if_value", "require", "source", "description"],
            json!({
                "if_param": text("An enum parameter of the action."),
                "if_value": text("One of its values."),
                "require": text("An optional parameter of the action."),
                "equal_to": {"type": ["string", "integer"], "description": "The value `require` must then have."},
                "source": reference("source", "Provenance."),
                "description": reference("description", "The rule in words."),
            }),
        ),
        "response": {
            "type": "object",
            "description": "The layout of `response`: `array` of `of`, `single` `of`, or a `map` keyed by the values of the list parameter `key`.",
            "required": ["shape", "of", "description"],
            "additionalProperties": false,
            "properties": {
                "shape": {"enum": ["array", "single", "map"], "description": "Layout."},
                "of": reference("snake_name", "A record name, or `serp`."),
                "key": text("For `map` only: the list parameter whose values are the keys."),
                "description": reference("description", "Docs."),
            },
            "if": {"properties": {"shape": {"const": "map"}}, "required": ["shape"]},
            "then": {"required": ["key"]},
            "else": {"not": {"required": ["key"]}},
        },
    })
}

/// The schema of the spec format.
pub fn spec_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "SEOZoom API spec format",
        "description": "The format of spec/seozoom-v2.toml (documented in spec/README.md), read as JSON. Editors can validate the TOML file with it; generators in other languages can read spec/published/seozoom-v2.json with it. Cross-references and figures are checked by seozoom-codegen, which stays the authority.",
        "type": "object",
        "required": ["api", "envelope", "common"],
        "additionalProperties": false,
        "properties": {
            "api": {"$ref": "#/$defs/api"},
            "envelope": {"$ref": "#/$defs/envelope"},
            "common": {"$ref": "#/$defs/common"},
            "groups": array_of("group", "Groups, in reference order."),
            "enums": array_of("enum", "Enums."),
            "provenance": {"type": "object", "additionalProperties": {"$ref": "#/$defs/provenance"}, "description": "Provenance written once, named by `why` in a limit or by its name where a provenance goes."},
            "params": named_tables("param_def", "Parameters written once; actions name them."),
            "costs": named_tables("cost_def", "Cost readings written once; actions name them."),
            "freshness": named_tables("freshness_def", "How long answers stay fresh, written once; actions name them."),
            "presence": named_tables("presence_def", "How a record's member may arrive, written once; fields name them."),
            "fieldsets": array_of("fieldset", "Fields shared by several records."),
            "records": array_of("record", "Response row types."),
            "actions": array_of("action", "Operations, in reference order."),
        },
        "$defs": definitions(),
    })
}
