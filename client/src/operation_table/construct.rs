//! `const` constructors of the table's entries, in builder style: the
//! generated table is written with them, one short chain per entry, instead of
//! struct literals that spell every field.
//!
//! A constructor takes what every entry has; each chained call sets one more
//! fact. What is not set keeps the neutral value (`None`, `false`, empty).

use std::time::Duration;

use super::{
    Charged, Cost, Counts, FieldInfo, FieldKind, Fold, Fresh, Freshness, Group, Hint, Limit,
    Operation, Param, ParamKind, RecordInfo, Requirement, Response, Role, Service, Shape, Source,
    ValueKind,
};

impl Limit {
    /// A figure from `source`, without a note.
    pub const fn new(value: i64, source: Source) -> Limit {
        Limit {
            value,
            source,
            note: None,
        }
    }

    /// A figure printed in the reference.
    pub const fn stated(value: i64) -> Limit {
        Limit::new(value, Source::Stated)
    }

    /// A figure inferred from the reference's cost table.
    pub const fn inferred(value: i64) -> Limit {
        Limit::new(value, Source::Inferred)
    }

    /// A figure seen in the service's answers or in public use.
    pub const fn observed(value: i64) -> Limit {
        Limit::new(value, Source::Observed)
    }

    /// A figure this client decided (see the note).
    pub const fn decided(value: i64) -> Limit {
        Limit::new(value, Source::Decided)
    }

    /// Why the figure is what it is.
    pub const fn note(mut self, note: &'static str) -> Limit {
        self.note = Some(note);
        self
    }
}

impl Param {
    /// An optional, single-valued parameter of this kind, named `wire` in Rust
    /// as on the wire.
    pub const fn new(wire: &'static str, kind: ParamKind) -> Param {
        Param {
            wire,
            rust: wire,
            kind,
            description: "",
            required: false,
            list: false,
            implicit: false,
            min_items: None,
            max_items: None,
            min: None,
            max: None,
            default: None,
            role: None,
            fold: &[],
        }
    }

    /// A text parameter.
    pub const fn text(wire: &'static str) -> Param {
        Param::new(wire, ParamKind::Text)
    }

    /// An integer parameter.
    pub const fn int(wire: &'static str) -> Param {
        Param::new(wire, ParamKind::Integer)
    }

    /// A date parameter.
    pub const fn date(wire: &'static str) -> Param {
        Param::new(wire, ParamKind::Date)
    }

    /// A parameter whose values are those of the enum `name`.
    pub const fn one_of(
        wire: &'static str,
        name: &'static str,
        values: &'static [&'static str],
    ) -> Param {
        Param::new(wire, ParamKind::Enum { name, values })
    }

    /// Its name in Rust, when not the wire name.
    pub const fn rust(mut self, rust: &'static str) -> Param {
        self.rust = rust;
        self
    }

    /// What it means.
    pub const fn description(mut self, description: &'static str) -> Param {
        self.description = description;
        self
    }

    /// Every call must carry it.
    pub const fn required(mut self) -> Param {
        self.required = true;
        self
    }

    /// It takes several values.
    pub const fn list(mut self) -> Param {
        self.list = true;
        self
    }

    /// The client fills it in, never the caller.
    pub const fn implicit(mut self) -> Param {
        self.implicit = true;
        self
    }

    /// The fewest values of a list.
    pub const fn min_items(mut self, limit: Limit) -> Param {
        self.min_items = Some(limit);
        self
    }

    /// The most values of a list.
    pub const fn max_items(mut self, limit: Limit) -> Param {
        self.max_items = Some(limit);
        self
    }

    /// The smallest integer value.
    pub const fn min(mut self, limit: Limit) -> Param {
        self.min = Some(limit);
        self
    }

    /// The largest integer value.
    pub const fn max(mut self, limit: Limit) -> Param {
        self.max = Some(limit);
        self
    }

    /// The value sent when the caller gives none.
    pub const fn default(mut self, value: &'static str) -> Param {
        self.default = Some(value);
        self
    }

    /// What the runtime does with it.
    pub const fn role(mut self, role: Role) -> Param {
        self.role = Some(role);
        self
    }

    /// What two of its values may differ in and still be the same input.
    pub const fn compare(mut self, fold: &'static [Fold]) -> Param {
        self.fold = fold;
        self
    }
}

impl Requirement {
    /// The rule that applies when `if_param` is `if_value`; what it requires
    /// is set with [`requires`](Self::requires).
    pub const fn when(if_param: &'static str, if_value: &'static str, source: Source) -> Self {
        Requirement {
            if_param,
            if_value,
            require: "",
            equal_to: None,
            source,
            description: "",
        }
    }

    /// The parameter that must then be present.
    pub const fn requires(mut self, param: &'static str) -> Self {
        self.require = param;
        self
    }

    /// The value it must then have.
    pub const fn equal_to(mut self, value: &'static str) -> Self {
        self.equal_to = Some(value);
        self
    }

    /// The rule in words.
    pub const fn description(mut self, description: &'static str) -> Self {
        self.description = description;
        self
    }
}

impl Response {
    /// A response of this shape whose payload is the spec record `payload`
    /// (or `serp`).
    pub const fn new(shape: Shape, payload: &'static str) -> Response {
        Response {
            shape,
            payload,
            description: "",
        }
    }

    /// What it holds.
    pub const fn description(mut self, description: &'static str) -> Response {
        self.description = description;
        self
    }
}

impl Cost {
    /// Costs read as `charged` from the unit figures `units`, that reading
    /// coming from `source`, with at most `per_request` items or rows
    /// (`counts`) per request and `per_minute` requests per minute.
    pub const fn new(
        charged: Charged,
        units: &'static [i64],
        source: Source,
        per_request: Limit,
        counts: Counts,
        per_minute: Limit,
    ) -> Cost {
        Cost {
            printed: None,
            trailing: None,
            units,
            charged,
            charged_source: source,
            charged_note: None,
            per_request,
            per_request_counts: counts,
            requests_per_minute: per_minute,
        }
    }

    /// The unit figure(s) exactly as the reference prints them.
    pub const fn printed(mut self, printed: &'static str) -> Cost {
        self.printed = Some(printed);
        self
    }

    /// The trailing figures exactly as printed.
    pub const fn trailing(mut self, trailing: &'static str) -> Cost {
        self.trailing = Some(trailing);
        self
    }

    /// Why the reading of the figures is what it is.
    pub const fn charged_note(mut self, note: &'static str) -> Cost {
        self.charged_note = Some(note);
        self
    }
}

impl Freshness {
    /// Answers fresh for `ttl_secs` seconds, a figure from `source`.
    pub const fn new(ttl_secs: u64, source: Source) -> Freshness {
        Freshness {
            ttl: Duration::from_secs(ttl_secs),
            past_days: None,
            source,
            note: None,
        }
    }

    /// An answer about a day before today never changes.
    pub const fn past_days_for_good(mut self) -> Freshness {
        self.past_days = Some(Fresh::ForGood);
        self
    }

    /// An answer about a day before today stays fresh `secs` seconds.
    pub const fn past_days_for(mut self, secs: u64) -> Freshness {
        self.past_days = Some(Fresh::For(Duration::from_secs(secs)));
        self
    }

    /// Why the figures are what they are.
    pub const fn note(mut self, note: &'static str) -> Freshness {
        self.note = Some(note);
        self
    }
}

impl Operation {
    /// The operation `action` of `group` (whose path is `path`) of `service`,
    /// with the response and costs given, reached in Rust by a method named as the
    /// action. Its parameters and rules are set with [`params`](Self::params)
    /// and [`rules`](Self::rules). Until [`freshness`](Self::freshness) says
    /// otherwise, no answer of it is ever fresh (a TTL of zero).
    pub const fn new(
        service: &'static Service,
        group: &'static str,
        path: &'static str,
        action: &'static str,
        response: Response,
        cost: Cost,
    ) -> Operation {
        Operation {
            service,
            group,
            path,
            action,
            aliases: &[],
            method: action,
            description: "",
            params: &[],
            rules: &[],
            response,
            cost,
            freshness: Freshness::new(0, Source::Decided),
            batched_by: None,
            paged_by: None,
        }
    }

    /// A batched job splits the values of its list parameter `param`.
    pub const fn batched_by(mut self, param: &'static str) -> Operation {
        self.batched_by = Some(param);
        self
    }

    /// A paged job steps its `offset` parameter by pages of `limit` rows.
    pub const fn paged_by(mut self, offset: &'static str, limit: &'static str) -> Operation {
        self.paged_by = Some((offset, limit));
        self
    }

    /// How long its answers stay fresh.
    pub const fn freshness(mut self, freshness: Freshness) -> Operation {
        self.freshness = freshness;
        self
    }

    /// Its builder method's name in Rust, when not the action's.
    pub const fn method(mut self, method: &'static str) -> Operation {
        self.method = method;
        self
    }

    /// Other names the reference uses for it.
    pub const fn aliases(mut self, aliases: &'static [&'static str]) -> Operation {
        self.aliases = aliases;
        self
    }

    /// What it does.
    pub const fn description(mut self, description: &'static str) -> Operation {
        self.description = description;
        self
    }

    /// Its own parameters, in spec order.
    pub const fn params(mut self, params: &'static [Param]) -> Operation {
        self.params = params;
        self
    }

    /// The rules between its parameters.
    pub const fn rules(mut self, rules: &'static [Requirement]) -> Operation {
        self.rules = rules;
        self
    }
}

impl Group {
    /// The group `name` at `path`.
    pub const fn new(name: &'static str, path: &'static str) -> Group {
        Group {
            name,
            path,
            description: "",
        }
    }

    /// What its operations give.
    pub const fn description(mut self, description: &'static str) -> Group {
        self.description = description;
        self
    }
}

impl Hint {
    /// A value of this kind, with no range given.
    pub const fn new(kind: ValueKind) -> Hint {
        Hint { kind, range: None }
    }

    /// The range the reference gives for it.
    pub const fn range(mut self, low: i64, high: i64) -> Hint {
        self.range = Some((low, high));
        self
    }
}

impl FieldInfo {
    /// A field of this kind, named `wire` in Rust as on the wire, never
    /// `null` nor absent.
    pub const fn new(wire: &'static str, kind: FieldKind) -> FieldInfo {
        FieldInfo {
            wire,
            rust: wire,
            kind,
            nullable: false,
            optional: false,
            presence: Source::Stated,
            hint: None,
            priority: None,
            description: "",
        }
    }

    /// Its name in Rust, when not the wire name.
    pub const fn rust(mut self, rust: &'static str) -> FieldInfo {
        self.rust = rust;
        self
    }

    /// It may be `null`.
    pub const fn nullable(mut self) -> FieldInfo {
        self.nullable = true;
        self
    }

    /// It may be absent.
    pub const fn optional(mut self) -> FieldInfo {
        self.optional = true;
        self
    }

    /// Where its presence (required, optional, nullable) is known from,
    /// when not the reference.
    pub const fn presence(mut self, source: Source) -> FieldInfo {
        self.presence = source;
        self
    }

    /// What its value is.
    pub const fn hint(mut self, hint: Hint) -> FieldInfo {
        self.hint = Some(hint);
        self
    }

    /// One of its record's main measures, of this rank (1 most wanted).
    pub const fn priority(mut self, rank: u8) -> FieldInfo {
        self.priority = Some(rank);
        self
    }

    /// What it means.
    pub const fn description(mut self, description: &'static str) -> FieldInfo {
        self.description = description;
        self
    }
}

impl RecordInfo {
    /// The spec record `name`, generated as the Rust type `type_name`, with
    /// these fields.
    pub const fn new(
        name: &'static str,
        type_name: &'static str,
        fields: &'static [FieldInfo],
    ) -> RecordInfo {
        RecordInfo {
            name,
            type_name,
            description: "",
            fields,
            key: None,
        }
    }

    /// What it holds.
    pub const fn description(mut self, description: &'static str) -> RecordInfo {
        self.description = description;
        self
    }

    /// Wire name of the text field that names a row's input.
    pub const fn key(mut self, key: &'static str) -> RecordInfo {
        self.key = Some(key);
        self
    }
}
