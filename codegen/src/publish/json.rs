//! Canonical JSON text: object keys sorted, two-space indentation, `": "` after a
//! key, one value per line, a trailing newline. The same value always gives the
//! same bytes, whatever order its maps were built in (and whether or not
//! `serde_json`'s `preserve_order` feature is on in the build).

use serde_json::Value;

/// `value` as canonical JSON text, ending in a newline.
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write(&mut out, value, 0);
    out.push('\n');
    out
}

fn write(out: &mut String, value: &Value, depth: usize) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                out.push_str(&Value::String(key.clone()).to_string());
                out.push_str(": ");
                write(out, item, depth + 1);
            }
            newline(out, depth);
            out.push('}');
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write(out, item, depth + 1);
            }
            newline(out, depth);
            out.push(']');
        }
        // A scalar, `{}` or `[]`, as `serde_json` writes it (escapes included).
        other => out.push_str(&other.to_string()),
    }
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::canonical;

    #[test]
    fn keys_are_sorted_and_layout_is_fixed() {
        let value = json!({"b": [1, {"d": null, "c": "x\"y"}], "a": {}, "e": []});
        assert_eq!(
            canonical(&value),
            "{\n  \"a\": {},\n  \"b\": [\n    1,\n    {\n      \"c\": \"x\\\"y\",\n      \"d\": null\n    }\n  ],\n  \"e\": []\n}\n"
        );
    }

    #[test]
    fn canonical_text_parses_back_to_the_same_value() {
        let value = json!({"z": 1.5, "y": [true, false, "é/\\"], "x": {"k": -3}});
        let text = canonical(&value);
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap(),
            value
        );
    }
}
