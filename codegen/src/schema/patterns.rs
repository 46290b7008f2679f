//! The regular expressions the schemas hold (ECMAScript syntax, as JSON Schema
//! reads them), and how a character is written literally in one.

/// A date, `YYYY-MM-DD`.
pub const DATE_PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";
/// A date and time without a time zone, `YYYY-MM-DD HH:MM:SS`.
pub const DATETIME_PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$";
/// A time of day without a time zone, `HH:MM:SS`.
pub const TIME_PATTERN: &str = "^[0-9]{2}:[0-9]{2}:[0-9]{2}$";
/// The boolean words the client reads (`true`/`false`, `1`/`0`, `yes`/`no`, any
/// case), and the empty string, which reads as no answer.
pub const BOOL_WORD_PATTERN: &str =
    "^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[Yy][Ee][Ss]|[Nn][Oo]|1|0)?$";
/// A SERP position: a positive number without leading zeros.
pub const POSITION_PATTERN: &str = "^[1-9][0-9]*$";

/// What Rust's `str::trim` removes, and so what the client's validator reads
/// as blank: the Unicode `White_Space` characters, as a regex class body. (Not
/// `\s`: ECMAScript's also holds U+FEFF and lacks U+0085.)
pub(super) const WHITE_SPACE: &str =
    "\\u0009-\\u000d\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

/// `c` written literally in a regular expression.
pub fn regex_escape(c: char) -> String {
    if "^$\\.*+?()[]{}|/".contains(c) {
        format!("\\{c}")
    } else {
        c.to_string()
    }
}

/// `c` written literally inside a character class.
pub fn class_escape(c: char) -> String {
    if "\\]^-[".contains(c) {
        format!("\\{c}")
    } else {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::WHITE_SPACE;

    /// `WHITE_SPACE` is exactly what `char::is_whitespace` (and so `str::trim`) takes.
    #[test]
    fn white_space_is_what_trim_removes() {
        // `\uAAAA` alone, or `\uAAAA-\uBBBB`: split on `\u`; a range's start ends in `-`.
        let mut ranges = Vec::new();
        let mut start = None;
        for part in WHITE_SPACE.split("\\u").filter(|p| !p.is_empty()) {
            let code = u32::from_str_radix(part.trim_end_matches('-'), 16).unwrap();
            match (part.ends_with('-'), start.take()) {
                (true, _) => start = Some(code),
                (false, Some(lo)) => ranges.push((lo, code)),
                (false, None) => ranges.push((code, code)),
            }
        }
        let listed = |c: u32| ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&c));
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            assert_eq!(c.is_whitespace(), listed(c as u32), "U+{:04X}", c as u32);
        }
    }
}
