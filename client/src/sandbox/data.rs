//! Data generation: the rows of a validated request, read from the operation's
//! parameters (by their roles), its response shape and its record in
//! [`RECORDS`] (values by their hints). Nothing here names an action, a group,
//! a record, a parameter or a field; the rules are in the module docs of
//! [`crate::sandbox`].

use crate::operation_table::{
    Counts, FieldInfo, FieldKind, Operation, ParamKind, RecordInfo, Role, Shape, Source, ValueKind,
};

use super::encode_quirks::Node;
use super::seed::Seed;
use super::text;

/// Results per search-result page.
const PAGE_SIZE: i64 = 10;
/// Positions generated when neither `page` nor `position` is given.
const POSITIONS: (i64, i64) = (1, 50);
/// Rows available to a paged query with a `limit`, and to one without.
const AVAILABLE_LIMITED: (i64, i64) = (20, 500);
const AVAILABLE_UNLIMITED: (i64, i64) = (3, 30);
/// Nested records per list field.
const NESTED: (i64, i64) = (1, 5);
/// Results per search-result list.
const SERP_RESULTS: (i64, i64) = (10, 50);
/// Deepest nesting of records generated (guards a record that lists itself).
const MAX_DEPTH: u8 = 4;
/// The range of a score or a percentage when the spec gives none.
const HUNDRED: (i64, i64) = (0, 100);

/// What a valid request gives.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Generated {
    /// The `response` member and the row count it is charged by.
    Data {
        /// The payload.
        response: Node,
        /// `ResultRows`.
        rows: i64,
    },
    /// Nothing known about the inputs: the service's "No data found!".
    NoData,
    /// The spec asks for a payload the sandbox cannot generate.
    Unsupported(String),
}

/// Direction of the `variation`/`trend` fields, from an enum parameter whose
/// value is `up`, `down` or `stable`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Trend {
    Any,
    Up,
    Down,
    Stable,
}

/// One generated object: its seed, the input item it describes (a domain, URL
/// or keyword, when there is one) and whether it is a top-level row.
#[derive(Debug, Clone, Copy)]
struct GeneratedRow<'a> {
    seed: Seed,
    item: Option<&'a str>,
    top: bool,
}

/// A parameter that names what is queried (role `input`: a domain, a URL, a
/// keyword).
fn is_input(param: &crate::operation_table::Param) -> bool {
    param.role == Some(Role::Input)
}

struct Context<'q> {
    op: &'static Operation,
    /// The records of the operation's API, by name.
    records: &'static [RecordInfo],
    query: &'q [(&'static str, String)],
    db: &'q str,
    lang: &'q str,
    base: Seed,
    limit: Option<i64>,
    offset: i64,
    positions: (i64, i64),
    trend: Trend,
    /// The single-valued input (or required id) the rows are about.
    subject: Option<&'q str>,
    /// Rows of a paged query, when the sandbox sets them.
    paged_rows: Option<i64>,
}

impl<'q> Context<'q> {
    fn new(
        op: &'static Operation,
        records: &'static [RecordInfo],
        query: &'q [(&'static str, String)],
        paged_rows: Option<i64>,
    ) -> Self {
        let find = |wire: &str| {
            query
                .iter()
                .find(|(w, _)| *w == wire)
                .map(|(_, v)| v.as_str())
        };
        let int =
            |role: Role| find(op.param_with(role)?.wire).and_then(|v| v.trim().parse::<i64>().ok());
        let has_role = |wire: &str, roles: &[Role]| {
            op.param(wire)
                .and_then(|p| p.role)
                .is_some_and(|r| roles.contains(&r))
        };
        let service = op.service;
        let db = find(service.database.wire)
            .or(service.database.default)
            .unwrap_or_default();
        let per_item = op.params.iter().find(|p| p.list && is_input(p));
        let common = [service.database.wire, service.action.wire];
        let mut base = Seed::root().child(op.path).child(op.action).child(db);
        for (wire, value) in query {
            let skip = common.contains(wire)
                || has_role(wire, &[Role::Offset, Role::PageSize])
                || per_item.is_some_and(|p| p.wire == *wire);
            if !skip {
                base = base.child(wire).child(value);
            }
        }
        let positions = match (int(Role::ResultPosition), int(Role::ResultPage)) {
            (Some(p), _) => (p, p),
            (None, Some(page)) => (
                page.saturating_sub(1).saturating_mul(PAGE_SIZE) + 1,
                page.saturating_mul(PAGE_SIZE),
            ),
            (None, None) => POSITIONS,
        };
        let trend = op
            .params
            .iter()
            .filter(|p| matches!(p.kind, ParamKind::Enum { .. }))
            .filter_map(|p| find(p.wire))
            .find_map(|value| match value {
                "up" => Some(Trend::Up),
                "down" => Some(Trend::Down),
                "stable" => Some(Trend::Stable),
                _ => None,
            })
            .unwrap_or(Trend::Any);
        let subject = op
            .params
            .iter()
            .find(|p| is_input(p) && !p.list)
            .or_else(|| op.param_with(Role::Id))
            .and_then(|p| find(p.wire));
        Context {
            op,
            records,
            query,
            db,
            lang: text::lang(db),
            base,
            limit: int(Role::PageSize),
            offset: int(Role::Offset).unwrap_or(0).max(0),
            positions,
            trend,
            subject,
            paged_rows,
        }
    }

    fn value(&self, wire: &str) -> Option<&'q str> {
        self.query
            .iter()
            .find(|(w, _)| *w == wire)
            .map(|(_, v)| v.as_str())
    }

    /// The known values of a parameter (list values split), without repeats.
    fn known_items(&self, wire: &str) -> Vec<&'q str> {
        let Some(value) = self.value(wire) else {
            return Vec::new();
        };
        let list = self.op.param(wire).is_some_and(|p| p.list);
        let values: Vec<&str> = if list {
            value.split(self.op.service.list_separator).collect()
        } else {
            vec![value]
        };
        let mut known: Vec<&str> = Vec::new();
        for v in values {
            if !text::is_unknown(v) && !known.contains(&v) {
                known.push(v);
            }
        }
        known
    }

    /// The top-level rows of an array response.
    fn rows(&self) -> Vec<GeneratedRow<'q>> {
        let top = |seed, item| GeneratedRow {
            seed,
            item,
            top: true,
        };
        if let Some(param) = self.op.params.iter().find(|p| p.list && is_input(p)) {
            return self
                .known_items(param.wire)
                .into_iter()
                .map(|item| top(self.base.child(item), Some(item)))
                .collect();
        }
        if self.op.cost.per_request_counts == Counts::Items {
            return vec![top(self.base.nth(0), self.subject)];
        }
        let (lo, hi) = match self.limit {
            Some(_) => AVAILABLE_LIMITED,
            None => AVAILABLE_UNLIMITED,
        };
        let available = self.paged_rows.unwrap_or_else(|| {
            self.base
                .child("available")
                .between(lo, hi)
                .min(self.op.cost.per_request.value)
        });
        let start = self.offset;
        let end = match self.limit {
            Some(limit) => available.min(start.saturating_add(limit)),
            None => available,
        };
        (start..end.max(start))
            .map(|i| top(self.base.nth(i.unsigned_abs()), self.subject))
            .collect()
    }

    /// The host that URL fields of a row point to: the row's input when it is
    /// a domain or URL, else the request's subject, else one made up.
    fn site(&self, row: &GeneratedRow<'_>) -> String {
        if let Some(host) = row.item.and_then(text::host_of) {
            return host;
        }
        match self.subject {
            Some(subject) => text::host_of(subject)
                .unwrap_or_else(|| text::host(Seed::root().child(self.db).child(subject), self.db)),
            None => text::host(row.seed.child("site"), self.db),
        }
    }

    fn payload(&self, row: GeneratedRow<'_>) -> Result<Node, String> {
        // The spec's payload is a record or, when it names none, a SERP.
        match self.record_named(self.op.response.payload) {
            Some(rec) => Ok(self.record(rec, row, 0)),
            None => Ok(self.serp(row.seed)),
        }
    }

    fn record(&self, rec: &RecordInfo, row: GeneratedRow<'_>, depth: u8) -> Node {
        let mut members = Vec::with_capacity(rec.fields.len());
        for field in rec.fields {
            let seed = row.seed.child(field.wire);
            if let Some(echo) = self.echo(rec, field, &row) {
                members.push((field.wire.to_owned(), Node::Str(echo)));
                continue;
            }
            let absent_one_in = if field.kind == FieldKind::BoolWord {
                3
            } else {
                4
            };
            // Only where the spec knows it (not where it decided to be
            // lenient): the service is taken to send what it is seen to.
            let known = field.presence != Source::Decided;
            if known && field.optional && seed.child("absent").one_in(absent_one_in) {
                continue;
            }
            let value = if known && field.nullable && seed.child("null").one_in(5) {
                Node::Null
            } else if let Some(volume) = monthly_volume(rec, field, &row) {
                Node::Int(volume)
            } else {
                self.field(field, seed, &row, depth)
            };
            members.push((field.wire.to_owned(), value));
        }
        Node::Obj(members)
    }

    /// A top-level row's key field (the spec's record `key`) echoes the input.
    fn echo(&self, rec: &RecordInfo, field: &FieldInfo, row: &GeneratedRow<'_>) -> Option<String> {
        if !row.top || rec.key != Some(field.wire) {
            return None;
        }
        let param = self.op.param_with(Role::Input)?;
        if param.list {
            row.item.map(str::to_owned)
        } else {
            self.value(param.wire).map(str::to_owned)
        }
    }

    fn field(&self, field: &FieldInfo, seed: Seed, row: &GeneratedRow<'_>, depth: u8) -> Node {
        match field.kind {
            FieldKind::Integer => {
                let n = self.integer(field, seed);
                // The service sometimes writes integers as integral floats.
                if seed.child("float").one_in(10) {
                    Node::Float(n as f64)
                } else {
                    Node::Int(n)
                }
            }
            FieldKind::Number => Node::Float(self.number(field, seed)),
            FieldKind::Text => Node::Str(self.text(field, seed, row)),
            FieldKind::BoolWord => Node::Str(if seed.one_in(2) { "true" } else { "false" }.into()),
            FieldKind::Flag => Node::Int(seed.between(0, 1)),
            FieldKind::Date => Node::Str(date(seed)),
            FieldKind::DateTime => Node::Str(format!("{} {}", date(seed), time(seed))),
            FieldKind::Time => Node::Str(time(seed)),
            FieldKind::Serp => self.serp(seed),
            FieldKind::CommaList { values, .. } => Node::Str(self.comma_list(values, seed)),
            FieldKind::List { record: name } => {
                let Some(rec) = self.record_named(name).filter(|_| depth < MAX_DEPTH) else {
                    return Node::Arr(Vec::new());
                };
                let count = seed
                    .child("count")
                    .between(NESTED.0, NESTED.1)
                    .min(self.limit.unwrap_or(i64::MAX));
                let items = (0..count.max(0).unsigned_abs())
                    .map(|i| {
                        let nested = GeneratedRow {
                            seed: seed.nth(i),
                            item: row.item,
                            top: false,
                        };
                        self.record(rec, nested, depth + 1)
                    })
                    .collect();
                Node::Arr(items)
            }
        }
    }

    fn signed(&self, seed: Seed, magnitude: i64) -> i64 {
        match self.trend {
            Trend::Any => seed.between(-magnitude, magnitude),
            Trend::Up => seed.between(1, magnitude),
            Trend::Down => seed.between(-magnitude, -1),
            Trend::Stable => 0,
        }
    }

    fn integer(&self, field: &FieldInfo, seed: Seed) -> i64 {
        let (kind, range) = hint(field);
        match kind {
            Some(ValueKind::Position) => seed.between(self.positions.0, self.positions.1),
            Some(ValueKind::Change) => self.signed(seed, 500),
            Some(ValueKind::Score | ValueKind::Percent) => {
                let (lo, hi) = range.unwrap_or(HUNDRED);
                seed.between(lo, hi)
            }
            Some(ValueKind::Id) => seed.between(1_000, 99_999),
            _ => {
                // Counts, volumes and traffic: 0-999 scaled by 1, 10 or 100.
                let scale = 10_i64.pow(seed.child("scale").below(3) as u32);
                seed.between(0, 999).saturating_mul(scale)
            }
        }
    }

    fn number(&self, field: &FieldInfo, seed: Seed) -> f64 {
        let (kind, range) = hint(field);
        let cents = match kind {
            Some(ValueKind::Money) => seed.between(5, 500),
            Some(ValueKind::Score | ValueKind::Percent) => {
                let (lo, hi) = range.unwrap_or(HUNDRED);
                seed.between(lo.saturating_mul(100), hi.saturating_mul(100))
            }
            Some(ValueKind::Change) => self.signed(seed, 5_000),
            Some(ValueKind::Position) => {
                seed.between(self.positions.0 * 100, self.positions.1 * 100)
            }
            _ => seed.between(0, 1_000_000),
        };
        cents as f64 / 100.0
    }

    fn text(&self, field: &FieldInfo, seed: Seed, row: &GeneratedRow<'_>) -> String {
        match hint(field).0 {
            Some(ValueKind::Language) => self.lang.to_owned(),
            Some(ValueKind::SearchEngine) => text::google_ext(self.db),
            Some(ValueKind::Url) => text::url(seed, &self.site(row)),
            Some(ValueKind::Domain) if row.top => {
                let site = self.site(row);
                site.strip_prefix("www.")
                    .map_or(site.clone(), str::to_owned)
            }
            Some(ValueKind::Domain) => text::host(seed, self.db),
            Some(ValueKind::Locality) => text::locality(seed),
            Some(ValueKind::Category) => text::constant(seed),
            Some(ValueKind::Tag) => {
                if seed.child("empty").one_in(3) {
                    String::new()
                } else {
                    text::word(seed, self.lang)
                }
            }
            Some(ValueKind::Label) => text::label(seed, self.lang),
            // Keywords, and text the spec says nothing more of.
            _ => text::keyword(seed, self.lang),
        }
    }

    /// A comma-joined subset of the known values, or free words with an empty
    /// segment now and then.
    fn comma_list(&self, values: &[&str], seed: Seed) -> String {
        if values.is_empty() {
            let count = seed.child("count").between(1, 3);
            let mut parts: Vec<String> = (0..count.unsigned_abs())
                .map(|i| text::word(seed.nth(i), self.lang))
                .collect();
            if seed.child("gap").one_in(4) {
                let at = usize::try_from(seed.child("at").below(parts.len() as u64 + 1));
                parts.insert(at.unwrap_or(0).min(parts.len()), String::new());
            }
            return parts.join(",");
        }
        let mut chosen: Vec<&str> = values
            .iter()
            .enumerate()
            .filter(|(i, _)| seed.nth(*i as u64).one_in(2))
            .map(|(_, v)| *v)
            .collect();
        if chosen.is_empty() {
            chosen.push(seed.child("one").pick(values, ""));
        }
        chosen.join(",")
    }

    /// A search-result list: positions "1".."N" (N <= 50) in numeric order; some
    /// URLs carry `&amp;`.
    fn serp(&self, seed: Seed) -> Node {
        let count = seed
            .child("results")
            .between(SERP_RESULTS.0, SERP_RESULTS.1);
        let results = (1..=count.unsigned_abs())
            .map(|position| {
                let with_query = position % 4 == 3 || seed.nth(position).child("q").one_in(6);
                let url = text::serp_url(seed.nth(position), self.db, with_query);
                (position.to_string(), Node::Str(url))
            })
            .collect();
        Node::Obj(results)
    }
}

impl Context<'_> {
    fn record_named(&self, name: &str) -> Option<&'static RecordInfo> {
        self.records.iter().find(|r| r.name == name)
    }
}

/// Months in a year: the length of a record's monthly series.
const MONTHS: i64 = 12;

/// The volume of a monthly-volume field: one row's series is one level with a
/// season around a peak month, so that it reads like real seasonality instead
/// of twelve unrelated counts. The month is the field's place among the
/// record's fields of that kind (January first).
fn monthly_volume(rec: &RecordInfo, field: &FieldInfo, row: &GeneratedRow<'_>) -> Option<i64> {
    let is_monthly = |f: &FieldInfo| f.hint.is_some_and(|h| h.kind == ValueKind::MonthlyVolume);
    if !is_monthly(field) {
        return None;
    }
    let month = rec
        .fields
        .iter()
        .take_while(|f| f.wire != field.wire)
        .filter(|f| is_monthly(f))
        .count() as i64;
    let seed = row.seed.child("monthly");
    let scale = 10_i64.pow(seed.child("scale").below(3) as u32);
    let level = seed.child("level").between(50, 999).saturating_mul(scale);
    let peak = seed.child("peak").between(0, MONTHS - 1);
    // Percent above or below the level: highest at the peak, lowest six
    // months away, with a little noise of the month's own.
    let distance = (month - peak)
        .rem_euclid(MONTHS)
        .min((peak - month).rem_euclid(MONTHS));
    let swing = seed.child("swing").between(20, 80);
    let percent = 100 + swing - distance * swing * 2 / (MONTHS / 2)
        + seed.nth(month.unsigned_abs()).between(-5, 5);
    Some(level.saturating_mul(percent.max(1)) / 100)
}

/// A field's value kind and range, as the spec hints them.
fn hint(field: &FieldInfo) -> (Option<ValueKind>, Option<(i64, i64)>) {
    match field.hint {
        Some(h) => (Some(h.kind), h.range),
        None => (None, None),
    }
}

fn date(seed: Seed) -> String {
    let seed = seed.child("date");
    format!(
        "{:04}-{:02}-{:02}",
        seed.child("y").between(2022, 2025),
        seed.child("m").between(1, 12),
        seed.child("d").between(1, 28)
    )
}

fn time(seed: Seed) -> String {
    let seed = seed.child("time");
    format!(
        "{:02}:{:02}:{:02}",
        seed.child("h").between(0, 23),
        seed.child("m").between(0, 59),
        seed.child("s").between(0, 59)
    )
}

/// The answer to a validated request (`query` as [`crate::request::Request::validate`]
/// returns it: database, action, then the parameters with defaults filled in).
pub(super) fn respond(
    op: &'static Operation,
    records: &'static [RecordInfo],
    query: &[(&'static str, String)],
    paged_rows: Option<i64>,
) -> Generated {
    let ctx = Context::new(op, records, query, paged_rows);
    let unknown_single = op
        .params
        .iter()
        .filter(|p| is_input(p) && !p.list)
        .filter_map(|p| ctx.value(p.wire))
        .any(text::is_unknown);
    if unknown_single {
        return Generated::NoData;
    }
    let result = match op.response.shape {
        Shape::Map { key } => {
            let keys = ctx.known_items(key);
            let members: Result<Vec<(String, Node)>, String> = keys
                .iter()
                .map(|k| {
                    let row = GeneratedRow {
                        seed: ctx.base.child(k),
                        item: Some(k),
                        top: true,
                    };
                    Ok(((*k).to_owned(), ctx.payload(row)?))
                })
                .collect();
            members.map(|m| (m.len(), Node::Obj(m)))
        }
        Shape::Single => {
            let row = GeneratedRow {
                seed: ctx.base.nth(0),
                item: ctx.subject,
                top: true,
            };
            ctx.payload(row).map(|node| (1, node))
        }
        Shape::Array => {
            let rows: Result<Vec<Node>, String> =
                ctx.rows().into_iter().map(|row| ctx.payload(row)).collect();
            rows.map(|r| (r.len(), Node::Arr(r)))
        }
    };
    match result {
        Ok((0, _)) => Generated::NoData,
        Ok((rows, response)) => Generated::Data {
            response,
            rows: i64::try_from(rows).unwrap_or(i64::MAX),
        },
        Err(message) => Generated::Unsupported(message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::{OPERATIONS, RECORDS};

    /// Every record of the spec generates with every field present or allowed absent.
    #[test]
    fn every_record_generates_its_fields() {
        let op = OPERATIONS[0];
        let ctx = Context::new(op, RECORDS, &[], None);
        for rec in RECORDS {
            for i in 0..20 {
                let row = GeneratedRow {
                    seed: Seed::root().child(rec.name).nth(i),
                    item: None,
                    top: true,
                };
                let Node::Obj(members) = ctx.record(rec, row, 0) else {
                    panic!("{} is not an object", rec.name);
                };
                for field in rec.fields {
                    let present = members.iter().any(|(w, _)| w == field.wire);
                    let may_lack = field.optional && field.presence != Source::Decided;
                    assert!(present || may_lack, "{}.{}", rec.name, field.wire);
                }
            }
        }
    }

    #[test]
    fn paged_rows_set_how_many_rows_a_paged_query_has() {
        let op = crate::operation_table::Operation::find("domains", "keywords").unwrap();
        let paging = op.paging().unwrap();
        let query = |offset: &str| {
            let mut query = vec![(paging.offset.wire, offset.to_owned())];
            query.push((paging.limit.wire, "100".to_owned()));
            for param in op.params.iter().filter(|p| p.required) {
                if let ParamKind::Enum { values, .. } = param.kind {
                    query.push((param.wire, values[0].to_owned()));
                } else if is_input(param) {
                    query.push((param.wire, "example.it".to_owned()));
                }
            }
            query
        };
        let rows = |offset: &str, paged_rows| match respond(op, RECORDS, &query(offset), paged_rows)
        {
            Generated::Data { rows, .. } => rows,
            _ => 0,
        };
        assert_eq!(rows("999990", Some(1_000_000)), 10);
        assert_eq!(rows("0", Some(1_000_000)), 100);
        assert_eq!(rows("999990", None), 0, "20 to 500 rows by default");
    }

    #[test]
    fn free_comma_lists_sometimes_have_empty_segments() {
        let ctx = Context::new(OPERATIONS[0], RECORDS, &[], None);
        let lists: Vec<String> = (0..200)
            .map(|i| ctx.comma_list(&[], Seed::root().nth(i)))
            .collect();
        assert!(lists.iter().any(|l| l.split(',').any(str::is_empty)));
        assert!(lists.iter().any(|l| !l.split(',').any(str::is_empty)));
    }
}
