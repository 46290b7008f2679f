//! The cost range of a request before it is sent: from the spec's figures,
//! or from what the ledger learned of an operation's charge.

use serde::Serialize;

use crate::operation_table::{Charged, Operation, Role};

/// The cost range of a request, before it is sent: from the spec's figures,
/// or, for an operation whose cost the spec does not know, from what the
/// service charged for it before ([`Basis::Observed`]).
///
/// Serialized as `{"min", "max", "unknown", "basis", "learned", "per_row",
/// "per_request"}`, with `max` `null` when there is no maximum
/// ([`max_units`](Self::max_units)), `basis` `"spec"` or `"observed"`,
/// `learned` `{"per_row", "rows"}` or `null`, `per_row` `{"low", "high"}` or
/// `null` and `per_request` a number or `null`: the one form every face gives.
///
/// ```
/// use seozoom::units::Estimate;
///
/// let shown = serde_json::to_value(Estimate::UNKNOWN).unwrap();
/// assert_eq!(shown["max"], serde_json::Value::Null);
/// assert_eq!(shown["unknown"], true);
/// assert_eq!(serde_json::to_value(Estimate::range(10, 20)).unwrap()["max"], 20);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    /// The least it may cost (no rows returned, or the single per-call figure).
    pub min: i64,
    /// The most it may cost; `i64::MAX` when the cost is unknown or has no
    /// bound (a paged job without a row cap): [`max_units`](Self::max_units)
    /// says `None` then.
    pub max: i64,
    /// Nobody knows the cost of (some of) the requests: neither the spec nor
    /// the ledger. The range says nothing, and no budget can cover them.
    pub unknown: bool,
    /// Where the range comes from.
    pub basis: Basis,
    /// What the store's ledger learned of the operation's charge, when it has
    /// learned something and the spec leaves the charge open (an unknown cost,
    /// or two printed figures). With [`Basis::Observed`] the range is made
    /// from it; with [`Basis::Spec`] (two figures) it is reported only.
    pub learned: Option<Learned>,
    /// What one row (or input item, for an operation charged per item)
    /// costs, lowest and highest: the spec's figure, its two figures, or the
    /// charge the ledger learned. `None` for an operation charged per call
    /// and for an unknown cost.
    pub per_row: Option<(i64, i64)>,
    /// What a request may cost whatever rows it returns: the figure of an
    /// operation charged per call, or, for one whose reference prints two
    /// figures without saying which applies when, the higher one (the most
    /// a "per call plus per row" reading adds). `None` otherwise. A job of
    /// `r` requests and `n` rows costs at most `r x per_request + n x high`
    /// ([`unit_parts`]).
    pub per_request: Option<i64>,
}

/// What one request of an operation may cost by the spec's figures, in two
/// named parts: a part per request, whatever the rows, and a part per row
/// returned (lowest and highest). The estimate's range, the tools' cost text
/// and the sandbox's charge all read the figures through it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitParts {
    /// Charged once per request: the per-call figure, or the higher of two
    /// figures whose reading the reference leaves open; `None` when nothing
    /// is charged per request.
    pub per_request: Option<i64>,
    /// Charged per row returned, lowest and highest; `None` for an operation
    /// charged per call.
    pub per_row: Option<(i64, i64)>,
}

/// The parts of `op`'s cost, from the spec's figures; `None` when the spec
/// does not know the cost.
///
/// - Per call: the figure per request, nothing per row.
/// - Per row, one figure: that figure per row, nothing per request.
/// - Per row, two figures (the reference does not say which is charged
///   when): up to the higher per row plus up to the higher per request,
///   which bounds both "the higher per row" and "the higher per call plus
///   the lower per row".
pub fn unit_parts(op: &Operation) -> Option<UnitParts> {
    let low = op.cost.units.iter().copied().min()?;
    let high = op.cost.units.iter().copied().max()?;
    match op.cost.charged {
        Charged::Unknown => None,
        Charged::PerCall => Some(UnitParts {
            per_request: Some(high),
            per_row: None,
        }),
        _ => Some(UnitParts {
            per_request: (op.cost.units.len() > 1).then_some(high),
            per_row: Some((low, high)),
        }),
    }
}

/// Where an estimate's range comes from (serialized `"spec"` or
/// `"observed"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// The spec's unit figures (or nothing, for an unknown cost).
    #[default]
    Spec,
    /// The charge per row the service reported for earlier calls of the
    /// operation ([`Estimate::learned`]): the spec gives no figure. It is what
    /// was seen, not a bound: a call may be charged more.
    Observed,
}

/// An operation's charge per row, learned from the store's ledger: the units
/// the service reported for the calls of the last
/// [`LEARNED_OVER_DAYS`] days that reached it, over the rows they returned,
/// rounded up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Learned {
    /// Units a row, rounded up (at least what any row cost on average).
    pub per_row: i64,
    /// The rows it was learned over.
    pub rows: i64,
}

/// How many days of the ledger an operation's charge per row is learned
/// over: recent enough to follow a change of the service's prices, long
/// enough to have seen the operation, and a bounded read of the ledger.
pub const LEARNED_OVER_DAYS: i64 = 30;

impl Learned {
    /// The charge per row of calls that charged `units_used` in all and
    /// returned `rows`; `None` before any row was returned (nothing to divide
    /// by). Calls that returned no row count with their units: a charge per
    /// call then raises the figure, which errs on the safe side.
    pub fn from_totals(units_used: i64, rows: i64) -> Option<Learned> {
        if rows <= 0 {
            return None;
        }
        let units = units_used.max(0);
        Some(Learned {
            // Rounded up: a figure below the average would let a budget admit
            // a call that the average already overruns.
            per_row: units / rows + i64::from(units % rows != 0),
            rows,
        })
    }
}

/// An estimate as it is serialized.
#[derive(Serialize)]
struct Shown {
    min: i64,
    max: Option<i64>,
    unknown: bool,
    basis: Basis,
    learned: Option<Learned>,
    per_row: Option<PerRow>,
    per_request: Option<i64>,
}

/// What a row costs, lowest and highest, as serialized.
#[derive(Serialize)]
struct PerRow {
    low: i64,
    high: i64,
}

impl Serialize for Estimate {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Shown {
            min: self.min,
            max: self.max_units(),
            unknown: self.unknown,
            basis: self.basis,
            learned: self.learned,
            per_row: self.per_row.map(|(low, high)| PerRow { low, high }),
            per_request: self.per_request,
        }
        .serialize(serializer)
    }
}

impl Estimate {
    /// The most it may cost, or `None` when nobody knows the cost or it has
    /// no bound (`max` is then `i64::MAX`).
    pub fn max_units(&self) -> Option<i64> {
        (!self.unknown && self.max != i64::MAX).then_some(self.max)
    }

    /// Nothing: the start of a sum.
    pub const ZERO: Estimate = Estimate::range(0, 0);

    /// A request whose cost the spec does not know.
    pub const UNKNOWN: Estimate = Estimate {
        min: 0,
        max: i64::MAX,
        unknown: true,
        basis: Basis::Spec,
        learned: None,
        per_row: None,
        per_request: None,
    };

    /// A known range, from the spec's figures.
    pub const fn range(min: i64, max: i64) -> Estimate {
        Estimate {
            min,
            max,
            unknown: false,
            basis: Basis::Spec,
            learned: None,
            per_row: None,
            per_request: None,
        }
    }

    /// The sum of two estimates (for a job of several requests); unknown when
    /// either is, observed when either is. Of two learned figures the higher
    /// per row is kept.
    pub fn plus(self, other: Estimate) -> Estimate {
        let basis = match (self.basis, other.basis) {
            (Basis::Spec, Basis::Spec) => Basis::Spec,
            _ => Basis::Observed,
        };
        let learned = match (self.learned, other.learned) {
            (Some(a), Some(b)) => Some(if b.per_row > a.per_row { b } else { a }),
            (a, b) => a.or(b),
        };
        let per_row = match (self.per_row, other.per_row) {
            (Some((lo, hi)), Some((other_lo, other_hi))) => {
                Some((lo.min(other_lo), hi.max(other_hi)))
            }
            (a, b) => a.or(b),
        };
        Estimate {
            min: self.min.saturating_add(other.min),
            max: self.max.saturating_add(other.max),
            unknown: self.unknown || other.unknown,
            basis,
            learned,
            per_row,
            per_request: self.per_request.max(other.per_request),
        }
    }
}

impl std::fmt::Display for Estimate {
    /// `10..200 units`, `unknown (the reference prints no unit cost)`, or with
    /// what the ledger learned: `0..480 units (observed: 4 units a row over
    /// 1,200 rows)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.unknown {
            f.write_str("unknown (the reference prints no unit cost)")
        } else {
            write!(f, "{}..{} units", self.min, self.max)?;
            match (self.basis, self.learned) {
                (Basis::Observed, Some(learned)) => write!(f, " (observed: {learned})"),
                (Basis::Spec, Some(learned)) => {
                    write!(f, " (the spec's bound; observed: {learned})")
                }
                _ => Ok(()),
            }
        }
    }
}

impl std::fmt::Display for Learned {
    /// `4 units a row over 1,200 rows`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let units = if self.per_row == 1 { "unit" } else { "units" };
        let rows = if self.rows == 1 { "row" } else { "rows" };
        write!(
            f,
            "{} {units} a row over {} {rows}",
            grouped(self.per_row),
            grouped(self.rows)
        )
    }
}

/// A whole number with its thousands grouped by commas (`1,200`).
fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Most rows a validated request can return: the smallest of the number of list
/// items, the page size (the parameter with the `page_size` role), and the
/// per-request figure itself.
fn max_rows(op: &Operation, query: &[(&'static str, String)], separator: char) -> i64 {
    let mut rows = op.cost.per_request.value;
    for param in op.params {
        let Some((_, value)) = query.iter().find(|(wire, _)| *wire == param.wire) else {
            continue;
        };
        if param.list {
            rows = rows.min(value.matches(separator).count() as i64 + 1);
        }
        if param.role == Some(Role::PageSize) {
            rows = rows.min(value.parse().unwrap_or(rows));
        }
    }
    rows.max(0)
}

/// The cost range of a validated request (its query pairs), from the spec.
///
/// - Per call: the printed figure, whatever the rows.
/// - Per row, one figure: 0 (nothing found) to figure x most rows.
/// - Per row, two figures (their reading is not shown): low x 0 to high x (most
///   rows + 1), which covers both "high per row" and "high per call plus low per row".
/// - Unknown: [`Estimate::UNKNOWN`].
pub(crate) fn estimate(
    op: &Operation,
    query: &[(&'static str, String)],
    separator: char,
) -> Estimate {
    estimate_learned(op, query, separator, None)
}

/// Whether what the ledger learned of `op`'s charge can tell anything the
/// spec does not: its cost is unknown, or printed as two figures.
pub fn learns(op: &Operation) -> bool {
    op.cost.charged == Charged::Unknown || op.cost.units.len() > 1
}

/// The cost range of a validated request, given what the ledger `learned`
/// of the operation's charge per row.
///
/// - Unknown cost, something learned: `0..=per_row x most rows`, observed.
///   It is an estimate from what was seen, not a bound, yet it lets a budget
///   admit the call; what the call is charged is recorded as usual.
/// - Two figures, something learned: the spec's range all the same, with the
///   learned figure reported. The spec's range bounds every reading of the two
///   figures, and the budget must never be overrun; a figure learned from
///   totals bounds none (a call with a charge per call and few rows costs
///   more per row than the average), so it may not lower the maximum.
/// - Anything else: the spec's range (`learned` is ignored).
pub(crate) fn estimate_learned(
    op: &Operation,
    query: &[(&'static str, String)],
    separator: char,
    learned: Option<Learned>,
) -> Estimate {
    let Some(parts) = unit_parts(op) else {
        return match learned {
            Some(learned) => Estimate {
                basis: Basis::Observed,
                learned: Some(learned),
                per_row: Some((learned.per_row, learned.per_row)),
                ..Estimate::range(
                    0,
                    learned
                        .per_row
                        .saturating_mul(max_rows(op, query, separator)),
                )
            },
            None => Estimate::UNKNOWN,
        };
    };
    let per_request = parts.per_request.unwrap_or(0);
    match parts.per_row {
        // Per call: the figure, whatever the rows.
        None => Estimate {
            per_request: parts.per_request,
            ..Estimate::range(per_request, per_request)
        },
        Some((_, high)) => {
            let rows = max_rows(op, query, separator);
            let two = parts.per_request.is_some();
            Estimate {
                learned: learned.filter(|_| two),
                per_row: parts.per_row,
                per_request: parts.per_request,
                ..Estimate::range(0, high.saturating_mul(rows).saturating_add(per_request))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::OPERATIONS;

    fn op_where(test: impl Fn(&Operation) -> bool) -> &'static Operation {
        OPERATIONS
            .iter()
            .find(|op| test(op))
            .expect("the spec has one")
    }

    #[test]
    fn the_cost_per_row_is_the_spec_figures_low_and_high() {
        let one = op_where(|op| op.cost.charged == Charged::PerRow && op.cost.units.len() == 1);
        let figure = one.cost.units[0];
        assert_eq!(estimate(one, &[], '|').per_row, Some((figure, figure)));
        let two = op_where(|op| op.cost.units.len() == 2);
        let (low, high) = (
            two.cost.units[0].min(two.cost.units[1]),
            two.cost.units[0].max(two.cost.units[1]),
        );
        assert_eq!(estimate(two, &[], '|').per_row, Some((low, high)));
        let per_call = op_where(|op| op.cost.charged == Charged::PerCall);
        assert_eq!(estimate(per_call, &[], '|').per_row, None);
        let unknown = op_where(|op| op.cost.charged == Charged::Unknown);
        assert_eq!(estimate(unknown, &[], '|').per_row, None);
        let learned = Learned::from_totals(40, 10);
        assert_eq!(
            estimate_learned(unknown, &[], '|', learned).per_row,
            Some((4, 4))
        );
    }

    #[test]
    fn the_learned_charge_is_units_over_rows_rounded_up() {
        let exact = Learned::from_totals(30, 10).unwrap();
        assert_eq!((exact.per_row, exact.rows), (3, 10));
        // 31 units over 10 rows: 3.1 a row is 4, never 3.
        assert_eq!(Learned::from_totals(31, 10).unwrap().per_row, 4);
        assert_eq!(Learned::from_totals(1, 1_000).unwrap().per_row, 1);
        // Rows not charged for: learned as free.
        assert_eq!(Learned::from_totals(0, 10).unwrap().per_row, 0);
        // A negative total (a refund) frees nothing, and lowers nothing below 0.
        assert_eq!(Learned::from_totals(-5, 10).unwrap().per_row, 0);
    }

    #[test]
    fn no_charge_is_learned_before_a_row_was_returned() {
        // Nothing recorded yet.
        assert_eq!(Learned::from_totals(0, 0), None);
        // Calls recorded, but none returned a row: nothing to divide by.
        assert_eq!(Learned::from_totals(50, 0), None);
        assert_eq!(Learned::from_totals(50, -1), None);
    }

    #[test]
    fn an_unknown_cost_with_a_learned_charge_is_observed_and_bounded() {
        let op = op_where(|op| op.cost.charged == Charged::Unknown);
        assert_eq!(estimate(op, &[], ','), Estimate::UNKNOWN);
        let learned = Learned::from_totals(7, 2).unwrap();
        let observed = estimate_learned(op, &[], ',', Some(learned));
        let most = op.cost.per_request.value;
        assert_eq!((observed.min, observed.max), (0, 4 * most));
        assert!(!observed.unknown);
        assert_eq!(observed.basis, Basis::Observed);
        assert_eq!(observed.learned, Some(learned));
        assert_eq!(
            observed.to_string(),
            format!(
                "0..{} units (observed: 4 units a row over 2 rows)",
                4 * most
            )
        );
    }

    #[test]
    fn two_figures_keep_the_spec_range_and_only_report_the_learned_charge() {
        let op = op_where(|op| op.cost.units.len() > 1);
        let spec = estimate(op, &[], ',');
        let learned = Learned::from_totals(1, 1_200).unwrap();
        let refined = estimate_learned(op, &[], ',', Some(learned));
        assert_eq!((refined.min, refined.max), (spec.min, spec.max));
        assert_eq!(refined.basis, Basis::Spec);
        assert_eq!(refined.learned, Some(learned));
        assert_eq!(
            refined.to_string(),
            format!("{spec} (the spec's bound; observed: 1 unit a row over 1,200 rows)")
        );
        // A one-figure operation ignores it.
        let one = op_where(|op| op.cost.units.len() == 1);
        assert_eq!(
            estimate_learned(one, &[], ',', Some(learned)),
            estimate(one, &[], ',')
        );
    }

    #[test]
    fn sums_are_observed_when_either_part_is() {
        let learned = Learned {
            per_row: 4,
            rows: 1_200,
        };
        let observed = Estimate {
            basis: Basis::Observed,
            learned: Some(learned),
            ..Estimate::range(0, 40)
        };
        let sum = Estimate::range(10, 20).plus(observed);
        assert_eq!((sum.min, sum.max, sum.basis), (10, 60, Basis::Observed));
        assert_eq!(sum.learned, Some(learned));
        assert_eq!(
            sum.to_string(),
            "10..60 units (observed: 4 units a row over 1,200 rows)"
        );
        let spec = Estimate::range(1, 2).plus(Estimate::range(3, 4));
        assert_eq!(spec, Estimate::range(4, 6));
        assert_eq!(spec.to_string(), "4..6 units");
        assert!(observed.plus(Estimate::UNKNOWN).unknown);
    }

    #[test]
    fn large_figures_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(grouped(-12_345), "-12,345");
    }
}
