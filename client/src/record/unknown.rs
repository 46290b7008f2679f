//! The members of a record that the spec does not know, or whose value does
//! not fit their field, kept by wire name with their JSON values.

use serde_json::{Map, Value};

/// The members of one row that its record does not know, and those it knows
/// whose value did not fit the field's type (`55.5` for an integer, `"n/a"`
/// for a number, an object for a list: the field is then empty), by wire
/// name, with their JSON values as the service sent them
/// ([`unknown_members`] on every record). Empty, and one null pointer in
/// size, when there are none: a row the spec describes whole pays nothing
/// for it.
///
/// [`unknown_members`]: crate::types::KeywordMetrics::unknown_members
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UnknownMembers(Option<Box<Map<String, Value>>>);

impl UnknownMembers {
    /// Whether the row had no member the spec does not know.
    pub fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(|members| members.is_empty())
    }

    /// How many members the spec does not know the row had.
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |members| members.len())
    }

    /// The value of the member with this wire name, if the row had it.
    pub fn get(&self, wire: &str) -> Option<&Value> {
        self.0.as_ref()?.get(wire)
    }

    /// The members, by wire name, in the order serde_json's `Map` keeps (by
    /// name, unless its `preserve_order` feature is on).
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0
            .iter()
            .flat_map(|members| members.iter())
            .map(|(name, value)| (name.as_str(), value))
    }

    /// Keep a member (a later one of the same name replaces it).
    pub(crate) fn insert(&mut self, wire: String, value: Value) {
        self.0.get_or_insert_with(Box::default).insert(wire, value);
    }

    /// Keep every member of `other` (a later one of the same name replaces
    /// one kept).
    pub(crate) fn extend(&mut self, other: UnknownMembers) {
        for (wire, value) in other.0.into_iter().flat_map(|members| *members) {
            self.insert(wire, value);
        }
    }
}

impl<'a> IntoIterator for &'a UnknownMembers {
    type Item = (&'a str, &'a Value);
    type IntoIter = Box<dyn Iterator<Item = (&'a str, &'a Value)> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_costs_one_pointer_and_members_read_back() {
        assert_eq!(
            std::mem::size_of::<UnknownMembers>(),
            std::mem::size_of::<usize>()
        );
        let mut members = UnknownMembers::default();
        assert!(members.is_empty());
        assert_eq!(members.iter().count(), 0);
        members.insert("b".into(), Value::from(2));
        members.insert("a".into(), Value::from("x"));
        assert_eq!(members.len(), 2);
        assert_eq!(members.get("a"), Some(&Value::from("x")));
        let mut names: Vec<&str> = (&members).into_iter().map(|(name, _)| name).collect();
        names.sort_unstable();
        assert_eq!(names, ["a", "b"]);
    }
}
