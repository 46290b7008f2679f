//! A call's drift: what its decode noted ([`super::seen`]), and what the call
//! itself shows (an answer's status the spec does not name, a charge that
//! differs from the spec's cost), as the observations the store keeps.

use super::observation::Observation;
use super::seen::{DriftKind, Found, Seen, cut};
use crate::operation_table::{Charged, Operation};

/// Where and when a call's drift was seen.
pub(crate) struct Call<'a> {
    /// The service's origin.
    pub origin: &'a str,
    /// The operation.
    pub op: &'static Operation,
    /// When it was answered, ms since the epoch.
    pub at_ms: i64,
    /// The rows of the answer.
    pub rows: i64,
}

/// What `seen` adds up to for the store: one observation each, where and when
/// the call was made; `scrub` hides the API key in every text taken from the
/// answer.
pub(crate) fn observations(
    call: &Call<'_>,
    seen: Vec<Seen>,
    scrub: impl Fn(&str) -> String,
) -> Vec<Observation> {
    seen.into_iter()
        .map(|seen| Observation {
            origin: call.origin.to_owned(),
            group: call.op.group.to_owned(),
            action: call.op.action.to_owned(),
            record: seen.record,
            member: cut(scrub(&seen.member)),
            kind: seen.kind,
            count: seen.count,
            rows: call.rows,
            first_ms: call.at_ms,
            last_ms: call.at_ms,
            types: seen.types,
            example: cut(scrub(&seen.example)),
        })
        .collect()
}

/// A charge the spec's cost of `op` does not allow for `rows` rows: outside
/// the range its unit figures give (per row, or per call). `None` when it
/// fits, or when the spec knows no cost.
pub(crate) fn charge(op: &Operation, rows: i64, units_used: i64) -> Option<Seen> {
    let (low, high) = (op.cost.units.iter().min()?, op.cost.units.iter().max()?);
    let (expected_low, expected_high, per) = match op.cost.charged {
        Charged::PerRow => (
            low.saturating_mul(rows),
            high.saturating_mul(rows),
            " a row",
        ),
        Charged::PerCall => (*low, *high, " a call"),
        _ => return None,
    };
    if (expected_low..=expected_high).contains(&units_used) {
        return None;
    }
    let figures = match low == high {
        true => low.to_string(),
        false => format!("{low} to {high}"),
    };
    Some(Seen {
        record: String::new(),
        member: String::new(),
        kind: DriftKind::Charge,
        count: 1,
        types: Default::default(),
        example: cut(format!(
            "{units_used} units for {rows} rows; the spec: {figures}{per}"
        )),
    })
}

/// An answer whose status the spec does not name (neither a success, nor its
/// "no data" answer, nor one of its refusals), or a success that carries an
/// error message: what it was.
pub(crate) fn status(op: &Operation, status: u16, message: Option<&str>) -> Option<Seen> {
    let service = op.service;
    let success = (200..300).contains(&status);
    let named = status == service.no_data_status || service.refusals.contains(&status);
    if named || (success && message.is_none()) {
        return None;
    }
    let mut seen = Seen {
        record: String::new(),
        member: format!("HTTP {status}"),
        kind: DriftKind::UnnamedStatus,
        count: 1,
        types: Default::default(),
        example: String::new(),
    };
    if let Some(message) = message {
        seen.example = cut(Found::Text(message).example_text());
    }
    Some(seen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operation_table::Operation;

    #[test]
    fn a_charge_outside_the_spec_s_figures_is_drift() {
        let metrics = Operation::find("keywords", "metrics").unwrap();
        assert!(charge(metrics, 2, 20).is_none(), "10 a row");
        let seen = charge(metrics, 2, 25).unwrap();
        assert_eq!(seen.kind, DriftKind::Charge);
        assert_eq!(seen.example, "25 units for 2 rows; the spec: 10 a row");
        let list = Operation::find("projects", "list").unwrap();
        assert!(charge(list, 7, 100).is_none(), "100 a call");
        let two = Operation::find("urls", "intentgap").unwrap();
        assert!(charge(two, 2, 60).is_none(), "20 to 40 a row");
        assert!(charge(two, 2, 90).is_some());
        let unknown = Operation::find("keywords", "related").unwrap();
        assert!(
            charge(unknown, 2, 999).is_none(),
            "no figure to differ from"
        );
    }

    #[test]
    fn a_status_the_spec_does_not_name_is_drift() {
        let op = Operation::find("keywords", "metrics").unwrap();
        assert!(status(op, 200, None).is_none());
        assert!(
            status(op, 401, Some("Invalid key")).is_none(),
            "a refusal it names"
        );
        let seen = status(op, 418, Some("I'm a teapot")).unwrap();
        assert_eq!(
            (seen.member.as_str(), seen.example.as_str()),
            ("HTTP 418", "\"I'm a teapot\"")
        );
        assert!(
            status(op, 200, Some("error")).is_some(),
            "a success with an error"
        );
    }
}
