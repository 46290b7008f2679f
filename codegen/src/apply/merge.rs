//! The merge itself, on the spec's text as `toml_edit` keeps it (comments,
//! order and layout untouched but for the entries added or changed).

use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, Value};

/// A patch merged into a spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The spec's text with the patch merged.
    pub text: String,
    /// What was merged, one line each (`record keyword_metrics: field
    /// brand_new_metric added`).
    pub changes: Vec<String>,
}

/// Flags a presence sets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Flags {
    optional: bool,
    nullable: bool,
}

impl Flags {
    fn of(table: &InlineTable) -> Flags {
        let flag = |key| table.get(key).and_then(Value::as_bool).unwrap_or(false);
        Flags {
            optional: flag("optional"),
            nullable: flag("nullable"),
        }
    }

    fn of_table(table: &Table) -> Flags {
        let flag = |key| table.get(key).and_then(Item::as_bool).unwrap_or(false);
        Flags {
            optional: flag("optional"),
            nullable: flag("nullable"),
        }
    }

    /// Whether these flags allow everything `other` allows.
    fn covers(self, other: Flags) -> bool {
        (self.optional || !other.optional) && (self.nullable || !other.nullable)
    }

    fn union(self, other: Flags) -> Flags {
        Flags {
            optional: self.optional || other.optional,
            nullable: self.nullable || other.nullable,
        }
    }
}

/// The `wire` (or another text key) of an inline table.
fn text<'a>(table: &'a InlineTable, key: &str) -> Option<&'a str> {
    table.get(key).and_then(Value::as_str)
}

/// Where a field is written: a record's own list, or a fieldset's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Home {
    Record,
    Fieldset(usize),
}

/// `patch` merged into `spec` (its text, named `name` in messages).
///
/// # Errors
///
/// Every conflict between the patch and the spec, each a line; the spec is
/// then left as it is.
pub fn apply(name: &str, spec: &str, patch: &str) -> Result<Applied, Vec<String>> {
    let mut doc: DocumentMut = spec
        .parse()
        .map_err(|e| vec![format!("{name}: not TOML: {e}")])?;
    let patch: DocumentMut = patch
        .parse()
        .map_err(|e| vec![format!("the patch is not TOML: {e}")])?;
    let mut conflicts = Vec::new();
    let mut changes = Vec::new();
    for key in patch.iter().map(|(k, _)| k) {
        if key != "records" && key != "enums" {
            conflicts.push(format!(
                "the patch has `{key}`: a patch holds only `[[records]]` and `[[enums]]`"
            ));
        }
    }
    let presence_defs = presence_defs(&doc);
    if let Some(records) = patch.get("records").and_then(Item::as_array_of_tables) {
        for record in records.iter() {
            merge_record(
                &mut doc,
                &presence_defs,
                record,
                &mut changes,
                &mut conflicts,
            );
        }
    }
    if let Some(enums) = patch.get("enums").and_then(Item::as_array_of_tables) {
        for enumeration in enums.iter() {
            merge_enum(&mut doc, enumeration, &mut changes, &mut conflicts);
        }
    }
    if !conflicts.is_empty() {
        return Err(conflicts);
    }
    let text = doc.to_string();
    if let Err(diagnostics) = crate::load_str(name, &text) {
        return Err(std::iter::once(
            "the spec with the patch merged does not validate:".to_owned(),
        )
        .chain(diagnostics.0.iter().map(ToString::to_string))
        .collect());
    }
    Ok(Applied { text, changes })
}

/// The flags of each shared presence (`[presence.NAME]`).
fn presence_defs(doc: &DocumentMut) -> Vec<(String, Flags)> {
    doc.get("presence")
        .and_then(Item::as_table)
        .map(|table| {
            table
                .iter()
                .filter_map(|(name, item)| {
                    let flags = match item {
                        Item::Table(t) => Flags::of_table(t),
                        Item::Value(Value::InlineTable(t)) => Flags::of(t),
                        _ => return None,
                    };
                    Some((name.to_owned(), flags))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The flags a field's `presence` sets: a shared one by name, or its own.
fn field_flags(field: &InlineTable, defs: &[(String, Flags)]) -> Flags {
    match field.get("presence") {
        Some(Value::String(name)) => defs
            .iter()
            .find(|(n, _)| n == name.value())
            .map_or_else(Flags::default, |(_, f)| *f),
        Some(Value::InlineTable(table)) => Flags::of(table),
        _ => Flags::default(),
    }
}

/// The inline field tables of a list of fields (a record's or a fieldset's).
fn inline_fields(array: &Array) -> impl Iterator<Item = &InlineTable> {
    array.iter().filter_map(Value::as_inline_table)
}

/// The index of the table in `array_of_tables` whose `name` is `name`.
fn find_named(doc: &DocumentMut, section: &str, name: &str) -> Option<usize> {
    doc.get(section)?
        .as_array_of_tables()?
        .iter()
        .position(|t| t.get("name").and_then(Item::as_str) == Some(name))
}

fn merge_record(
    doc: &mut DocumentMut,
    defs: &[(String, Flags)],
    patch: &Table,
    changes: &mut Vec<String>,
    conflicts: &mut Vec<String>,
) {
    let Some(name) = patch.get("name").and_then(Item::as_str) else {
        conflicts.push("a `[[records]]` of the patch has no `name`".to_owned());
        return;
    };
    let Some(index) = find_named(doc, "records", name) else {
        conflicts.push(format!("record `{name}`: the spec has no such record"));
        return;
    };
    let Some(fields) = patch.get("fields").and_then(Item::as_array) else {
        conflicts.push(format!("record `{name}`: the patch gives no `fields` list"));
        return;
    };
    for entry in fields.iter() {
        let Some(entry) = entry.as_inline_table() else {
            conflicts.push(format!(
                "record `{name}`: a patch's field is a table `{{ wire = ..., ... }}`"
            ));
            continue;
        };
        merge_field(doc, defs, name, index, entry, changes, conflicts);
    }
}

/// The fieldsets a record names among its fields (and `include`s), by index.
fn fieldsets_of(doc: &DocumentMut, record: &Table) -> Vec<usize> {
    record
        .get("include")
        .and_then(Item::as_array)
        .into_iter()
        .flat_map(Array::iter)
        .chain(
            record
                .get("fields")
                .and_then(Item::as_array)
                .into_iter()
                .flat_map(Array::iter),
        )
        .filter_map(Value::as_str)
        .filter_map(|name| find_named(doc, "fieldsets", name))
        .collect()
}

/// The list of fields of a record (`home` Record) or a fieldset, mutable.
fn fields_mut(doc: &mut DocumentMut, record: usize, home: Home) -> Option<&mut Array> {
    let (section, index) = match home {
        Home::Record => ("records", record),
        Home::Fieldset(index) => ("fieldsets", index),
    };
    doc.get_mut(section)?
        .as_array_of_tables_mut()?
        .get_mut(index)?
        .get_mut("fields")?
        .as_array_mut()
}

fn merge_field(
    doc: &mut DocumentMut,
    defs: &[(String, Flags)],
    record_name: &str,
    record: usize,
    entry: &InlineTable,
    changes: &mut Vec<String>,
    conflicts: &mut Vec<String>,
) {
    let at = format!("record `{record_name}`");
    let Some(wire) = text(entry, "wire") else {
        conflicts.push(format!("{at}: a patch's field has no `wire`"));
        return;
    };
    let Some(table) = doc
        .get("records")
        .and_then(Item::as_array_of_tables)
        .and_then(|t| t.get(record))
    else {
        return;
    };
    let homes: Vec<Home> = std::iter::once(Home::Record)
        .chain(fieldsets_of(doc, table).into_iter().map(Home::Fieldset))
        .collect();
    // Where the field is written, and the rust names the record uses.
    let mut found = None;
    let mut rust_names = Vec::new();
    for home in &homes {
        let list = match home {
            Home::Record => table.get("fields").and_then(Item::as_array),
            Home::Fieldset(index) => doc
                .get("fieldsets")
                .and_then(Item::as_array_of_tables)
                .and_then(|f| f.get(*index))
                .and_then(|f| f.get("fields"))
                .and_then(Item::as_array),
        };
        for (position, field) in list.into_iter().flat_map(|l| l.iter()).enumerate() {
            let Some(field) = field.as_inline_table() else {
                continue;
            };
            let field_wire = text(field, "wire").unwrap_or_default();
            rust_names.push(text(field, "rust").unwrap_or(field_wire).to_owned());
            if field_wire == wire {
                found = Some((*home, position, field.clone()));
            }
        }
    }
    match found {
        None => {
            for key in ["type", "presence", "description"] {
                if entry.get(key).is_none() {
                    conflicts.push(format!("{at}: new field `{wire}` has no `{key}`"));
                    return;
                }
            }
            let rust = text(entry, "rust").unwrap_or(wire);
            if rust_names.iter().any(|r| r == rust) {
                conflicts.push(format!(
                    "{at}: new field `{wire}` would be named `{rust}`, as a field the record has: give it another `rust` name"
                ));
                return;
            }
            let Some(list) = fields_mut(doc, record, Home::Record) else {
                conflicts.push(format!(
                    "{at}: its `fields` are not a list of inline tables; add `{wire}` by hand"
                ));
                return;
            };
            push_entry(list, entry.clone());
            changes.push(format!("{at}: field `{wire}` added"));
        }
        Some((home, position, field)) => {
            for key in ["type", "rust", "items"] {
                if let Some(given) = text(entry, key)
                    && text(&field, key).unwrap_or(if key == "rust" { wire } else { "" }) != given
                {
                    conflicts.push(format!(
                        "{at}: field `{wire}` has {key} `{}` in the spec, `{given}` in the patch",
                        text(&field, key).unwrap_or("(none)")
                    ));
                    return;
                }
            }
            let Some(Value::InlineTable(presence)) = entry.get("presence") else {
                return;
            };
            let had = field_flags(&field, defs);
            let wanted = Flags::of(presence);
            if had.covers(wanted) {
                changes.push(format!(
                    "{at}: field `{wire}`: its presence already allows what was seen"
                ));
                return;
            }
            // Never narrowed: what it allowed, and what was seen.
            let widened = had.union(wanted);
            let mut presence = presence.clone();
            for (key, on) in [
                ("optional", widened.optional),
                ("nullable", widened.nullable),
            ] {
                match on {
                    true => {
                        presence.insert(key, Value::from(true));
                    }
                    false => {
                        presence.remove(key);
                    }
                }
            }
            // `optional` and `nullable` first, as the spec writes them.
            presence.sort_values_by(|a, _, b, _| rank(a.get()).cmp(&rank(b.get())));
            let Some(list) = fields_mut(doc, record, home) else {
                return;
            };
            if let Some(Value::InlineTable(field)) = list.get_mut(position) {
                field.insert("presence", Value::InlineTable(presence));
            }
            let shared = match home {
                Home::Record => String::new(),
                Home::Fieldset(index) => {
                    let name = doc
                        .get("fieldsets")
                        .and_then(Item::as_array_of_tables)
                        .and_then(|f| f.get(index))
                        .and_then(|f| f.get("name"))
                        .and_then(Item::as_str)
                        .unwrap_or_default();
                    format!(" (in fieldset `{name}`, for every record that includes it)")
                }
            };
            changes.push(format!("{at}: field `{wire}`: presence widened{shared}"));
        }
    }
}

/// The order of a presence's keys: the flags, then the provenance.
fn rank(key: &str) -> usize {
    ["optional", "nullable", "source", "note", "why"]
        .iter()
        .position(|k| *k == key)
        .unwrap_or(usize::MAX)
}

/// `entry` appended to a multi-line list, laid out as its last entry is (on a
/// line of its own, with the trailing comma the spec uses).
fn push_entry(list: &mut Array, entry: InlineTable) {
    let prefix = list
        .iter()
        .last()
        .and_then(|last| last.decor().prefix())
        .and_then(|p| p.as_str())
        .unwrap_or("\n    ")
        .to_owned();
    let mut value = Value::InlineTable(entry);
    value.decor_mut().set_prefix(prefix);
    value.decor_mut().set_suffix("");
    list.push_formatted(value);
    list.set_trailing_comma(true);
    if list.trailing().as_str().is_none_or(|t| !t.contains('\n')) {
        list.set_trailing("\n");
    }
}

fn merge_enum(
    doc: &mut DocumentMut,
    patch: &Table,
    changes: &mut Vec<String>,
    conflicts: &mut Vec<String>,
) {
    let Some(name) = patch.get("name").and_then(Item::as_str) else {
        conflicts.push("an `[[enums]]` of the patch has no `name`".to_owned());
        return;
    };
    let Some(index) = find_named(doc, "enums", name) else {
        conflicts.push(format!("enum `{name}`: the spec has no such enum"));
        return;
    };
    let Some(values) = patch.get("values").and_then(Item::as_array) else {
        conflicts.push(format!("enum `{name}`: the patch gives no `values` list"));
        return;
    };
    for value in values.iter() {
        let Some(value) = value.as_inline_table() else {
            conflicts.push(format!(
                "enum `{name}`: a patch's value is a table `{{ wire = ..., ... }}`"
            ));
            continue;
        };
        let (Some(wire), Some(rust)) = (text(value, "wire"), text(value, "rust")) else {
            conflicts.push(format!(
                "enum `{name}`: a patch's value needs `wire` and `rust`"
            ));
            continue;
        };
        let Some(list) = doc
            .get_mut("enums")
            .and_then(Item::as_array_of_tables_mut)
            .and_then(|e| e.get_mut(index))
            .and_then(|e| e.get_mut("values"))
            .and_then(Item::as_array_mut)
        else {
            conflicts.push(format!("enum `{name}`: its `values` are not a list"));
            return;
        };
        let existing: Vec<(String, String)> = inline_fields(list)
            .map(|v| {
                (
                    text(v, "wire").unwrap_or_default().to_owned(),
                    text(v, "rust").unwrap_or_default().to_owned(),
                )
            })
            .collect();
        match existing.iter().find(|(w, _)| w == wire) {
            Some((_, known)) if known == rust => {
                changes.push(format!("enum `{name}`: value `{wire}` is listed already"));
            }
            Some((_, known)) => conflicts.push(format!(
                "enum `{name}`: value `{wire}` is `{known}` in the spec, `{rust}` in the patch"
            )),
            None if existing.iter().any(|(_, r)| r == rust) => conflicts.push(format!(
                "enum `{name}`: new value `{wire}` would be `{rust}`, a variant the enum has: give it another `rust` name"
            )),
            None => {
                push_entry(list, value.clone());
                changes.push(format!("enum `{name}`: value `{wire}` added"));
            }
        }
    }
}
