//! The JSON Schemas that schemars derives from the Rust response types agree with
//! the published wire schemas (`spec/published/schemas/`).
//!
//! "Agree" means, for every record, the SERP and every action's envelope, member
//! by member:
//!
//! 1. **Members.** The same member names (wire names) on both sides, and neither
//!    side forbids members it does not list (`additionalProperties` is left open:
//!    the client ignores unknown members).
//! 2. **Required.** Every member the Rust type requires is required in the
//!    published schema. A member required only in the published schema must be one
//!    schemars cannot mark required: a nullable member (an `Option` with a default)
//!    or a comma list or boolean word (schemars sees them as `Option<String>`).
//!    So an optional member (`optional = true` in the spec) is never required by
//!    the Rust type.
//! 3. **Types.** The same JSON types, after one normalisation: the Rust side may
//!    also admit `null` where the spec does not say nullable, for an optional
//!    member (an `Option`, which reads `null` as absent) and for a comma list or a
//!    boolean word (their decoders read `null` as the empty value). A Rust
//!    integer (`i64`, whose decoder also takes an integral float such as `12.0`)
//!    is a whole number when published: `number` with `multipleOf: 1`, which
//!    counts as `integer` here; a plain `number` stays `number`.
//! 4. **Formats.** The same `format` where both sides give one (`int64`,
//!    `double`), except a whole number's, which is `double` when published
//!    and `int64` in Rust.
//! 5. **References.** A list member has the same item record on both sides, a SERP
//!    member the same `Serp` schema, by name.
//! 6. **Maps.** The published map payload also allows `[]` (PHP's empty map); that
//!    alternative is dropped before comparing, and the Rust type is checked to read
//!    `[]` as an empty map.
//!
//! Not compared: descriptions, titles, defaults, and the value constraints the
//! published schemas add from the spec (`pattern` for dates, boolean words and
//! SERP positions, `enum` for flags), which schemars cannot see through the
//! quirk decoders (`seozoom::__private::quirks`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use schemars::JsonSchema;
use seozoom::operation_table::{FieldInfo, FieldKind, Shape};
use serde_json::Value;

fn published(relative: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../spec/published")
        .join(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run `cargo run -p seozoom-codegen -- publish`",
            path.display()
        )
    });
    serde_json::from_str(&text).unwrap()
}

fn derived<T: JsonSchema>() -> Value {
    schemars::schema_for!(T).to_value()
}

/// The schema of every Rust record type, by type name.
fn rust_records() -> BTreeMap<String, Value> {
    macro_rules! records {
        ($($t:ident),* $(,)?) => {
            BTreeMap::from([$((stringify!($t).to_owned(), derived::<seozoom::types::$t>())),*])
        };
    }
    records![
        Project,
        ProjectOverview,
        MonitoredKeyword,
        BestPage,
        PageWithMoreKeywords,
        PageWithPotential,
        TrafficVariationPage,
        DomainMetrics,
        Authority,
        Niche,
        DomainNiches,
        Competitor,
        DomainCompetitors,
        AiOverviewKeyword,
        DomainKeyword,
        UrlMetrics,
        UrlPageAuthority,
        UrlKeyword,
        IntentGap,
        KeywordMetrics,
        KeywordRelated,
    ]
}

/// One member's schema, normalised to what is compared.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Member {
    types: BTreeSet<String>,
    format: Option<String>,
    reference: Option<String>,
    items: Option<Box<Member>>,
    values: Option<Box<Member>>,
}

fn member(schema: &Value) -> Member {
    let types = match &schema["type"] {
        Value::String(t) => BTreeSet::from([t.clone()]),
        Value::Array(ts) => ts
            .iter()
            .filter_map(|t| t.as_str().map(str::to_owned))
            .collect(),
        _ => BTreeSet::new(),
    };
    let reference = schema["$ref"]
        .as_str()
        .map(|r| r.rsplit('/').next().unwrap_or(r).to_owned());
    let sub = |key: &str| match &schema[key] {
        Value::Object(_) => Some(Box::new(member(&schema[key]))),
        _ => None,
    };
    // A whole number (`multipleOf: 1`) is what the Rust side calls an integer.
    let whole = schema["multipleOf"] == 1 && types.contains("number");
    let types = match whole {
        true => types
            .into_iter()
            .map(|t| {
                if t == "number" {
                    "integer".to_owned()
                } else {
                    t
                }
            })
            .collect(),
        false => types,
    };
    Member {
        types,
        format: schema["format"]
            .as_str()
            .filter(|_| !whole)
            .map(str::to_owned),
        reference,
        items: sub("items"),
        values: sub("additionalProperties"),
    }
}

fn required(schema: &Value) -> BTreeSet<String> {
    schema["required"]
        .as_array()
        .map(|r| {
            r.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn properties(schema: &Value) -> BTreeMap<String, Value> {
    schema["properties"]
        .as_object()
        .map(|p| p.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default()
}

/// The fields of a record, by wire name, from the operation table.
fn kinds(type_name: &str) -> BTreeMap<&'static str, FieldInfo> {
    seozoom::operations::RECORDS
        .iter()
        .find(|r| r.type_name == type_name)
        .map(|r| r.fields.iter().map(|f| (f.wire, *f)).collect())
        .unwrap_or_default()
}

/// A comma list or a boolean word: schemars sees `Option<String>`, and the
/// decoder reads `null` (and absence, for the boolean word) as the empty value.
fn quirk(kind: FieldKind) -> bool {
    matches!(kind, FieldKind::CommaList { .. } | FieldKind::BoolWord)
}

/// Every disagreement between a Rust object schema and a published one.
fn compare_object(
    what: &str,
    rust: &Value,
    published: &Value,
    kinds: &BTreeMap<&'static str, FieldInfo>,
) -> Vec<String> {
    let mut problems = Vec::new();
    for (side, schema) in [("Rust", rust), ("published", published)] {
        if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
            problems.push(format!("{what}: the {side} schema forbids unknown members"));
        }
    }
    let (rp, pp) = (properties(rust), properties(published));
    let names = |m: &BTreeMap<String, Value>| m.keys().cloned().collect::<BTreeSet<_>>();
    if names(&rp) != names(&pp) {
        problems.push(format!(
            "{what}: members differ: Rust only {:?}, published only {:?}",
            names(&rp).difference(&names(&pp)).collect::<Vec<_>>(),
            names(&pp).difference(&names(&rp)).collect::<Vec<_>>()
        ));
    }
    let (rr, pr) = (required(rust), required(published));
    for name in rr.difference(&pr) {
        problems.push(format!(
            "{what}.{name}: required by Rust, optional when published"
        ));
    }
    for name in pr.difference(&rr) {
        let excused = kinds
            .get(name.as_str())
            .is_some_and(|f| f.nullable || quirk(f.kind));
        if !excused {
            problems.push(format!(
                "{what}.{name}: required when published, not by Rust"
            ));
        }
    }
    for (name, r) in &rp {
        let Some(p) = pp.get(name) else { continue };
        let (mut r, p) = (member(r), member(p));
        if let Some(f) = kinds.get(name.as_str())
            && (f.optional || quirk(f.kind))
            && !f.nullable
        {
            r.types.remove("null");
        }
        let formats_differ = matches!((&r.format, &p.format), (Some(a), Some(b)) if a != b);
        let (r_plain, p_plain) = (
            Member {
                format: None,
                ..r.clone()
            },
            Member {
                format: None,
                ..p.clone()
            },
        );
        if r_plain != p_plain || formats_differ {
            problems.push(format!("{what}.{name}: Rust {r:?} vs published {p:?}"));
        }
    }
    problems
}

#[test]
fn every_published_record_has_a_rust_type_and_back() {
    let rust: BTreeSet<String> = rust_records().into_keys().collect();
    let published: BTreeSet<String> = seozoom::operations::RECORDS
        .iter()
        .map(|r| {
            published(&format!("schemas/records/{}.schema.json", r.name))["title"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(rust, published, "add the record's type to `rust_records`");
}

#[test]
fn record_schemas_agree() {
    let mut problems = Vec::new();
    for record in seozoom::operations::RECORDS {
        let published = published(&format!("schemas/records/{}.schema.json", record.name));
        let rust = &rust_records()[record.type_name];
        problems.extend(compare_object(
            record.type_name,
            rust,
            &published,
            &kinds(record.type_name),
        ));
        // Nested records are compared in the same way, in the file that holds them.
        // (The SERP has a test of its own.)
        for (name, def) in published["$defs"].as_object().into_iter().flatten() {
            if name != "Serp" {
                problems.extend(compare_object(
                    &format!("{}/$defs/{name}", record.type_name),
                    &rust["$defs"][name],
                    def,
                    &kinds(name),
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_serp_schema_agrees() {
    let mut rust = derived::<seozoom::types::Serp>();
    let mut published = published("schemas/serp.schema.json");
    // One maker (the generator's schema module): the same schema, its
    // description and title too; only the document's dialect is the file's.
    for schema in [&mut rust, &mut published] {
        schema.as_object_mut().unwrap().remove("$schema");
    }
    assert_eq!(rust, published);
}

/// The published payload without the `[]` alternative of a map, as (container,
/// item schema name).
fn payload(published: &Value) -> (&'static str, Member) {
    if let Some(alternatives) = published["anyOf"].as_array() {
        let objects: Vec<&Value> = alternatives
            .iter()
            .filter(|a| !(a["type"] == "array" && a["maxItems"] == 0))
            .collect();
        assert_eq!(objects.len(), 1, "one map alternative besides `[]`");
        return ("map", member(objects[0]));
    }
    let m = member(published);
    match (m.types.iter().next().map(String::as_str), &m.reference) {
        (Some("array"), _) => ("array", m),
        (_, Some(_)) => ("single", m),
        _ => panic!("unexpected payload {published}"),
    }
}

#[test]
fn envelope_schemas_agree() {
    let rust_envelope = derived::<seozoom::Envelope<Value>>();
    let record_types: BTreeMap<&str, &str> = seozoom::operations::RECORDS
        .iter()
        .map(|r| (r.name, r.type_name))
        .collect();
    let mut problems = Vec::new();
    for op in seozoom::operations::OPERATIONS {
        let what = format!("{}.{}", op.group, op.action);
        let mut published = published(&format!("schemas/actions/{what}.schema.json"));
        let response = published["properties"]["response"].take();
        // The envelope members (the payload is compared below).
        let mut rust = rust_envelope.clone();
        rust["properties"]["response"] = Value::Null;
        published["properties"]["response"] = Value::Null;
        problems.extend(compare_object(&what, &rust, &published, &BTreeMap::new()));

        let (container, schema) = payload(&response);
        let expected_container = match op.response.shape {
            Shape::Array => "array",
            Shape::Single => "single",
            Shape::Map { .. } => "map",
            _ => "unknown",
        };
        let item = match container {
            "array" => schema.items.as_deref().and_then(|i| i.reference.clone()),
            "single" => schema.reference.clone(),
            _ => schema.values.as_deref().and_then(|v| v.reference.clone()),
        };
        let expected_item = record_types
            .get(op.response.payload)
            .copied()
            .unwrap_or("Serp");
        if container != expected_container || item.as_deref() != Some(expected_item) {
            problems.push(format!(
                "{what}: published payload {container} of {item:?}, the operation says {expected_container} of {expected_item}"
            ));
        }
    }
    // The Rust containers of the three shapes, as schemars derives them.
    let array = member(&derived::<Vec<seozoom::types::Niche>>());
    assert_eq!(
        array.items.and_then(|i| i.reference).as_deref(),
        Some("Niche")
    );
    let map = member(&derived::<seozoom::types::ByKey<seozoom::types::Serp>>());
    assert_eq!(map.types, BTreeSet::from(["object".to_owned()]));
    assert_eq!(
        map.values.and_then(|v| v.reference).as_deref(),
        Some("Serp")
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn rust_reads_the_empty_map_as_php_sends_it() {
    let empty: seozoom::types::ByKey<seozoom::types::Serp> = serde_json::from_str("[]").unwrap();
    assert!(empty.is_empty());
}

#[test]
fn a_disagreement_is_reported() {
    // The comparison is not vacuous: a required member made optional, a type
    // changed and a member dropped are all caught.
    let rust = derived::<seozoom::types::Niche>();
    let mut published = published("schemas/records/niche.schema.json");
    published["required"] = Value::Array(vec![]);
    published["properties"]["perc"]["type"] = "integer".into();
    published["properties"]
        .as_object_mut()
        .unwrap()
        .remove("name");
    let problems = compare_object("Niche", &rust, &published, &kinds("Niche"));
    assert!(
        problems.iter().any(|p| p.contains("required by Rust")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.starts_with("Niche.perc")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.contains("members differ")),
        "{problems:?}"
    );
}
