//! Types of the operation table generated from the spec ([`crate::operations`]).
//!
//! One static [`Operation`] per action describes everything per-operation: its
//! group and path, parameters with their limits and provenance, conditional
//! rules, response shape, unit costs and how long an answer stays fresh
//! ([`Freshness`]). The request validator, the runtime and
//! every tool built on the crate read this table; none of them names an action.
//!
//! The generated table writes its entries with the short `const` constructors
//! of these types (`Param::int("limit").required().max(Limit::inferred(1000))`,
//! see [`Param::new`]), so each entry reads as what it says rather than as a
//! struct literal.

mod construct;
mod example;
mod freshness;
mod same_input;

pub use freshness::{Fresh, Freshness};
pub use same_input::Fold;
pub(crate) use same_input::folded;

/// Where a figure or a rule comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Source {
    /// Printed in the API reference.
    Stated,
    /// Read from the trailing figures of the reference's cost table (max items or
    /// rows per request / requests per minute): an inference, not a statement.
    Inferred,
    /// Seen in the reference's example responses or in public use of the service.
    Observed,
    /// The reference says "not shown"; this client decided defensively (see the note).
    Decided,
}

impl Source {
    /// A short phrase for messages: "stated in the reference", ...
    pub fn phrase(self) -> &'static str {
        match self {
            Source::Stated => "stated in the reference",
            Source::Inferred => "inferred from the reference's cost table",
            Source::Observed => "observed from the service",
            Source::Decided => "a client-side rule, see the spec",
        }
    }
}

/// A figure with its provenance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// The figure.
    pub value: i64,
    /// Where it comes from.
    pub source: Source,
    /// Why, for inferred and decided figures.
    pub note: Option<&'static str>,
}

/// The type of a parameter's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParamKind {
    /// Free text (domains, URLs, keywords, extensions).
    Text,
    /// A whole number.
    Integer,
    /// A calendar date written `yyyy-MM-dd`.
    Date,
    /// One of a fixed set of values.
    Enum {
        /// The Rust type that holds the values.
        name: &'static str,
        /// The values accepted on the wire.
        values: &'static [&'static str],
    },
}

/// One query parameter of an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// Name on the wire.
    pub wire: &'static str,
    /// Name in Rust (builder argument or method).
    pub rust: &'static str,
    /// Type of the values.
    pub kind: ParamKind,
    /// What it means.
    pub description: &'static str,
    /// Whether every call must carry it.
    pub required: bool,
    /// Whether it takes several values, joined by the list separator.
    pub list: bool,
    /// Filled in by the client (the key, the action), never by the caller.
    pub implicit: bool,
    /// Fewest values of a list.
    pub min_items: Option<Limit>,
    /// Most values of a list.
    pub max_items: Option<Limit>,
    /// Smallest integer value.
    pub min: Option<Limit>,
    /// Largest integer value.
    pub max: Option<Limit>,
    /// Value sent when the caller gives none.
    pub default: Option<&'static str>,
    /// What the runtime does with it, when anything special.
    pub role: Option<Role>,
    /// What two of its values may differ in and still be the same input
    /// (the spec's `compare.fold`; none: compared exactly). Deduplication,
    /// the cache, matching rows back to inputs and the estimate all compare
    /// values so ([`Param::compared`]).
    pub fold: &'static [Fold],
}

/// What the runtime does with a parameter (the spec's `role`). Tools find a
/// parameter by its role, never by its wire name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Role {
    /// What the call is about (a domain, a URL, a keyword). A list input is
    /// what a batched job splits.
    Input,
    /// The identifier of what the call is about (a project id).
    Id,
    /// Where a page of rows starts.
    Offset,
    /// How many rows a request returns at most.
    PageSize,
    /// A result page of the search results.
    ResultPage,
    /// A position in the search results.
    ResultPosition,
    /// The day the data is for.
    Day,
}

/// What a field's value is (the spec's value hint): for tools that show, check
/// or make up values. Hints describe; they never make the client refuse data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hint {
    /// The kind of value.
    pub kind: ValueKind,
    /// The range the reference gives for it, if any.
    pub range: Option<(i64, i64)>,
}

/// The kinds of value a [`Hint`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValueKind {
    /// A page address.
    Url,
    /// A domain name.
    Domain,
    /// A search keyword.
    Keyword,
    /// A count (keywords, pages, visits, volume).
    Count,
    /// Search volume in one calendar month. A record's fields of this kind, in
    /// spec order, form its month-by-month series, January first.
    MonthlyVolume,
    /// A percentage, 0 to 100 unless a range says otherwise.
    Percent,
    /// A score, 0 to 100 unless a range says otherwise.
    Score,
    /// An amount of money (currency not shown).
    Money,
    /// A calendar date.
    Date,
    /// A ranking position in the search results.
    Position,
    /// A change, positive or negative.
    Change,
    /// An identifier.
    Id,
    /// A language code.
    Language,
    /// A search-engine extension (`.it`).
    SearchEngine,
    /// A locality.
    Locality,
    /// An upper-case category label.
    Category,
    /// A tag.
    Tag,
    /// A human-readable label.
    Label,
}

/// A conditional rule between parameters: `if_param = if_value` requires
/// `require` (equal to `equal_to`, when given).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Requirement {
    /// The parameter whose value triggers the rule.
    pub if_param: &'static str,
    /// The value that triggers it.
    pub if_value: &'static str,
    /// The parameter that must then be present.
    pub require: &'static str,
    /// The value it must then have, if any.
    pub equal_to: Option<&'static str>,
    /// Where the rule comes from.
    pub source: Source,
    /// The rule in words.
    pub description: &'static str,
}

/// How the `response` member is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Shape {
    /// An array of payload records.
    Array,
    /// One payload value.
    Single,
    /// An object keyed by the values of the `key` parameter.
    Map {
        /// The list parameter whose values are the keys.
        key: &'static str,
    },
}

/// [`Response::payload`] of an operation that answers search-result lists
/// (the spec's built-in `serp` type, not a record): what every face (the
/// command line, the Python package) compares against to show a SERP as
/// positions and URLs.
pub const SERP_PAYLOAD: &str = "serp";

/// The response of an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Response {
    /// Layout of `response`.
    pub shape: Shape,
    /// Record name in the spec, or [`SERP_PAYLOAD`].
    pub payload: &'static str,
    /// What it holds.
    pub description: &'static str,
}

/// Whether units are charged per returned row or per call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Charged {
    /// Unit figure x `ResultRows`.
    PerRow,
    /// The unit figure, whatever the row count.
    PerCall,
    /// The reference prints no cost for the operation: its estimate is
    /// unknown ([`crate::units::Estimate::unknown`]), a client with a budget refuses
    /// it, and the units a call reports are counted as usual.
    Unknown,
}

/// What the first trailing figure counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Counts {
    /// Input items (domains, URLs, keywords) per request.
    Items,
    /// Rows returned per request.
    Rows,
}

/// Unit costs and request-rate figures of an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    /// The unit figure(s) exactly as the reference prints them; `None` when the
    /// cost is unknown.
    pub printed: Option<&'static str>,
    /// The trailing figures exactly as printed; `None` when the figures come
    /// from elsewhere (public use).
    pub trailing: Option<&'static str>,
    /// The unit figures (one, or two for the ambiguous operations; none when
    /// the cost is unknown).
    pub units: &'static [i64],
    /// The reading of the figures.
    pub charged: Charged,
    /// Where that reading comes from.
    pub charged_source: Source,
    /// Why, when the reading is decided.
    pub charged_note: Option<&'static str>,
    /// Max items or rows per request (first trailing figure).
    pub per_request: Limit,
    /// What `per_request` counts.
    pub per_request_counts: Counts,
    /// Requests per minute (second trailing figure).
    pub requests_per_minute: Limit,
}

/// The whole table of one API, as generated code hands it to the runtime
/// (`operations::API`): the client and the sandbox read it and name no global.
#[derive(Clone, Copy)]
pub struct Api {
    /// Facts common to every call.
    pub service: &'static Service,
    /// Every operation, in spec order.
    pub operations: &'static [&'static Operation],
    /// Every response record, in spec order.
    pub records: &'static [RecordInfo],
}

impl std::fmt::Debug for Api {
    /// Short: a builder or client that holds the table is not worth printing
    /// the whole of it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Api")
            .field("title", &self.service.title)
            .field("operations", &self.operations.len())
            .finish_non_exhaustive()
    }
}

/// One operation of the API.
#[derive(Debug, Clone, Copy)]
pub struct Operation {
    /// The service it belongs to: its base URL, common parameters, envelope
    /// member names and "no data" answer.
    pub service: &'static Service,
    /// Group name (`domains`).
    pub group: &'static str,
    /// Group path with its trailing slash (`/api/v2/domains/`).
    pub path: &'static str,
    /// The `action` value on the wire.
    pub action: &'static str,
    /// Other names the reference uses for it.
    pub aliases: &'static [&'static str],
    /// Builder method name in Rust.
    pub method: &'static str,
    /// What it does.
    pub description: &'static str,
    /// Its own parameters, in spec order.
    pub params: &'static [Param],
    /// Conditional rules between its parameters.
    pub rules: &'static [Requirement],
    /// Its response.
    pub response: Response,
    /// Its costs and rate figures.
    pub cost: Cost,
    /// How long an answer stays fresh in a response cache.
    pub freshness: Freshness,
    /// The wire name of the list parameter a batched job splits, as the
    /// generator derived it from the spec (see [`Operation::batch_param`]).
    pub batched_by: Option<&'static str>,
    /// The wire names of the offset and page-size parameters of a paged
    /// operation, as the generator derived them from the spec (see
    /// [`Operation::paging`]).
    pub paged_by: Option<(&'static str, &'static str)>,
}

impl Operation {
    /// `group action`, as used in messages.
    pub fn label(&self) -> String {
        format!("{} {}", self.group, self.action)
    }

    /// The parameter with this wire name.
    pub fn param(&self, wire: &str) -> Option<&'static Param> {
        self.params.iter().find(|p| p.wire == wire)
    }

    /// The operation of `operations` with this group and wire action name
    /// (aliases are not looked up: they are the reference's other names, not
    /// the wire's). `Operation::find` looks in this crate's table.
    pub fn find_in(
        operations: &[&'static Operation],
        group: &str,
        action: &str,
    ) -> Option<&'static Operation> {
        operations
            .iter()
            .copied()
            .find(|op| op.group == group && op.action == action)
    }

    /// The parameter with this role, if the operation has one.
    pub fn param_with(&self, role: Role) -> Option<&'static Param> {
        self.params.iter().find(|p| p.role == Some(role))
    }

    /// How long an answer to the request `query` stays fresh, `today` being
    /// the current UTC date, `YYYY-MM-DD`. `query` is the request's pairs of
    /// wire name and value (as [`crate::request::Request::validate`] gives
    /// them); the value of the parameter with the role [`Role::Day`], if the
    /// operation has one, is the day the answer is about (see
    /// [`Freshness::fresh_for`]).
    ///
    /// ```
    /// use seozoom::operations::OPERATIONS;
    /// use seozoom::operation_table::{Fresh, Role};
    ///
    /// let history = OPERATIONS.iter().find(|op| op.param_with(Role::Day).is_some()).unwrap();
    /// let day = history.param_with(Role::Day).unwrap().wire;
    /// let past = [(day, "2024-05-01".to_owned())];
    /// assert_eq!(history.fresh_for(&past, "2026-11-23"), Fresh::ForGood);
    /// let today = [(day, "2026-11-23".to_owned())];
    /// assert_eq!(history.fresh_for(&today, "2026-11-23"), Fresh::For(history.freshness.ttl));
    /// ```
    pub fn fresh_for<K: AsRef<str>, V: AsRef<str>>(&self, query: &[(K, V)], today: &str) -> Fresh {
        let day = self.param_with(Role::Day).and_then(|param| {
            query
                .iter()
                .find(|(wire, _)| wire.as_ref() == param.wire)
                .map(|(_, value)| value.as_ref())
        });
        self.freshness.fresh_for(day, today)
    }
}

/// A group of operations sharing a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Group {
    /// Group name (`domains`).
    pub name: &'static str,
    /// Its path, with the trailing slash (`/api/v2/domains/`).
    pub path: &'static str,
    /// What its operations give.
    pub description: &'static str,
}

/// Facts common to every call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Service {
    /// Name of the API.
    pub title: &'static str,
    /// Default base URL (without `/api/v2`).
    pub base_url: &'static str,
    /// Separator of list values on the wire.
    pub list_separator: char,
    /// HTTP status of the "no match" answer.
    pub no_data_status: u16,
    /// `message` of the "no match" answer.
    pub no_data_message: &'static str,
    /// The HTTP statuses of the other refusals the spec names (an answer
    /// with another one is noted as drift).
    pub refusals: &'static [u16],
    /// Wire name of the envelope's payload member.
    pub envelope_response: &'static str,
    /// Wire name of the envelope's row count.
    pub envelope_result_rows: &'static str,
    /// Wire name of the envelope's units charged for the call.
    pub envelope_units_used: &'static str,
    /// Wire name of the envelope's units left on the account.
    pub envelope_units_remaining: &'static str,
    /// The API-key parameter.
    pub key: Param,
    /// The country-database parameter.
    pub database: Param,
    /// The action parameter.
    pub action: Param,
}

/// The wire type of a record field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FieldKind {
    /// A whole number (integral floats accepted).
    Integer,
    /// A decimal number.
    Number,
    /// Text.
    Text,
    /// A string holding a boolean word (`"true"`/`"false"`).
    BoolWord,
    /// An integer flag, 1 or 0.
    Flag,
    /// `YYYY-MM-DD`.
    Date,
    /// `YYYY-MM-DD HH:MM:SS`.
    DateTime,
    /// `HH:MM:SS`.
    Time,
    /// A search-result list (position string -> URL).
    Serp,
    /// A comma-separated list in one string.
    CommaList {
        /// The known values of its items (empty: free text).
        values: &'static [&'static str],
        /// The spec's name of the enum its items are values of, if any.
        enumeration: Option<&'static str>,
    },
    /// An array of records.
    List {
        /// The record's name in the spec.
        record: &'static str,
    },
}

/// One field of a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldInfo {
    /// Name on the wire.
    pub wire: &'static str,
    /// Name in Rust.
    pub rust: &'static str,
    /// Wire type.
    pub kind: FieldKind,
    /// May be `null`.
    pub nullable: bool,
    /// May be absent.
    pub optional: bool,
    /// Where the spec knows its presence from: the reference
    /// ([`Source::Stated`]), or a defensive decision ([`Source::Decided`])
    /// where the reference never says whether it is always sent, and so on.
    pub presence: Source,
    /// What its value is, when the spec says.
    pub hint: Option<Hint>,
    /// When it is one of its record's main measures (what a reader came
    /// for), its rank: 1 (most wanted) to 9. Tables keep these first, after
    /// the row's key.
    pub priority: Option<u8>,
    /// What it means.
    pub description: &'static str,
}

/// A response record of the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordInfo {
    /// Name in the spec (as in [`Response::payload`]).
    pub name: &'static str,
    /// The generated Rust type.
    pub type_name: &'static str,
    /// What it holds.
    pub description: &'static str,
    /// Its fields, in spec order.
    pub fields: &'static [FieldInfo],
    /// Wire name of the text field that names a row's input: how the rows of
    /// a batched job are matched back to its inputs.
    pub key: Option<&'static str>,
}

/// Operations are identified by group and action.
impl PartialEq for Operation {
    fn eq(&self, other: &Self) -> bool {
        self.group == other.group && self.action == other.action
    }
}

impl Eq for Operation {}
