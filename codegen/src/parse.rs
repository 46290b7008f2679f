//! Stage 1: the spec file as written, deserialized with byte spans.
//!
//! These types mirror the TOML layout documented in `spec/README.md` one to one,
//! references included: a parameter, a cost, a provenance or a fieldset may be
//! written once under a name and referred to by that name. Nothing is resolved
//! or checked here; [`crate::resolve`] expands the references and
//! [`crate::validate`] checks the result, both with the spans kept here pointing
//! back at the spec text.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, de::value::MapAccessDeserializer};
use toml::Spanned;

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

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Entry<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntryVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for EntryVisitor<T> {
            type Value = Entry<T>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a name (string) or a table")
            }

            fn visit_str<E: de::Error>(self, name: &str) -> Result<Self::Value, E> {
                Ok(Entry::Name(name.to_owned()))
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                // The table's own keys keep their spans: each value is read by
                // the TOML deserializer itself.
                T::deserialize(MapAccessDeserializer::new(map)).map(Entry::Inline)
            }
        }

        deserializer.deserialize_any(EntryVisitor(PhantomData))
    }
}

/// A reference or an inline definition, with where it is written.
pub type Ref<T> = Spanned<Entry<T>>;

/// The whole spec file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    pub api: Api,
    pub envelope: Envelope,
    pub common: Common,
    /// Provenance written once and referred to by name.
    #[serde(default)]
    pub provenance: BTreeMap<String, Provenance>,
    /// Parameters written once and referred to by name from the actions.
    #[serde(default)]
    pub params: BTreeMap<String, Spanned<ParamDef>>,
    /// Cost readings written once and referred to by name from the actions.
    #[serde(default)]
    pub costs: BTreeMap<String, Spanned<CostDef>>,
    /// How long answers stay fresh, written once and named from the actions.
    #[serde(default)]
    pub freshness: BTreeMap<String, Spanned<FreshnessDef>>,
    /// How a record's member may arrive, written once and named from fields.
    #[serde(default)]
    pub presence: BTreeMap<String, Spanned<PresenceDef>>,
    #[serde(default)]
    pub groups: Vec<Group>,
    #[serde(default)]
    pub enums: Vec<Enum>,
    #[serde(default)]
    pub fieldsets: Vec<Fieldset>,
    #[serde(default)]
    pub records: Vec<Record>,
    #[serde(default)]
    pub actions: Vec<Action>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Api {
    pub title: S,
    pub description: S,
    pub base_url: S,
    pub list_separator: S,
    /// How the service answers a query that matches nothing.
    pub no_data: NoData,
    /// The other refusals the service answers with, one per HTTP status.
    #[serde(default)]
    pub refusals: Vec<Refusal>,
    /// Provenance of facts about the service that the reference does not print.
    #[serde(default)]
    pub notes: Vec<S>,
}

/// The "no match" answer: an HTTP status and the body's `message`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoData {
    pub status: Spanned<i64>,
    pub message: S,
    pub source: S,
    pub note: Option<S>,
}

/// A refusal: an HTTP status whose body is `{status, message}`, what it
/// means, and whether it carries `Retry-After`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Refusal {
    pub status: Spanned<i64>,
    pub description: S,
    pub retry_after: Option<Spanned<bool>>,
    pub source: S,
    pub note: Option<S>,
}

/// The four envelope members, keyed by the role the runtime gives them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Envelope {
    pub description: S,
    pub result_rows: EnvelopeMember,
    pub units_used: EnvelopeMember,
    pub units_remaining: EnvelopeMember,
    pub response: EnvelopeMember,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvelopeMember {
    pub wire: S,
    pub description: S,
}

/// The parameters every call carries, keyed by the role the runtime gives them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Common {
    pub key: Spanned<ParamDef>,
    pub database: Spanned<ParamDef>,
    pub action: Spanned<ParamDef>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    pub name: S,
    pub rust: S,
    pub path: S,
    pub description: S,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Enum {
    pub name: S,
    pub rust: S,
    pub description: S,
    /// An open enum keeps values it does not know (`Other(String)`).
    #[serde(default)]
    pub open: Option<Spanned<bool>>,
    pub source: Option<Ref<Provenance>>,
    pub values: Vec<EnumValue>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnumValue {
    pub wire: S,
    pub rust: S,
    pub description: S,
    /// Where the value is known from, when not from the reference.
    pub source: Option<Ref<Provenance>>,
}

/// A named list of fields that several records share.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fieldset {
    pub name: S,
    pub description: S,
    pub fields: Vec<Field>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub name: S,
    pub rust: S,
    pub description: S,
    /// The text field that names a row's input (how batched rows are matched).
    pub key: Option<S>,
    /// Fieldsets whose fields come first, in this order (the plain form; a
    /// fieldset's name among `fields` says the same in place).
    #[serde(default)]
    pub include: Vec<S>,
    /// The record's fields in order: a fieldset's name stands for its fields.
    #[serde(default)]
    pub fields: Vec<Ref<Field>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    pub wire: S,
    /// Defaults to `wire` when that is already a good snake_case name.
    pub rust: Option<S>,
    #[serde(rename = "type")]
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    pub group: S,
    /// The `action` value on the wire.
    pub wire: S,
    /// The method name in Rust.
    pub rust: S,
    /// Other names the reference uses for the same action.
    #[serde(default)]
    pub aliases: Vec<S>,
    /// Where the action itself is known from, when not from the reference.
    pub source: Option<Ref<Provenance>>,
    pub description: S,
    /// Shared parameters by name, a shared one with overrides
    /// (`{ use = "limit", description = "..." }`) or one written in place.
    #[serde(default)]
    pub params: Vec<Ref<ParamDef>>,
    #[serde(default)]
    pub rules: Vec<Rule>,
    pub response: Response,
    /// A shared cost reading by name, or a table (usually `use` plus the
    /// figures the reference prints for this action).
    pub cost: Ref<CostDef>,
    /// How long an answer stays fresh: a shared definition by name
    /// (`[freshness.NAME]`), or a table that builds on one.
    pub freshness: Ref<FreshnessDef>,
}

/// A parameter as written: every key is optional here because a definition may
/// build on another (`use`); [`crate::resolve`] says which are missing.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamDef {
    /// The definition this one builds on.
    #[serde(rename = "use")]
    pub base: Option<S>,
    pub wire: Option<S>,
    pub rust: Option<S>,
    #[serde(rename = "type")]
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
    pub default: Option<Spanned<toml::Value>>,
    /// Filled in by the client, never by the caller (`api_key`, `action`).
    pub implicit: Option<Spanned<bool>>,
    /// What the runtime does with it: `input`, `page_size`, `offset`, ...
    pub role: Option<S>,
    /// What counts as the same input: what two values may differ in
    /// (`fold`), and why.
    pub compare: Option<Spanned<CompareDef>>,
}

/// How an input parameter's values are compared: `{ fold = ["trim",
/// "case"], source, note }`; `fold = []` compares them exactly.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareDef {
    pub fold: Spanned<Vec<S>>,
    pub source: S,
    pub note: Option<S>,
}

/// A figure and where it comes from: `{ value, source, note }`, or
/// `{ value, why = "name" }` with the provenance written once under `[provenance]`.
/// As a name, `"per_request"` is the action's first trailing cost figure.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitDef {
    pub value: Option<Spanned<i64>>,
    pub source: Option<S>,
    pub note: Option<S>,
    /// A provenance written once under `[provenance]`.
    pub why: Option<S>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    pub source: S,
    pub note: Option<S>,
}

/// How a record's member may arrive: absent from some rows (`optional`),
/// `null` (`nullable`), neither (required), and the provenance of that
/// reading: `source` and `note`, or `why` naming one under `[provenance]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PresenceDef {
    pub optional: Option<Spanned<bool>>,
    pub nullable: Option<Spanned<bool>>,
    pub source: Option<S>,
    pub note: Option<S>,
    /// A provenance written once under `[provenance]`.
    pub why: Option<S>,
}

/// `if_param = if_value` requires `require` (to equal `equal_to`, when given).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    pub if_param: S,
    pub if_value: S,
    pub require: S,
    pub equal_to: Option<Spanned<toml::Value>>,
    pub source: S,
    pub description: S,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Response {
    pub shape: S,
    pub of: S,
    /// For `map`: the parameter whose values are the keys.
    pub key: Option<S>,
    pub description: S,
}

/// A cost as written; like [`ParamDef`], it may build on another (`use`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CostDef {
    /// The definition this one builds on.
    #[serde(rename = "use")]
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

/// How long an answer stays fresh, as written; like [`CostDef`], it may build
/// on another (`use`). Durations are text (`"24h"`), read by
/// [`crate::validate`] so that a bad one is reported where it is written.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FreshnessDef {
    /// The definition this one builds on.
    #[serde(rename = "use")]
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

/// Parse the spec text; a syntax or shape error becomes one located diagnostic.
///
/// # Errors
///
/// One diagnostic, located, when the text is not TOML or not the spec's shape.
pub fn parse(file: &SourceFile) -> Result<SpecFile, Diagnostic> {
    toml::from_str(&file.text).map_err(|err| {
        let span = err.span().unwrap_or(0..0);
        file.diagnostic(span, err.message().to_owned())
    })
}
