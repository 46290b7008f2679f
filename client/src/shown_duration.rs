//! A duration as people read it, in messages and errors.

use std::time::Duration;

/// `60 s`, `2.5 s`, `250 ms`; less than a millisecond, but not nothing, is
/// `1 ms`, so that a wait is never said to be of no time.
pub(crate) fn shown(duration: Duration) -> String {
    let ms = match duration.as_millis() {
        0 if !duration.is_zero() => 1,
        ms => ms,
    };
    match ms {
        0..1_000 => format!("{ms} ms"),
        _ if ms.is_multiple_of(1_000) => format!("{} s", ms / 1_000),
        _ => format!("{:.1} s", duration.as_secs_f64()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_shown_in_the_unit_that_reads_best() {
        assert_eq!(shown(Duration::from_millis(250)), "250 ms");
        assert_eq!(shown(Duration::from_secs(60)), "60 s");
        assert_eq!(shown(Duration::from_millis(2_500)), "2.5 s");
        assert_eq!(shown(Duration::from_micros(400)), "1 ms");
        assert_eq!(shown(Duration::ZERO), "0 ms");
    }
}
