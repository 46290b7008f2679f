//! HTTP dates (RFC 9110, section 5.6.7), as a `Retry-After` header may carry
//! one: the preferred IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) and the
//! two obsolete forms a recipient must still read, RFC 850
//! (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
//!
//! The weekday is redundant: a wrong one does not make a date unreadable.
//! Names are read in any case and runs of blanks as one, as lenient readers do.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::date::{Date, Time};

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const LONG_DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];
const SECONDS_PER_DAY: i64 = 86_400;

/// How long from `now` until the HTTP date `text`: zero for a date past, and
/// [`Duration::MAX`] for one the system clock cannot reach. `None` when `text`
/// is not an HTTP date.
pub(crate) fn wait_until(text: &str, now: SystemTime) -> Option<Duration> {
    let seconds = unix_seconds(text, year_of(now))?;
    let Ok(seconds) = u64::try_from(seconds) else {
        return Some(Duration::ZERO); // before 1970: past
    };
    Some(match UNIX_EPOCH.checked_add(Duration::from_secs(seconds)) {
        Some(when) => when.duration_since(now).unwrap_or(Duration::ZERO),
        None => Duration::MAX,
    })
}

/// The year `now` falls in (UTC), for RFC 850's two-digit years.
fn year_of(now: SystemTime) -> i32 {
    let days = match now.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_secs()).unwrap_or(i64::MAX) / SECONDS_PER_DAY,
        Err(_) => -1,
    };
    Date::from_unix_days(days).map_or(1970, Date::year)
}

/// Seconds since 1970-01-01 00:00:00 UTC of an HTTP date in any of its three
/// forms; `this_year` resolves RFC 850's two-digit year.
fn unix_seconds(text: &str, this_year: i32) -> Option<i64> {
    let mut words = text.split_ascii_whitespace();
    let first = words.next()?;
    let (date, time) = if let Some(day_name) = first.strip_suffix(',') {
        if is_one_of(day_name, &DAYS) {
            // IMF-fixdate: day month year time GMT
            let (day, month, year) = (words.next()?, words.next()?, words.next()?);
            let time = words.next()?;
            (date(digits(year, 4)?, month, day)?, time)
        } else if is_one_of(day_name, &LONG_DAYS) {
            // RFC 850: day-month-yy time GMT
            let mut parts = words.next()?.split('-');
            let (day, month, year) = (parts.next()?, parts.next()?, parts.next()?);
            if parts.next().is_some() {
                return None;
            }
            let year = two_digit_year(digits(year, 2)?, this_year);
            (date(year, month, day)?, words.next()?)
        } else {
            return None;
        }
    } else if is_one_of(first, &DAYS) {
        // asctime: month day time year, no zone (it is GMT)
        let (month, day, time, year) = (words.next()?, words.next()?, words.next()?, words.next()?);
        if words.next().is_some() {
            return None;
        }
        return at(date(digits(year, 4)?, month, day)?, time);
    } else {
        return None;
    };
    if !words.next()?.eq_ignore_ascii_case("GMT") || words.next().is_some() {
        return None;
    }
    at(date, time)
}

/// Whether `word` is one of `names`, in any case.
fn is_one_of(word: &str, names: &[&str]) -> bool {
    names.iter().any(|name| name.eq_ignore_ascii_case(word))
}

/// The number written by exactly `len` ASCII digits.
fn digits(text: &str, len: usize) -> Option<i32> {
    if text.len() != len || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The date of a year, a month name and a day of one or two digits.
fn date(year: i32, month: &str, day: &str) -> Option<Date> {
    let month = MONTHS
        .iter()
        .position(|name| name.eq_ignore_ascii_case(month))?;
    let day = digits(day, 2).or_else(|| digits(day, 1))?;
    Date::new(year, month as u8 + 1, day as u8).ok()
}

/// The year of a two-digit year: the one with those digits at most 50 years
/// ahead of `this_year` (RFC 9110: one that would be more than 50 years in the
/// future is the most recent past year with those digits).
fn two_digit_year(yy: i32, this_year: i32) -> i32 {
    let year = this_year - this_year.rem_euclid(100) + yy;
    if year > this_year + 50 {
        year - 100
    } else if year <= this_year - 50 {
        year + 100
    } else {
        year
    }
}

/// Seconds since 1970-01-01 00:00:00 of `date` at the time written `time`.
fn at(date: Date, time: &str) -> Option<i64> {
    let time: Time = time.parse().ok()?;
    let seconds =
        i64::from(time.hour()) * 3600 + i64::from(time.minute()) * 60 + i64::from(time.second());
    Some(date.to_unix_days() * SECONDS_PER_DAY + seconds)
}

/// `at` as an IMF-fixdate, for tests that send one.
#[cfg(test)]
pub(crate) fn imf_fixdate(at: SystemTime) -> String {
    let seconds = at.duration_since(UNIX_EPOCH).unwrap().as_secs() as i64;
    let days = seconds.div_euclid(SECONDS_PER_DAY);
    let time = seconds.rem_euclid(SECONDS_PER_DAY);
    let date = Date::from_unix_days(days).unwrap();
    format!(
        "{}, {:02} {} {:04} {:02}:{:02}:{:02} GMT",
        DAYS[(days + 3).rem_euclid(7) as usize], // 1970-01-01 was a Thursday
        date.day(),
        MONTHS[usize::from(date.month()) - 1],
        date.year(),
        time / 3600,
        time / 60 % 60,
        time % 60,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 9110's example, in each form.
    const EXAMPLE: i64 = 784_111_777;

    #[test]
    fn the_three_forms_of_rfc_9110() {
        for text in [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
        ] {
            assert_eq!(unix_seconds(text, 2026), Some(EXAMPLE), "{text}");
        }
    }

    #[test]
    fn lenient_in_weekday_case_and_blanks() {
        for text in [
            "Mon, 06 Nov 1994 08:49:37 GMT",
            "sun, 06 nov 1994 08:49:37 gmt",
            "Sun,  06 Nov 1994  08:49:37 GMT",
            "Sun, 6 Nov 1994 08:49:37 GMT",
            "Friday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov 06 08:49:37 1994",
        ] {
            assert_eq!(unix_seconds(text, 2026), Some(EXAMPLE), "{text}");
        }
    }

    #[test]
    fn not_http_dates() {
        for text in [
            "",
            "soon",
            "7",
            "Sun, 99 Foo 2094 08:49:37 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 31 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:49 GMT",
            "Sun, 06 Nov 1994 08:49:37",
            "Sun, 06 Nov 1994 08:49:37 CET",
            "Sun, 06 Nov 1994 08:49:37 GMT extra",
            "Sun 06 Nov 1994 08:49:37 GMT",
            "Son, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 94 08:49:37 GMT",
            "Sunday, 06-Nov-1994 08:49:37 GMT",
            "Sunday, 06-Nov-94-1 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994 GMT",
            "Sun, 006 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 10000 08:49:37 GMT",
            "2026-11-23T18:00:00Z",
        ] {
            assert_eq!(unix_seconds(text, 2026), None, "{text}");
        }
    }

    #[test]
    fn rfc_850_years_are_at_most_50_years_ahead() {
        assert_eq!(two_digit_year(94, 2026), 1994);
        assert_eq!(two_digit_year(76, 2026), 2076);
        assert_eq!(two_digit_year(77, 2026), 1977);
        assert_eq!(two_digit_year(26, 2026), 2026);
        assert_eq!(two_digit_year(0, 2026), 2000);
        assert_eq!(two_digit_year(10, 2070), 2110);
        assert_eq!(two_digit_year(20, 2070), 2120);
        assert_eq!(two_digit_year(21, 2070), 2021);
        assert_eq!(two_digit_year(99, 2001), 1999);
        assert_eq!(
            year_of(UNIX_EPOCH + Duration::from_secs(EXAMPLE as u64)),
            1994
        );
    }

    #[test]
    fn waits_from_now() {
        let now = UNIX_EPOCH + Duration::from_secs(EXAMPLE as u64);
        let wait = |text| wait_until(text, now);
        assert_eq!(wait("Sun, 06 Nov 1994 08:49:37 GMT"), Some(Duration::ZERO));
        assert_eq!(
            wait("Sun, 06 Nov 1994 08:50:07 GMT"),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            wait("Sat, 05 Nov 1994 08:49:37 GMT"),
            Some(Duration::ZERO),
            "past"
        );
        assert_eq!(wait("Thu, 01 Jan 1970 00:00:00 GMT"), Some(Duration::ZERO));
        assert_eq!(wait("Tue, 31 Dec 1968 23:59:59 GMT"), Some(Duration::ZERO));
        assert_eq!(wait("Sun, 99 Foo 2094 08:49:37 GMT"), None);
        let far = wait("Fri, 31 Dec 9999 23:59:59 GMT").unwrap();
        assert!(far > Duration::from_secs(250_000_000_000), "{far:?}");
    }

    #[test]
    fn formats_what_it_reads() {
        let now = SystemTime::now();
        let text = imf_fixdate(now);
        let seconds = now.duration_since(UNIX_EPOCH).unwrap().as_secs() as i64;
        assert_eq!(unix_seconds(&text, 2026), Some(seconds), "{text}");
        assert_eq!(
            imf_fixdate(UNIX_EPOCH + Duration::from_secs(EXAMPLE as u64)),
            "Sun, 06 Nov 1994 08:49:37 GMT"
        );
    }
}
