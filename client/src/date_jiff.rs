//! Conversions between the crate's civil types and `jiff::civil`'s (feature
//! `jiff`), so a caller who works in jiff loses nothing.
//!
//! Into jiff always succeeds: jiff holds every year from -9999 to 9999.
//! From jiff fails for a year before 0000 and for a time with fractions of a
//! second, which the service's forms cannot write; nothing is rounded away.

use jiff::civil;

use crate::date::{Date, DateError, DateTime, Problem, Time};

impl From<Date> for civil::Date {
    fn from(d: Date) -> civil::Date {
        // Valid in jiff too: the same calendar, a narrower range of years.
        civil::date(d.year() as i16, d.month() as i8, d.day() as i8)
    }
}

impl TryFrom<civil::Date> for Date {
    type Error = DateError;

    fn try_from(d: civil::Date) -> Result<Date, DateError> {
        Date::new(i32::from(d.year()), d.month() as u8, d.day() as u8)
    }
}

impl From<Time> for civil::Time {
    fn from(t: Time) -> civil::Time {
        civil::time(t.hour() as i8, t.minute() as i8, t.second() as i8, 0)
    }
}

impl TryFrom<civil::Time> for Time {
    type Error = DateError;

    fn try_from(t: civil::Time) -> Result<Time, DateError> {
        if t.subsec_nanosecond() != 0 {
            return Err(DateError::from(Problem::Fraction));
        }
        Time::new(t.hour() as u8, t.minute() as u8, t.second() as u8)
    }
}

impl From<DateTime> for civil::DateTime {
    fn from(dt: DateTime) -> civil::DateTime {
        civil::DateTime::from_parts(dt.date().into(), dt.time().into())
    }
}

impl TryFrom<civil::DateTime> for DateTime {
    type Error = DateError;

    fn try_from(dt: civil::DateTime) -> Result<DateTime, DateError> {
        Ok(DateTime::new(dt.date().try_into()?, dt.time().try_into()?))
    }
}
