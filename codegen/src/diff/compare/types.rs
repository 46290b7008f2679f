//! Enums, records and their fields: what the generated types look like and
//! what they decode.

use super::describe::{field_rust_type, field_type_name, quoted, source_name};
use super::{Differ, pair};
use crate::diff::Level;
use crate::model::{Enum, EnumValue, Field, Record};

impl Differ {
    pub(super) fn enums(&mut self, old: &[Enum], new: &[Enum]) {
        let (pairs, removed, added) = pair(old, new, |e| e.name.clone(), |e| e.type_name.clone());
        self.removed_and_added(
            &removed,
            &added,
            |e| format!("enum {}", e.name),
            |e| quoted(&e.type_name),
            |e| {
                format!(
                    "`{}` ({}, {} values)",
                    e.type_name,
                    if e.open { "open" } else { "closed" },
                    e.values.len()
                )
            },
        );
        for (o, n) in pairs {
            let item = format!("enum {}", o.name);
            self.changed(
                Level::Patch,
                &item,
                "name",
                quoted(&o.name),
                quoted(&n.name),
                "the spec's name only",
            );
            self.changed(
                Level::Breaking,
                &item,
                "rust",
                quoted(&o.type_name),
                quoted(&n.type_name),
                "renamed type",
            );
            self.changed(
                Level::Breaking,
                &item,
                "open",
                o.open.to_string(),
                n.open.to_string(),
                if n.open {
                    "it gains `Other(String)` and loses `Copy`"
                } else {
                    "it loses `Other(String)`: values it does not list are now refused"
                },
            );
            self.docs(&item, "description", &o.description, &n.description);
            let source = |e: &Enum| e.source.as_ref().map_or("none", |p| source_name(p.source));
            self.changed(Level::Patch, &item, "source", source(o), source(n), "");
            let note = |e: &Enum| e.source.as_ref().and_then(|p| p.note.clone());
            if source(o) == source(n) {
                self.docs(
                    &item,
                    "source note",
                    &note(o).unwrap_or_default(),
                    &note(n).unwrap_or_default(),
                );
            }
            self.enum_values(&item, o, n);
        }
    }

    fn enum_values(&mut self, item: &str, o: &Enum, n: &Enum) {
        let (pairs, removed, added) = pair(
            &o.values,
            &n.values,
            |v: &EnumValue| v.wire.clone(),
            |v: &EnumValue| v.variant.clone(),
        );
        let then = if o.open {
            "the value now decodes as `Other`"
        } else {
            "the value is now refused"
        };
        self.removed_and_added(
            &removed,
            &added,
            |v| format!("{item} / value {}", v.wire),
            |v| format!("`{}::{}` ({then})", o.type_name, v.variant),
            |v| {
                format!(
                    "`{}::{}` (the enum is `#[non_exhaustive]`)",
                    n.type_name, v.variant
                )
            },
        );
        for (ov, nv) in pairs {
            let item = format!("{item} / value {}", ov.wire);
            self.changed(
                Level::Breaking,
                &item,
                "wire",
                quoted(&ov.wire),
                quoted(&nv.wire),
                "the variant is sent and read as the new value",
            );
            self.changed(
                Level::Breaking,
                &item,
                "rust",
                format!("`{}::{}`", o.type_name, ov.variant),
                format!("`{}::{}`", n.type_name, nv.variant),
                "renamed variant",
            );
            self.docs(&item, "description", &ov.description, &nv.description);
        }
    }

    pub(super) fn records(&mut self, old: &[Record], new: &[Record]) {
        let (pairs, removed, added) = pair(old, new, |r| r.name.clone(), |r| r.type_name.clone());
        self.removed_and_added(
            &removed,
            &added,
            |r| format!("record {}", r.name),
            |r| quoted(&r.type_name),
            |r| format!("`{}` ({} fields)", r.type_name, r.fields.len()),
        );
        for (o, n) in pairs {
            let item = format!("record {}", o.name);
            self.changed(
                Level::Patch,
                &item,
                "name",
                quoted(&o.name),
                quoted(&n.name),
                "the spec's name only",
            );
            self.changed(
                Level::Breaking,
                &item,
                "rust",
                quoted(&o.type_name),
                quoted(&n.type_name),
                "renamed type",
            );
            self.docs(&item, "description", &o.description, &n.description);
            self.fields(&item, o, n);
        }
    }

    fn fields(&mut self, item: &str, o: &Record, n: &Record) {
        let (pairs, removed, added) = pair(
            &o.fields,
            &n.fields,
            |f: &Field| f.wire.clone(),
            |f: &Field| f.rust.clone(),
        );
        self.removed_and_added(
            &removed,
            &added,
            |f| format!("{item} / field {}", f.wire),
            |f| format!("`{}::{}` ({})", o.type_name, f.rust, field_rust_type(f)),
            |f| {
                format!(
                    "`{}::{}` ({}; the record is `#[non_exhaustive]`)",
                    n.type_name,
                    f.rust,
                    field_rust_type(f)
                )
            },
        );
        for (of, nf) in pairs {
            let item = format!("{item} / field {}", of.wire);
            self.changed(
                Level::Breaking,
                &item,
                "wire",
                quoted(&of.wire),
                quoted(&nf.wire),
                "the field is (de)serialized under the new name",
            );
            self.changed(
                Level::Breaking,
                &item,
                "rust",
                format!("`{}::{}`", o.type_name, of.rust),
                format!("`{}::{}`", n.type_name, nf.rust),
                "renamed field",
            );
            self.field(&item, of, nf);
            self.docs(&item, "description", &of.description, &nf.description);
        }
    }

    /// Type, nullability and presence of a field: one line when its Rust type
    /// changes (whatever made it change), else one per property.
    fn field(&mut self, item: &str, o: &Field, n: &Field) {
        let (ot, nt) = (field_rust_type(o), field_rust_type(n));
        if ot != nt {
            self.changed(
                Level::Breaking,
                item,
                "type",
                format!("{ot} ({})", field_type_name(o)),
                format!("{nt} ({})", field_type_name(n)),
                "the field's Rust type changes",
            );
            return;
        }
        if o.ty != n.ty {
            self.changed(
                Level::Minor,
                item,
                "type",
                field_type_name(o),
                field_type_name(n),
                format!("same Rust type ({nt})"),
            );
            return;
        }
        for (aspect, was, is) in [
            ("nullable", o.nullable, n.nullable),
            ("optional", o.optional, n.optional),
        ] {
            let (level, note) = if is {
                (Level::Minor, "more rows are typed; same Rust type")
            } else {
                (
                    Level::Breaking,
                    "rows where it is null or missing are kept raw rather than typed",
                )
            };
            self.changed(level, item, aspect, was.to_string(), is.to_string(), note);
        }
        // The same presence, known from elsewhere or for another reason.
        if (o.nullable, o.optional) == (n.nullable, n.optional) {
            let (was, is) = (&o.presence, &n.presence);
            self.changed(
                Level::Patch,
                item,
                "presence",
                was.source.word(),
                is.source.word(),
                "the provenance of its presence",
            );
            if was.source == is.source {
                let note = |p: &crate::model::Provenance| p.note.clone().unwrap_or_default();
                self.docs(item, "presence note", &note(was), &note(is));
            }
        }
    }
}
