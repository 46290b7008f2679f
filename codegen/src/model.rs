//! Stage 2 output: the validated model. Every name here is final (Rust-safe and
//! unique), every reference is resolved and every figure has been checked, so the
//! emitter only has to spell things out.

/// The name of every record's own field and accessor holding the members the
/// spec does not know (by wire name, with their JSON values): no spec field
/// may take it.
pub const UNKNOWN_MEMBERS: &str = "unknown_members";

/// The whole interface.
#[derive(Debug, Clone)]
pub struct Spec {
    pub title: String,
    pub description: String,
    pub base_url: String,
    pub list_separator: char,
    pub no_data: NoData,
    pub refusals: Vec<Refusal>,
    pub notes: Vec<String>,
    pub envelope: Envelope,
    pub common: Common,
    pub groups: Vec<Group>,
    pub enums: Vec<Enum>,
    pub records: Vec<Record>,
    pub actions: Vec<Action>,
}

/// How the service answers a query that matches nothing.
#[derive(Debug, Clone)]
pub struct NoData {
    pub status: u16,
    pub message: String,
    pub source: Source,
}

/// A refusal the service answers with: an HTTP status whose body is
/// `{status, message}`.
#[derive(Debug, Clone)]
pub struct Refusal {
    pub status: u16,
    /// When the service answers with it.
    pub description: String,
    /// Whether the answer may carry `Retry-After` (seconds to wait).
    pub retry_after: bool,
    pub provenance: Provenance,
}

#[derive(Debug, Clone)]
pub struct Envelope {
    pub description: String,
    pub result_rows: Member,
    pub units_used: Member,
    pub units_remaining: Member,
    pub response: Member,
}

#[derive(Debug, Clone)]
pub struct Member {
    pub wire: String,
    pub description: String,
}

/// The parameters every call carries, by role.
#[derive(Debug, Clone)]
pub struct Common {
    pub key: Param,
    pub database: Param,
    pub action: Param,
}

#[derive(Debug, Clone)]
pub struct Group {
    pub wire: String,
    /// Accessor method on `Client`.
    pub rust: String,
    /// Accessor struct.
    pub type_name: String,
    pub path: String,
    pub description: String,
}

#[derive(Debug, Clone)]
pub struct Enum {
    pub name: String,
    pub type_name: String,
    pub description: String,
    pub open: bool,
    pub source: Option<Provenance>,
    pub values: Vec<EnumValue>,
}

#[derive(Debug, Clone)]
pub struct EnumValue {
    pub wire: String,
    pub variant: String,
    pub description: String,
    /// Where the value is known from, when not the reference.
    pub source: Option<Provenance>,
}

#[derive(Debug, Clone)]
pub struct Record {
    pub name: String,
    pub type_name: String,
    pub description: String,
    /// Fieldsets expanded, in order.
    pub fields: Vec<Field>,
    /// Wire name of the text field that names a row's input.
    pub key: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Field {
    pub wire: String,
    pub rust: String,
    pub ty: FieldType,
    pub nullable: bool,
    pub optional: bool,
    /// Why the field is required, optional or nullable.
    pub presence: Provenance,
    pub hint: Option<Hint>,
    /// A main measure's rank, 1 (most wanted) to 9.
    pub priority: Option<u8>,
    pub description: String,
}

/// What a field's value is, as the reference describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Hint {
    pub kind: ValueKind,
    pub range: Option<(i64, i64)>,
}

/// Declares a vocabulary read from the spec: its words, their variants, and
/// which wire types each word fits.
macro_rules! vocabulary {
    ($(#[$doc:meta])* $name:ident { $($word:literal => $variant:ident),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name { $($variant),+ }

        impl $name {
            pub const ALL: &'static [(&'static str, $name)] = &[$(($word, $name::$variant)),+];

            pub fn word(self) -> &'static str {
                match self { $($name::$variant => $word),+ }
            }

            pub fn variant(self) -> &'static str {
                match self { $($name::$variant => stringify!($variant)),+ }
            }
        }
    };
}

vocabulary! {
    /// What a value is, for tools that show, check or make up values.
    ValueKind {
        "url" => Url,
        "domain" => Domain,
        "keyword" => Keyword,
        "count" => Count,
        "monthly_volume" => MonthlyVolume,
        "percent" => Percent,
        "score" => Score,
        "money" => Money,
        "date" => Date,
        "position" => Position,
        "change" => Change,
        "id" => Id,
        "language" => Language,
        "search_engine" => SearchEngine,
        "locality" => Locality,
        "category" => Category,
        "tag" => Tag,
        "label" => Label,
    }
}

impl ValueKind {
    /// Whether the kind describes text (else a number).
    pub fn is_text(self) -> bool {
        matches!(
            self,
            ValueKind::Url
                | ValueKind::Domain
                | ValueKind::Keyword
                | ValueKind::Date
                | ValueKind::Language
                | ValueKind::SearchEngine
                | ValueKind::Locality
                | ValueKind::Category
                | ValueKind::Tag
                | ValueKind::Label
        )
    }
}

vocabulary! {
    /// What the runtime does with a parameter.
    Role {
        "input" => Input,
        "id" => Id,
        "offset" => Offset,
        "page_size" => PageSize,
        "result_page" => ResultPage,
        "result_position" => ResultPosition,
        "day" => Day,
    }
}

vocabulary! {
    /// What two values of an input parameter may differ in and still be the
    /// same input.
    Fold {
        "trim" => Trim,
        "case" => Case,
        "host_case" => HostCase,
        "www" => Www,
        "trailing_slash" => TrailingSlash,
    }
}

impl Fold {
    /// What the fold ignores, in words.
    pub fn ignores(self) -> &'static str {
        match self {
            Fold::Trim => "surrounding spaces",
            Fold::Case => "letter case",
            Fold::HostCase => "the letter case of the scheme and host",
            Fold::Www => "a leading `www.`",
            Fold::TrailingSlash => "a trailing `/`",
        }
    }
}

impl Compare {
    /// Which values are sent once, in words: "repeated values", or "values
    /// that differ only in surrounding spaces or letter case".
    pub fn repeated(&self) -> String {
        let ignored: Vec<&str> = self.fold.iter().map(|f| f.ignores()).collect();
        match ignored.split_last() {
            None => "repeated values".to_owned(),
            Some((last, [])) => format!("values that differ only in {last}"),
            Some((last, rest)) => {
                format!("values that differ only in {} or {last}", rest.join(", "))
            }
        }
    }
}

impl Role {
    /// The parameter type the role needs.
    pub fn fits(self, ty: &ParamType) -> bool {
        match self {
            Role::Input => *ty == ParamType::String,
            Role::Day => *ty == ParamType::Date,
            _ => *ty == ParamType::Integer,
        }
    }
}

impl Field {
    /// Whether the field may be `null` or absent: its record then holds its
    /// type's default (`None`, an empty list) rather than refusing the row.
    pub fn may_be_missing(&self) -> bool {
        self.nullable || self.optional
    }

    /// Whether the Rust type is wrapped in `Option`.
    pub fn is_option(&self) -> bool {
        self.may_be_missing() && self.ty.null_means_none()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum FieldType {
    Integer,
    Number,
    String,
    /// A string holding a boolean word (`"true"`, `"false"`, ...); `None` when absent.
    BoolWord,
    /// An integer flag, 1 or 0.
    Flag,
    Date,
    DateTime,
    Time,
    /// A search-result list: position string -> URL.
    Serp,
    /// A comma-separated string, split into items (empty segments dropped).
    CommaList(ListItem),
    /// A JSON array of records.
    List {
        record: String,
        type_name: String,
    },
}

impl FieldType {
    /// Types whose absence or `null` is represented by `Option`; the others have an
    /// empty value of their own (lists) or are `Option` already (boolean words).
    pub fn null_means_none(&self) -> bool {
        !matches!(
            self,
            FieldType::BoolWord | FieldType::CommaList(_) | FieldType::List { .. }
        )
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum ListItem {
    String,
    Enum { type_name: String },
}

#[derive(Debug, Clone)]
pub struct Action {
    pub group: String,
    pub group_type: String,
    pub path: String,
    pub wire: String,
    /// Method on the group accessor.
    pub rust: String,
    /// Builder struct.
    pub type_name: String,
    /// Name of the operation's static in the table (`DOMAINS_KEYWORDS`).
    pub const_name: String,
    pub aliases: Vec<String>,
    /// Where the action is known from, when not the reference.
    pub source: Option<Provenance>,
    pub description: String,
    pub params: Vec<Param>,
    pub rules: Vec<Rule>,
    pub response: Response,
    pub cost: Cost,
    pub freshness: Freshness,
}

impl Action {
    /// The parameter with this role, if the action has one.
    pub fn param_with(&self, role: Role) -> Option<&Param> {
        self.params.iter().find(|p| p.role == Some(role))
    }

    /// The list parameter a batched job splits: the action's input (role
    /// `input`) when it is a list with a most-values limit, and its result can
    /// be merged (an array or a map). Derived here once: the operation table
    /// carries it (`Operation::batched_by`), and the builders' `send_all`
    /// follows it.
    pub fn batch_param(&self) -> Option<&Param> {
        let mergeable = matches!(self.response.shape, Shape::Array | Shape::Map { .. });
        self.param_with(Role::Input)
            .filter(|p| mergeable && p.list && p.max_items.is_some())
    }

    /// The offset and page-size parameters of a paged action: those with the
    /// roles `offset` and `page_size`, when its rows are records in an array.
    /// Derived here once: the operation table carries it
    /// (`Operation::paged_by`), and the builders' `pages` follows it.
    pub fn paging(&self) -> Option<(&Param, &Param)> {
        let rows = self.response.shape == Shape::Array
            && matches!(self.response.payload, Payload::Record { .. });
        if !rows {
            return None;
        }
        Some((
            self.param_with(Role::Offset)?,
            self.param_with(Role::PageSize)?,
        ))
    }
}

#[derive(Debug, Clone)]
pub struct Param {
    pub wire: String,
    pub rust: String,
    pub ty: ParamType,
    pub description: String,
    pub required: bool,
    pub presence: Option<Provenance>,
    pub list: bool,
    pub min_items: Option<Limit>,
    pub max_items: Option<Limit>,
    pub min: Option<Limit>,
    pub max: Option<Limit>,
    pub default: Option<String>,
    pub implicit: bool,
    pub role: Option<Role>,
    /// What counts as the same input (every `input` parameter says).
    pub compare: Option<Compare>,
}

/// How an input parameter's values are compared: what two values may
/// differ in and still be the same input (none: compared exactly), and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Compare {
    pub fold: Vec<Fold>,
    pub source: Source,
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ParamType {
    String,
    Integer,
    Date,
    Enum {
        type_name: String,
        values: Vec<String>,
    },
}

impl ParamType {
    /// The values an `integer` parameter can hold, whatever its `min` and
    /// `max`: the client takes it as an `i64` (the builders' argument type) and
    /// its validator reads the wire text as one, so a value outside is refused.
    /// The published schemas bound every integer parameter by it, so that a
    /// value they accept is never refused for its size.
    pub const INTEGER_RANGE: (i64, i64) = (i64::MIN, i64::MAX);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Stated,
    Inferred,
    Observed,
    Decided,
}

impl Source {
    pub const ALL: [(&'static str, Source); 4] = [
        ("stated", Source::Stated),
        ("inferred", Source::Inferred),
        ("observed", Source::Observed),
        ("decided", Source::Decided),
    ];

    /// The spec's word for the source (`stated`, ...).
    pub fn word(self) -> &'static str {
        Source::ALL
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("decided", |(word, _)| word)
    }

    pub fn variant(self) -> &'static str {
        match self {
            Source::Stated => "Stated",
            Source::Inferred => "Inferred",
            Source::Observed => "Observed",
            Source::Decided => "Decided",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Limit {
    pub value: i64,
    pub source: Source,
    pub note: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Provenance {
    pub source: Source,
    pub note: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Rule {
    pub if_param: String,
    pub if_value: String,
    pub require: String,
    pub equal_to: Option<String>,
    pub source: Source,
    pub description: String,
}

#[derive(Debug, Clone)]
pub struct Response {
    pub shape: Shape,
    pub payload: Payload,
    pub description: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    Array,
    Single,
    /// Keyed by the values of a list parameter.
    Map {
        key: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    Record { name: String, type_name: String },
    Serp,
}

/// The name of a search-result list ([`Payload::Serp`]): the runtime's type
/// (`Serp`) and its JSON Schema's, in the published documents and in the
/// client's `JsonSchema` alike.
pub const SERP: &str = "Serp";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charged {
    PerRow,
    PerCall,
    /// The reference prints no cost: the estimate says so, a budget refuses it.
    Unknown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counts {
    Items,
    Rows,
}

#[derive(Debug, Clone)]
pub struct Cost {
    /// `None` when the cost is unknown.
    pub printed: Option<String>,
    /// `None` when the figures are not the reference's.
    pub trailing: Option<String>,
    /// Empty when the cost is unknown.
    pub units: Vec<i64>,
    pub charged: Charged,
    pub charged_source: Provenance,
    pub per_request: Limit,
    pub per_request_counts: Counts,
    pub requests_per_minute: Limit,
}

/// How long an answer stays fresh in a response cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Freshness {
    /// Seconds an answer stays fresh.
    pub ttl_secs: u64,
    /// For an answer about a day before today (the action's `day` parameter),
    /// when it differs from `ttl_secs`.
    pub past_days: Option<Fresh>,
    pub source: Source,
    pub note: Option<String>,
}

/// How long an answer stays fresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fresh {
    /// This many seconds.
    For(u64),
    /// It never changes.
    ForGood,
}

/// The word for "never changes" in the spec's `past_days`.
pub const FOR_GOOD: &str = "for_good";

/// Seconds in a duration written as a whole number and one unit: `45s`, `30m`,
/// `24h`, `7d`. `None` for anything else (and for a figure that overflows).
pub fn duration_secs(text: &str) -> Option<u64> {
    let unit = text.chars().last()?;
    let scale = match unit {
        's' => 1,
        'm' => 60,
        'h' => 3_600,
        'd' => 86_400,
        _ => return None,
    };
    let digits = &text[..text.len() - 1];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(scale)
}

/// A duration in the largest unit that writes it whole (`5400` -> `90m`), in
/// the spec's notation; a day is written `24h`, as the spec writes it.
pub fn duration_text(secs: u64) -> String {
    match secs {
        0 => "0s".to_owned(),
        s if s % 86_400 == 0 && s > 86_400 => format!("{}d", s / 86_400),
        s if s % 3_600 == 0 => format!("{}h", s / 3_600),
        s if s % 60 == 0 => format!("{}m", s / 60),
        s => format!("{s}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::{duration_secs, duration_text};

    #[test]
    fn durations_read_as_written() {
        assert_eq!(duration_secs("24h"), Some(86_400));
        assert_eq!(duration_secs("45s"), Some(45));
        assert_eq!(duration_secs("30m"), Some(1_800));
        assert_eq!(duration_secs("7d"), Some(604_800));
        assert_eq!(duration_secs("0s"), Some(0));
        for bad in [
            "",
            "h",
            "24",
            "24 h",
            "1h30m",
            "-1h",
            "1.5h",
            "24H",
            "99999999999999999999d",
        ] {
            assert_eq!(duration_secs(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn durations_are_written_in_the_largest_whole_unit() {
        assert_eq!(duration_text(86_400), "24h");
        assert_eq!(duration_text(172_800), "2d");
        assert_eq!(duration_text(3_600), "1h");
        assert_eq!(duration_text(5_400), "90m");
        assert_eq!(duration_text(61), "61s");
        assert_eq!(duration_text(0), "0s");
    }
}
