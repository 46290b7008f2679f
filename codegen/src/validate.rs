//! Stage 2: check the parsed spec and build the model.
//!
//! Every check reports through one [`Collector`] and validation carries on, so one
//! run shows every problem in the spec, each at its line and column.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use toml::Spanned;

use crate::diagnostics::{Collector, Diagnostics, SourceFile};
use crate::model::*;
use crate::names::{pascal_problem, snake_problem, to_pascal, to_screaming};
use crate::parse::{self, S};
use crate::resolve::{self, figures};

/// Type names the runtime already uses; a spec name must not shadow them.
const RUNTIME_NAMES: &[&str] = &[
    "ByKey",
    "Client",
    "ClientBuilder",
    "Date",
    "DateError",
    "DateTime",
    "Envelope",
    "Error",
    "Estimate",
    "Fresh",
    "Freshness",
    "InvalidInput",
    "InputOrder",
    "Job",
    "Merge",
    "Operation",
    "Paging",
    "RateLimitMode",
    "Request",
    "RetryPolicy",
    "Row",
    "Serp",
    "SerpResult",
    "Stream",
    "Time",
    "ToWire",
    "UnknownValue",
    "Units",
    "WireEnum",
];

fn span<T>(s: &Spanned<T>) -> Range<usize> {
    s.span()
}

fn text(s: &S) -> String {
    s.get_ref().clone()
}

/// How a spec is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reading {
    /// As this format writes it.
    #[default]
    Current,
    /// Also as earlier versions of the format wrote it (a field's `nullable`
    /// and `optional` keys, before `presence`, taken as the reference's): for
    /// comparing with an older spec (`seozoom-codegen diff`).
    Older,
}

struct Cx<'a> {
    c: Collector<'a>,
    reading: Reading,
    enums: BTreeMap<String, (String, Vec<String>)>,
    records: BTreeMap<String, String>,
    type_names: BTreeSet<String>,
}

/// Validate a parsed spec into the model, or report every problem found.
///
/// # Errors
///
/// Every problem found, each located in the spec file.
pub fn validate(file: &SourceFile, spec: &parse::SpecFile) -> Result<Spec, Diagnostics> {
    validate_reading(file, spec, Reading::Current)
}

/// [`validate`], reading the spec as `reading` says.
///
/// # Errors
///
/// As [`validate`].
pub fn validate_reading(
    file: &SourceFile,
    spec: &parse::SpecFile,
    reading: Reading,
) -> Result<Spec, Diagnostics> {
    let mut cx = Cx {
        c: Collector::new(file),
        reading,
        enums: BTreeMap::new(),
        records: BTreeMap::new(),
        type_names: RUNTIME_NAMES.iter().map(|s| s.to_string()).collect(),
    };

    let api = &spec.api;
    if !api.base_url.get_ref().starts_with("https://") {
        cx.c.error(
            span(&api.base_url),
            "`base_url` must start with `https://`: the API key travels in the query string",
        );
    }
    let list_separator = single_char(&mut cx, &api.list_separator);
    let no_data = NoData {
        status: http_status(&mut cx, &api.no_data.status),
        message: described(&mut cx, &api.no_data.message),
        source: source(&mut cx, &api.no_data.source, api.no_data.note.as_ref()),
    };
    let refusals = refusals(&mut cx, &api.refusals);

    let resolved = resolve::resolve(&mut cx.c, spec);
    let enums: Vec<Enum> = spec
        .enums
        .iter()
        .zip(&resolved.enum_sources)
        .map(|(e, source)| enum_def(&mut cx, spec, e, source.as_ref()))
        .collect();
    // Record names are known before fields are checked, so records may nest each other.
    for r in &spec.records {
        snake_name(&mut cx, &r.name);
        let type_name = type_name(&mut cx, &r.rust);
        if cx.enums.contains_key(r.name.get_ref())
            || cx.records.insert(text(&r.name), type_name).is_some()
        {
            cx.c.error(
                span(&r.name),
                format!("record `{}` is defined twice", r.name.get_ref()),
            );
        }
    }
    // A fieldset is checked where it is written, used or not.
    for fs in &spec.fieldsets {
        described(&mut cx, &fs.description);
        for f in &fs.fields {
            field(&mut cx, spec, f);
        }
    }
    let records = resolved
        .records
        .iter()
        .map(|r| record(&mut cx, spec, r))
        .collect();

    let envelope = Envelope {
        description: described(&mut cx, &spec.envelope.description),
        result_rows: member(&mut cx, &spec.envelope.result_rows),
        units_used: member(&mut cx, &spec.envelope.units_used),
        units_remaining: member(&mut cx, &spec.envelope.units_remaining),
        response: member(&mut cx, &spec.envelope.response),
    };

    // Without the common parameters no action can be checked; what made them
    // unreadable has been reported.
    let Some(common) = common(&mut cx, &resolved.common) else {
        return Err(cx.c.into_diagnostics());
    };
    let groups: Vec<Group> = spec.groups.iter().map(|g| group(&mut cx, g)).collect();
    let mut seen_actions = BTreeSet::new();
    let actions = resolved
        .actions
        .iter()
        .filter_map(|a| {
            let action = action(&mut cx, a, &groups, &common)?;
            if !seen_actions.insert((action.group.clone(), action.wire.clone())) {
                cx.c.error(
                    span(&a.raw.wire),
                    format!(
                        "action `{}` is defined twice in group `{}`",
                        action.wire, action.group
                    ),
                );
            }
            Some(action)
        })
        .collect();

    let model = Spec {
        title: described(&mut cx, &api.title),
        description: described(&mut cx, &api.description),
        base_url: text(&api.base_url),
        list_separator,
        no_data,
        refusals,
        notes: api.notes.iter().map(text).collect(),
        envelope,
        common,
        groups,
        enums,
        records,
        actions,
    };
    cx.c.finish().map(|()| model)
}

fn single_char(cx: &mut Cx, s: &S) -> char {
    let mut chars = s.get_ref().chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => c,
        _ => {
            cx.c.error(span(s), "`list_separator` must be exactly one character");
            '|'
        }
    }
}

fn http_status(cx: &mut Cx, status: &Spanned<i64>) -> u16 {
    match u16::try_from(*status.get_ref()) {
        Ok(status @ 100..=599) => status,
        _ => {
            cx.c.error(span(status), "`status` must be an HTTP status code");
            400
        }
    }
}

/// The refusals, each status once: a client tells them apart by status alone.
fn refusals(cx: &mut Cx, refusals: &[parse::Refusal]) -> Vec<Refusal> {
    let mut seen = BTreeSet::new();
    refusals
        .iter()
        .map(|r| {
            let status = http_status(cx, &r.status);
            if !(400..=599).contains(&status) {
                cx.c.error(
                    span(&r.status),
                    "a refusal's `status` must be an error status, 400 to 599",
                );
            }
            if !seen.insert(status) {
                cx.c.error(span(&r.status), format!("refusal {status} is listed twice"));
            }
            Refusal {
                status,
                description: described(cx, &r.description),
                retry_after: flag(&r.retry_after),
                provenance: Provenance {
                    source: source(cx, &r.source, r.note.as_ref()),
                    note: r.note.as_ref().map(text),
                },
            }
        })
        .collect()
}

fn described(cx: &mut Cx, s: &S) -> String {
    if s.get_ref().trim().is_empty() {
        cx.c.error(
            span(s),
            "a description must not be empty: it becomes the item's docs",
        );
    }
    text(s)
}

fn snake_name(cx: &mut Cx, s: &S) -> String {
    if let Some(problem) = snake_problem(s.get_ref()) {
        cx.c.error(span(s), problem);
    }
    text(s)
}

/// A PascalCase type name that no other spec or runtime item uses.
fn type_name(cx: &mut Cx, s: &S) -> String {
    if let Some(problem) = pascal_problem(s.get_ref()) {
        cx.c.error(span(s), problem);
    } else {
        claim_type_name(cx, s.get_ref(), span(s));
    }
    text(s)
}

fn claim_type_name(cx: &mut Cx, name: &str, at: Range<usize>) {
    if !cx.type_names.insert(name.to_owned()) {
        cx.c.error(
            at,
            format!("type name `{name}` is already used by another item or by the runtime"),
        );
    }
}

fn source(cx: &mut Cx, s: &S, note: Option<&S>) -> Source {
    let found = Source::ALL
        .iter()
        .find(|(name, _)| name == s.get_ref())
        .map(|(_, source)| *source);
    match found {
        Some(Source::Decided) if note.is_none() => {
            cx.c.error(
                span(s),
                "a `decided` value needs a `note` saying why it was decided that way",
            );
            Source::Decided
        }
        Some(source) => source,
        None => {
            cx.c.error(
                span(s),
                format!(
                    "unknown source `{}`: expected one of stated, inferred, observed, decided",
                    s.get_ref()
                ),
            );
            Source::Decided
        }
    }
}

fn limit(cx: &mut Cx, l: &resolve::Limit) -> Limit {
    Limit {
        value: *l.value.get_ref(),
        source: source(cx, &l.source, l.note.as_ref()),
        note: l.note.as_ref().map(text),
    }
}

fn provenance(cx: &mut Cx, p: &parse::Provenance) -> Provenance {
    Provenance {
        source: source(cx, &p.source, p.note.as_ref()),
        note: p.note.as_ref().map(text),
    }
}

fn flag(b: &Option<Spanned<bool>>) -> bool {
    b.as_ref().is_some_and(|b| *b.get_ref())
}

fn member(cx: &mut Cx, m: &parse::EnvelopeMember) -> Member {
    if m.wire.get_ref().is_empty() {
        cx.c.error(span(&m.wire), "an envelope member needs its wire name");
    }
    Member {
        wire: text(&m.wire),
        description: described(cx, &m.description),
    }
}

fn enum_def(
    cx: &mut Cx,
    spec: &parse::SpecFile,
    e: &parse::Enum,
    source: Option<&resolve::Provenance>,
) -> Enum {
    snake_name(cx, &e.name);
    let type_name = type_name(cx, &e.rust);
    let mut wires = BTreeSet::new();
    let mut variants = BTreeSet::new();
    let values: Vec<EnumValue> = e
        .values
        .iter()
        .map(|v| {
            if pascal_problem(v.rust.get_ref()).is_some() || v.rust.get_ref() == "Other" {
                cx.c.error(
                    span(&v.rust),
                    format!(
                        "`{}` is not a usable variant name (PascalCase, and `Other` is kept for unknown values)",
                        v.rust.get_ref()
                    ),
                );
            }
            if !wires.insert(text(&v.wire)) {
                cx.c.error(span(&v.wire), format!("value `{}` is listed twice", v.wire.get_ref()));
            }
            if !variants.insert(text(&v.rust)) {
                cx.c.error(span(&v.rust), format!("variant `{}` is used twice", v.rust.get_ref()));
            }
            let source = v
                .source
                .as_ref()
                .and_then(|p| resolve::provenance(&mut cx.c, spec, p))
                .map(|p| provenance(cx, &p));
            EnumValue {
                wire: text(&v.wire),
                variant: text(&v.rust),
                description: described(cx, &v.description),
                source,
            }
        })
        .collect();
    if values.is_empty() {
        cx.c.error(span(&e.name), "an enum needs at least one value");
    }
    if cx
        .enums
        .insert(
            text(&e.name),
            (
                type_name.clone(),
                values.iter().map(|v| v.wire.clone()).collect(),
            ),
        )
        .is_some()
    {
        cx.c.error(
            span(&e.name),
            format!("enum `{}` is defined twice", e.name.get_ref()),
        );
    }
    Enum {
        name: text(&e.name),
        type_name,
        description: described(cx, &e.description),
        open: flag(&e.open),
        source: source.map(|p| provenance(cx, p)),
        values,
    }
}

fn field(cx: &mut Cx, spec: &parse::SpecFile, f: &parse::Field) -> Field {
    let rust = match &f.rust {
        Some(rust) => snake_name(cx, rust),
        None => {
            if let Some(problem) = snake_problem(f.wire.get_ref()) {
                cx.c.error(
                    span(&f.wire),
                    format!("{problem}: give this field a `rust` name"),
                );
            }
            text(&f.wire)
        }
    };
    if rust == UNKNOWN_MEMBERS {
        cx.c.error(
            span(f.rust.as_ref().unwrap_or(&f.wire)),
            format!("`{UNKNOWN_MEMBERS}` is the records' own accessor of the members the spec does not know: give this field another `rust` name"),
        );
    }
    let ty = field_type(cx, f);
    let presence = field_presence(cx, spec, f);
    let (nullable, optional) = presence
        .as_ref()
        .map_or((false, false), |p| (p.nullable, p.optional));
    let presence = match presence {
        Some(p) => Provenance {
            source: source(cx, &p.source, p.note.as_ref()),
            note: p.note.as_ref().map(text),
        },
        None => Provenance {
            source: Source::Decided,
            note: None,
        },
    };
    let hint = hint(cx, f, &ty);
    let priority = f
        .priority
        .as_ref()
        .and_then(|p| match u8::try_from(*p.get_ref()) {
            Ok(rank @ 1..=9) => Some(rank),
            _ => {
                cx.c.error(
                    span(p),
                    format!(
                        "`priority` ranks a main measure from 1 (most wanted) to 9, not {}",
                        p.get_ref()
                    ),
                );
                None
            }
        });
    Field {
        wire: text(&f.wire),
        rust,
        ty,
        nullable,
        optional,
        presence,
        hint,
        priority,
        description: described(cx, &f.description),
    }
}

/// A field's presence: its `presence`, or in an older spec read as such
/// ([`Reading::Older`]) its `nullable` and `optional` keys, taken as stated.
fn field_presence(
    cx: &mut Cx,
    spec: &parse::SpecFile,
    f: &parse::Field,
) -> Option<resolve::Presence> {
    let legacy = f.nullable.as_ref().or(f.optional.as_ref());
    match (&f.presence, legacy) {
        (Some(_), Some(flag)) => {
            cx.c.error(
                span(flag),
                "`nullable` and `optional` are written in the field's `presence`",
            );
            None
        }
        (Some(presence), None) => resolve::presence(&mut cx.c, spec, presence),
        (None, _) if cx.reading == Reading::Older => Some(resolve::Presence {
            optional: flag(&f.optional),
            nullable: flag(&f.nullable),
            source: Spanned::new(span(&f.wire), "stated".to_owned()),
            note: None,
        }),
        (None, Some(flag)) => {
            cx.c.error(
                span(flag),
                "`nullable` and `optional` are written in the field's `presence` (`presence = { nullable = true, source = ..., note = ... }`)",
            );
            None
        }
        (None, None) => {
            cx.c.error(
                span(&f.wire),
                "missing field `presence`: say whether the member may be absent or null, and why (`presence = \"NAME\"` or `{ optional = true, nullable = true, source = ..., note = ... }`)",
            );
            None
        }
    }
}

/// A word of a vocabulary read from the spec, or a located error listing the words.
fn word<T: Copy>(cx: &mut Cx, s: &S, all: &[(&str, T)], what: &str) -> Option<T> {
    let found = all.iter().find(|(w, _)| w == s.get_ref()).map(|(_, v)| *v);
    if found.is_none() {
        let words: Vec<&str> = all.iter().map(|(w, _)| *w).collect();
        cx.c.error(
            span(s),
            format!(
                "unknown {what} `{}`: expected one of {}",
                s.get_ref(),
                words.join(", ")
            ),
        );
    }
    found
}

/// A field's value hint: a kind that fits its wire type, and a range.
fn hint(cx: &mut Cx, f: &parse::Field, ty: &FieldType) -> Option<Hint> {
    let range = f.range.as_ref().and_then(|r| match r.get_ref().as_slice() {
        [lo, hi] if lo <= hi => Some((*lo, *hi)),
        _ => {
            cx.c.error(span(r), "a `range` is `[low, high]` with low <= high");
            None
        }
    });
    let Some(kind_text) = &f.kind else {
        if let Some(r) = &f.range {
            cx.c.error(span(r), "a `range` goes with a `kind`");
        }
        return None;
    };
    let kind = word(cx, kind_text, ValueKind::ALL, "value kind")?;
    let fits = match ty {
        FieldType::String => kind.is_text() && kind != ValueKind::Date,
        FieldType::Date => kind == ValueKind::Date,
        FieldType::Integer | FieldType::Number => !kind.is_text(),
        _ => false,
    };
    if !fits {
        cx.c.error(
            span(kind_text),
            format!(
                "a `{}` field cannot hold a `{}` value",
                f.ty.get_ref(),
                kind.word()
            ),
        );
    }
    if let (Some(r), true) = (&f.range, kind.is_text()) {
        cx.c.error(span(r), "a `range` applies to numeric kinds only");
    }
    Some(Hint { kind, range })
}

fn field_type(cx: &mut Cx, f: &parse::Field) -> FieldType {
    let simple = match f.ty.get_ref().as_str() {
        "integer" => Some(FieldType::Integer),
        "number" => Some(FieldType::Number),
        "string" => Some(FieldType::String),
        "bool_word" => Some(FieldType::BoolWord),
        "flag" => Some(FieldType::Flag),
        "date" => Some(FieldType::Date),
        "datetime" => Some(FieldType::DateTime),
        "time" => Some(FieldType::Time),
        "serp" => Some(FieldType::Serp),
        _ => None,
    };
    if let Some(ty) = simple {
        if let Some(items) = &f.items {
            cx.c.error(
                span(items),
                "`items` applies to `list` and `comma_list` fields only",
            );
        }
        return ty;
    }
    let kind = f.ty.get_ref().as_str();
    if !matches!(kind, "list" | "comma_list") {
        cx.c.error(
            span(&f.ty),
            format!(
                "unknown field type `{kind}`: expected integer, number, string, bool_word, flag, date, datetime, time, serp, comma_list or list"
            ),
        );
        return FieldType::String;
    }
    let Some(items) = &f.items else {
        cx.c.error(span(&f.ty), format!("a `{kind}` field needs `items`"));
        return FieldType::String;
    };
    let item = items.get_ref().as_str();
    if kind == "list" {
        return match cx.records.get(item) {
            Some(type_name) => FieldType::List {
                record: item.to_owned(),
                type_name: type_name.clone(),
            },
            None => {
                cx.c.error(span(items), format!("`items` names no record: `{item}`"));
                FieldType::String
            }
        };
    }
    if item == "string" {
        return FieldType::CommaList(ListItem::String);
    }
    match cx.enums.get(item) {
        Some((type_name, _)) => FieldType::CommaList(ListItem::Enum {
            type_name: type_name.clone(),
        }),
        None => {
            cx.c.error(
                span(items),
                format!("`items` of a comma_list must be `string` or an enum, not `{item}`"),
            );
            FieldType::CommaList(ListItem::String)
        }
    }
}

fn record(cx: &mut Cx, spec: &parse::SpecFile, resolved: &resolve::Record) -> Record {
    let r = resolved.raw;
    let fields: Vec<Field> = resolved.fields.iter().map(|f| field(cx, spec, f)).collect();
    let mut wires = BTreeSet::new();
    let mut rusts = BTreeSet::new();
    for (i, f) in fields.iter().enumerate() {
        let at = span(&resolved.fields[i].wire);
        if !wires.insert(f.wire.clone()) {
            cx.c.error(
                at.clone(),
                format!(
                    "field `{}` appears twice in record `{}`",
                    f.wire,
                    r.name.get_ref()
                ),
            );
        }
        if !rusts.insert(f.rust.clone()) {
            cx.c.error(
                at,
                format!(
                    "Rust name `{}` is used twice in record `{}`",
                    f.rust,
                    r.name.get_ref()
                ),
            );
        }
    }
    if fields.is_empty() {
        cx.c.error(span(&r.name), "a record needs at least one field");
    }
    if let Some(key) = &r.key
        && !fields
            .iter()
            .any(|f| &f.wire == key.get_ref() && f.ty == FieldType::String)
    {
        cx.c.error(
            span(key),
            format!(
                "`key` names no text field of record `{}`: `{}`",
                r.name.get_ref(),
                key.get_ref()
            ),
        );
    }
    Record {
        name: text(&r.name),
        type_name: text(&r.rust),
        description: described(cx, &r.description),
        fields,
        key: r.key.as_ref().map(text),
    }
}

fn common(cx: &mut Cx, c: &resolve::Common) -> Option<Common> {
    let (Some(raw_key), Some(raw_database), Some(raw_action)) = (&c.key, &c.database, &c.action)
    else {
        return None;
    };
    let key = param(cx, raw_key);
    let database = param(cx, raw_database);
    let action = param(cx, raw_action);
    for (p, role) in [(raw_key, "key"), (raw_action, "action")] {
        if !flag(&p.implicit) || p.ty.get_ref() != "string" {
            cx.c.error(
                span(&p.wire),
                format!(
                    "the `{role}` parameter must be an implicit string: the client fills it in"
                ),
            );
        }
    }
    if !matches!(database.ty, ParamType::Enum { .. }) || database.default.is_none() {
        cx.c.error(
            span(&raw_database.ty),
            "the `database` parameter must be an enum with a `default`",
        );
    }
    Some(Common {
        key,
        database,
        action,
    })
}

fn group(cx: &mut Cx, g: &parse::Group) -> Group {
    let path = g.path.get_ref();
    if !path.starts_with('/') || !path.ends_with('/') {
        cx.c.error(
            span(&g.path),
            "a group path starts and ends with `/` (the service's paths keep the trailing slash)",
        );
    }
    let rust = snake_name(cx, &g.rust);
    let type_name = to_pascal(&rust);
    claim_type_name(cx, &type_name, span(&g.rust));
    Group {
        wire: text(&g.name),
        rust,
        type_name,
        path: text(&g.path),
        description: described(cx, &g.description),
    }
}

fn param(cx: &mut Cx, p: &resolve::Param) -> Param {
    let rust = match &p.rust {
        Some(rust) => snake_name(cx, rust),
        None => {
            if let Some(problem) = snake_problem(p.wire.get_ref()) {
                cx.c.error(
                    span(&p.wire),
                    format!("{problem}: give this parameter a `rust` name"),
                );
            }
            text(&p.wire)
        }
    };
    let ty = match p.ty.get_ref().as_str() {
        "string" => ParamType::String,
        "integer" => ParamType::Integer,
        "date" => ParamType::Date,
        other => match cx.enums.get(other) {
            Some((type_name, values)) => ParamType::Enum {
                type_name: type_name.clone(),
                values: values.clone(),
            },
            None => {
                cx.c.error(
                    span(&p.ty),
                    format!("unknown parameter type `{other}`: expected string, integer, date or an enum name"),
                );
                ParamType::String
            }
        },
    };
    let list = flag(&p.list);
    let min_items = p.min_items.as_ref().map(|l| limit(cx, l));
    let max_items = p.max_items.as_ref().map(|l| limit(cx, l));
    let min = p.min.as_ref().map(|l| limit(cx, l));
    let max = p.max.as_ref().map(|l| limit(cx, l));
    for (l, what) in [(&p.min_items, "min_items"), (&p.max_items, "max_items")] {
        if let Some(l) = l.as_ref().filter(|_| !list) {
            cx.c.error(
                span(&l.value),
                format!("`{what}` applies to list parameters only (add `list = true`)"),
            );
        }
    }
    for (l, what) in [(&p.min, "min"), (&p.max, "max")] {
        if let Some(l) = l.as_ref().filter(|_| ty != ParamType::Integer) {
            cx.c.error(
                span(&l.value),
                format!("`{what}` applies to integer parameters only"),
            );
        }
    }
    if let (Some(lo), Some(hi)) = (&p.min, &p.max)
        && lo.value.get_ref() > hi.value.get_ref()
    {
        cx.c.error(
            span(&hi.value),
            format!(
                "`max` {} is below `min` {}",
                hi.value.get_ref(),
                lo.value.get_ref()
            ),
        );
    }
    if let (Some(lo), Some(hi)) = (&p.min_items, &p.max_items)
        && lo.value.get_ref() > hi.value.get_ref()
    {
        cx.c.error(
            span(&hi.value),
            format!(
                "`max_items` {} is below `min_items` {}",
                hi.value.get_ref(),
                lo.value.get_ref()
            ),
        );
    }
    let default = p
        .default
        .as_ref()
        .map(|d| value_of(cx, d, &ty, min.as_ref(), max.as_ref()));
    let required = *p.required.get_ref();
    if required && p.default.is_some() {
        cx.c.error(
            span(&p.required),
            "a parameter with a `default` cannot also be required",
        );
    }
    let role = p.role.as_ref().and_then(|r| {
        let role = word(cx, r, Role::ALL, "role")?;
        if !role.fits(&ty) {
            cx.c.error(
                span(r),
                format!(
                    "the role `{}` does not fit a `{}` parameter",
                    role.word(),
                    p.ty.get_ref()
                ),
            );
        }
        Some(role)
    });
    let compare = compare(cx, p, role);
    Param {
        role,
        compare,
        wire: text(&p.wire),
        rust,
        ty,
        description: described(cx, &p.description),
        required,
        presence: p.presence.as_ref().map(|pr| provenance(cx, pr)),
        list,
        min_items,
        max_items,
        min,
        max,
        default,
        implicit: flag(&p.implicit),
    }
}

/// How an input parameter's values are compared. Every parameter with the
/// role `input` says (values that are the same input are asked, cached and
/// matched once), and no other parameter does.
fn compare(cx: &mut Cx, p: &resolve::Param, role: Option<Role>) -> Option<Compare> {
    let Some(def) = &p.compare else {
        if role == Some(Role::Input) {
            cx.c.error(
                span(&p.wire),
                "a parameter with the role `input` must say what counts as the same input: \
                 `compare = { fold = [...], source, note }` (`fold = []` compares values exactly)",
            );
        }
        return None;
    };
    if role != Some(Role::Input) {
        cx.c.error(
            span(def),
            "only a parameter with the role `input` says what counts as the same input (`compare`)",
        );
    }
    let def = def.get_ref();
    let mut fold: Vec<Fold> = Vec::new();
    for word in def.fold.get_ref() {
        let Some(f) = self::word(cx, word, Fold::ALL, "fold") else {
            continue;
        };
        if fold.contains(&f) {
            cx.c.error(span(word), format!("`{}` is listed twice", f.word()));
        }
        fold.push(f);
    }
    if fold.contains(&Fold::Case) && fold.contains(&Fold::HostCase) {
        cx.c.error(
            span(&def.fold),
            "`case` folds the whole value, `host_case` only a URL's scheme and host: name one",
        );
    }
    let source = source(cx, &def.source, def.note.as_ref());
    Some(Compare {
        fold,
        source,
        note: def.note.as_ref().map(text),
    })
}

/// A TOML value given for a parameter (a default, a rule's `equal_to`), as it goes on the wire.
fn value_of(
    cx: &mut Cx,
    v: &Spanned<parse::Literal>,
    ty: &ParamType,
    min: Option<&Limit>,
    max: Option<&Limit>,
) -> String {
    let at = span(v);
    match (ty, v.get_ref()) {
        (ParamType::Integer, parse::Literal::Integer(n)) => {
            let below = min.is_some_and(|m| *n < m.value);
            let above = max.is_some_and(|m| *n > m.value);
            if below || above {
                cx.c.error(at, format!("{n} is outside the parameter's own range"));
            }
            n.to_string()
        }
        (ParamType::Enum { values, .. }, parse::Literal::String(s)) => {
            if !values.contains(s) {
                cx.c.error(at, format!("`{s}` is not one of {}", values.join(", ")));
            }
            s.clone()
        }
        (ParamType::String | ParamType::Date, parse::Literal::String(s)) => s.clone(),
        (_, other) => {
            // By its kind: the generator carries no TOML writer to show it.
            let kind = other.type_str();
            cx.c.error(
                at,
                format!("a TOML {kind} does not fit the parameter's type"),
            );
            String::new()
        }
    }
}

fn action(
    cx: &mut Cx,
    resolved: &resolve::Action,
    groups: &[Group],
    common: &Common,
) -> Option<Action> {
    let a = resolved.raw;
    let Some(group) = groups.iter().find(|g| &g.wire == a.group.get_ref()) else {
        cx.c.error(
            span(&a.group),
            format!("unknown group `{}`", a.group.get_ref()),
        );
        return None;
    };
    if a.wire.get_ref().is_empty() || a.wire.get_ref().contains(char::is_whitespace) {
        cx.c.error(span(&a.wire), "an action's wire name is one word");
    }
    let rust = snake_name(cx, &a.rust);
    let type_name = format!("{}{}", group.type_name, to_pascal(&rust));
    claim_type_name(cx, &type_name, span(&a.rust));

    let mut params = Vec::new();
    let reserved = [
        common.key.wire.as_str(),
        &common.database.wire,
        &common.action.wire,
    ];
    for p in &resolved.params {
        let param = param(cx, p);
        if param.implicit {
            cx.c.error(span(&p.wire), "only common parameters are implicit");
        }
        if reserved.contains(&param.wire.as_str()) {
            cx.c.error(
                span(&p.wire),
                format!("`{}` is a common parameter", param.wire),
            );
        }
        if ["client", common.database.rust.as_str()].contains(&param.rust.as_str()) {
            cx.c.error(
                span(&p.wire),
                format!("Rust name `{}` is taken by the builder itself", param.rust),
            );
        }
        if params
            .iter()
            .any(|q: &Param| q.wire == param.wire || q.rust == param.rust)
        {
            cx.c.error(
                span(&p.wire),
                format!("parameter `{}` is defined twice", param.wire),
            );
        }
        if let Some(role) = param.role
            && params.iter().any(|q: &Param| q.role == Some(role))
        {
            cx.c.error(
                span(&p.wire),
                format!(
                    "two parameters of this action have the role `{}`",
                    role.word()
                ),
            );
        }
        params.push(param);
    }
    let rules = a.rules.iter().map(|r| rule(cx, r, &params)).collect();
    let response = response(cx, &a.response, &params);
    let cost = cost(cx, resolved.cost.as_ref()?, &resolved.params, &params);
    let freshness = freshness(cx, resolved.freshness.as_ref()?, &params);

    Some(Action {
        group: group.wire.clone(),
        group_type: group.type_name.clone(),
        path: group.path.clone(),
        wire: text(&a.wire),
        const_name: to_screaming(&format!("{}_{}", group.rust, rust)),
        rust,
        type_name,
        aliases: a.aliases.iter().map(text).collect(),
        source: resolved.source.as_ref().map(|p| provenance(cx, p)),
        description: described(cx, &a.description),
        params,
        rules,
        response,
        cost,
        freshness,
    })
}

/// A duration of the spec (`24h`), or a located error saying how to write
/// one (`or` names what else the key takes).
fn duration(cx: &mut Cx, s: &S, key: &str, or: &str) -> u64 {
    duration_secs(s.get_ref()).unwrap_or_else(|| {
        cx.c.error(
            span(s),
            format!(
                "`{key}` \"{}\" is not a duration: write a whole number and one unit, s, m, h or d (`24h`){or}",
                s.get_ref()
            ),
        );
        0
    })
}

fn freshness(cx: &mut Cx, f: &resolve::Freshness, params: &[Param]) -> Freshness {
    let ttl_secs = duration(cx, &f.ttl, "ttl", "");
    let past_days = f.past_days.as_ref().map(|p| {
        if !params.iter().any(|q| q.role == Some(Role::Day)) {
            cx.c.error(
                f.at.clone(),
                format!(
                    "this freshness keeps past days (`past_days`), but the action has no parameter with the role `{}`",
                    Role::Day.word()
                ),
            );
        }
        if p.get_ref() == FOR_GOOD {
            Fresh::ForGood
        } else {
            Fresh::For(duration(cx, p, "past_days", &format!(", or `{FOR_GOOD}`")))
        }
    });
    Freshness {
        ttl_secs,
        past_days,
        source: source(cx, &f.source, f.note.as_ref()),
        note: f.note.as_ref().map(text),
    }
}

fn rule(cx: &mut Cx, r: &parse::Rule, params: &[Param]) -> Rule {
    let find = |name: &S| params.iter().find(|p| &p.wire == name.get_ref());
    match find(&r.if_param) {
        Some(Param {
            ty: ParamType::Enum { values, .. },
            ..
        }) => {
            if !values.contains(r.if_value.get_ref()) {
                cx.c.error(
                    span(&r.if_value),
                    format!(
                        "`{}` is not a value of `{}`",
                        r.if_value.get_ref(),
                        r.if_param.get_ref()
                    ),
                );
            }
        }
        Some(_) => cx.c.error(
            span(&r.if_param),
            "a rule's `if_param` must be an enum parameter",
        ),
        None => cx.c.error(
            span(&r.if_param),
            format!("no parameter `{}` in this action", r.if_param.get_ref()),
        ),
    }
    let equal_to = match find(&r.require) {
        Some(p) => {
            if p.required {
                cx.c.error(
                    span(&r.require),
                    format!("`{}` is always required: the rule says nothing", p.wire),
                );
            }
            r.equal_to
                .as_ref()
                .map(|v| value_of(cx, v, &p.ty, p.min.as_ref(), p.max.as_ref()))
        }
        None => {
            cx.c.error(
                span(&r.require),
                format!("no parameter `{}` in this action", r.require.get_ref()),
            );
            None
        }
    };
    Rule {
        if_param: text(&r.if_param),
        if_value: text(&r.if_value),
        require: text(&r.require),
        equal_to,
        source: source(cx, &r.source, None),
        description: described(cx, &r.description),
    }
}

fn response(cx: &mut Cx, r: &parse::Response, params: &[Param]) -> Response {
    let payload = match r.of.get_ref().as_str() {
        "serp" => Payload::Serp,
        name => match cx.records.get(name) {
            Some(type_name) => Payload::Record {
                name: name.to_owned(),
                type_name: type_name.clone(),
            },
            None => {
                cx.c.error(
                    span(&r.of),
                    format!("`of` names no record (nor `serp`): `{name}`"),
                );
                Payload::Serp
            }
        },
    };
    let shape = match (r.shape.get_ref().as_str(), &r.key) {
        ("array", None) => Shape::Array,
        ("single", None) => Shape::Single,
        ("map", Some(key)) => {
            if !params.iter().any(|p| p.list && &p.wire == key.get_ref()) {
                cx.c.error(
                    span(key),
                    "a map's `key` must name a list parameter of this action",
                );
            }
            Shape::Map { key: text(key) }
        }
        ("map", None) => {
            cx.c.error(span(&r.shape), "a `map` response needs a `key`");
            Shape::Array
        }
        ("array" | "single", Some(key)) => {
            cx.c.error(span(key), "`key` applies to `map` responses only");
            Shape::Array
        }
        (other, _) => {
            cx.c.error(
                span(&r.shape),
                format!("unknown shape `{other}`: expected array, single or map"),
            );
            Shape::Array
        }
    };
    Response {
        shape,
        payload,
        description: described(cx, &r.description),
    }
}

fn cost(cx: &mut Cx, c: &resolve::Cost, raw_params: &[resolve::Param], params: &[Param]) -> Cost {
    let charged = match c.charged.get_ref().as_str() {
        "per_row" => Charged::PerRow,
        "per_call" => Charged::PerCall,
        "unknown" => Charged::Unknown,
        other => {
            cx.c.error(
                span(&c.charged),
                format!("unknown `charged` `{other}`: expected per_row, per_call or unknown"),
            );
            Charged::PerRow
        }
    };
    let units = match (&c.printed, charged) {
        (Some(printed), Charged::Unknown) => {
            cx.c.error(
                span(printed),
                "a cost that is `unknown` has no `printed` figures",
            );
            Vec::new()
        }
        (None, Charged::Unknown) => Vec::new(),
        (None, _) => {
            cx.c.error(
                span(&c.charged),
                "this cost has no `printed`: give the figures the reference prints, or say `charged = \"unknown\"`",
            );
            Vec::new()
        }
        (Some(printed), _) => {
            let units = figures(printed.get_ref());
            if let Some(given) = &c.units
                && given.get_ref() != &units
            {
                cx.c.error(
                    span(given),
                    format!(
                        "`printed` \"{}\" does not show the figures of `units` {:?}",
                        printed.get_ref(),
                        given.get_ref()
                    ),
                );
            }
            if units.is_empty() || units.len() > 2 || units.iter().any(|u| *u <= 0) {
                cx.c.error(
                    span(printed),
                    "`printed` shows one or two positive unit figures",
                );
            }
            units
        }
    };
    let per_request = limit(cx, &c.per_request);
    let requests_per_minute = limit(cx, &c.requests_per_minute);
    match &c.trailing {
        Some(trailing_text) => {
            let trailing = figures(trailing_text.get_ref());
            if trailing != [per_request.value, requests_per_minute.value] {
                cx.c.error(
                    span(trailing_text),
                    format!(
                        "`trailing` \"{}\" reads as {trailing:?}, but `per_request` is {} and `requests_per_minute` is {}",
                        trailing_text.get_ref(),
                        per_request.value,
                        requests_per_minute.value
                    ),
                );
            }
        }
        None if [per_request.source, requests_per_minute.source].contains(&Source::Inferred) => {
            cx.c.error(
                span(&c.charged),
                "`inferred` figures are read from the cost table: give the `trailing` they come from",
            );
        }
        None => {}
    }
    let per_request_counts = match c.per_request_counts.get_ref().as_str() {
        "items" => Counts::Items,
        "rows" => Counts::Rows,
        other => {
            cx.c.error(
                span(&c.per_request_counts),
                format!("unknown `per_request_counts` `{other}`: expected items or rows"),
            );
            Counts::Rows
        }
    };
    if per_request_counts == Counts::Items {
        let fits = params.iter().any(|p| match &p.max_items {
            Some(max) => max.value == per_request.value,
            None => !p.list && per_request.value == 1,
        });
        if !fits {
            cx.c.error(
                span(&c.per_request_counts),
                format!(
                    "no parameter takes at most {} items, as `per_request` says",
                    per_request.value
                ),
            );
        }
    }
    // A paged job without a page size asks for the most rows one request
    // returns: the page size's maximum, which must be that figure (the cost's
    // per-request figure counting rows), so the runtime never guesses it.
    for (p, raw) in params.iter().zip(raw_params) {
        if p.role != Some(Role::PageSize) {
            continue;
        }
        let most_rows = (per_request_counts == Counts::Rows).then_some(per_request.value);
        if p.max.as_ref().map(|max| max.value) != most_rows {
            cx.c.error(
                span(&raw.wire),
                format!(
                    "the page size `{}` must be at most the rows one request returns: give it `max = \"{}\"`, with a cost whose `per_request_counts` is rows",
                    p.wire,
                    resolve::PER_REQUEST
                ),
            );
        }
    }
    // An inferred limit must be the figure it was inferred from.
    for (p, raw) in params.iter().zip(raw_params) {
        for (l, raw_l) in [
            (&p.max_items, &raw.max_items),
            (&p.max, &raw.max),
            (&p.min_items, &raw.min_items),
            (&p.min, &raw.min),
        ] {
            if let (Some(l), Some(raw_l)) = (l, raw_l)
                && l.source == Source::Inferred
                && l.value != per_request.value
            {
                cx.c.error(
                    span(&raw_l.value),
                    format!(
                        "an inferred limit must equal the trailing figure it comes from ({}), not {}",
                        per_request.value, l.value
                    ),
                );
            }
        }
    }
    Cost {
        printed: c.printed.as_ref().map(text),
        trailing: c.trailing.as_ref().map(text),
        units,
        charged,
        charged_source: provenance(cx, &c.charged_source),
        per_request,
        per_request_counts,
        requests_per_minute,
    }
}
