//! Where the API key is replaced in text taken from outside (an error body,
//! a service message, a drift example): only where it is the key.
//!
//! A key that no word of a message could be (long, or holding anything but
//! letters, as real keys do) is replaced wherever it occurs. A key that is a
//! short word (`test`, `demo`) is replaced only where it can be nothing but
//! the key: as the query's `api_key` value (a body echoing the request), as a
//! whole JSON string, or as the whole text; so that every occurrence of that
//! word is not turned into the marker.

/// A key at least this long is no word, whatever its characters.
const LONGEST_WORD: usize = 16;

/// Whether `key` could be a word of a message.
fn is_a_word(key: &str) -> bool {
    key.chars().count() < LONGEST_WORD && key.chars().all(char::is_alphabetic)
}

/// The query parameter the key is sent in.
const PARAMETER: &str = "api_key=";

/// `text` with `key`, and its percent-encoded form `encoded`, replaced by
/// `marker` where it is the key.
pub(crate) fn redact(text: &str, key: &str, encoded: &str, marker: &str) -> String {
    if key.is_empty() {
        return text.to_owned();
    }
    match is_a_word(key) {
        // A word's percent-encoded form is itself.
        true => where_it_is_the_key(text, key, marker),
        false => text.replace(key, marker).replace(encoded, marker),
    }
}

/// `text` with `key` replaced where it can only be the key.
fn where_it_is_the_key(text: &str, key: &str, marker: &str) -> String {
    if text.trim() == key {
        return text.replace(key, marker);
    }
    let quoted = format!("\"{key}\"");
    let text = text.replace(&quoted, &format!("\"{marker}\""));
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    let after = format!("{PARAMETER}{key}");
    while let Some(at) = rest.find(&after) {
        let end = at + after.len();
        let ends_value = rest[end..].chars().next().is_none_or(ends_a_value);
        out.push_str(&rest[..at]);
        match ends_value {
            true => {
                out.push_str(PARAMETER);
                out.push_str(marker);
            }
            false => out.push_str(&rest[at..end]),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Whether `c` ends a query value (the key's is then whole).
fn ends_a_value(c: char) -> bool {
    c.is_whitespace() || "&#\"'<>()[]{},;\\".contains(c)
}

#[cfg(test)]
mod tests {
    use super::redact;

    const M: &str = "<redacted>";

    #[test]
    fn a_short_key_is_replaced_only_where_it_is_the_key() {
        let key = "test";
        let cases = [
            (
                r#"{"message":"a test of api_key=test&db=it"}"#,
                r#"{"message":"a test of api_key=<redacted>&db=it"}"#,
            ),
            (
                r#"{"key":"test","note":"testing"}"#,
                r#"{"key":"<redacted>","note":"testing"}"#,
            ),
            ("test", M),
            ("api_key=testing&db=it", "api_key=testing&db=it"),
            ("this is a test", "this is a test"),
            ("see ?api_key=test", "see ?api_key=<redacted>"),
        ];
        for (text, want) in cases {
            assert_eq!(redact(text, key, key, M), want, "{text}");
        }
    }

    #[test]
    fn a_key_that_is_no_word_and_its_encoded_form_are_replaced_everywhere() {
        for (key, encoded) in [
            ("0123456789abcdef0123 x", "0123456789abcdef0123%20x"),
            ("K-1 a", "K-1%20a"),
            ("Testingkeysarelong", "Testingkeysarelong"),
        ] {
            let text = format!("your key {key}. (api_key={encoded}) is unknown");
            assert_eq!(
                redact(&text, key, encoded, M),
                "your key <redacted>. (api_key=<redacted>) is unknown"
            );
        }
        assert_eq!(redact("nothing here", "", "", M), "nothing here");
    }
}
