//! The figures an answer's envelope did not report, where the envelope's
//! field cannot say so itself.

/// Which of an envelope's figures the answer did not report: a member
/// missing, `null`, or a value that is not a number. The service charged
/// what it charged all the same, so an unread charge is recorded in the
/// ledger as unknown rather than as nothing. (An unreported balance needs no
/// flag: the envelope's `units_remaining` is `None`.)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unreported {
    /// The charge (`UnitsUsed`): the envelope's `units_used` is then 0.
    pub units_used: bool,
}

impl Unreported {
    /// Whether every figure was reported.
    pub fn is_none(&self) -> bool {
        !self.units_used
    }
}
