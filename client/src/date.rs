//! Civil dates and times, as the service writes them: a [`Date`]
//! (`YYYY-MM-DD`), a [`Time`] of day (`HH:MM:SS`) and a [`DateTime`]
//! (`YYYY-MM-DD HH:MM:SS`), with no time zone.
//!
//! The crate's own small types rather than a date library's, because a date
//! library is a large share of a user's clean build and the API needs only
//! these three shapes. Each value is valid by construction (a real day of the
//! proleptic Gregorian calendar, years 0000 to 9999, the years the wire form
//! can write), is written and read in its wire form by `Display`/`FromStr`
//! and serde, and orders chronologically. With the `jiff` feature, each
//! converts to and from its `jiff::civil` counterpart.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// A day of the calendar: year (0000 to 9999), month and day, written
/// `YYYY-MM-DD`.
///
/// ```
/// use seozoom::types::Date;
///
/// let day = Date::new(2024, 2, 29)?;
/// assert_eq!(day.to_string(), "2024-02-29");
/// assert_eq!("2024-02-29".parse::<Date>()?, day);
/// assert!(Date::new(2023, 2, 29).is_err());
/// assert_eq!(Date::from_unix_days(day.to_unix_days() + 1)?, Date::new(2024, 3, 1)?);
/// # Ok::<(), seozoom::types::DateError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    // Field order is the chronological order the derived `Ord` compares in.
    year: i16,
    month: u8,
    day: u8,
}

/// A time of day to the second, written `HH:MM:SS` (00:00:00 to 23:59:59).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time {
    hour: u8,
    minute: u8,
    second: u8,
}

/// A date and a time of day with no time zone, written `YYYY-MM-DD HH:MM:SS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DateTime {
    date: Date,
    time: Time,
}

/// Why a date or time could not be made: no such day or time, or text not in
/// the expected form. Its message names the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateError {
    problem: Problem,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Problem {
    NoSuchDay {
        year: i64,
        month: u8,
        day: u8,
    },
    NoSuchTime {
        hour: u8,
        minute: u8,
        second: u8,
    },
    DaysOutOfRange(i64),
    Form {
        text: String,
        form: &'static str,
    },
    #[cfg_attr(not(feature = "jiff"), allow(dead_code))]
    Fraction,
}

impl fmt::Display for DateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.problem {
            Problem::NoSuchDay { year, month, day } => write!(
                f,
                "{year}-{month:02}-{day:02} is not a day of the calendar (years 0000 to 9999)"
            ),
            Problem::NoSuchTime {
                hour,
                minute,
                second,
            } => write!(
                f,
                "{hour:02}:{minute:02}:{second:02} is not a time of day (00:00:00 to 23:59:59)"
            ),
            Problem::DaysOutOfRange(days) => write!(
                f,
                "{days} days from 1970-01-01 is outside the years 0000 to 9999"
            ),
            Problem::Form { text, form } => write!(f, "{text:?} is not written {form}"),
            Problem::Fraction => {
                f.write_str("a time with fractions of a second cannot be written HH:MM:SS")
            }
        }
    }
}

impl std::error::Error for DateError {}

impl From<Problem> for DateError {
    fn from(problem: Problem) -> Self {
        DateError { problem }
    }
}

impl DateError {
    fn form(text: &str, form: &'static str) -> Self {
        DateError {
            problem: Problem::Form {
                text: text.to_owned(),
                form,
            },
        }
    }
}

const DATE_FORM: &str = "YYYY-MM-DD";
const TIME_FORM: &str = "HH:MM:SS";
const DATE_TIME_FORM: &str = "YYYY-MM-DD HH:MM:SS";

/// Days from 0000-03-01 to 1970-01-01 in the algorithm below.
const EPOCH_SHIFT: i64 = 719_468;
/// Days in a 400-year cycle of the Gregorian calendar.
const DAYS_PER_ERA: i64 = 146_097;

/// Days since 1970-01-01 of a valid civil date.
///
/// The days-from-civil algorithm (as Howard Hinnant describes it): years
/// are counted from March, so the leap day is the last day of its year and
/// the day of the year follows from the month by one linear formula; whole
/// 400-year eras repeat exactly.
fn days_from_civil(year: i64, month: u8, day: u8) -> i64 {
    let (month, day) = (i64::from(month), i64::from(day));
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400; // 0..=399
    let month_from_march = (month + 9) % 12; // March 0 .. February 11
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1; // 0..=365
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * DAYS_PER_ERA + day_of_era - EPOCH_SHIFT
}

/// The civil date `days` after 1970-01-01: the inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let days = days + EPOCH_SHIFT;
    let era = days.div_euclid(DAYS_PER_ERA);
    let day_of_era = days - era * DAYS_PER_ERA; // 0..=146096
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153; // 0..=11
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = (month_from_march + 2) % 12 + 1;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    // In range by construction: month 1..=12, day 1..=31.
    (year, month as u8, day as u8)
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: u8) -> u8 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Date {
    /// The first day the type holds, 0000-01-01.
    pub const MIN: Date = Date {
        year: 0,
        month: 1,
        day: 1,
    };

    /// The last day the type holds, 9999-12-31.
    pub const MAX: Date = Date {
        year: 9999,
        month: 12,
        day: 31,
    };

    /// The date, if it is a day of the calendar in the years 0000 to 9999.
    ///
    /// # Errors
    ///
    /// [`DateError`] when the date is not a day of the calendar or falls outside those years.
    pub fn new(year: i32, month: u8, day: u8) -> Result<Date, DateError> {
        let in_range = (0..=9999).contains(&year)
            && (1..=12).contains(&month)
            && day >= 1
            && day <= days_in_month(i64::from(year), month);
        if !in_range {
            return Err(DateError {
                problem: Problem::NoSuchDay {
                    year: i64::from(year),
                    month,
                    day,
                },
            });
        }
        Ok(Date {
            year: year as i16, // 0..=9999, checked above
            month,
            day,
        })
    }

    /// The year, 0 to 9999.
    pub fn year(self) -> i32 {
        i32::from(self.year)
    }

    /// The month, 1 (January) to 12.
    pub fn month(self) -> u8 {
        self.month
    }

    /// The day of the month, from 1.
    pub fn day(self) -> u8 {
        self.day
    }

    /// Days since 1970-01-01 (negative before it).
    pub fn to_unix_days(self) -> i64 {
        days_from_civil(i64::from(self.year), self.month, self.day)
    }

    /// The date `days` days after 1970-01-01 (before it, if negative), if it
    /// falls in the years 0000 to 9999.
    ///
    /// # Errors
    ///
    /// [`DateError`] when the day falls outside those years.
    pub fn from_unix_days(days: i64) -> Result<Date, DateError> {
        if !(Date::MIN.to_unix_days()..=Date::MAX.to_unix_days()).contains(&days) {
            return Err(DateError {
                problem: Problem::DaysOutOfRange(days),
            });
        }
        let (year, month, day) = civil_from_days(days);
        Ok(Date {
            year: year as i16, // within 0..=9999: `days` is in range
            month,
            day,
        })
    }

    /// Today in UTC, by the system clock (a clock outside the years 0000 to
    /// 9999 gives the nearest end of that range).
    pub fn today_utc() -> Date {
        let days = match SystemTime::now().duration_since(UNIX_EPOCH) {
            Ok(after) => i64::try_from(after.as_secs() / 86_400).unwrap_or(i64::MAX),
            // Before 1970: a part day counts as the day it falls in.
            Err(before) => {
                let secs = i64::try_from(before.duration().as_secs()).unwrap_or(i64::MAX);
                -(secs / 86_400)
                    - i64::from(secs % 86_400 != 0 || before.duration().subsec_nanos() != 0)
            }
        };
        Date::from_unix_days(days).unwrap_or(if days < 0 { Date::MIN } else { Date::MAX })
    }

    /// This day at `time`.
    pub fn at(self, time: Time) -> DateTime {
        DateTime::new(self, time)
    }
}

impl Time {
    /// 00:00:00.
    pub const MIDNIGHT: Time = Time {
        hour: 0,
        minute: 0,
        second: 0,
    };

    /// 23:59:59, the last second of a day.
    pub const LAST_SECOND: Time = Time {
        hour: 23,
        minute: 59,
        second: 59,
    };

    /// The time, if hour is below 24 and minute and second below 60.
    ///
    /// # Errors
    ///
    /// [`DateError`] when a figure is out of its range.
    pub fn new(hour: u8, minute: u8, second: u8) -> Result<Time, DateError> {
        if hour < 24 && minute < 60 && second < 60 {
            Ok(Time {
                hour,
                minute,
                second,
            })
        } else {
            Err(DateError {
                problem: Problem::NoSuchTime {
                    hour,
                    minute,
                    second,
                },
            })
        }
    }

    /// The hour, 0 to 23.
    pub fn hour(self) -> u8 {
        self.hour
    }

    /// The minute, 0 to 59.
    pub fn minute(self) -> u8 {
        self.minute
    }

    /// The second, 0 to 59.
    pub fn second(self) -> u8 {
        self.second
    }
}

impl DateTime {
    /// `date` at `time`.
    pub const fn new(date: Date, time: Time) -> DateTime {
        DateTime { date, time }
    }

    /// The date.
    pub fn date(self) -> Date {
        self.date
    }

    /// The time of day.
    pub fn time(self) -> Time {
        self.time
    }

    /// The UTC date and time of `at`, to the second (a time outside the
    /// years 0000 to 9999 gives the nearest end of that range).
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use seozoom::types::DateTime;
    ///
    /// let at = UNIX_EPOCH + Duration::from_secs(1_795_460_110);
    /// assert_eq!(DateTime::utc(at).to_string(), "2026-11-23 18:55:10");
    /// ```
    pub fn utc(at: SystemTime) -> DateTime {
        let secs = match at.duration_since(UNIX_EPOCH) {
            Ok(after) => i64::try_from(after.as_secs()).unwrap_or(i64::MAX),
            // Before 1970: a part second counts as the second it falls in.
            Err(before) => {
                let d = before.duration();
                let secs = i64::try_from(d.as_secs()).unwrap_or(i64::MAX);
                -secs - i64::from(d.subsec_nanos() != 0)
            }
        };
        let Ok(date) = Date::from_unix_days(secs.div_euclid(86_400)) else {
            return if secs < 0 {
                Date::MIN.at(Time::MIDNIGHT)
            } else {
                Date::MAX.at(Time::LAST_SECOND)
            };
        };
        let second = secs.rem_euclid(86_400);
        // Each figure is below 24 or 60, so each fits a u8.
        let time = Time {
            hour: (second / 3_600) as u8,
            minute: (second % 3_600 / 60) as u8,
            second: (second % 60) as u8,
        };
        date.at(time)
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}:{:02}", self.hour, self.minute, self.second)
    }
}

impl fmt::Display for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.date, self.time)
    }
}

/// The number written by `text`, if it is all ASCII digits (and not empty).
fn number(text: &[u8]) -> Option<u32> {
    if text.is_empty() || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(
        text.iter()
            .fold(0, |n, digit| n * 10 + u32::from(digit - b'0')),
    )
}

/// Year, month and day of `YYYY-MM-DD`, or why not.
fn date_parts(text: &[u8]) -> Option<(u32, u32, u32)> {
    match text {
        [y @ .., b'-', m1, m2, b'-', d1, d2] if y.len() == 4 => {
            Some((number(y)?, number(&[*m1, *m2])?, number(&[*d1, *d2])?))
        }
        _ => None,
    }
}

/// Hour, minute and second of `HH:MM:SS`.
fn time_parts(text: &[u8]) -> Option<(u32, u32, u32)> {
    match text {
        [h1, h2, b':', m1, m2, b':', s1, s2] => Some((
            number(&[*h1, *h2])?,
            number(&[*m1, *m2])?,
            number(&[*s1, *s2])?,
        )),
        _ => None,
    }
}

/// `u8` of a two-digit number (always fits).
fn small(n: u32) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

impl FromStr for Date {
    type Err = DateError;

    /// Exactly `YYYY-MM-DD`, a day of the calendar.
    fn from_str(text: &str) -> Result<Date, DateError> {
        let (year, month, day) =
            date_parts(text.as_bytes()).ok_or_else(|| DateError::form(text, DATE_FORM))?;
        // A four-digit year is at most 9999.
        Date::new(year as i32, small(month), small(day))
    }
}

impl FromStr for Time {
    type Err = DateError;

    /// Exactly `HH:MM:SS`, a time of day.
    fn from_str(text: &str) -> Result<Time, DateError> {
        let (hour, minute, second) =
            time_parts(text.as_bytes()).ok_or_else(|| DateError::form(text, TIME_FORM))?;
        Time::new(small(hour), small(minute), small(second))
    }
}

impl FromStr for DateTime {
    type Err = DateError;

    /// `YYYY-MM-DD HH:MM:SS`; a `T` in place of the space is accepted too
    /// (ISO 8601), so a date-time another program wrote reads back.
    fn from_str(text: &str) -> Result<DateTime, DateError> {
        let form = || DateError::form(text, DATE_TIME_FORM);
        let (date, time) = match text.as_bytes() {
            [date @ .., b' ' | b'T', _, _, _, _, _, _, _, _] if date.len() == 10 => {
                text.split_at(10)
            }
            _ => return Err(form()),
        };
        let date = date.parse::<Date>().map_err(|e| match e.problem {
            Problem::Form { .. } => form(),
            _ => e,
        })?;
        let time = time[1..].parse::<Time>().map_err(|e| match e.problem {
            Problem::Form { .. } => form(),
            _ => e,
        })?;
        Ok(DateTime::new(date, time))
    }
}

/// The wire form of each type, for serde's messages.
pub(crate) trait WireForm: FromStr<Err = DateError> + fmt::Display {
    /// What a value is, for "expected ..." messages.
    const EXPECTING: &'static str;
}

impl WireForm for Date {
    const EXPECTING: &'static str = "a date written YYYY-MM-DD";
}

impl WireForm for Time {
    const EXPECTING: &'static str = "a time written HH:MM:SS";
}

impl WireForm for DateTime {
    const EXPECTING: &'static str = "a date-time written YYYY-MM-DD HH:MM:SS";
}

/// Reads a value from its wire text, exactly.
struct TextVisitor<T>(PhantomData<T>);

impl<T: WireForm> Visitor<'_> for TextVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        v.parse()
            .map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
    }
}

macro_rules! serde_as_text {
    ($($ty:ty),*) => {$(
        /// As its wire text.
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        /// From its wire text, exactly.
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_str(TextVisitor(PhantomData))
            }
        }
    )*};
}

serde_as_text!(Date, Time, DateTime);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn date(y: i32, m: u8, d: u8) -> Date {
        Date::new(y, m, d).unwrap()
    }

    #[test]
    fn known_days_since_1970() {
        for (day, days) in [
            (date(1970, 1, 1), 0),
            (date(1970, 1, 2), 1),
            (date(1969, 12, 31), -1),
            (date(2000, 1, 1), 10_957),
            (date(2000, 2, 29), 11_016),
            (date(2000, 3, 1), 11_017),
            (date(2024, 2, 29), 19_782),
            (date(2100, 2, 28), 47_540),
            (date(2100, 3, 1), 47_541),
            (date(1900, 3, 1), -25_508),
            (date(1600, 2, 29), -135_081),
            (Date::MIN, -719_528),
            (Date::MAX, 2_932_896),
        ] {
            assert_eq!(day.to_unix_days(), days, "{day}");
            assert_eq!(Date::from_unix_days(days), Ok(day), "{days}");
        }
    }

    /// Every day from 0000-01-01 to 9999-12-31, counted one by one with the
    /// month lengths, against the formula both ways.
    #[test]
    fn every_day_of_ten_thousand_years() {
        let mut expected = Date::MIN.to_unix_days();
        for year in 0..=9999 {
            for month in 1..=12 {
                for day in 1..=days_in_month(i64::from(year), month) {
                    let civil = date(year, month, day);
                    assert_eq!(civil.to_unix_days(), expected, "{civil}");
                    assert_eq!(civil_from_days(expected), (i64::from(year), month, day));
                    expected += 1;
                }
            }
        }
        assert_eq!(expected - 1, Date::MAX.to_unix_days());
    }

    #[test]
    fn leap_years() {
        for (year, leap) in [
            (2000, true),
            (2024, true),
            (1900, false),
            (2100, false),
            (2023, false),
            (0, true),
        ] {
            assert_eq!(Date::new(year, 2, 29).is_ok(), leap, "{year}");
        }
    }

    #[test]
    fn constructors_refuse_what_is_not_a_day_or_a_time() {
        for (y, m, d) in [
            (2023, 2, 29),
            (2024, 2, 30),
            (2024, 4, 31),
            (2024, 13, 1),
            (2024, 0, 1),
            (2024, 1, 0),
            (10_000, 1, 1),
            (-1, 12, 31),
        ] {
            let err = Date::new(y, m, d).unwrap_err();
            assert!(err.to_string().contains("not a day"), "{err}");
        }
        assert!(Time::new(24, 0, 0).is_err());
        assert!(Time::new(0, 60, 0).is_err());
        assert!(Time::new(0, 0, 60).is_err());
        assert_eq!(
            Time::new(25, 0, 0).unwrap_err().to_string(),
            "25:00:00 is not a time of day (00:00:00 to 23:59:59)"
        );
        assert!(Date::from_unix_days(Date::MAX.to_unix_days() + 1).is_err());
        assert!(Date::from_unix_days(Date::MIN.to_unix_days() - 1).is_err());
        assert!(Date::from_unix_days(i64::MIN).is_err());
        assert!(Date::from_unix_days(i64::MAX).is_err());
    }

    #[test]
    fn text_in_the_wire_form_only() {
        assert_eq!("0000-01-01".parse(), Ok(Date::MIN));
        assert_eq!("2024-02-29".parse(), Ok(date(2024, 2, 29)));
        for bad in [
            "2024-2-29",
            "24-02-29",
            "2024/02/29",
            "2024-02-29 ",
            " 2024-02-29",
            "+024-02-29",
            "2024-0a-29",
            "20240229",
            "",
            "2024-02-30",
            "２０２４-02-29",
        ] {
            assert!(bad.parse::<Date>().is_err(), "{bad:?}");
        }
        assert_eq!(
            "2024-2-29".parse::<Date>().unwrap_err().to_string(),
            r#""2024-2-29" is not written YYYY-MM-DD"#
        );
        assert_eq!("23:59:59".parse(), Ok(Time::new(23, 59, 59).unwrap()));
        for bad in ["24:00:00", "1:02:03", "01:02", "01:02:03.5", "01-02-03"] {
            assert!(bad.parse::<Time>().is_err(), "{bad:?}");
        }
        let at = date(2023, 10, 31).at(Time::new(23, 59, 1).unwrap());
        assert_eq!(at.to_string(), "2023-10-31 23:59:01");
        assert_eq!("2023-10-31 23:59:01".parse(), Ok(at));
        assert_eq!("2023-10-31T23:59:01".parse(), Ok(at));
        for bad in [
            "2023-10-31",
            "2023-10-31  23:59:01",
            "2023-10-31_23:59:01",
            "2023-02-30 10:00:00",
            "2023-10-31 24:00:00",
        ] {
            assert!(bad.parse::<DateTime>().is_err(), "{bad:?}");
        }
        assert_eq!(
            "2023-02-30 10:00:00"
                .parse::<DateTime>()
                .unwrap_err()
                .to_string(),
            "2023-02-30 is not a day of the calendar (years 0000 to 9999)"
        );
    }

    #[test]
    fn order_is_chronological() {
        assert!(date(2023, 12, 31) < date(2024, 1, 1));
        assert!(date(2024, 1, 31) < date(2024, 2, 1));
        let t = |h, m, s| Time::new(h, m, s).unwrap();
        assert!(t(9, 59, 59) < t(10, 0, 0));
        assert!(date(2024, 1, 1).at(t(23, 0, 0)) < date(2024, 1, 2).at(Time::MIDNIGHT));
    }

    #[test]
    fn serde_as_wire_text() {
        let at = date(2024, 3, 4).at(Time::new(6, 30, 15).unwrap());
        assert_eq!(
            serde_json::to_string(&(at.date(), at.time(), at)).unwrap(),
            r#"["2024-03-04","06:30:15","2024-03-04 06:30:15"]"#
        );
        let back: (Date, Time, DateTime) =
            serde_json::from_str(r#"["2024-03-04","06:30:15","2024-03-04 06:30:15"]"#).unwrap();
        assert_eq!(back, (at.date(), at.time(), at));
        let err = serde_json::from_str::<Date>(r#""2024-02-30""#).unwrap_err();
        assert!(
            err.to_string().contains(
                r#"invalid value: string "2024-02-30", expected a date written YYYY-MM-DD"#
            ),
            "{err}"
        );
        assert!(serde_json::from_str::<Date>(r#"" 2024-02-03""#).is_err());
        assert!(serde_json::from_str::<Date>("20240203").is_err());
    }

    #[test]
    fn today_is_near_the_clock() {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
        let days = (now.as_secs() / 86_400) as i64;
        let today = Date::today_utc().to_unix_days();
        // The day may turn between the two readings.
        assert!(today == days || today == days + 1, "{today} vs {days}");
        assert!(Date::today_utc() > date(2024, 1, 1));
    }

    proptest! {
        #[test]
        fn days_round_trip(days in Date::MIN.to_unix_days()..=Date::MAX.to_unix_days()) {
            let day = Date::from_unix_days(days).unwrap();
            prop_assert_eq!(day.to_unix_days(), days);
            prop_assert_eq!(Date::new(day.year(), day.month(), day.day()), Ok(day));
            prop_assert_eq!(day.to_string().parse::<Date>(), Ok(day));
            let next = Date::from_unix_days(days + 1);
            if let Ok(next) = next {
                prop_assert!(day < next);
            }
        }

        #[test]
        fn text_round_trip(y in 0i32..=9999, m in 1u8..=12, d in 1u8..=31, h in 0u8..24, mi in 0u8..60, s in 0u8..60) {
            if let Ok(day) = Date::new(y, m, d) {
                let at = day.at(Time::new(h, mi, s).unwrap());
                prop_assert_eq!(at.to_string().parse::<DateTime>(), Ok(at));
                prop_assert_eq!(at.to_string().len(), 19);
            } else {
                prop_assert!(d > 28);
            }
        }
    }
}
