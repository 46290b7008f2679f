//! The figures an answer's envelope did not report.

/// Which of an envelope's figures the answer did not report: a member
/// missing, `null`, or a value that is not a number. The service charged
/// what it charged all the same, so an unread charge is recorded in the
/// ledger as unknown rather than as nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unreported {
    /// The charge (`UnitsUsed`): the envelope's `units_used` is then 0.
    pub units_used: bool,
    /// The balance (`UnitsRemaining`): the envelope's `units_remaining` is
    /// then the last balance known.
    pub units_remaining: bool,
}

impl Unreported {
    /// Whether every figure was reported.
    pub fn is_none(&self) -> bool {
        !self.units_used && !self.units_remaining
    }
}
