//! Stage 1b: expand the references of the spec as written.
//!
//! A fact is written once and named: a parameter under `[params.NAME]`, a cost
//! reading under `[costs.NAME]`, a freshness under `[freshness.NAME]`, a provenance under `[provenance]`, a run of
//! fields as a `[[fieldsets]]` entry. Actions and records refer to them by name.
//! This stage replaces every reference by what it names, so that
//! [`crate::validate`] sees each action's parameters and cost, and each record's
//! fields, in full. The spans travel along: a value still points at the place
//! in the spec where it is written.
//!
//! Two ways to build on a definition, with one rule each:
//! - a shared definition (`[params.X]`, `[costs.X]`, `[freshness.X]`) or an
//!   action's cost or freshness may say `use = "Y"` and add or replace any key
//!   of `Y` (a provenance, `source` and `note` or `why`, is replaced whole);
//! - an action's parameter written `{ use = "Y", ... }` may only replace what
//!   `Y` has (its description, a limit, ...): an override of something `Y` does
//!   not define is an error, as is a reference to an unknown name or a cycle of
//!   `use`.

use std::collections::BTreeMap;
use std::ops::Range;

use toml::Spanned;

use crate::diagnostics::Collector;
use crate::parse::{self, CostDef, Entry, FreshnessDef, LimitDef, ParamDef, PresenceDef, Ref, S};

/// The name a limit uses for the action's first trailing cost figure.
pub const PER_REQUEST: &str = "per_request";

/// A parameter with every reference expanded.
#[derive(Debug, Clone)]
pub struct Param {
    pub wire: S,
    pub rust: Option<S>,
    pub ty: S,
    pub description: S,
    pub required: Spanned<bool>,
    pub presence: Option<Provenance>,
    pub list: Option<Spanned<bool>>,
    pub min_items: Option<Limit>,
    pub max_items: Option<Limit>,
    pub min: Option<Limit>,
    pub max: Option<Limit>,
    pub default: Option<Spanned<parse::Literal>>,
    pub implicit: Option<Spanned<bool>>,
    pub role: Option<S>,
    pub compare: Option<Spanned<parse::CompareDef>>,
}

/// A figure and its provenance.
#[derive(Debug, Clone)]
pub struct Limit {
    pub value: Spanned<i64>,
    pub source: S,
    pub note: Option<S>,
}

pub type Provenance = parse::Provenance;

/// A cost with every reference expanded.
#[derive(Debug, Clone)]
pub struct Cost {
    /// Absent when the reference prints no cost (`charged = "unknown"`).
    pub printed: Option<S>,
    /// Absent when the figures are not the reference's.
    pub trailing: Option<S>,
    /// Given in the plain form; otherwise read from `printed`.
    pub units: Option<Spanned<Vec<i64>>>,
    pub charged: S,
    pub charged_source: Provenance,
    pub per_request: Limit,
    pub per_request_counts: S,
    pub requests_per_minute: Limit,
}

/// How long an answer stays fresh, with every reference expanded. The
/// durations stay text for [`crate::validate`] to read where they are written.
#[derive(Debug, Clone)]
pub struct Freshness {
    pub ttl: S,
    pub past_days: Option<S>,
    pub source: S,
    pub note: Option<S>,
    /// Where the action names it.
    pub at: Range<usize>,
}

/// How a record's member may arrive, with its provenance, a shared
/// definition expanded.
#[derive(Debug, Clone)]
pub struct Presence {
    pub optional: bool,
    pub nullable: bool,
    pub source: S,
    pub note: Option<S>,
}

/// A record with its fieldsets expanded in place.
#[derive(Debug)]
pub struct Record<'a> {
    pub raw: &'a parse::Record,
    pub fields: Vec<parse::Field>,
}

/// An action with its parameters and cost expanded.
#[derive(Debug)]
pub struct Action<'a> {
    pub raw: &'a parse::Action,
    /// Where the action is known from, when the spec says.
    pub source: Option<Provenance>,
    pub params: Vec<Param>,
    /// `None` when the cost could not be read (an error was reported).
    pub cost: Option<Cost>,
    /// `None` when the freshness could not be read (an error was reported).
    pub freshness: Option<Freshness>,
}

/// The parameters every call carries.
#[derive(Debug)]
pub struct Common {
    pub key: Option<Param>,
    pub database: Option<Param>,
    pub action: Option<Param>,
}

/// The spec with its references expanded.
#[derive(Debug)]
pub struct Resolved<'a> {
    pub common: Common,
    /// The provenance of each enum's values, in spec order.
    pub enum_sources: Vec<Option<Provenance>>,
    pub records: Vec<Record<'a>>,
    pub actions: Vec<Action<'a>>,
}

/// Expand every reference of `spec`, reporting each problem to `c`.
pub fn resolve<'a>(c: &mut Collector, spec: &'a parse::SpecFile) -> Resolved<'a> {
    let mut cx = Cx {
        c,
        spec,
        memo: Memo::default(),
    };
    let common = Common {
        key: cx.common_param(&spec.common.key),
        database: cx.common_param(&spec.common.database),
        action: cx.common_param(&spec.common.action),
    };
    let enum_sources = spec
        .enums
        .iter()
        .map(|e| e.source.as_ref().and_then(|s| cx.provenance(s)))
        .collect();
    let records = spec.records.iter().map(|r| cx.record(r)).collect();
    let actions = spec.actions.iter().map(|a| cx.action(a)).collect();
    Resolved {
        common,
        enum_sources,
        records,
        actions,
    }
}

/// The numbers in a printed figure: `"50 and 10"` -> `[50, 10]`, `"10.000"` -> `[10000]`
/// (the reference writes thousands with a dot).
pub fn figures(printed: &str) -> Vec<i64> {
    printed
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .map(|part| part.replace('.', ""))
        .filter(|part| !part.is_empty())
        .filter_map(|part| part.parse().ok())
        .collect()
}

/// A shared definition that may build on another (`use`).
trait Layered: Clone + Default + Sized {
    /// What the sections holding these definitions are called, for messages.
    const SECTION: &'static str;
    /// The shared definitions of this kind.
    fn defs(spec: &parse::SpecFile) -> &BTreeMap<String, Spanned<Self>>;
    /// The expansions of this kind done so far.
    fn memo(memo: &mut Memo) -> &mut BTreeMap<String, State<Self>>;
    fn base(&self) -> Option<&S>;
    /// `self` written over `under`: every key `self` gives replaces `under`'s.
    fn over(&self, under: Self) -> Self;
}

/// `top`'s value where it gives one, else `under`'s, for each named key.
macro_rules! overlay {
    ($top:expr, $under:expr; $($key:ident),+) => {
        Self { base: None, $($key: $top.$key.clone().or($under.$key)),+ }
    };
}

impl Layered for ParamDef {
    const SECTION: &'static str = "params";

    fn defs(spec: &parse::SpecFile) -> &BTreeMap<String, Spanned<Self>> {
        &spec.params
    }

    fn memo(memo: &mut Memo) -> &mut BTreeMap<String, State<Self>> {
        &mut memo.params
    }

    fn base(&self) -> Option<&S> {
        self.base.as_ref()
    }

    fn over(&self, under: Self) -> Self {
        overlay!(self, under; wire, rust, ty, description, required, presence, list,
            min_items, max_items, min, max, default, implicit, role, compare)
    }
}

impl Layered for CostDef {
    const SECTION: &'static str = "costs";

    fn defs(spec: &parse::SpecFile) -> &BTreeMap<String, Spanned<Self>> {
        &spec.costs
    }

    fn memo(memo: &mut Memo) -> &mut BTreeMap<String, State<Self>> {
        &mut memo.costs
    }

    fn base(&self) -> Option<&S> {
        self.base.as_ref()
    }

    fn over(&self, under: Self) -> Self {
        overlay!(self, under; printed, trailing, units, charged, charged_source, per_request,
            per_request_counts, requests_per_minute)
    }
}

impl Layered for FreshnessDef {
    const SECTION: &'static str = "freshness";

    fn defs(spec: &parse::SpecFile) -> &BTreeMap<String, Spanned<Self>> {
        &spec.freshness
    }

    fn memo(memo: &mut Memo) -> &mut BTreeMap<String, State<Self>> {
        &mut memo.freshness
    }

    fn base(&self) -> Option<&S> {
        self.base.as_ref()
    }

    fn over(&self, under: Self) -> Self {
        // A provenance says why this definition's figures are what they are:
        // one that gives its own replaces the one below whole, so that a
        // `why` above and a `source` below never mix.
        let own = self.source.is_some() || self.note.is_some() || self.why.is_some();
        let (source, note, why) = if own {
            (self.source.clone(), self.note.clone(), self.why.clone())
        } else {
            (under.source, under.note, under.why)
        };
        FreshnessDef {
            base: None,
            ttl: self.ttl.clone().or(under.ttl),
            past_days: self.past_days.clone().or(under.past_days),
            source,
            note,
            why,
        }
    }
}

/// A shared definition being expanded, or expanded already.
#[derive(Clone)]
enum State<T> {
    Busy,
    Done(Option<T>),
}

/// Shared definitions expanded so far, by kind.
#[derive(Default)]
struct Memo {
    params: BTreeMap<String, State<ParamDef>>,
    costs: BTreeMap<String, State<CostDef>>,
    freshness: BTreeMap<String, State<FreshnessDef>>,
}

struct Cx<'c, 'a, 's> {
    c: &'c mut Collector<'s>,
    spec: &'a parse::SpecFile,
    memo: Memo,
}

/// A provenance as written where one goes: in place, or named (a key of
/// `[provenance]`). An unknown name is reported to `c`.
pub fn provenance(
    c: &mut Collector,
    spec: &parse::SpecFile,
    r: &Ref<parse::Provenance>,
) -> Option<Provenance> {
    Cx {
        c,
        spec,
        memo: Memo::default(),
    }
    .provenance(r)
}

/// A field's presence: the shared definition it names (`[presence.NAME]`), or
/// the table written in place, with its provenance (`source` and `note`, or
/// `why`) read. Every problem is reported to `c`.
pub fn presence(
    c: &mut Collector,
    spec: &parse::SpecFile,
    r: &Ref<PresenceDef>,
) -> Option<Presence> {
    let def = match r.get_ref() {
        Entry::Inline(def) => def,
        Entry::Name(name) => match spec.presence.get(name) {
            Some(def) => def.get_ref(),
            None => {
                c.error(
                    r.span(),
                    format!("unknown presence `{name}`: no `[presence.{name}]`"),
                );
                return None;
            }
        },
    };
    let mut cx = Cx {
        c,
        spec,
        memo: Memo::default(),
    };
    let provenance = LimitDef {
        value: None,
        source: def.source.clone(),
        note: def.note.clone(),
        why: def.why.clone(),
    };
    let (source, note) = cx.provenance_of(&provenance, r.span(), "a presence")?;
    let flag = |b: &Option<Spanned<bool>>| b.as_ref().is_some_and(|b| *b.get_ref());
    Some(Presence {
        optional: flag(&def.optional),
        nullable: flag(&def.nullable),
        source,
        note,
    })
}

impl<'a> Cx<'_, 'a, '_> {
    fn provenance(&mut self, r: &Ref<parse::Provenance>) -> Option<Provenance> {
        match r.get_ref() {
            Entry::Inline(p) => Some(p.clone()),
            Entry::Name(name) => {
                let found = self.spec.provenance.get(name).cloned();
                if found.is_none() {
                    self.c.error(
                        r.span(),
                        format!("unknown provenance `{name}`: no `{name}` under `[provenance]`"),
                    );
                }
                found
            }
        }
    }

    /// A limit; `per_request` is the action's first trailing figure, when the
    /// limit is read for an action.
    fn limit(&mut self, r: &Ref<LimitDef>, per_request: Option<&Limit>) -> Option<Limit> {
        match r.get_ref() {
            Entry::Name(name) if name == PER_REQUEST => match per_request {
                Some(limit) => Some(limit.clone()),
                None => {
                    self.c.error(
                        r.span(),
                        format!("`{PER_REQUEST}` is a figure of an action's cost: it cannot be used here"),
                    );
                    None
                }
            },
            Entry::Name(name) => {
                self.c.error(
                    r.span(),
                    format!("a limit is a table `{{ value, source, note }}` or \"{PER_REQUEST}\", not \"{name}\""),
                );
                None
            }
            Entry::Inline(def) => {
                let Some(value) = def.value.clone() else {
                    self.c.error(r.span(), "a limit needs a `value`");
                    return None;
                };
                self.limit_provenance(def, r.span())
                    .map(|(source, note)| Limit {
                        value,
                        source,
                        note,
                    })
            }
        }
    }

    /// The `source` and `note` of a limit: written in place, or named by `why`.
    fn limit_provenance(&mut self, def: &LimitDef, at: Range<usize>) -> Option<(S, Option<S>)> {
        self.provenance_of(def, at, "a limit")
    }

    /// The `source` and `note` of `what` (a limit, a freshness): written in
    /// place, or named by `why`.
    fn provenance_of(
        &mut self,
        def: &LimitDef,
        at: Range<usize>,
        what: &str,
    ) -> Option<(S, Option<S>)> {
        match (&def.source, &def.why) {
            (Some(source), None) => Some((source.clone(), def.note.clone())),
            (None, Some(why)) if def.note.is_none() => {
                let named = Spanned::new(why.span(), Entry::Name(why.get_ref().clone()));
                self.provenance(&named).map(|p| (p.source, p.note))
            }
            (None, None) => {
                self.c.error(
                    at,
                    format!("{what} needs its provenance: `source` (and `note`), or `why`"),
                );
                None
            }
            _ => {
                self.c.error(
                    at,
                    format!(
                        "{what} gives its provenance once: either `source` (and `note`) or `why`"
                    ),
                );
                None
            }
        }
    }

    fn common_param(&mut self, def: &Spanned<ParamDef>) -> Option<Param> {
        let flat = match def.get_ref().base() {
            Some(_) => self.layered(def)?,
            None => def.get_ref().clone(),
        };
        self.complete_param(&flat, def.span(), None)
    }

    /// The shared definition `name`, with its `use` chain written under it.
    fn shared<T: Layered>(&mut self, name: &str, at: Range<usize>) -> Option<T> {
        let spec = self.spec;
        let Some(def) = T::defs(spec).get(name) else {
            self.c.error(
                at,
                format!("unknown name `{name}`: no `[{}.{name}]`", T::SECTION),
            );
            return None;
        };
        match T::memo(&mut self.memo).get(name) {
            Some(State::Done(done)) => return done.clone(),
            Some(State::Busy) => {
                self.c.error(
                    at,
                    format!(
                        "`use` makes a cycle: `[{}.{name}]` ends up building on itself",
                        T::SECTION
                    ),
                );
                return None;
            }
            None => {}
        }
        T::memo(&mut self.memo).insert(name.to_owned(), State::Busy);
        let flat = self.layered(def);
        T::memo(&mut self.memo).insert(name.to_owned(), State::Done(flat.clone()));
        flat
    }

    /// `def` written over the definition it uses (if any).
    fn layered<T: Layered>(&mut self, def: &Spanned<T>) -> Option<T> {
        let top = def.get_ref();
        let under = match top.base() {
            Some(base) => self.shared(base.get_ref(), base.span())?,
            None => T::default(),
        };
        Some(top.over(under))
    }

    fn record(&mut self, r: &'a parse::Record) -> Record<'a> {
        let mut fields = Vec::new();
        let included = r
            .include
            .iter()
            .map(|name| Spanned::new(name.span(), Entry::Name(name.get_ref().clone())));
        for entry in included.chain(r.fields.iter().cloned()) {
            match entry.get_ref() {
                Entry::Inline(field) => fields.push(field.clone()),
                Entry::Name(name) => {
                    match self
                        .spec
                        .fieldsets
                        .iter()
                        .find(|fs| fs.name.get_ref() == name)
                    {
                        Some(set) => fields.extend(set.fields.iter().cloned()),
                        None => self.c.error(
                            entry.span(),
                            format!("unknown fieldset `{name}`: no `[[fieldsets]]` of that name"),
                        ),
                    }
                }
            }
        }
        Record { raw: r, fields }
    }

    fn action(&mut self, a: &'a parse::Action) -> Action<'a> {
        let cost = self.cost(&a.cost);
        let per_request = cost.as_ref().map(|c| &c.per_request);
        let params = a
            .params
            .iter()
            .filter_map(|entry| {
                let flat = self.action_param(entry)?;
                self.complete_param(&flat, entry.span(), per_request)
            })
            .collect();
        let source = a.source.as_ref().and_then(|s| self.provenance(s));
        let freshness = self.freshness(&a.freshness);
        Action {
            raw: a,
            source,
            params,
            cost,
            freshness,
        }
    }

    /// An action's freshness: a shared one by name, or a table that builds on one.
    fn freshness(&mut self, entry: &Ref<FreshnessDef>) -> Option<Freshness> {
        let at = entry.span();
        let flat = match entry.get_ref() {
            Entry::Name(name) => self.shared::<FreshnessDef>(name, at.clone())?,
            Entry::Inline(def) => self.layered(&Spanned::new(at.clone(), def.clone()))?,
        };
        let Some(ttl) = flat.ttl.clone() else {
            self.c.error(at, "this freshness has no `ttl`");
            return None;
        };
        let provenance = LimitDef {
            value: None,
            source: flat.source.clone(),
            note: flat.note.clone(),
            why: flat.why.clone(),
        };
        let (source, note) = self.provenance_of(&provenance, at.clone(), "a freshness")?;
        Some(Freshness {
            ttl,
            past_days: flat.past_days,
            source,
            note,
            at,
        })
    }

    /// An action's parameter: a shared one by name, a shared one with
    /// overrides, or one written in place.
    fn action_param(&mut self, entry: &Ref<ParamDef>) -> Option<ParamDef> {
        match entry.get_ref() {
            Entry::Name(name) => self.shared(name, entry.span()),
            Entry::Inline(def) => {
                let Some(base) = &def.base else {
                    return Some(def.clone());
                };
                let under = self.shared::<ParamDef>(base.get_ref(), base.span())?;
                self.check_overrides(def, &under, base.get_ref());
                Some(def.over(under))
            }
        }
    }

    /// An action may replace what a shared parameter has, not add to it.
    fn check_overrides(&mut self, top: &ParamDef, under: &ParamDef, name: &str) {
        let optional = [
            (
                "min_items",
                top.min_items.as_ref().map(Spanned::span),
                under.min_items.is_some(),
            ),
            (
                "max_items",
                top.max_items.as_ref().map(Spanned::span),
                under.max_items.is_some(),
            ),
            (
                "min",
                top.min.as_ref().map(Spanned::span),
                under.min.is_some(),
            ),
            (
                "max",
                top.max.as_ref().map(Spanned::span),
                under.max.is_some(),
            ),
            (
                "default",
                top.default.as_ref().map(Spanned::span),
                under.default.is_some(),
            ),
        ];
        for (key, given, exists) in optional {
            if let (Some(at), false) = (given, exists) {
                self.c.error(
                    at,
                    format!("`{key}` overrides nothing: `[params.{name}]` has no `{key}`"),
                );
            }
        }
    }

    fn complete_param(
        &mut self,
        def: &ParamDef,
        at: Range<usize>,
        per_request: Option<&Limit>,
    ) -> Option<Param> {
        let missing = |c: &mut Collector, key: &str| {
            c.error(at.clone(), format!("this parameter has no `{key}`"));
        };
        let (Some(wire), Some(ty), Some(description), Some(required)) = (
            def.wire.clone(),
            def.ty.clone(),
            def.description.clone(),
            def.required.clone(),
        ) else {
            for (key, absent) in [
                ("wire", def.wire.is_none()),
                ("type", def.ty.is_none()),
                ("description", def.description.is_none()),
                ("required", def.required.is_none()),
            ] {
                if absent {
                    missing(self.c, key);
                }
            }
            return None;
        };
        let mut limit =
            |l: &Option<Ref<LimitDef>>| l.as_ref().and_then(|l| self.limit(l, per_request));
        let (min_items, max_items, min, max) = (
            limit(&def.min_items),
            limit(&def.max_items),
            limit(&def.min),
            limit(&def.max),
        );
        Some(Param {
            wire,
            rust: def.rust.clone(),
            ty,
            description,
            required,
            presence: def.presence.as_ref().and_then(|p| self.provenance(p)),
            list: def.list.clone(),
            min_items,
            max_items,
            min,
            max,
            default: def.default.clone(),
            implicit: def.implicit.clone(),
            role: def.role.clone(),
            compare: def.compare.clone(),
        })
    }

    fn cost(&mut self, entry: &Ref<CostDef>) -> Option<Cost> {
        let flat = match entry.get_ref() {
            Entry::Name(name) => self.shared::<CostDef>(name, entry.span())?,
            Entry::Inline(def) => self.layered(&Spanned::new(entry.span(), def.clone()))?,
        };
        let at = entry.span();
        let need = |value: Option<S>, key: &str, c: &mut Collector| {
            if value.is_none() {
                c.error(at.clone(), format!("this cost has no `{key}`"));
            }
            value
        };
        let charged = need(flat.charged.clone(), "charged", self.c);
        let counts = need(
            flat.per_request_counts.clone(),
            "per_request_counts",
            self.c,
        );
        let charged_source = match &flat.charged_source {
            Some(p) => self.provenance(p),
            None => {
                self.c
                    .error(at.clone(), "this cost has no `charged_source`");
                None
            }
        };
        // Whether `printed` and `trailing` must be there is `validate`'s call:
        // a cost the reference does not print has neither.
        let (printed, trailing) = (flat.printed.clone(), flat.trailing.clone());
        let read = figures(trailing.as_ref().map_or("", |t| t.get_ref()));
        let per_request = self.figure(
            &flat.per_request,
            "per_request",
            trailing.as_ref(),
            read.first(),
            &at,
        );
        let per_minute = self.figure(
            &flat.requests_per_minute,
            "requests_per_minute",
            trailing.as_ref(),
            read.get(1),
            &at,
        );
        Some(Cost {
            printed,
            trailing,
            units: flat.units.clone(),
            charged: charged?,
            charged_source: charged_source?,
            per_request: per_request?,
            per_request_counts: counts?,
            requests_per_minute: per_minute?,
        })
    }

    /// A cost figure: its own `value`, or else the figure read from `trailing`
    /// (with the span of `trailing`).
    fn figure(
        &mut self,
        def: &Option<Ref<LimitDef>>,
        key: &str,
        trailing: Option<&S>,
        read: Option<&i64>,
        at: &Range<usize>,
    ) -> Option<Limit> {
        let Some(entry) = def else {
            self.c
                .error(at.clone(), format!("this cost has no `{key}`"));
            return None;
        };
        match entry.get_ref() {
            Entry::Inline(limit) if limit.value.is_none() => {
                let (source, note) = self.limit_provenance(limit, entry.span())?;
                let (Some(trailing), Some(value)) = (trailing, read) else {
                    self.c.error(
                        entry.span(),
                        format!("`{key}` has no `value`, and `trailing` gives none"),
                    );
                    return None;
                };
                Some(Limit {
                    value: Spanned::new(trailing.span(), *value),
                    source,
                    note,
                })
            }
            _ => self.limit(entry, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::figures;

    #[test]
    fn figures_read_as_printed() {
        assert_eq!(figures("50 and 10"), vec![50, 10]);
        assert_eq!(figures("10.000 / 20"), vec![10000, 20]);
        assert_eq!(figures("1 / 150"), vec![1, 150]);
        assert_eq!(figures("100"), vec![100]);
    }
}
