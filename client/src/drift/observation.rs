//! One observation of drift as the store keeps it: what was seen, where, how
//! often and when.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::seen::{DriftKind, JsonTypeSet};

/// What identifies an observation: origin, group, action, record, member, kind.
pub(crate) type DriftKey = (String, String, String, String, String, DriftKind);

/// What the service sent that the spec does not say, for one operation of
/// one origin: a member the spec does not know, one `null` or missing that
/// it calls required, a value of another JSON type, an enum value it does
/// not list, a status or message it does not name, a charge that differs
/// from its cost. Counted across calls, from the first time to the last.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Observation {
    /// The service's origin (`https://apiv2.seozoom.com`, a sandbox's
    /// `http://127.0.0.1:PORT`).
    pub origin: String,
    /// The operation's group (wire name).
    pub group: String,
    /// The operation's action (wire name).
    pub action: String,
    /// The spec's name of the record it was met in; empty for the envelope,
    /// a status or a charge.
    pub record: String,
    /// The member's wire name (`HTTP 403 Invalid key` for a status; empty
    /// for a charge).
    pub member: String,
    /// What it was.
    pub kind: DriftKind,
    /// How many times it was met (rows, or values of a list).
    pub count: i64,
    /// The rows of the answers it was met in.
    pub rows: i64,
    /// When it was first met, in milliseconds since the Unix epoch.
    pub first_ms: i64,
    /// When it was last met.
    pub last_ms: i64,
    /// The JSON types its values had.
    pub types: JsonTypeSet,
    /// The first value met, as JSON text cut to 80 characters (never the
    /// API key).
    pub example: String,
}

impl Observation {
    /// Whether `other` is an observation of the same thing (origin,
    /// operation, record, member, kind).
    pub fn same_as(&self, other: &Observation) -> bool {
        self.kind == other.kind
            && self.member == other.member
            && self.record == other.record
            && self.action == other.action
            && self.group == other.group
            && self.origin == other.origin
    }

    /// `other` (a later or earlier observation of the same thing) added to
    /// this one: counts summed, the first and last times widened, the types
    /// joined; the example is the earliest one's.
    pub(crate) fn merge(&mut self, other: &Observation) {
        self.count = self.count.saturating_add(other.count);
        self.rows = self.rows.saturating_add(other.rows);
        if other.first_ms < self.first_ms {
            self.first_ms = other.first_ms;
            self.example.clone_from(&other.example);
        }
        self.last_ms = self.last_ms.max(other.last_ms);
        self.types = self.types.union(other.types);
    }

    /// What identifies the thing observed, in the order reports list it
    /// (origin, operation, record, member, kind).
    pub(crate) fn key(&self) -> DriftKey {
        (
            self.origin.clone(),
            self.group.clone(),
            self.action.clone(),
            self.record.clone(),
            self.member.clone(),
            self.kind,
        )
    }

    /// The operation's label, `group action`.
    pub fn operation(&self) -> String {
        format!("{} {}", self.group, self.action)
    }
}

impl Serialize for Observation {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let types: Vec<&str> = self.types.iter().map(|t| t.as_str()).collect();
        let mut out = s.serialize_struct("Observation", 12)?;
        out.serialize_field("origin", &self.origin)?;
        out.serialize_field("group", &self.group)?;
        out.serialize_field("action", &self.action)?;
        out.serialize_field("record", &self.record)?;
        out.serialize_field("member", &self.member)?;
        out.serialize_field("kind", self.kind.as_str())?;
        out.serialize_field("count", &self.count)?;
        out.serialize_field("rows", &self.rows)?;
        out.serialize_field("first_ms", &self.first_ms)?;
        out.serialize_field("last_ms", &self.last_ms)?;
        out.serialize_field("types", &types)?;
        out.serialize_field("example", &self.example)?;
        out.end()
    }
}
