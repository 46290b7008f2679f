//! What one decode saw that the spec does not say, gathered while it runs.
//!
//! A record's decoder cannot be handed a context (serde's `Deserialize` takes
//! none), so a call's decode runs inside [`watch`], which sets up a list on
//! its thread, and the decoders [`note`] what they meet there. Nothing is
//! noted, and the thread-local is not touched, while the answer is what the
//! spec says: the cost of a decode with nothing new is nil.

use std::cell::RefCell;

use serde_json::Value;

/// Longest example value kept, in characters.
pub const EXAMPLE_LEN: usize = 80;

/// What the service sent that the spec does not say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum DriftKind {
    /// A member the spec does not list for the record.
    UnknownMember,
    /// A member the spec says is always sent was missing.
    Missing,
    /// A member the spec says is never `null` was `null`.
    Null,
    /// A member's value was of another JSON type than the spec's (a number
    /// sent as a string is read all the same, and noted).
    UnexpectedType,
    /// A value of an enum that the spec does not list.
    UnlistedValue,
    /// An answer's HTTP status or error message that the spec does not name.
    UnnamedStatus,
    /// A charge that differs from the spec's cost for the call.
    Charge,
}

impl DriftKind {
    /// Every kind, in declaration order.
    pub const ALL: [DriftKind; 7] = [
        DriftKind::UnknownMember,
        DriftKind::Missing,
        DriftKind::Null,
        DriftKind::UnexpectedType,
        DriftKind::UnlistedValue,
        DriftKind::UnnamedStatus,
        DriftKind::Charge,
    ];

    /// Its name in reports and in the store (`unknown_member`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            DriftKind::UnknownMember => "unknown_member",
            DriftKind::Missing => "missing",
            DriftKind::Null => "null",
            DriftKind::UnexpectedType => "unexpected_type",
            DriftKind::UnlistedValue => "unlisted_value",
            DriftKind::UnnamedStatus => "unnamed_status",
            DriftKind::Charge => "charge",
        }
    }

    /// The kind named `name` ([`as_str`](Self::as_str)).
    pub fn from_name(name: &str) -> Option<DriftKind> {
        DriftKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// A JSON type, as the drift report names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum JsonType {
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A whole number.
    Integer,
    /// A number with a fraction or an exponent.
    Number,
    /// A string (`Text`, so that the name `String` stays `std`'s in
    /// compiler messages that show types).
    Text,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonType {
    /// Every type, in declaration order.
    pub const ALL: [JsonType; 7] = [
        JsonType::Null,
        JsonType::Boolean,
        JsonType::Integer,
        JsonType::Number,
        JsonType::Text,
        JsonType::Array,
        JsonType::Object,
    ];

    /// Its JSON Schema name (`integer`, `string`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Integer => "integer",
            JsonType::Number => "number",
            JsonType::Text => "string",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }

    /// The type of `value`.
    pub fn of(value: &Value) -> JsonType {
        match value {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Boolean,
            Value::Number(n) if n.is_f64() => JsonType::Number,
            Value::Number(_) => JsonType::Integer,
            Value::String(_) => JsonType::Text,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of JSON types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct JsonTypeSet(u8);

impl JsonTypeSet {
    /// The set of one type.
    pub fn one(ty: JsonType) -> Self {
        JsonTypeSet(ty.bit())
    }

    /// Both sets.
    pub fn union(self, other: JsonTypeSet) -> Self {
        JsonTypeSet(self.0 | other.0)
    }

    /// Whether `ty` is in the set.
    pub fn contains(self, ty: JsonType) -> bool {
        self.0 & ty.bit() != 0
    }

    /// The types, in declaration order.
    pub fn iter(self) -> impl Iterator<Item = JsonType> {
        JsonType::ALL.into_iter().filter(move |t| self.contains(*t))
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set as stored: one bit per type, in declaration order.
    pub fn bits(self) -> u8 {
        self.0
    }

    /// The set stored as [`bits`](Self::bits).
    pub fn from_bits(bits: u8) -> Self {
        JsonTypeSet(bits & 0x7f)
    }
}

/// A value met, as a decoder has it: enough to say its type and, when it is
/// the first of its kind, an example.
#[derive(Debug, Clone, Copy)]
pub enum Found<'a> {
    /// `null` (or nothing: a missing member).
    Null,
    /// A boolean.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// An unsigned whole number.
    Uint(u64),
    /// A decimal number.
    Float(f64),
    /// A string.
    Text(&'a str),
    /// An array, not kept.
    Array,
    /// An object, not kept.
    Object,
    /// A JSON value kept whole.
    Value(&'a Value),
    /// No value at all (a missing member).
    Nothing,
}

impl Found<'_> {
    fn ty(self) -> Option<JsonType> {
        Some(match self {
            Found::Null => JsonType::Null,
            Found::Bool(_) => JsonType::Boolean,
            Found::Int(_) | Found::Uint(_) => JsonType::Integer,
            Found::Float(_) => JsonType::Number,
            Found::Text(_) => JsonType::Text,
            Found::Array => JsonType::Array,
            Found::Object => JsonType::Object,
            Found::Value(value) => JsonType::of(value),
            Found::Nothing => return None,
        })
    }

    /// The value as it was sent (a kept array or object whole; one only
    /// seen, and a missing member, as `null`).
    pub(crate) fn as_sent(self) -> Value {
        match self {
            Found::Null | Found::Nothing | Found::Array | Found::Object => Value::Null,
            Found::Bool(b) => b.into(),
            Found::Int(n) => n.into(),
            Found::Uint(n) => n.into(),
            Found::Float(x) => x.into(),
            Found::Text(text) => text.into(),
            Found::Value(value) => value.clone(),
        }
    }

    /// The value as JSON text, cut to [`EXAMPLE_LEN`] characters.
    pub(crate) fn example_text(self) -> String {
        self.example()
    }

    /// The value as JSON text, cut to [`EXAMPLE_LEN`] characters.
    fn example(self) -> String {
        let text = match self {
            Found::Null => "null".to_owned(),
            Found::Bool(b) => b.to_string(),
            Found::Int(n) => n.to_string(),
            Found::Uint(n) => n.to_string(),
            Found::Float(x) => serde_json::to_string(&x).unwrap_or_default(),
            Found::Text(text) => serde_json::to_string(text).unwrap_or_default(),
            Found::Array => "[...]".to_owned(),
            Found::Object => "{...}".to_owned(),
            Found::Value(value) => value.to_string(),
            Found::Nothing => String::new(),
        };
        cut(text)
    }
}

/// `text` cut to [`EXAMPLE_LEN`] characters (with `…` when cut).
pub fn cut(text: String) -> String {
    match text.char_indices().nth(EXAMPLE_LEN) {
        Some((at, _)) => {
            let mut out = text;
            out.truncate(at);
            out.push('…');
            out
        }
        None => text,
    }
}

/// One kind of thing seen in one answer, with how often.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// The spec's name of the record it was met in (empty for the envelope,
    /// or for what concerns the whole answer).
    pub record: String,
    /// The member's wire name (for a status, the status; for a charge,
    /// empty).
    pub member: String,
    /// What it was.
    pub kind: DriftKind,
    /// How many times it was met (rows, or values of a list).
    pub count: i64,
    /// The JSON types its values had.
    pub types: JsonTypeSet,
    /// The first value met, as JSON text cut to [`EXAMPLE_LEN`] characters.
    pub example: String,
}

thread_local! {
    /// What the decode running on this thread has seen, when one is watched.
    static SEEN: RefCell<Option<Vec<Seen>>> = const { RefCell::new(None) };
}

/// Run `decode` and gather what it [`note`]s. Watches do not nest: an inner
/// one gathers into its own list, and the outer one goes on after it.
pub fn watch<T>(decode: impl FnOnce() -> T) -> (T, Vec<Seen>) {
    let outer = SEEN.with(|seen| seen.replace(Some(Vec::new())));
    let value = decode();
    let seen = SEEN.with(|seen| seen.replace(outer)).unwrap_or_default();
    (value, seen)
}

/// Forget what the running watch has gathered (a decode begun again).
pub fn restart() {
    SEEN.with(|seen| {
        if let Some(list) = seen.borrow_mut().as_mut() {
            list.clear();
        }
    });
}

/// Note again what an inner [`watch`] gathered, in the running watch (a
/// decode begun again after it, which [`restart`] would have forgotten).
pub(crate) fn replay(seen: Vec<Seen>) {
    SEEN.with(|list| {
        let mut list = list.borrow_mut();
        let Some(list) = list.as_mut() else {
            return;
        };
        for one in seen {
            match list
                .iter_mut()
                .find(|s| s.kind == one.kind && s.member == one.member && s.record == one.record)
            {
                Some(known) => {
                    known.count += one.count;
                    known.types = known.types.union(one.types);
                }
                None => list.push(one),
            }
        }
    });
}

/// Run `decode` without gathering what it notes (a trial decode whose
/// values are decoded again).
pub fn unwatched<T>(decode: impl FnOnce() -> T) -> T {
    let outer = SEEN.with(|seen| seen.replace(None));
    let value = decode();
    SEEN.with(|seen| seen.replace(outer));
    value
}

/// Note that `member` of `record` was met as `kind`, with the value `found`.
/// Does nothing outside a [`watch`].
pub fn note(record: &str, member: &str, kind: DriftKind, found: Found<'_>) {
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        let Some(list) = seen.as_mut() else {
            return;
        };
        let types = found.ty().map_or(JsonTypeSet::default(), JsonTypeSet::one);
        match list
            .iter_mut()
            .find(|s| s.kind == kind && s.member == member && s.record == record)
        {
            Some(known) => {
                known.count += 1;
                known.types = known.types.union(types);
            }
            None => list.push(Seen {
                record: record.to_owned(),
                member: member.to_owned(),
                kind,
                count: 1,
                types,
                example: found.example(),
            }),
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_gathered_only_inside_a_watch_and_merged_by_kind() {
        note("r", "m", DriftKind::Null, Found::Null);
        let ((), seen) = watch(|| {
            note("r", "m", DriftKind::UnknownMember, Found::Int(3));
            note("r", "m", DriftKind::UnknownMember, Found::Text("x"));
            unwatched(|| note("r", "other", DriftKind::Null, Found::Null));
            note("r", "n", DriftKind::Missing, Found::Nothing);
        });
        assert_eq!(seen.len(), 2);
        assert_eq!(seen[0].count, 2);
        assert_eq!(seen[0].example, "3");
        let types: Vec<_> = seen[0].types.iter().collect();
        assert_eq!(types, [JsonType::Integer, JsonType::Text]);
        assert!(seen[1].types.is_empty());
        let ((), empty) = watch(|| ());
        assert!(empty.is_empty());
    }

    #[test]
    fn examples_are_cut_to_eighty_characters() {
        let long = "é".repeat(200);
        let ((), seen) = watch(|| note("r", "m", DriftKind::UnknownMember, Found::Text(&long)));
        assert_eq!(seen[0].example.chars().count(), EXAMPLE_LEN + 1);
        assert!(seen[0].example.ends_with('…'));
    }
}
