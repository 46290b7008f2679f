//! A bad spec gives every problem at once, each at its file, line and column,
//! and never a panic.

mod common;

use common::{edited, position_of};
use seozoom_codegen::{Diagnostics, generate_str};

const FILE: &str = "spec/seozoom-v2.toml";

fn errors(text: &str) -> Diagnostics {
    match generate_str(FILE, text) {
        Ok(_) => panic!("the edited spec was accepted"),
        Err(diagnostics) => diagnostics,
    }
}

/// Asserts that one diagnostic points at the first occurrence of `at` with `message` in it.
fn assert_error_at(diagnostics: &Diagnostics, text: &str, at: &str, message: &str) {
    let (line, column) = position_of(text, at);
    let found = diagnostics.0.iter().any(|d| {
        d.file == FILE && d.line == line && d.column == column && d.message.contains(message)
    });
    assert!(
        found,
        "no error at {line}:{column} containing {message:?}; got:\n{diagnostics}"
    );
}

#[test]
fn the_real_spec_is_valid() {
    let text = common::spec_text();
    if let Err(diagnostics) = generate_str(FILE, &text) {
        panic!("{diagnostics}");
    }
}

#[test]
fn a_toml_syntax_error_is_located() {
    let text = edited("title = \"SEOZoom API v2\"", "title = \"SEOZoom API v2");
    let diagnostics = errors(&text);
    assert_eq!(diagnostics.0.len(), 1, "{diagnostics}");
    let d = &diagnostics.0[0];
    assert_eq!(d.line, position_of(&text, "title = ").0, "{diagnostics}");
}

#[test]
fn an_unknown_key_is_located() {
    let text = edited(
        "list_separator = \"|\"",
        "list_separator = \"|\"\nlist_seperator = \",\"",
    );
    let diagnostics = errors(&text);
    assert_error_at(
        &diagnostics,
        &text,
        "list_seperator",
        "unknown field `list_seperator`",
    );
}

#[test]
fn a_wire_name_that_is_not_a_rust_name_needs_one() {
    // `1a3` is the competitor record's wire name; without its `rust` name it cannot be a field.
    let text = edited(
        "wire = \"1a3\"\nrust = \"positions_1_to_3\"",
        "wire = \"1a3\"",
    );
    let diagnostics = errors(&text);
    assert_error_at(
        &diagnostics,
        &text,
        "\"1a3\"",
        "give this field a `rust` name",
    );
}

#[test]
fn every_error_is_reported_in_one_run() {
    let text = edited("trailing = \"10.000 / 20\"", "trailing = \"10.000 / 25\"");
    let text = text.replacen("type = \"integer\"", "type = \"int\"", 1);
    let text = text.replacen("of = \"project\"", "of = \"projekt\"", 1);
    let diagnostics = errors(&text);
    assert_eq!(diagnostics.0.len(), 3, "{diagnostics}");
    assert_error_at(
        &diagnostics,
        &text,
        "\"10.000 / 25\"",
        "reads as [10000, 25]",
    );
    assert_error_at(&diagnostics, &text, "\"int\"", "unknown field type `int`");
    assert_error_at(&diagnostics, &text, "\"projekt\"", "`of` names no record");
    let lines: Vec<usize> = diagnostics.0.iter().map(|d| d.line).collect();
    assert!(lines.is_sorted(), "diagnostics in spec order: {lines:?}");
    assert!(diagnostics.to_string().ends_with("3 error(s) in the spec"));
}

#[test]
fn printed_figures_must_match_units() {
    let text = edited("printed = \"50 and 10\"", "printed = \"50 and 15\"");
    let diagnostics = errors(&text);
    assert_error_at(
        &diagnostics,
        &text,
        "\"50 and 15\"",
        "does not show the figures of `units` [50, 10]",
    );
}

#[test]
fn an_inferred_limit_must_be_its_trailing_figure() {
    let text = edited(
        "max = { value = 10000, source = \"inferred\"",
        "max = { value = 1000, source = \"inferred\"",
    );
    let diagnostics = errors(&text);
    assert_error_at(
        &diagnostics,
        &text,
        "1000, source",
        "must equal the trailing figure it comes from (10000)",
    );
}

#[test]
fn a_decided_value_needs_a_note() {
    let text = edited(
        "min = { value = 1, source = \"decided\", note = ",
        "min = { value = 1, source = \"decided\", nope = ",
    );
    let diagnostics = errors(&text);
    assert_error_at(&diagnostics, &text, "nope", "unknown field `nope`");
    let text = common::spec_text();
    let start = text
        .find("presence = { source = \"decided\", note = ")
        .expect("a decided presence");
    let end = start + text[start..].find('\n').expect("line end");
    let text = format!(
        "{}presence = {{ source = \"decided\" }}{}",
        &text[..start],
        &text[end..]
    );
    let diagnostics = errors(&text);
    assert_error_at(&diagnostics, &text, "\"decided\" }", "needs a `note`");
}

#[test]
fn a_rule_must_name_a_value_of_its_enum() {
    let text = edited("if_value = \"bypage\"", "if_value = \"by_page\"");
    let diagnostics = errors(&text);
    assert_error_at(
        &diagnostics,
        &text,
        "\"by_page\"",
        "`by_page` is not a value of `type`",
    );
}

#[test]
fn a_keyword_is_not_a_rust_name() {
    let text = edited("rust = \"keyword_type\"", "rust = \"type\"");
    let diagnostics = errors(&text);
    assert_error_at(
        &diagnostics,
        &text,
        "\"type\"\ntype",
        "`type` is a Rust keyword",
    );
}

#[test]
fn an_action_defined_twice_is_reported() {
    let text = edited("wire = \"serphistory\"", "wire = \"serp\"");
    let diagnostics = errors(&text);
    let (line, _) = position_of(
        &text[text.find("wire = \"serp\"").unwrap() + 1..],
        "wire = \"serp\"",
    );
    let first_line = position_of(&text, "wire = \"serp\"").0;
    assert!(
        diagnostics
            .0
            .iter()
            .any(|d| d.line == first_line + line - 1 && d.message.contains("defined twice")),
        "{diagnostics}"
    );
}

#[test]
fn garbage_never_panics() {
    for text in [
        "",
        "[[actions]]",
        "api = 3",
        "\u{0}\u{1}",
        "[api]\ntitle = 1",
        "[[records]]\nname = \"x\"",
    ] {
        assert!(generate_str(FILE, text).is_err(), "{text:?} was accepted");
    }
}
