//! A value as a message repeats it: its text, cut short, so that a refusal
//! of a 70,000-character argument is not 70,000 characters long.

use serde_json::Value;

/// Longest piece of a value repeated in a message.
const SHOWN: usize = 80;

/// A value as shown in a message: its JSON text (a string without quotes),
/// cut to [`SHOWN`] characters.
pub fn shown(value: &Value) -> String {
    let text = match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    if text.chars().count() > SHOWN {
        let mut cut: String = text.chars().take(SHOWN).collect();
        cut.push('…');
        cut
    } else {
        text
    }
}
