//! Actions: their methods and builders, parameters and limits, rules, response
//! type and cost figures.

use std::collections::BTreeSet;

use super::describe::{
    call, limit_text, method, output_type, param_type_name, quoted, refused, source_name,
};
use super::{Differ, pair};
use crate::diff::{Kind, Level};
use crate::model::{Action, Charged, Counts, Fresh, Freshness, Limit, Param, Rule, duration_text};

impl Differ {
    pub(super) fn actions(&mut self, old: &[Action], new: &[Action]) {
        let (pairs, removed, added) = pair(
            old,
            new,
            |a| format!("{} {}", a.group, a.wire),
            |a| format!("{} {}", a.group, a.rust),
        );
        self.removed_and_added(
            &removed,
            &added,
            |a| format!("action {} {}", a.group, a.wire),
            |a| format!("`{}` and `{}`", call(a), a.type_name),
            |a| format!("`{}` -> `{}`", call(a), a.type_name),
        );
        for (o, n) in pairs {
            self.action(o, n);
        }
    }

    fn action(&mut self, o: &Action, n: &Action) {
        let item = format!("action {} {}", o.group, o.wire);
        self.changed(
            Level::Minor,
            &item,
            "wire",
            quoted(&o.wire),
            quoted(&n.wire),
            "the `action` sent, and the CLI's subcommand",
        );
        self.changed(
            Level::Breaking,
            &item,
            "rust",
            format!("`{}` -> `{}`", method(o), o.type_name),
            format!("`{}` -> `{}`", method(n), n.type_name),
            "renamed method and builder",
        );
        self.docs(&item, "description", &o.description, &n.description);
        let (oa, na): (BTreeSet<&String>, BTreeSet<&String>) =
            (o.aliases.iter().collect(), n.aliases.iter().collect());
        for alias in oa.difference(&na) {
            self.push(
                Level::Breaking,
                Kind::Removed,
                &format!("{item} / alias {alias}"),
                "the CLI no longer accepts it",
            );
        }
        for alias in na.difference(&oa) {
            self.push(
                Level::Minor,
                Kind::Added,
                &format!("{item} / alias {alias}"),
                "",
            );
        }
        self.params(&item, o, n);
        self.rules(&item, o, n);
        self.response(&item, o, n);
        self.cost(&item, o, n);
        self.freshness(&item, &o.freshness, &n.freshness);
    }

    /// How long a cache keeps the action's answers: a figure, like the cost's.
    fn freshness(&mut self, item: &str, o: &Freshness, n: &Freshness) {
        let item = format!("{item} / freshness");
        self.changed(
            Level::Patch,
            &item,
            "ttl",
            duration_text(o.ttl_secs),
            duration_text(n.ttl_secs),
            "how long a cached answer is served",
        );
        let past = |f: &Freshness| match f.past_days {
            None => "like the ttl".to_owned(),
            Some(Fresh::ForGood) => "for good".to_owned(),
            Some(Fresh::For(secs)) => duration_text(secs),
        };
        self.changed(
            Level::Patch,
            &item,
            "past_days",
            past(o),
            past(n),
            "how long a cached answer about a day before today is served",
        );
        self.changed(
            Level::Patch,
            &item,
            "source",
            source_name(o.source),
            source_name(n.source),
            "",
        );
        self.docs(
            &item,
            "note",
            o.note.as_deref().unwrap_or_default(),
            n.note.as_deref().unwrap_or_default(),
        );
    }

    fn params(&mut self, item: &str, o: &Action, n: &Action) {
        let (pairs, removed, added) = pair(
            &o.params,
            &n.params,
            |p: &Param| p.wire.clone(),
            |p: &Param| p.rust.clone(),
        );
        for p in removed {
            let note = if p.required {
                format!("argument `{}` of `{}`", p.rust, call(o))
            } else {
                format!("`{}::{}(..)`", o.type_name, p.rust)
            };
            self.push(
                Level::Breaking,
                Kind::Removed,
                &format!("{item} / param {}", p.wire),
                note,
            );
        }
        for p in added {
            let item = format!("{item} / param {}", p.wire);
            let what = format!(
                "{}{}",
                if p.list { "list of " } else { "" },
                param_type_name(&p.ty)
            );
            if p.required {
                self.push(
                    Level::Breaking,
                    Kind::Added,
                    &item,
                    format!("required {what}, a new argument: `{}`", call(n)),
                );
            } else {
                self.push(
                    Level::Minor,
                    Kind::Added,
                    &item,
                    format!(
                        "optional {what}, a new method: `{}::{}(..)`",
                        n.type_name, p.rust
                    ),
                );
            }
        }
        for (op, np) in pairs {
            let item = format!("{item} / param {}", op.wire);
            let note = if np.required {
                format!("renamed argument of `{}`", call(n))
            } else {
                format!("renamed method `{}::{}(..)`", n.type_name, np.rust)
            };
            self.changed(
                Level::Breaking,
                &item,
                "rust",
                quoted(&op.rust),
                quoted(&np.rust),
                note,
            );
            self.param(&item, &call(n), op, np);
        }
    }

    /// Everything of a parameter but its Rust name (an action's or a common one);
    /// `call` is where a required parameter is an argument.
    pub(super) fn param(&mut self, item: &str, call: &str, o: &Param, n: &Param) {
        self.changed(
            Level::Minor,
            item,
            "wire",
            quoted(&o.wire),
            quoted(&n.wire),
            "sent under the new name, and the CLI's flag",
        );
        self.changed(
            Level::Breaking,
            item,
            "type",
            param_type_name(&o.ty),
            param_type_name(&n.ty),
            "the Rust argument type changes",
        );
        self.changed(
            Level::Breaking,
            item,
            "required",
            o.required.to_string(),
            n.required.to_string(),
            if n.required {
                format!("now an argument of `{call}`, no longer a method")
            } else {
                format!("no longer an argument of `{call}`, now a method")
            },
        );
        self.changed(
            Level::Breaking,
            item,
            "list",
            o.list.to_string(),
            n.list.to_string(),
            if n.list {
                "it takes an iterator of values instead of one value"
            } else {
                "it takes one value instead of an iterator of values"
            },
        );
        self.changed(
            Level::Breaking,
            item,
            "implicit",
            o.implicit.to_string(),
            n.implicit.to_string(),
            "",
        );
        for (aspect, ol, nl, upper, items) in [
            ("min_items", &o.min_items, &n.min_items, false, true),
            ("max_items", &o.max_items, &n.max_items, true, true),
            ("min", &o.min, &n.min, false, false),
            ("max", &o.max, &n.max, true, false),
        ] {
            self.limit(item, aspect, ol.as_ref(), nl.as_ref(), (upper, items));
        }
        match (&o.default, &n.default) {
            (None, None) => {}
            (None, Some(d)) => self.changed(
                Level::Minor,
                item,
                "default",
                "none",
                quoted(d),
                format!("calls that do not set it now send {}", quoted(d)),
            ),
            (Some(d), None) => self.changed(
                Level::Minor,
                item,
                "default",
                quoted(d),
                "none",
                "calls that do not set it no longer send it",
            ),
            (Some(od), Some(nd)) => self.changed(
                Level::Breaking,
                item,
                "default",
                quoted(od),
                quoted(nd),
                "calls that do not set it now ask for something else",
            ),
        }
        let presence = |p: &Param| {
            p.presence
                .as_ref()
                .map_or("none", |p| source_name(p.source))
        };
        self.changed(Level::Patch, item, "presence", presence(o), presence(n), "");
        self.compare(item, o, n);
        self.docs(item, "description", &o.description, &n.description);
    }

    /// What counts as the same input. Another rule changes which values a
    /// job sends once, which cached answers it finds and which rows it
    /// matches back: calls still compile and are accepted, so it is minor.
    fn compare(&mut self, item: &str, o: &Param, n: &Param) {
        let folds = |p: &Param| match &p.compare {
            None => "none".to_owned(),
            Some(c) if c.fold.is_empty() => "exactly".to_owned(),
            Some(c) => c
                .fold
                .iter()
                .map(|f| f.word())
                .collect::<Vec<_>>()
                .join(", "),
        };
        self.changed(
            Level::Minor,
            item,
            "compare",
            folds(o),
            folds(n),
            "what counts as the same input changed: jobs send, cache and match their inputs by the new rule",
        );
        let provenance = |p: &Param| {
            p.compare.as_ref().map_or(("none", String::new()), |c| {
                (source_name(c.source), c.note.clone().unwrap_or_default())
            })
        };
        let ((old_source, old_note), (new_source, new_note)) = (provenance(o), provenance(n));
        self.changed(
            Level::Patch,
            item,
            "compare source",
            old_source,
            new_source,
            "",
        );
        self.docs(item, "compare note", &old_note, &new_note);
    }

    /// A limit. `upper` for a maximum, `items` for a number of list values. A
    /// narrower or new limit refuses calls that were accepted.
    fn limit(
        &mut self,
        item: &str,
        aspect: &str,
        o: Option<&Limit>,
        n: Option<&Limit>,
        (upper, items): (bool, bool),
    ) {
        let (level, note) = match (o, n) {
            (None, None) => return,
            (None, Some(n)) => (
                Level::Breaking,
                format!("new limit: {}", refused(upper, items, n.value)),
            ),
            (Some(_), None) => (Level::Minor, "limit dropped".to_owned()),
            (Some(o), Some(n)) if o.value == n.value => {
                if o.source == n.source {
                    let note = |l: &Limit| l.note.clone().unwrap_or_default();
                    self.docs(item, &format!("{aspect} note"), &note(o), &note(n));
                    return;
                }
                (Level::Patch, "provenance only".to_owned())
            }
            (Some(o), Some(n)) => {
                let narrower = if upper {
                    n.value < o.value
                } else {
                    n.value > o.value
                };
                if narrower {
                    (
                        Level::Breaking,
                        format!("narrowed: {}", refused(upper, items, n.value)),
                    )
                } else {
                    (Level::Minor, "widened".to_owned())
                }
            }
        };
        let text = |l: Option<&Limit>| l.map_or_else(|| "none".to_owned(), limit_text);
        self.changed(level, item, aspect, text(o), text(n), note);
    }

    fn rules(&mut self, item: &str, o: &Action, n: &Action) {
        let key = |r: &Rule| format!("{}={} requires {}", r.if_param, r.if_value, r.require);
        let (pairs, removed, added) = pair(&o.rules, &n.rules, key, key);
        for r in removed {
            self.push(
                Level::Minor,
                Kind::Removed,
                &format!("{item} / rule {}", key(r)),
                "calls it refused are now accepted",
            );
        }
        for r in added {
            let required = match &r.equal_to {
                Some(v) => format!("`{}` = {v}", r.require),
                None => format!("`{}`", r.require),
            };
            self.push(
                Level::Breaking,
                Kind::Added,
                &format!("{item} / rule {}", key(r)),
                format!(
                    "calls with `{}` = {} and without {required} are now refused",
                    r.if_param, r.if_value
                ),
            );
        }
        for (or, nr) in pairs {
            let item = format!("{item} / rule {}", key(or));
            let (level, note) = if nr.equal_to.is_none() {
                (Level::Minor, "any value is now accepted")
            } else {
                (Level::Breaking, "other values are now refused")
            };
            self.changed(
                level,
                &item,
                "equal_to",
                or.equal_to.as_deref().unwrap_or("none"),
                nr.equal_to.as_deref().unwrap_or("none"),
                note,
            );
            self.changed(
                Level::Patch,
                &item,
                "source",
                source_name(or.source),
                source_name(nr.source),
                "",
            );
            self.docs(&item, "description", &or.description, &nr.description);
        }
    }

    fn response(&mut self, item: &str, o: &Action, n: &Action) {
        let item = format!("{item} / response");
        self.changed(
            Level::Breaking,
            &item,
            "type",
            output_type(o),
            output_type(n),
            "`send` returns another type",
        );
        self.docs(
            &item,
            "description",
            &o.response.description,
            &n.response.description,
        );
    }

    fn cost(&mut self, item: &str, o: &Action, n: &Action) {
        let item = format!("{item} / cost");
        let (oc, nc) = (&o.cost, &n.cost);
        let units = |u: &[i64]| {
            u.iter()
                .map(|u| u.to_string())
                .collect::<Vec<_>>()
                .join(" to ")
        };
        self.changed(
            Level::Patch,
            &item,
            "units",
            units(&oc.units),
            units(&nc.units),
            "estimates and budget checks",
        );
        if oc.units == nc.units {
            let printed = |c: &crate::model::Cost| c.printed.clone().unwrap_or_default();
            self.docs(&item, "printed", &printed(oc), &printed(nc));
        }
        let charged = |c: Charged| match c {
            Charged::PerRow => "per_row",
            Charged::PerCall => "per_call",
            Charged::Unknown => "unknown",
        };
        self.changed(
            Level::Patch,
            &item,
            "charged",
            charged(oc.charged),
            charged(nc.charged),
            "estimates and budget checks",
        );
        self.changed(
            Level::Patch,
            &item,
            "charged_source",
            source_name(oc.charged_source.source),
            source_name(nc.charged_source.source),
            "",
        );
        let counts = |c: Counts| match c {
            Counts::Items => "items",
            Counts::Rows => "rows",
        };
        self.changed(
            Level::Patch,
            &item,
            "per_request",
            format!(
                "{} {}",
                limit_text(&oc.per_request),
                counts(oc.per_request_counts)
            ),
            format!(
                "{} {}",
                limit_text(&nc.per_request),
                counts(nc.per_request_counts)
            ),
            "estimates",
        );
        self.changed(
            Level::Patch,
            &item,
            "requests_per_minute",
            limit_text(&oc.requests_per_minute),
            limit_text(&nc.requests_per_minute),
            "the client's rate limit for the operation",
        );
        if oc.per_request.value == nc.per_request.value
            && oc.requests_per_minute.value == nc.requests_per_minute.value
        {
            let trailing = |c: &crate::model::Cost| c.trailing.clone().unwrap_or_default();
            self.docs(&item, "trailing", &trailing(oc), &trailing(nc));
        }
    }
}
