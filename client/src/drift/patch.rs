//! The drift of one origin as a patch in the spec's own TOML format: new
//! fields with a type inferred from the values seen, presence widened where
//! members were missing or `null`, new enum values; each entry observed, with
//! its counts and dates. `seozoom-codegen apply` merges it into the spec.
//!
//! What the spec has no place for (a status, a charge, a value of another
//! type, a member of the envelope) is listed in comments after it, for a
//! person to judge.

use std::fmt::Write as _;

use super::observation::Observation;
use super::seen::{DriftKind, JsonType};
use crate::date::Date;
use crate::operation_table::{FieldKind, RecordInfo};
use crate::order::stable_order;

/// The description a patch gives what it adds, for a person to complete.
const DESCRIPTION: &str = "Not in the reference: seen from the service (`seozoom drift`).";

/// What several observations of one thing (the same record, member and
/// kind, from any of the operations that return the record) add up to.
struct Summed {
    operations: Vec<String>,
    count: i64,
    rows: i64,
    first_ms: i64,
    last_ms: i64,
    types: super::seen::JsonTypeSet,
    example: String,
}

impl Summed {
    fn of(o: &Observation) -> Self {
        Summed {
            operations: vec![o.operation()],
            count: o.count,
            rows: o.rows,
            first_ms: o.first_ms,
            last_ms: o.last_ms,
            types: o.types,
            example: o.example.clone(),
        }
    }

    fn add(&mut self, o: &Observation) {
        let operation = o.operation();
        if !self.operations.contains(&operation) {
            self.operations.push(operation);
        }
        self.count = self.count.saturating_add(o.count);
        self.rows = self.rows.saturating_add(o.rows);
        if o.first_ms < self.first_ms {
            self.first_ms = o.first_ms;
            self.example.clone_from(&o.example);
        }
        self.last_ms = self.last_ms.max(o.last_ms);
        self.types = self.types.union(o.types);
    }

    /// `12 times in 40 rows (keywords metrics), from 2026-11-27 to 2026-11-28`.
    fn note(&self, what: &str) -> String {
        let types: Vec<&str> = self.types.iter().map(JsonType::as_str).collect();
        let mut note = format!(
            "{what} {} time(s) in {} row(s) ({}), from {} to {}",
            self.count,
            self.rows,
            self.operations.join(", "),
            day(self.first_ms),
            day(self.last_ms)
        );
        if !types.is_empty() {
            let _ = write!(note, "; JSON types: {}", types.join(", "));
        }
        if !self.example.is_empty() {
            let _ = write!(note, "; e.g. {}", self.example);
        }
        note
    }
}

/// The UTC day of a time in milliseconds since the epoch, `YYYY-MM-DD`.
fn day(ms: i64) -> String {
    Date::from_unix_days(ms.div_euclid(86_400_000))
        .map(|d| d.to_string())
        .unwrap_or_default()
}

/// A TOML basic string (JSON's escapes are TOML's).
fn text(value: &str) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "\"\"".to_owned())
}

/// The spec's field type for values of these JSON types, when one holds them
/// all (`null` aside).
fn field_type(types: super::seen::JsonTypeSet) -> Option<&'static str> {
    let seen: Vec<JsonType> = types.iter().filter(|t| *t != JsonType::Null).collect();
    match seen.as_slice() {
        [JsonType::Integer] => Some("integer"),
        [JsonType::Number] | [JsonType::Integer, JsonType::Number] => Some("number"),
        [JsonType::Text] | [JsonType::Integer, JsonType::Text] => Some("string"),
        [JsonType::Boolean] => Some("bool_word"),
        _ => None,
    }
}

/// Rust keywords, which a field's name cannot be.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// A snake_case name for a wire name (`None` when the wire name is one).
fn rust_name(wire: &str) -> Option<String> {
    let mut name = String::new();
    for c in wire.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && !name.is_empty() && !name.ends_with('_') {
                name.push('_');
            }
            name.push(c.to_ascii_lowercase());
        } else if !name.is_empty() && !name.ends_with('_') {
            name.push('_');
        }
    }
    let mut name = name.trim_end_matches('_').to_owned();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert_str(0, "field_");
    }
    if KEYWORDS.contains(&name.as_str()) {
        name.push('_');
    }
    (name != wire).then_some(name)
}

/// A PascalCase variant name for an enum's wire value.
fn variant_name(wire: &str) -> String {
    let mut name = String::new();
    let mut upper = true;
    for c in wire.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(if upper { c.to_ascii_uppercase() } else { c });
            upper = false;
        } else {
            upper = true;
        }
    }
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) || name == "Other" {
        name.insert(0, 'V');
    }
    name
}

/// The observations of one thing (record, member, kind), summed.
struct Group<'a> {
    record: &'a str,
    member: &'a str,
    kind: DriftKind,
    summed: Summed,
}

impl Group<'_> {
    fn key(&self) -> (&str, &str, DriftKind) {
        (self.record, self.member, self.kind)
    }
}

/// `observations` summed per record, member and kind, in that order. A
/// sorted `Vec` rather than a map keyed by the three: the patch writer is
/// compiled into every build of the crate, and each map type instantiates
/// the whole B-tree again.
fn groups(observations: &[Observation]) -> Vec<Group<'_>> {
    // Stable: a group's observations are added in the order given, as the
    // first one's example and operation come first.
    let order = stable_order(observations.len(), &mut |a, b| {
        key(&observations[a]).cmp(&key(&observations[b]))
    });
    let mut groups: Vec<Group<'_>> = Vec::new();
    for o in order.into_iter().map(|i| &observations[i]) {
        match groups.last_mut() {
            Some(last) if last.key() == key(o) => last.summed.add(o),
            _ => groups.push(Group {
                record: &o.record,
                member: &o.member,
                kind: o.kind,
                summed: Summed::of(o),
            }),
        }
    }
    groups
}

/// What `o` is summed by: record, member, kind.
fn key(o: &Observation) -> (&str, &str, DriftKind) {
    (o.record.as_str(), o.member.as_str(), o.kind)
}

/// The group of one thing, if any was observed.
fn find<'g>(
    groups: &'g [Group<'_>],
    record: &str,
    member: &str,
    kind: DriftKind,
) -> Option<&'g Summed> {
    let at = groups
        .binary_search_by(|g| g.key().cmp(&(record, member, kind)))
        .ok()?;
    Some(&groups[at].summed)
}

/// One line of a `[[records]]` or `[[enums]]` table: the table's name, the
/// entry's key within it, the entry.
struct Line<'a> {
    table: &'a str,
    key: String,
    entry: String,
}

/// Adds `line`, replacing the last one when it has the same table and key
/// (the lines come ordered by both).
fn put<'a>(lines: &mut Vec<Line<'a>>, line: Line<'a>) {
    match lines.last_mut() {
        Some(last) if last.table == line.table && last.key == line.key => *last = line,
        _ => lines.push(line),
    }
}

/// The patch of `observations` (one origin's), against `records`; `day` is
/// the day it is written, for its header.
pub(crate) fn patch(origin: &str, observations: &[Observation], records: &[RecordInfo]) -> String {
    let groups = groups(observations);
    // Entries of records' `fields`, ordered by record and wire name, as the
    // groups are.
    let mut fields: Vec<Line<'_>> = Vec::new();
    // Entries of enums' `values`, in the order found; sorted below.
    let mut values: Vec<Line<'_>> = Vec::new();
    let mut unpatched = Vec::new();
    let find_record = |record: &str| records.iter().find(|r| r.name == record);

    for group in &groups {
        let (record, member, kind, s) = (group.record, group.member, &group.kind, &group.summed);
        let info = find_record(record);
        let field = info.and_then(|r| r.fields.iter().find(|f| f.wire == member));
        let place = match record {
            "" => "the envelope".to_owned(),
            record => format!("record `{record}`"),
        };
        match (kind, info, field) {
            (DriftKind::UnknownMember, Some(_), None) => {
                let Some(ty) = field_type(s.types) else {
                    unpatched.push(format!(
                        "{place}: unknown member `{member}` ({}); its type cannot be told from JSON alone: describe it by hand",
                        s.note("seen")
                    ));
                    continue;
                };
                let missing = s.count < s.rows;
                let null = s.types.contains(JsonType::Null);
                let mut flags = String::new();
                if missing {
                    flags.push_str("optional = true, ");
                }
                if null {
                    flags.push_str("nullable = true, ");
                }
                let rust = rust_name(member)
                    .map(|r| format!("rust = {}, ", text(&r)))
                    .unwrap_or_default();
                let entry = format!(
                    "{{ wire = {}, {rust}type = {}, presence = {{ {flags}source = \"observed\", note = {} }}, description = {} }}",
                    text(member),
                    text(ty),
                    text(&s.note("seen")),
                    text(DESCRIPTION)
                );
                put(&mut fields, Line { table: record, key: member.to_owned(), entry });
            }
            (DriftKind::Missing | DriftKind::Null, Some(_), Some(field)) => {
                // Both kinds of one member are one entry: the presence that
                // allows what was seen, and what it allowed before.
                let missing = find(&groups, record, member, DriftKind::Missing);
                let null = find(&groups, record, member, DriftKind::Null);
                let mut flags = String::new();
                if field.optional || missing.is_some() {
                    flags.push_str("optional = true, ");
                }
                if field.nullable || null.is_some() {
                    flags.push_str("nullable = true, ");
                }
                let notes: Vec<String> = [(missing, "missing"), (null, "null")]
                    .into_iter()
                    .filter_map(|(s, what)| Some(s?.note(what)))
                    .collect();
                let entry = format!(
                    "{{ wire = {}, presence = {{ {flags}source = \"observed\", note = {} }} }}",
                    text(member),
                    text(&notes.join("; "))
                );
                put(&mut fields, Line { table: record, key: member.to_owned(), entry });
            }
            (DriftKind::UnlistedValue, Some(_), Some(field)) => {
                let FieldKind::CommaList {
                    enumeration: Some(enumeration),
                    ..
                } = field.kind
                else {
                    unpatched.push(format!(
                        "{place}: `{member}` holds a value the spec does not list ({})",
                        s.note("seen")
                    ));
                    continue;
                };
                // The example is the value, as JSON text.
                let value: String = serde_json::from_str(&s.example).unwrap_or_default();
                if value.is_empty() {
                    continue;
                }
                let entry = format!(
                    "{{ wire = {}, rust = {}, description = {}, source = {{ source = \"observed\", note = {} }} }}",
                    text(&value),
                    text(&variant_name(&value)),
                    text(DESCRIPTION),
                    text(&s.note(&format!("`{member}` held it")))
                );
                values.push(Line { table: enumeration, key: value, entry });
            }
            (DriftKind::UnexpectedType, _, _) => unpatched.push(format!(
                "{place}: `{member}` held a value of another JSON type than the spec's ({}); a number sent as text is read, any other is left empty",
                s.note("seen")
            )),
            (DriftKind::UnnamedStatus, _, _) => unpatched.push(format!(
                "{member}: an answer the spec does not name ({})",
                s.note("seen")
            )),
            (DriftKind::Charge, _, _) => unpatched.push(format!(
                "a charge that differs from the spec's cost ({})",
                s.note("seen")
            )),
            _ => unpatched.push(format!(
                "{place}: `{member}`, {} ({})",
                kind.as_str().replace('_', " "),
                s.note("seen")
            )),
        }
    }
    // Stable, so that of one value met in several members the last entry
    // made is the one kept.
    let order = stable_order(values.len(), &mut |a, b| {
        (values[a].table, &values[a].key).cmp(&(values[b].table, &values[b].key))
    });
    let mut enums: Vec<Line<'_>> = Vec::with_capacity(values.len());
    for i in order {
        let line = &mut values[i];
        let line = Line {
            table: line.table,
            key: std::mem::take(&mut line.key),
            entry: std::mem::take(&mut line.entry),
        };
        put(&mut enums, line);
    }

    let mut out = String::new();
    let _ = writeln!(
        out,
        "# What the service sent that the spec does not say (`seozoom drift --patch`),\n\
         # origin {origin}. Merge it into the spec with\n\
         #     seozoom-codegen apply THIS_FILE spec/seozoom-v2.toml\n\
         # then see its effect with `seozoom-codegen diff`, complete the descriptions,\n\
         # and regenerate (CONTRIBUTING.md, \"Regenerating after a spec change\")."
    );
    write_tables(&mut out, "records", "fields", &fields);
    write_tables(&mut out, "enums", "values", &enums);
    if !unpatched.is_empty() {
        out.push_str("\n# Not patched: the spec has no place for these, or they need a person.\n");
        for line in &unpatched {
            let _ = writeln!(out, "# - {}", line.replace('\n', " "));
        }
    }
    if fields.is_empty() && enums.is_empty() && unpatched.is_empty() {
        out.push_str("\n# Nothing: the service sent what the spec says.\n");
    }
    out
}

/// `lines` as `[[KIND]]` tables, one per table name, each entry of its
/// `list` on a line of its own.
fn write_tables(out: &mut String, kind: &str, list: &str, lines: &[Line<'_>]) {
    for (i, line) in lines.iter().enumerate() {
        if i == 0 || lines[i - 1].table != line.table {
            let _ = writeln!(out, "\n[[{kind}]]\nname = {}\n{list} = [", text(line.table));
        }
        let _ = writeln!(out, "    {},", line.entry);
        if lines.get(i + 1).is_none_or(|next| next.table != line.table) {
            out.push_str("]\n");
        }
    }
}
