//! Plausible example values of a parameter or member, by its wire name: one
//! home for the examples the published documents and the generated builders'
//! docs show, so both agree.

/// A plausible text for a member or parameter, by its wire name.
pub fn text(wire: &str) -> String {
    let name = wire.to_ascii_lowercase();
    let text = if name.contains("url") {
        "https://www.example.com/running-shoes/"
    } else if name.contains("domain") {
        "example.com"
    } else if name.contains("keyword") {
        "running shoes"
    } else if name == "lang" {
        "it"
    } else if name.ends_with("_ext") {
        ".it"
    } else {
        "Example"
    };
    text.to_owned()
}

/// Another plausible text, different from [`text`]'s, for a second value of a list.
pub fn other_text(wire: &str) -> String {
    let name = wire.to_ascii_lowercase();
    let text = if name.contains("url") {
        "https://shop.example.org/trail-shoes/"
    } else if name.contains("domain") {
        "example.org"
    } else if name.contains("keyword") {
        "trail shoes"
    } else {
        "Example two"
    };
    text.to_owned()
}
