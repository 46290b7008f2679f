//! Stage 1: the spec file as written, deserialized with byte spans.
//!
//! These types mirror the TOML layout documented in `spec/README.md` one to one.
//! They make no decisions: names are not checked, references are not resolved and
//! figures are not compared here; `validate` does all of that, with the spans kept
//! here pointing back at the spec text.

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostics::{Diagnostic, SourceFile};

/// A string with the byte range it came from.
pub type S = Spanned<String>;

/// The whole spec file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    pub api: Api,
    pub envelope: Envelope,
    pub common: Common,
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
    pub key: Param,
    pub database: Param,
    pub action: Param,
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
    pub source: Option<Provenance>,
    pub values: Vec<EnumValue>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnumValue {
    pub wire: S,
    pub rust: S,
    pub description: S,
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
    /// Fieldsets whose fields come first, in this order.
    #[serde(default)]
    pub include: Vec<S>,
    #[serde(default)]
    pub fields: Vec<Field>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    pub wire: S,
    /// Defaults to `wire` when that is already a good snake_case name.
    pub rust: Option<S>,
    #[serde(rename = "type")]
    pub ty: S,
    /// Element type of `list` and `comma_list` fields.
    pub items: Option<S>,
    #[serde(default)]
    pub nullable: Option<Spanned<bool>>,
    /// The field may be missing from a row.
    #[serde(default)]
    pub optional: Option<Spanned<bool>>,
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
    pub description: S,
    #[serde(default)]
    pub params: Vec<Param>,
    #[serde(default)]
    pub rules: Vec<Rule>,
    pub response: Response,
    pub cost: Cost,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Param {
    pub wire: S,
    pub rust: Option<S>,
    #[serde(rename = "type")]
    pub ty: S,
    pub description: S,
    pub required: Spanned<bool>,
    /// Why the parameter is required or optional (the reference rarely says).
    pub presence: Option<Provenance>,
    #[serde(default)]
    pub list: Option<Spanned<bool>>,
    pub min_items: Option<Limit>,
    pub max_items: Option<Limit>,
    pub min: Option<Limit>,
    pub max: Option<Limit>,
    /// Sent when the caller gives no value.
    pub default: Option<Spanned<toml::Value>>,
    /// Filled in by the client, never by the caller (`api_key`, `action`).
    #[serde(default)]
    pub implicit: Option<Spanned<bool>>,
}

/// A figure and where it comes from.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limit {
    pub value: Spanned<i64>,
    pub source: S,
    pub note: Option<S>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    pub source: S,
    pub note: Option<S>,
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cost {
    /// The unit figure(s) exactly as the reference prints them.
    pub printed: S,
    /// The two trailing figures exactly as printed.
    pub trailing: S,
    pub units: Spanned<Vec<i64>>,
    pub charged: S,
    pub charged_source: Provenance,
    pub per_request: Limit,
    pub per_request_counts: S,
    pub requests_per_minute: Limit,
}

/// Parse the spec text; a syntax or shape error becomes one located diagnostic.
pub fn parse(file: &SourceFile) -> Result<SpecFile, Diagnostic> {
    toml::from_str(&file.text).map_err(|err| {
        let span = err.span().unwrap_or(0..0);
        file.diagnostic(span, err.message().to_owned())
    })
}
