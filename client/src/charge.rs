//! What a call was charged, for every outcome ([`Charge`]), and the two
//! readings of an answer that may not decode: its units, read leniently, and
//! whether the service says the account has run out of units.
//!
//! An answer the client cannot decode may still have been charged: the service
//! did the work and cut the body, or sent a field of the wrong type. So the
//! figures are read from the text itself, not from a decoded envelope, and a
//! charge that cannot be read is said to be unknown, never 0.

use std::fmt;

/// What a call (or a job) was charged, as far as the client can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charge {
    /// Nothing: refused before anything was sent.
    None,
    /// These units, as the service reported them.
    Units(i64),
    /// The service was reached but its charge cannot be read: a body without
    /// `UnitsUsed`, an error page, a timeout after the request left.
    Unknown,
}

impl Charge {
    /// [`Charge::pack`] of no charge at all (the error's kind decides).
    pub(crate) const NOT_SET: i64 = i64::MIN;
    const NONE: i64 = i64::MIN + 1;
    const UNKNOWN: i64 = i64::MIN + 2;

    /// The charge in one `i64`, so that an error stays small: units as they
    /// are, the other cases as the three lowest values (no charge is that
    /// negative; one would read as unknown).
    pub(crate) fn pack(self) -> i64 {
        match self {
            Charge::None => Charge::NONE,
            Charge::Unknown => Charge::UNKNOWN,
            Charge::Units(n) => n.max(Charge::UNKNOWN + 1),
        }
    }

    /// What [`pack`](Self::pack) packed; `None` for [`NOT_SET`](Self::NOT_SET).
    pub(crate) fn unpack(packed: i64) -> Option<Charge> {
        match packed {
            Charge::NOT_SET => None,
            Charge::NONE => Some(Charge::None),
            Charge::UNKNOWN => Some(Charge::Unknown),
            n => Some(Charge::Units(n)),
        }
    }

    /// The charge of two calls (or attempts) together: unknown if either is.
    pub fn plus(self, other: Charge) -> Charge {
        match (self, other) {
            (Charge::Unknown, _) | (_, Charge::Unknown) => Charge::Unknown,
            (Charge::Units(a), Charge::Units(b)) => Charge::Units(a.saturating_add(b)),
            (Charge::Units(n), Charge::None) | (Charge::None, Charge::Units(n)) => Charge::Units(n),
            (Charge::None, Charge::None) => Charge::None,
        }
    }
}

impl fmt::Display for Charge {
    /// `nothing (refused before sending)`, `10 units`, `unknown (...)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Charge::None => f.write_str("nothing (refused before sending)"),
            Charge::Units(1) => f.write_str("1 unit"),
            Charge::Units(n) => write!(f, "{n} units"),
            Charge::Unknown => f.write_str(
                "unknown (the service was reached but reported no charge the client could read)",
            ),
        }
    }
}

/// The units an answer reports, read from its text whatever else it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct BodyUnits {
    /// `UnitsUsed`, when it is there whole.
    pub used: Option<i64>,
    /// `UnitsRemaining`, when it is there whole.
    pub remaining: Option<i64>,
}

impl BodyUnits {
    /// What the answer was charged: its `UnitsUsed`, else unknown.
    pub(crate) fn charge(self) -> Charge {
        self.used.map_or(Charge::Unknown, Charge::Units)
    }
}

/// `UnitsUsed` and `UnitsRemaining` (the envelope's wire names, `used` and
/// `remaining`) read from a body that may be cut short or malformed: the first
/// `"NAME"` followed by `:` and an integer that is whole (followed by
/// something, so that `10` cut to `1` is not read as 1).
pub(crate) fn read_units(body: &[u8], used: &str, remaining: &str) -> BodyUnits {
    let text = String::from_utf8_lossy(body);
    BodyUnits {
        used: read_integer(&text, used),
        remaining: read_integer(&text, remaining),
    }
}

fn read_integer(text: &str, name: &str) -> Option<i64> {
    let quoted = format!("\"{name}\"");
    let at = text.find(&quoted)? + quoted.len();
    let rest = text[at..].trim_start().strip_prefix(':')?.trim_start();
    let digits_end = rest
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-')))
        .map(|(i, _)| i)?;
    let (number, after) = rest.split_at(digits_end);
    // `12.0`: an integral float, as the service sometimes writes them.
    let after = after.strip_prefix(".0").unwrap_or(after);
    if after.is_empty() || after.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    number.parse().ok()
}

/// Whether an error answer says the account has run out of units: HTTP 402,
/// or a message that speaks of units (or credits) as insufficient, exhausted
/// or not enough. The reference does not show this answer; these are the
/// words such services use, and the sandbox answers `403 Insufficient units`.
pub(crate) fn says_out_of_units(status: u16, message: Option<&str>) -> bool {
    if status == 402 {
        return true;
    }
    if (200..300).contains(&status) {
        return false;
    }
    let Some(message) = message else {
        return false;
    };
    let message = message.to_lowercase();
    let about_units = ["unit", "credit", "balance"]
        .iter()
        .any(|w| message.contains(w));
    let ran_out = [
        "insufficient",
        "not enough",
        "exhausted",
        "run out",
        "ran out",
        "out of",
        "no more",
        "no units",
    ]
    .iter()
    .any(|w| message.contains(w));
    about_units && ran_out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(body: &str) -> BodyUnits {
        read_units(body.as_bytes(), "UnitsUsed", "UnitsRemaining")
    }

    #[test]
    fn units_are_read_from_a_body_cut_anywhere_after_them() {
        let body = r#"{"ResultRows": 1, "UnitsUsed": 10, "UnitsRemaining": 990, "response": [{"keyword": "scar"#;
        assert_eq!(
            units(body),
            BodyUnits {
                used: Some(10),
                remaining: Some(990)
            }
        );
        // Cut inside the figure: not read as a smaller one.
        assert_eq!(units(r#"{"UnitsUsed": 1"#).used, None);
        assert_eq!(units(r#"{"UnitsUsed": 10,"#).used, Some(10));
        assert_eq!(units(r#"{"UnitsUsed":12.0}"#).used, Some(12));
        assert_eq!(units(r#"{"UnitsUsed": 1.5}"#).used, None);
        assert_eq!(units(r#"{"UnitsUsed": "ten"}"#).used, None);
        assert_eq!(units("").used, None);
        assert_eq!(units("<html>502</html>").charge(), Charge::Unknown);
        assert_eq!(units(r#"{"UnitsUsed": -3}"#).used, Some(-3));
    }

    #[test]
    fn a_charge_packs_and_unpacks() {
        for charge in [
            Charge::None,
            Charge::Unknown,
            Charge::Units(0),
            Charge::Units(-3),
            Charge::Units(i64::MAX),
        ] {
            assert_eq!(Charge::unpack(charge.pack()), Some(charge));
        }
        assert_eq!(Charge::unpack(Charge::NOT_SET), None);
    }

    #[test]
    fn charges_add_up_and_unknown_wins() {
        assert_eq!(Charge::Units(2).plus(Charge::Units(3)), Charge::Units(5));
        assert_eq!(Charge::Units(2).plus(Charge::None), Charge::Units(2));
        assert_eq!(Charge::Units(2).plus(Charge::Unknown), Charge::Unknown);
        assert_eq!(Charge::None.plus(Charge::None), Charge::None);
        assert_eq!(Charge::Units(10).to_string(), "10 units");
    }

    #[test]
    fn running_out_of_units_is_told_by_status_or_words() {
        assert!(says_out_of_units(403, Some("Insufficient units")));
        assert!(says_out_of_units(402, None));
        assert!(says_out_of_units(400, Some("API units exhausted")));
        assert!(!says_out_of_units(403, Some("Invalid API key")));
        assert!(!says_out_of_units(500, None));
        assert!(!says_out_of_units(200, Some("insufficient units")));
    }
}
