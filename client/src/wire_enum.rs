//! The trait every closed enum of the spec implements.

use std::fmt;

/// A closed set of wire values generated from the spec (`Db`, `KeywordType`, ...).
pub trait WireEnum: Sized + 'static {
    /// The enum's name in the spec.
    const NAME: &'static str;
    /// Every wire value, in spec order.
    const VALUES: &'static [&'static str];
    /// This value as sent on the wire.
    fn as_wire(&self) -> &str;
}

/// A string that is not one of a closed enum's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownValue {
    /// The enum's name in the spec.
    pub kind: &'static str,
    /// The value given.
    pub value: String,
    /// The values accepted.
    pub expected: &'static [&'static str],
}

impl UnknownValue {
    /// The error for `value` not being one of `E`'s values.
    pub fn new<E: WireEnum>(value: &str) -> Self {
        UnknownValue {
            kind: E::NAME,
            value: value.to_owned(),
            expected: E::VALUES,
        }
    }
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a {} value: expected one of {}",
            self.value,
            self.kind,
            self.expected.join(", ")
        )
    }
}

impl std::error::Error for UnknownValue {}
