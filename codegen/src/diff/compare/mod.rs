//! The comparison: two validated specs in, every [`Change`] out.
//!
//! [`diff`] walks both models side by side; a [`Differ`] collects the changes.
//! Its methods are split by what they compare: this file the API-wide parts
//! (service, envelope, common parameters, groups), `types.rs` the enums and
//! records, `actions.rs` the actions; `describe.rs` spells model items as text.

mod actions;
mod describe;
mod types;

use std::collections::BTreeSet;

use super::{Change, Kind, Level};
use crate::model::{Group, Member, Spec};
use describe::{quoted, source_name};

/// Every change from `old` to `new`, sorted: breaking first, then minor, then
/// patch; within a level by item, then by what changed.
pub fn diff(old: &Spec, new: &Spec) -> Vec<Change> {
    let mut d = Differ::default();
    d.api(old, new);
    d.envelope(old, new);
    d.common(old, new);
    d.groups(&old.groups, &new.groups);
    d.enums(&old.enums, &new.enums);
    d.records(&old.records, &new.records);
    d.actions(&old.actions, &new.actions);
    let changes: BTreeSet<Change> = d.changes.into_iter().collect();
    changes.into_iter().collect()
}

/// Items of both lists taken as the same item, removed items and added items.
type Paired<'a, T> = (Vec<(&'a T, &'a T)>, Vec<&'a T>, Vec<&'a T>);

/// Pairs the items of two lists: first by `key`, then the leftovers by `alt`
/// when that is unambiguous (so a renamed Rust item or a changed wire name is one
/// change, not a removal and an addition).
pub(super) fn pair<'a, T>(
    old: &'a [T],
    new: &'a [T],
    key: impl Fn(&T) -> String,
    alt: impl Fn(&T) -> String,
) -> Paired<'a, T> {
    let mut pairs = Vec::new();
    let mut added: Vec<&T> = new.iter().collect();
    let mut unmatched = Vec::new();
    for o in old {
        match added.iter().position(|n| key(n) == key(o)) {
            Some(i) => pairs.push((o, added.remove(i))),
            None => unmatched.push(o),
        }
    }
    let mut removed = Vec::new();
    for o in unmatched {
        let unique_old = old.iter().filter(|x| alt(x) == alt(o)).count() == 1;
        let found: Vec<usize> = (0..added.len())
            .filter(|&i| alt(added[i]) == alt(o))
            .collect();
        match found[..] {
            [i] if unique_old => pairs.push((o, added.remove(i))),
            _ => removed.push(o),
        }
    }
    (pairs, removed, added)
}

#[derive(Default)]
struct Differ {
    changes: Vec<Change>,
}

impl Differ {
    /// An added or removed item.
    fn push(&mut self, level: Level, kind: Kind, item: &str, note: impl Into<String>) {
        self.changes.push(Change {
            level,
            item: item.to_owned(),
            kind,
            aspect: String::new(),
            old: None,
            new: None,
            note: note.into(),
        });
    }

    /// The items only one side has, where a removal is always breaking (code
    /// that used the item no longer compiles) and an addition never is.
    fn removed_and_added<T>(
        &mut self,
        removed: &[&T],
        added: &[&T],
        item: impl Fn(&T) -> String,
        removed_note: impl Fn(&T) -> String,
        added_note: impl Fn(&T) -> String,
    ) {
        for &t in removed {
            self.push(Level::Breaking, Kind::Removed, &item(t), removed_note(t));
        }
        for &t in added {
            self.push(Level::Minor, Kind::Added, &item(t), added_note(t));
        }
    }

    /// A changed property, when `old != new`.
    fn changed(
        &mut self,
        level: Level,
        item: &str,
        aspect: &str,
        old: impl Into<String>,
        new: impl Into<String>,
        note: impl Into<String>,
    ) {
        let (old, new) = (old.into(), new.into());
        if old != new {
            self.changes.push(Change {
                level,
                item: item.to_owned(),
                kind: Kind::Changed,
                aspect: aspect.to_owned(),
                old: Some(old),
                new: Some(new),
                note: note.into(),
            });
        }
    }

    /// A changed text that is documentation only; the texts are not repeated.
    fn docs(&mut self, item: &str, aspect: &str, old: &str, new: &str) {
        if old != new {
            self.changes.push(Change {
                level: Level::Patch,
                item: item.to_owned(),
                kind: Kind::Changed,
                aspect: aspect.to_owned(),
                old: None,
                new: None,
                note: String::new(),
            });
        }
    }

    fn api(&mut self, old: &Spec, new: &Spec) {
        self.docs("api", "title", &old.title, &new.title);
        self.docs("api", "description", &old.description, &new.description);
        self.docs("api", "notes", &old.notes.join("\n"), &new.notes.join("\n"));
        self.changed(
            Level::Minor,
            "api",
            "base_url",
            quoted(&old.base_url),
            quoted(&new.base_url),
            "the client's default service address",
        );
        self.changed(
            Level::Breaking,
            "api",
            "list_separator",
            quoted(&old.list_separator.to_string()),
            quoted(&new.list_separator.to_string()),
            "values that contain the new separator are now refused",
        );
        self.changed(
            Level::Minor,
            "api",
            "no_data",
            format!("{} {}", old.no_data.status, quoted(&old.no_data.message)),
            format!("{} {}", new.no_data.status, quoted(&new.no_data.message)),
            "how a \"no data\" answer is recognised",
        );
        self.changed(
            Level::Patch,
            "api",
            "no_data source",
            source_name(old.no_data.source),
            source_name(new.no_data.source),
            "",
        );
    }

    fn envelope(&mut self, old: &Spec, new: &Spec) {
        let (o, n) = (&old.envelope, &new.envelope);
        self.docs("envelope", "description", &o.description, &n.description);
        let members: [(&str, &Member, &Member); 4] = [
            ("result_rows", &o.result_rows, &n.result_rows),
            ("units_used", &o.units_used, &n.units_used),
            ("units_remaining", &o.units_remaining, &n.units_remaining),
            ("response", &o.response, &n.response),
        ];
        for (role, o, n) in members {
            let item = format!("envelope / member {role}");
            self.changed(
                Level::Breaking,
                &item,
                "wire",
                quoted(&o.wire),
                quoted(&n.wire),
                "`Envelope` is (de)serialized under the new name",
            );
            self.docs(&item, "description", &o.description, &n.description);
        }
    }

    fn common(&mut self, old: &Spec, new: &Spec) {
        for (role, o, n) in [
            ("key", &old.common.key, &new.common.key),
            ("database", &old.common.database, &new.common.database),
            ("action", &old.common.action, &new.common.action),
        ] {
            let item = format!("common {role}");
            self.changed(
                Level::Patch,
                &item,
                "rust",
                quoted(&o.rust),
                quoted(&n.rust),
                "the operation table's name only",
            );
            self.param(&item, "every call", o, n);
        }
    }

    fn groups(&mut self, old: &[Group], new: &[Group]) {
        let (pairs, removed, added) = pair(old, new, |g| g.wire.clone(), |g| g.rust.clone());
        self.removed_and_added(
            &removed,
            &added,
            |g| format!("group {}", g.wire),
            |g| format!("`client.{}()` and `{}`", g.rust, g.type_name),
            |g| format!("`client.{}()` -> `{}`", g.rust, g.type_name),
        );
        for (o, n) in pairs {
            let item = format!("group {}", o.wire);
            self.changed(
                Level::Minor,
                &item,
                "wire",
                quoted(&o.wire),
                quoted(&n.wire),
                "the CLI's group name",
            );
            self.changed(
                Level::Breaking,
                &item,
                "rust",
                format!("`client.{}()` -> `{}`", o.rust, o.type_name),
                format!("`client.{}()` -> `{}`", n.rust, n.type_name),
                "renamed accessor",
            );
            self.changed(
                Level::Minor,
                &item,
                "path",
                quoted(&o.path),
                quoted(&n.path),
                "its calls go to the new path",
            );
            self.docs(&item, "description", &o.description, &n.description);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairing_matches_a_renamed_item_once() {
        let old = ["a:x", "b:y", "c:z"];
        let new = ["a:x", "b2:y", "d:w"];
        let key = |s: &&str| s.split(':').next().unwrap().to_owned();
        let alt = |s: &&str| s.split(':').nth(1).unwrap().to_owned();
        let (pairs, removed, added) = pair(&old, &new, key, alt);
        assert_eq!(pairs, vec![(&"a:x", &"a:x"), (&"b:y", &"b2:y")]);
        assert_eq!(removed, vec![&"c:z"]);
        assert_eq!(added, vec![&"d:w"]);
    }
}
