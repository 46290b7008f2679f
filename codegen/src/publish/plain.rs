//! The spec as data for generators in other languages: every reference to a
//! shared definition (`[params.X]`, `[costs.X]`, `[freshness.X]`, `[provenance]`, a fieldset
//! named among a record's fields) written out in place, in the plain form of
//! the format (`spec/README.md`, "The plain form"), so that a reader needs no
//! resolver. A record's leading fieldsets stay as its `include`; a fieldset
//! named later in the list is written out there.

use serde_json::{Map, Value, json};

use seozoom_codegen::parse::{self, Entry, S, SpecFile};
use seozoom_codegen::resolve::{self, Resolved, figures};

/// `spec` with its references expanded (`resolved`), as one JSON value.
pub fn plain(spec: &SpecFile, resolved: &Resolved) -> Value {
    let common = &resolved.common;
    let mut top = Map::new();
    top.insert("api".into(), api(&spec.api));
    top.insert("envelope".into(), envelope(&spec.envelope));
    top.insert(
        "common".into(),
        json!({
            "key": common.key.as_ref().map(param),
            "database": common.database.as_ref().map(param),
            "action": common.action.as_ref().map(param),
        }),
    );
    top.insert("groups".into(), spec.groups.iter().map(group).collect());
    top.insert(
        "enums".into(),
        spec.enums
            .iter()
            .zip(&resolved.enum_sources)
            .map(|(e, source)| enumeration(spec, e, source.as_ref()))
            .collect(),
    );
    top.insert(
        "fieldsets".into(),
        spec.fieldsets
            .iter()
            .map(|fs| {
                json!({
                    "name": s(&fs.name),
                    "description": s(&fs.description),
                    "fields": fs.fields.iter().map(|f| field(spec, f)).collect::<Vec<_>>(),
                })
            })
            .collect(),
    );
    top.insert(
        "records".into(),
        spec.records.iter().map(|r| record(spec, r)).collect(),
    );
    top.insert(
        "actions".into(),
        resolved.actions.iter().map(action).collect(),
    );
    Value::Object(top)
}

fn s(text: &S) -> Value {
    Value::String(text.get_ref().clone())
}

/// An object of the given members, leaving out those that are absent.
fn object<'a>(members: impl IntoIterator<Item = (&'a str, Option<Value>)>) -> Value {
    Value::Object(
        members
            .into_iter()
            .filter_map(|(k, v)| Some((k.to_owned(), v?)))
            .collect(),
    )
}

fn flag(b: &Option<toml::Spanned<bool>>) -> Option<Value> {
    b.as_ref().map(|b| Value::Bool(*b.get_ref()))
}

/// A default or `equal_to` as JSON. Only strings and integers fit a
/// parameter (validation refuses the rest), so a spec that gets here has no
/// other kind.
fn toml_value(v: &parse::Literal) -> Value {
    match v {
        parse::Literal::String(s) => Value::String(s.clone()),
        parse::Literal::Integer(n) => Value::from(*n),
        parse::Literal::Float(f) => Value::from(*f),
        parse::Literal::Boolean(b) => Value::Bool(*b),
        parse::Literal::Other(_) => Value::Null,
    }
}

fn api(a: &parse::Api) -> Value {
    json!({
        "title": s(&a.title),
        "description": s(&a.description),
        "base_url": s(&a.base_url),
        "list_separator": s(&a.list_separator),
        "no_data": object([
            ("status", Some(json!(a.no_data.status.get_ref()))),
            ("message", Some(s(&a.no_data.message))),
            ("source", Some(s(&a.no_data.source))),
            ("note", a.no_data.note.as_ref().map(s)),
        ]),
        "refusals": a.refusals.iter().map(|r| object([
            ("status", Some(json!(r.status.get_ref()))),
            ("description", Some(s(&r.description))),
            ("retry_after", flag(&r.retry_after)),
            ("source", Some(s(&r.source))),
            ("note", r.note.as_ref().map(s)),
        ])).collect::<Vec<_>>(),
        "notes": a.notes.iter().map(s).collect::<Vec<_>>(),
    })
}

fn envelope(e: &parse::Envelope) -> Value {
    let member =
        |m: &parse::EnvelopeMember| json!({"wire": s(&m.wire), "description": s(&m.description)});
    json!({
        "description": s(&e.description),
        "result_rows": member(&e.result_rows),
        "units_used": member(&e.units_used),
        "units_remaining": member(&e.units_remaining),
        "response": member(&e.response),
    })
}

fn group(g: &parse::Group) -> Value {
    json!({
        "name": s(&g.name),
        "rust": s(&g.rust),
        "path": s(&g.path),
        "description": s(&g.description),
    })
}

fn provenance(p: &resolve::Provenance) -> Value {
    object([
        ("source", Some(s(&p.source))),
        ("note", p.note.as_ref().map(s)),
    ])
}

fn limit(l: &resolve::Limit) -> Value {
    object([
        ("value", Some(json!(l.value.get_ref()))),
        ("source", Some(s(&l.source))),
        ("note", l.note.as_ref().map(s)),
    ])
}

/// A provenance written in place or named under `[provenance]`, in place.
fn provenance_ref(spec: &SpecFile, r: &parse::Ref<parse::Provenance>) -> Option<Value> {
    match r.get_ref() {
        Entry::Inline(p) => Some(provenance(p)),
        Entry::Name(name) => spec.provenance.get(name).map(provenance),
    }
}

fn enumeration(spec: &SpecFile, e: &parse::Enum, source: Option<&resolve::Provenance>) -> Value {
    let values: Vec<Value> = e
        .values
        .iter()
        .map(|v| {
            object([
                ("wire", Some(s(&v.wire))),
                ("rust", Some(s(&v.rust))),
                ("description", Some(s(&v.description))),
                (
                    "source",
                    v.source.as_ref().and_then(|p| provenance_ref(spec, p)),
                ),
            ])
        })
        .collect();
    object([
        ("name", Some(s(&e.name))),
        ("rust", Some(s(&e.rust))),
        ("description", Some(s(&e.description))),
        ("open", flag(&e.open)),
        ("source", source.map(provenance)),
        ("values", Some(Value::Array(values))),
    ])
}

/// A field's presence in place: the flags it sets and its provenance
/// (`why` written out as `source` and `note`).
fn presence(spec: &SpecFile, f: &parse::Field) -> Option<Value> {
    let def = match f.presence.as_ref()?.get_ref() {
        Entry::Inline(def) => def,
        Entry::Name(name) => spec.presence.get(name)?.get_ref(),
    };
    let (source, note) = match &def.why {
        Some(why) => {
            let named = spec.provenance.get(why.get_ref())?;
            (s(&named.source), named.note.as_ref().map(s))
        }
        None => (s(def.source.as_ref()?), def.note.as_ref().map(s)),
    };
    Some(object([
        ("optional", flag(&def.optional)),
        ("nullable", flag(&def.nullable)),
        ("source", Some(source)),
        ("note", note),
    ]))
}

fn field(spec: &SpecFile, f: &parse::Field) -> Value {
    object([
        ("wire", Some(s(&f.wire))),
        ("rust", f.rust.as_ref().map(s)),
        ("type", Some(s(&f.ty))),
        ("items", f.items.as_ref().map(s)),
        ("presence", presence(spec, f)),
        ("kind", f.kind.as_ref().map(s)),
        ("range", f.range.as_ref().map(|r| json!(r.get_ref()))),
        ("priority", f.priority.as_ref().map(|p| json!(p.get_ref()))),
        ("description", Some(s(&f.description))),
    ])
}

fn record(spec: &SpecFile, r: &parse::Record) -> Value {
    let fieldset = |name: &str| spec.fieldsets.iter().find(|fs| fs.name.get_ref() == name);
    let mut include: Vec<Value> = r.include.iter().map(s).collect();
    let mut fields = Vec::new();
    for entry in &r.fields {
        match entry.get_ref() {
            Entry::Name(name) if fields.is_empty() => include.push(Value::String(name.clone())),
            Entry::Name(name) => fields.extend(
                fieldset(name)
                    .into_iter()
                    .flat_map(|fs| fs.fields.iter().map(|f| field(spec, f))),
            ),
            Entry::Inline(f) => fields.push(field(spec, f)),
        }
    }
    object([
        ("name", Some(s(&r.name))),
        ("rust", Some(s(&r.rust))),
        ("description", Some(s(&r.description))),
        ("key", r.key.as_ref().map(s)),
        (
            "include",
            (!include.is_empty()).then_some(Value::Array(include)),
        ),
        ("fields", Some(Value::Array(fields))),
    ])
}

fn param(p: &resolve::Param) -> Value {
    object([
        ("wire", Some(s(&p.wire))),
        ("rust", p.rust.as_ref().map(s)),
        ("type", Some(s(&p.ty))),
        ("description", Some(s(&p.description))),
        ("required", Some(Value::Bool(*p.required.get_ref()))),
        ("presence", p.presence.as_ref().map(provenance)),
        ("list", flag(&p.list)),
        ("min_items", p.min_items.as_ref().map(limit)),
        ("max_items", p.max_items.as_ref().map(limit)),
        ("min", p.min.as_ref().map(limit)),
        ("max", p.max.as_ref().map(limit)),
        (
            "default",
            p.default.as_ref().map(|d| toml_value(d.get_ref())),
        ),
        ("implicit", flag(&p.implicit)),
        ("role", p.role.as_ref().map(s)),
        ("compare", p.compare.as_ref().map(|c| compare(c.get_ref()))),
    ])
}

fn compare(c: &parse::CompareDef) -> Value {
    object([
        (
            "fold",
            Some(Value::Array(c.fold.get_ref().iter().map(s).collect())),
        ),
        ("source", Some(s(&c.source))),
        ("note", c.note.as_ref().map(s)),
    ])
}

fn action(a: &resolve::Action) -> Value {
    let raw = a.raw;
    let rules: Vec<Value> = raw
        .rules
        .iter()
        .map(|r| {
            object([
                ("if_param", Some(s(&r.if_param))),
                ("if_value", Some(s(&r.if_value))),
                ("require", Some(s(&r.require))),
                (
                    "equal_to",
                    r.equal_to.as_ref().map(|v| toml_value(v.get_ref())),
                ),
                ("source", Some(s(&r.source))),
                ("description", Some(s(&r.description))),
            ])
        })
        .collect();
    let response = &raw.response;
    object([
        ("group", Some(s(&raw.group))),
        ("wire", Some(s(&raw.wire))),
        ("rust", Some(s(&raw.rust))),
        (
            "aliases",
            (!raw.aliases.is_empty()).then(|| raw.aliases.iter().map(s).collect()),
        ),
        ("source", a.source.as_ref().map(provenance)),
        ("description", Some(s(&raw.description))),
        (
            "params",
            (!a.params.is_empty()).then(|| a.params.iter().map(param).collect()),
        ),
        ("rules", (!rules.is_empty()).then_some(Value::Array(rules))),
        (
            "response",
            Some(object([
                ("shape", Some(s(&response.shape))),
                ("of", Some(s(&response.of))),
                ("key", response.key.as_ref().map(s)),
                ("description", Some(s(&response.description))),
            ])),
        ),
        ("cost", a.cost.as_ref().map(cost)),
        ("freshness", a.freshness.as_ref().map(freshness)),
    ])
}

fn freshness(f: &resolve::Freshness) -> Value {
    object([
        ("ttl", Some(s(&f.ttl))),
        ("past_days", f.past_days.as_ref().map(s)),
        ("source", Some(s(&f.source))),
        ("note", f.note.as_ref().map(s)),
    ])
}

fn cost(c: &resolve::Cost) -> Value {
    object([
        ("printed", c.printed.as_ref().map(s)),
        ("trailing", c.trailing.as_ref().map(s)),
        (
            "units",
            c.printed.as_ref().map(|p| json!(figures(p.get_ref()))),
        ),
        ("charged", Some(s(&c.charged))),
        ("charged_source", Some(provenance(&c.charged_source))),
        ("per_request", Some(limit(&c.per_request))),
        ("per_request_counts", Some(s(&c.per_request_counts))),
        ("requests_per_minute", Some(limit(&c.requests_per_minute))),
    ])
}
