//! How long an answer stays fresh (the spec's `freshness`), and the one
//! decision a response cache asks of it: is an answer to this request still
//! fresh, and for how long.
//!
//! Dates are compared as `YYYY-MM-DD` text, which orders as the dates do, so
//! this needs no calendar type: today's date comes in from the caller.

use std::time::Duration;

use super::Source;

/// How long an answer stays fresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fresh {
    /// For this long after it was fetched.
    For(Duration),
    /// For good: the answer never changes (a past day's record).
    ForGood,
}

impl Fresh {
    /// Whether an answer fetched `age` ago is still fresh.
    pub fn holds_after(self, age: Duration) -> bool {
        match self {
            Fresh::For(ttl) => age < ttl,
            Fresh::ForGood => true,
        }
    }
}

/// How long an answer of an operation stays fresh in a response cache, with
/// its provenance. The reference shows no update schedule, so the figures are
/// the spec's decisions, each with a note saying why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Freshness {
    /// How long an answer stays fresh after it was fetched (live data; for an
    /// operation with [`past_days`](Self::past_days), an answer about today
    /// or a later day).
    pub ttl: Duration,
    /// For an operation about a given day (its parameter with the role
    /// [`Role::Day`](super::Role::Day)): how long an answer about a day
    /// before today stays fresh, when that differs from `ttl`. A past day's
    /// record never changes, so it is [`Fresh::ForGood`] for the history
    /// operations.
    pub past_days: Option<Fresh>,
    /// Where the figures come from.
    pub source: Source,
    /// Why they are what they are.
    pub note: Option<&'static str>,
}

impl Freshness {
    /// How long an answer about `day` (the value of the operation's
    /// [`Role::Day`](super::Role::Day) parameter, `None` when it has none)
    /// stays fresh, `today` being the current UTC date. Both dates are
    /// `YYYY-MM-DD`; a day that is not written so is taken as live data,
    /// never as a past day.
    ///
    /// ```
    /// use std::time::Duration;
    /// use seozoom::operation_table::{Fresh, Freshness, Source};
    ///
    /// let history = Freshness::new(86_400, Source::Decided).past_days_for_good();
    /// assert_eq!(history.fresh_for(Some("2026-11-22"), "2026-11-23"), Fresh::ForGood);
    /// assert_eq!(
    ///     history.fresh_for(Some("2026-11-23"), "2026-11-23"),
    ///     Fresh::For(Duration::from_secs(86_400))
    /// );
    /// assert_eq!(history.fresh_for(None, "2026-11-23"), Fresh::For(history.ttl));
    /// ```
    pub fn fresh_for(&self, day: Option<&str>, today: &str) -> Fresh {
        match (self.past_days, day) {
            (Some(past), Some(day)) if is_date(day) && is_date(today) && day < today => past,
            _ => Fresh::For(self.ttl),
        }
    }
}

/// Whether `text` is written `YYYY-MM-DD` (digits and dashes in place), so
/// that comparing two such texts compares the dates.
fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: Duration = Duration::from_secs(86_400);

    fn live() -> Freshness {
        Freshness::new(86_400, Source::Decided)
    }

    #[test]
    fn live_data_keeps_its_ttl_whatever_the_day() {
        assert_eq!(live().fresh_for(None, "2026-11-23"), Fresh::For(DAY));
        assert_eq!(
            live().fresh_for(Some("2020-01-01"), "2026-11-23"),
            Fresh::For(DAY)
        );
    }

    #[test]
    fn a_past_day_is_kept_for_good_and_today_like_live_data() {
        let history = live().past_days_for_good();
        let today = "2026-11-23";
        assert_eq!(history.fresh_for(Some("2026-11-22"), today), Fresh::ForGood);
        assert_eq!(history.fresh_for(Some("2025-12-31"), today), Fresh::ForGood);
        assert_eq!(history.fresh_for(Some(today), today), Fresh::For(DAY));
        assert_eq!(
            history.fresh_for(Some("2026-11-24"), today),
            Fresh::For(DAY)
        );
        assert_eq!(history.fresh_for(None, today), Fresh::For(DAY));
    }

    #[test]
    fn a_day_not_written_yyyy_mm_dd_is_never_a_past_day() {
        let history = live().past_days_for_good();
        for day in [
            "2026-1-5",
            "20261105",
            "",
            "yesterday",
            "2026-11-2x",
            "1999-12-31 ",
        ] {
            assert_eq!(
                history.fresh_for(Some(day), "2026-11-23"),
                Fresh::For(DAY),
                "{day:?}"
            );
        }
        assert_eq!(
            history.fresh_for(Some("2026-11-22"), "23/11/2026"),
            Fresh::For(DAY)
        );
    }

    #[test]
    fn past_days_may_have_a_ttl_of_their_own() {
        let week = live().past_days_for(7 * 86_400);
        assert_eq!(
            week.fresh_for(Some("2026-11-01"), "2026-11-23"),
            Fresh::For(7 * DAY)
        );
    }

    #[test]
    fn fresh_holds_until_the_ttl_has_passed() {
        assert!(Fresh::For(DAY).holds_after(DAY - Duration::from_secs(1)));
        assert!(!Fresh::For(DAY).holds_after(DAY));
        assert!(Fresh::ForGood.holds_after(Duration::MAX));
        assert!(!Fresh::For(Duration::ZERO).holds_after(Duration::ZERO));
    }
}
