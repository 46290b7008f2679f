//! The `jiff` feature: the civil date types convert to and from
//! `jiff::civil`'s without loss, and refuse what the wire forms cannot write.

use seozoom::types::jiff::civil;
use seozoom::types::{Date, DateTime, Time};

#[test]
fn civil_types_convert_both_ways() {
    let day = Date::new(2024, 2, 29).unwrap();
    let at = day.at(Time::new(23, 59, 1).unwrap());
    let jiff_at: civil::DateTime = at.into();
    assert_eq!(jiff_at, civil::datetime(2024, 2, 29, 23, 59, 1, 0));
    assert_eq!(civil::Date::from(day), civil::date(2024, 2, 29));
    assert_eq!(DateTime::try_from(jiff_at), Ok(at));
    assert_eq!(Date::try_from(civil::date(2024, 2, 29)), Ok(day));
    // The text agrees too (jiff writes a `T`, which the crate's types read).
    assert_eq!(jiff_at.to_string().parse::<DateTime>(), Ok(at));
    for edge in [Date::MIN, Date::MAX] {
        assert_eq!(Date::try_from(civil::Date::from(edge)), Ok(edge));
    }

    let before_year_0 = Date::try_from(civil::date(-1, 12, 31)).unwrap_err();
    assert!(
        before_year_0.to_string().contains("not a day"),
        "{before_year_0}"
    );
    let fraction = Time::try_from(civil::time(10, 0, 0, 500_000_000)).unwrap_err();
    assert!(
        fraction.to_string().contains("fractions of a second"),
        "{fraction}"
    );
}
