//! Stage 1: the spec file as written, read with byte spans (toml parses; `read` maps its tables onto these types).
//!
//! These types mirror the TOML layout documented in `spec/README.md` one to one,
//! references included: a parameter, a cost, a provenance or a fieldset may be
//! written once under a name and referred to by that name. Nothing is resolved
//! or checked here; [`crate::resolve`] expands the references and
//! [`crate::validate`] checks the result, both with the spans kept here pointing
//! back at the spec text.

mod read;

use std::collections::BTreeMap;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use read::{FromToml, Read, Value, from_table};

use crate::diagnostics::{Diagnostic, SourceFile};

/// A string with the byte range it came from.
pub type S = Spanned<String>;

/// Either a name that refers to a definition written elsewhere in the spec, or
/// the definition itself, inline. In TOML: `"limit"` or `{ use = "limit", ... }`.
#[derive(Debug, Clone)]
pub enum Entry<T> {
    /// A reference by name (its span is the span of the surrounding `Spanned`).
    Name(String),
    /// A table written in place.
    Inline(T),
}

impl<T: FromToml> FromToml for Entry<T> {
    fn from_toml(value: Value<'_>) -> Read<Self> {
        match value.get_ref() {
            DeValue::String(name) => Ok(Entry::Name(name.to_string())),
            // The table's own keys keep their spans: `T` reads the table.
            DeValue::Table(_) => T::from_toml(value).map(Entry::Inline),
            other => read::invalid(value.span(), other, "a name (string) or a table"),
        }
    }
}

/// A value written for a parameter (a default, a rule's `equal_to`): a
/// string, a whole number or a flag; validation says which fits.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// A TOML string.
    String(String),
    /// A TOML integer.
    Integer(i64),
    /// A TOML float.
    Float(f64),
    /// A TOML boolean.
    Boolean(bool),
    /// Another TOML type (array, table, datetime), kept by its name for the
    /// error that says it does not fit.
    Other(&'static str),
}

impl Literal {
    /// The TOML type's name, as in messages: `string`, `integer`, ...
    pub fn type_str(&self) -> &'static str {
        match self {
            Literal::String(_) => "string",
            Literal::Integer(_) => "integer",
            Literal::Float(_) => "float",
            Literal::Boolean(_) => "boolean",
            Literal::Other(kind) => kind,
        }
    }
}

impl FromToml for Literal {
    fn from_toml(value: Value<'_>) -> Read<Self> {
        Ok(match value.get_ref() {
            DeValue::String(s) => Literal::String(s.to_string()),
            DeValue::Integer(_) => Literal::Integer(i64::from_toml(value)?),
            DeValue::Boolean(b) => Literal::Boolean(*b),
            DeValue::Float(f) => match f.as_str().parse() {
                Ok(f) => Literal::Float(f),
                Err(_) => Literal::Other("float"),
            },
            other => Literal::Other(other.type_str()),
        })
    }
}

/// A reference or an inline definition, with where it is written.
pub type Ref<T> = Spanned<Entry<T>>;

/// The whole spec file.
#[derive(Debug)]
pub struct SpecFile {
    pub api: Api,
    pub envelope: Envelope,
    pub common: Common,
    /// Provenance written once and referred to by name.
    pub provenance: BTreeMap<String, Provenance>,
    /// Parameters written once and referred to by name from the actions.
    pub params: BTreeMap<String, Spanned<ParamDef>>,
    /// Cost readings written once and referred to by name from the actions.
    pub costs: BTreeMap<String, Spanned<CostDef>>,
    /// How long answers stay fresh, written once and named from the actions.
    pub freshness: BTreeMap<String, Spanned<FreshnessDef>>,
    /// How a record's member may arrive, written once and named from fields.
    pub presence: BTreeMap<String, Spanned<PresenceDef>>,
    pub groups: Vec<Group>,
    pub enums: Vec<Enum>,
    pub fieldsets: Vec<Fieldset>,
    pub records: Vec<Record>,
    pub actions: Vec<Action>,
}
from_table!(SpecFile {
    api: "api",
    envelope: "envelope",
    common: "common",
    provenance: "provenance" or default,
    params: "params" or default,
    costs: "costs" or default,
    freshness: "freshness" or default,
    presence: "presence" or default,
    groups: "groups" or default,
    enums: "enums" or default,
    fieldsets: "fieldsets" or default,
    records: "records" or default,
    actions: "actions" or default,
});

#[derive(Debug)]
pub struct Api {
    pub title: S,
    pub description: S,
    pub base_url: S,
    pub list_separator: S,
    /// How the service answers a query that matches nothing.
    pub no_data: NoData,
    /// The other refusals the service answers with, one per HTTP status.
    pub refusals: Vec<Refusal>,
    /// Provenance of facts about the service that the reference does not print.
    pub notes: Vec<S>,
}
from_table!(Api {
    title: "title",
    description: "description",
    base_url: "base_url",
    list_separator: "list_separator",
    no_data: "no_data",
    refusals: "refusals" or default,
    notes: "notes" or default,
});

/// The "no match" answer: an HTTP status and the body's `message`.
#[derive(Debug)]
pub struct NoData {
    pub status: Spanned<i64>,
    pub message: S,
    pub source: S,
    pub note: Option<S>,
}
from_table!(NoData {
    status: "status",
    message: "message",
    source: "source",
    note: "note",
});

/// A refusal: an HTTP status whose body is `{status, message}`, what it
/// means, and whether it carries `Retry-After`.
#[derive(Debug)]
pub struct Refusal {
    pub status: Spanned<i64>,
    pub description: S,
    pub retry_after: Option<Spanned<bool>>,
    pub source: S,
    pub note: Option<S>,
}
from_table!(Refusal {
    status: "status",
    description: "description",
    retry_after: "retry_after",
    source: "source",
    note: "note",
});

/// The four envelope members, keyed by the role the runtime gives them.
#[derive(Debug)]
pub struct Envelope {
    pub description: S,
    pub result_rows: EnvelopeMember,
    pub units_used: EnvelopeMember,
    pub units_remaining: EnvelopeMember,
    pub response: EnvelopeMember,
}
from_table!(Envelope {
    description: "description",
    result_rows: "result_rows",
    units_used: "units_used",
    units_remaining: "units_remaining",
    response: "response",
});

#[derive(Debug)]
pub struct EnvelopeMember {
    pub wire: S,
    pub description: S,
}
from_table!(EnvelopeMember {
    wire: "wire",
    description: "description",
});

/// The parameters every call carries, keyed by the role the runtime gives them.
#[derive(Debug)]
pub struct Common {
    pub key: Spanned<ParamDef>,
    pub database: Spanned<ParamDef>,
    pub action: Spanned<ParamDef>,
}
from_table!(Common {
    key: "key",
    database: "database",
    action: "action",
});

#[derive(Debug)]
pub struct Group {
    pub name: S,
    pub rust: S,
    pub path: S,
    pub description: S,
}
from_table!(Group {
    name: "name",
    rust: "rust",
    path: "path",
    description: "description",
});

#[derive(Debug)]
pub struct Enum {
    pub name: S,
    pub rust: S,
    pub description: S,
    /// An open enum keeps values it does not know (`Other(String)`).
    pub open: Option<Spanned<bool>>,
    pub source: Option<Ref<Provenance>>,
    pub values: Vec<EnumValue>,
}
from_table!(Enum {
    name: "name",
    rust: "rust",
    description: "description",
    open: "open" or default,
    source: "source",
    values: "values",
});

#[derive(Debug)]
pub struct EnumValue {
    pub wire: S,
    pub rust: S,
    pub description: S,
    /// Where the value is known from, when not from the reference.
    pub source: Option<Ref<Provenance>>,
}
from_table!(EnumValue {
    wire: "wire",
    rust: "rust",
    description: "description",
    source: "source",
});

/// A named list of fields that several records share.
#[derive(Debug)]
pub struct Fieldset {
    pub name: S,
    pub description: S,
    pub fields: Vec<Field>,
}
from_table!(Fieldset {
    name: "name",
    description: "description",
    fields: "fields",
});

#[derive(Debug)]
pub struct Record {
    pub name: S,
    pub rust: S,
    pub description: S,
    /// The text field that names a row's input (how batched rows are matched).
    pub key: Option<S>,
    /// Fieldsets whose fields come first, in this order (the plain form; a
    /// fieldset's name among `fields` says the same in place).
    pub include: Vec<S>,
    /// The record's fields in order: a fieldset's name stands for its fields.
    pub fields: Vec<Ref<Field>>,
}
from_table!(Record {
    name: "name",
    rust: "rust",
    description: "description",
    key: "key",
    include: "include" or default,
    fields: "fields" or default,
});

#[derive(Debug, Clone)]
pub struct Field {
    pub wire: S,
    /// Defaults to `wire` when that is already a good snake_case name.
    pub rust: Option<S>,
    pub ty: S,
    /// Element type of `list` and `comma_list` fields.
    pub items: Option<S>,
    /// Whether the member may be absent or `null`, and why: a shared
    /// definition by name (`[presence.NAME]`) or a table in place. Required
    /// ([`crate::validate`] says so, where the field is written).
    pub presence: Option<Ref<PresenceDef>>,
    /// The format before `presence`: the flags as keys of the field. Read
    /// only in an older spec (`seozoom-codegen diff`'s first one); a spec of
    /// this format writes them in `presence`.
    pub nullable: Option<Spanned<bool>>,
    /// As `nullable`.
    pub optional: Option<Spanned<bool>>,
    /// What the value is (a value hint): `url`, `score`, `position`, ...
    pub kind: Option<S>,
    /// The range the reference gives for the value, `[low, high]`.
    pub range: Option<Spanned<Vec<i64>>>,
    /// One of the record's main measures, what a reader came for: 1 (most
    /// wanted) to 9. Tables keep these first, after the row's key.
    pub priority: Option<Spanned<i64>>,
    pub description: S,
}
from_table!(Field {
    wire: "wire",
    rust: "rust",
    ty: "type",
    items: "items",
    presence: "presence",
    nullable: "nullable",
    optional: "optional",
    kind: "kind",
    range: "range",
    priority: "priority",
    description: "description",
});

#[derive(Debug)]
pub struct Action {
    pub group: S,
    /// The `action` value on the wire.
    pub wire: S,
    /// The method name in Rust.
    pub rust: S,
    /// Other names the reference uses for the same action.
    pub aliases: Vec<S>,
    /// Where the action itself is known from, when not from the reference.
    pub source: Option<Ref<Provenance>>,
    pub description: S,
    /// Shared parameters by name, a shared one with overrides
    /// (`{ use = "limit", description = "..." }`) or one written in place.
    pub params: Vec<Ref<ParamDef>>,
    pub rules: Vec<Rule>,
    pub response: Response,
    /// A shared cost reading by name, or a table (usually `use` plus the
    /// figures the reference prints for this action).
    pub cost: Ref<CostDef>,
    /// How long an answer stays fresh: a shared definition by name
    /// (`[freshness.NAME]`), or a table that builds on one.
    pub freshness: Ref<FreshnessDef>,
}
from_table!(Action {
    group: "group",
    wire: "wire",
    rust: "rust",
    aliases: "aliases" or default,
    source: "source",
    description: "description",
    params: "params" or default,
    rules: "rules" or default,
    response: "response",
    cost: "cost",
    freshness: "freshness",
});

/// A parameter as written: every key is optional here because a definition may
/// build on another (`use`); [`crate::resolve`] says which are missing.
#[derive(Debug, Clone, Default)]
pub struct ParamDef {
    /// The definition this one builds on.
    pub base: Option<S>,
    pub wire: Option<S>,
    pub rust: Option<S>,
    pub ty: Option<S>,
    pub description: Option<S>,
    pub required: Option<Spanned<bool>>,
    /// Why the parameter is required or optional (the reference rarely says).
    pub presence: Option<Ref<Provenance>>,
    pub list: Option<Spanned<bool>>,
    pub min_items: Option<Ref<LimitDef>>,
    pub max_items: Option<Ref<LimitDef>>,
    pub min: Option<Ref<LimitDef>>,
    pub max: Option<Ref<LimitDef>>,
    /// Sent when the caller gives no value.
    pub default: Option<Spanned<Literal>>,
    /// Filled in by the client, never by the caller (`api_key`, `action`).
    pub implicit: Option<Spanned<bool>>,
    /// What the runtime does with it: `input`, `page_size`, `offset`, ...
    pub role: Option<S>,
    /// What counts as the same input: what two values may differ in
    /// (`fold`), and why.
    pub compare: Option<Spanned<CompareDef>>,
}
from_table!(ParamDef {
    base: "use",
    wire: "wire",
    rust: "rust",
    ty: "type",
    description: "description",
    required: "required",
    presence: "presence",
    list: "list",
    min_items: "min_items",
    max_items: "max_items",
    min: "min",
    max: "max",
    default: "default",
    implicit: "implicit",
    role: "role",
    compare: "compare",
});

/// How an input parameter's values are compared: `{ fold = ["trim",
/// "case"], source, note }`; `fold = []` compares them exactly.
#[derive(Debug, Clone)]
pub struct CompareDef {
    pub fold: Spanned<Vec<S>>,
    pub source: S,
    pub note: Option<S>,
}
from_table!(CompareDef {
    fold: "fold",
    source: "source",
    note: "note",
});

/// A figure and where it comes from: `{ value, source, note }`, or
/// `{ value, why = "name" }` with the provenance written once under `[provenance]`.
/// As a name, `"per_request"` is the action's first trailing cost figure.
#[derive(Debug, Clone)]
pub struct LimitDef {
    pub value: Option<Spanned<i64>>,
    pub source: Option<S>,
    pub note: Option<S>,
    /// A provenance written once under `[provenance]`.
    pub why: Option<S>,
}
from_table!(LimitDef {
    value: "value",
    source: "source",
    note: "note",
    why: "why",
});

#[derive(Debug, Clone)]
pub struct Provenance {
    pub source: S,
    pub note: Option<S>,
}
from_table!(Provenance {
    source: "source",
    note: "note",
});

/// How a record's member may arrive: absent from some rows (`optional`),
/// `null` (`nullable`), neither (required), and the provenance of that
/// reading: `source` and `note`, or `why` naming one under `[provenance]`.
#[derive(Debug, Clone)]
pub struct PresenceDef {
    pub optional: Option<Spanned<bool>>,
    pub nullable: Option<Spanned<bool>>,
    pub source: Option<S>,
    pub note: Option<S>,
    /// A provenance written once under `[provenance]`.
    pub why: Option<S>,
}
from_table!(PresenceDef {
    optional: "optional",
    nullable: "nullable",
    source: "source",
    note: "note",
    why: "why",
});

/// `if_param = if_value` requires `require` (to equal `equal_to`, when given).
#[derive(Debug)]
pub struct Rule {
    pub if_param: S,
    pub if_value: S,
    pub require: S,
    pub equal_to: Option<Spanned<Literal>>,
    pub source: S,
    pub description: S,
}
from_table!(Rule {
    if_param: "if_param",
    if_value: "if_value",
    require: "require",
    equal_to: "equal_to",
    source: "source",
    description: "description",
});

#[derive(Debug)]
pub struct Response {
    pub shape: S,
    pub of: S,
    /// For `map`: the parameter whose values are the keys.
    pub key: Option<S>,
    pub description: S,
}
from_table!(Response {
    shape: "shape",
    of: "of",
    key: "key",
    description: "description",
});

/// A cost as written; like [`ParamDef`], it may build on another (`use`).
#[derive(Debug, Clone, Default)]
pub struct CostDef {
    /// The definition this one builds on.
    pub base: Option<S>,
    /// The unit figure(s) exactly as the reference prints them.
    pub printed: Option<S>,
    /// The two trailing figures exactly as printed.
    pub trailing: Option<S>,
    /// The figures of `printed` as numbers (the plain form); read from
    /// `printed` when left out.
    pub units: Option<Spanned<Vec<i64>>>,
    pub charged: Option<S>,
    pub charged_source: Option<Ref<Provenance>>,
    /// Without a `value`, the first figure of `trailing`.
    pub per_request: Option<Ref<LimitDef>>,
    pub per_request_counts: Option<S>,
    /// Without a `value`, the second figure of `trailing`.
    pub requests_per_minute: Option<Ref<LimitDef>>,
}
from_table!(CostDef {
    base: "use",
    printed: "printed",
    trailing: "trailing",
    units: "units",
    charged: "charged",
    charged_source: "charged_source",
    per_request: "per_request",
    per_request_counts: "per_request_counts",
    requests_per_minute: "requests_per_minute",
});

/// How long an answer stays fresh, as written; like [`CostDef`], it may build
/// on another (`use`). Durations are text (`"24h"`), read by
/// [`crate::validate`] so that a bad one is reported where it is written.
#[derive(Debug, Clone, Default)]
pub struct FreshnessDef {
    /// The definition this one builds on.
    pub base: Option<S>,
    /// How long an answer stays fresh: a whole number and a unit (`24h`).
    pub ttl: Option<S>,
    /// For an action with a `day` parameter: how long an answer for a day
    /// before today stays fresh, `for_good` or a duration. Without it, such an
    /// answer is like any other.
    pub past_days: Option<S>,
    pub source: Option<S>,
    pub note: Option<S>,
    /// A provenance written once under `[provenance]`.
    pub why: Option<S>,
}
from_table!(FreshnessDef {
    base: "use",
    ttl: "ttl",
    past_days: "past_days",
    source: "source",
    note: "note",
    why: "why",
});

/// Parse the spec text; a syntax or shape error becomes one located diagnostic.
///
/// # Errors
///
/// One diagnostic, located, when the text is not TOML or not the spec's shape.
pub fn parse(file: &SourceFile) -> Result<SpecFile, Diagnostic> {
    let table = DeTable::parse(&file.text).map_err(|err| {
        let span = err.span().unwrap_or(0..0);
        file.diagnostic(span, err.message().to_owned())
    })?;
    let span = table.span();
    let value = Spanned::new(span, DeValue::Table(table.into_inner()));
    SpecFile::from_toml(value).map_err(|err| file.diagnostic(err.span, err.message))
}
