//! Text files published from templates beside this module: `{{name}}`
//! placeholders filled in from the spec.

/// `template` with every `{{name}}` replaced by its value.
///
/// # Panics
///
/// When the template names a placeholder `values` does not fill (a mistake in
/// the template, caught by the freshness test).
pub fn fill(file: &str, template: &str, values: &[(&str, String)]) -> String {
    let mut text = template.to_owned();
    for (name, value) in values {
        text = text.replace(&format!("{{{{{name}}}}}"), value);
    }
    if let Some(at) = text.find("{{") {
        let rest = &text[at..];
        let end = rest.find("}}").map_or(rest.len(), |e| e + 2);
        panic!("{file}: no value for {}", &rest[..end]);
    }
    text
}
