//! The calendar window of a budget kept in the store: a value of the store's
//! settings (`seozoom::store::BudgetWindow`) and of the error that refuses a
//! call over it, so a leaf that both use.

use std::fmt;

use crate::date::Date;

/// The calendar window of a budget kept in the store: what the ledger holds
/// for the key since the window began counts against it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BudgetWindow {
    /// The UTC calendar day.
    Day,
    /// The UTC calendar month.
    Month,
}

impl fmt::Display for BudgetWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BudgetWindow::Day => "day",
            BudgetWindow::Month => "month",
        })
    }
}

const DAY_MS: i64 = 86_400_000;

impl BudgetWindow {
    /// Where the window that holds `now_ms` starts (ms since the epoch).
    pub fn start_ms(self, now_ms: i64) -> i64 {
        let day = now_ms.div_euclid(DAY_MS);
        let start = match self {
            BudgetWindow::Day => day,
            // A day number out of the calendar's range (year beyond 9999) has
            // no month: its day is as good a start as any.
            BudgetWindow::Month => Date::from_unix_days(day)
                .and_then(|date| Date::new(date.year(), date.month(), 1))
                .map_or(day, Date::to_unix_days),
        };
        start * DAY_MS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_windows_start_on_the_utc_day_and_month() {
        // 2026-11-23T18:55:10Z
        let now = 1_795_460_110_000;
        assert_eq!(BudgetWindow::Day.start_ms(now), 1_795_392_000_000);
        // 2026-11-01T00:00:00Z
        assert_eq!(BudgetWindow::Month.start_ms(now), 1_793_491_200_000);
        // 2024-03-01T00:00:00Z, the day after a leap day, starts March.
        assert_eq!(
            BudgetWindow::Month.start_ms(1_709_251_200_000),
            1_709_251_200_000
        );
        // 2024-02-29T23:59:59Z is still in February.
        assert_eq!(
            BudgetWindow::Month.start_ms(1_709_251_199_000),
            1_706_745_600_000
        );
    }
}
