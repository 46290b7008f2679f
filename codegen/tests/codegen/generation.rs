//! The generator's output: deterministic, committed as a golden file, and driven by
//! the spec alone.

use crate::common;

use std::path::PathBuf;

use seozoom_codegen::generate_str;

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/generated.rs")
}

fn generate(text: &str) -> String {
    generate_str("spec/seozoom-v2.toml", text).unwrap_or_else(|d| panic!("{d}"))
}

/// `UPDATE_GOLDEN=1 cargo test -p seozoom-codegen --test codegen generation::` rewrites the
/// golden file; otherwise any difference fails, so a spec or generator change shows
/// up as a reviewed diff of the generated code.
#[test]
fn output_matches_the_golden_file() {
    let generated = generate(&common::spec_text());
    let path = golden_path();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &generated).expect("golden file written");
        return;
    }
    let golden = std::fs::read_to_string(&path).unwrap_or_default();
    if golden != generated {
        let line = golden
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || golden.lines().count().min(generated.lines().count()),
                |i| i + 1,
            );
        panic!(
            "the generated code differs from {} from line {line}; review the change and run \
             `UPDATE_GOLDEN=1 cargo test -p seozoom-codegen --test codegen generation::`",
            path.display()
        );
    }
}

#[test]
fn generating_twice_gives_identical_output() {
    let text = common::spec_text();
    assert_eq!(generate(&text), generate(&text));
}

/// The file is prettyplease's formatting with its items spaced out, after a
/// header line and a blank one.
#[test]
fn output_is_formatted_rust() {
    let generated = generate(&common::spec_text());
    let file = syn::parse_file(&generated).expect("generated code parses");
    let body = generated.split_once("\n\n").unwrap().1;
    assert_eq!(
        seozoom_codegen::emit::space_out_items(&prettyplease::unparse(&file)),
        body
    );
    assert!(body.contains("}\n\n    impl "), "items are not spaced out");
}

#[test]
fn a_field_added_to_the_spec_appears_in_the_generated_type() {
    let text = common::edited(
        "{ wire = \"pza\", type = \"integer\"",
        "{ wire = \"pza_trend\", rust = \"page_authority_trend\", type = \"number\", presence = \"unstated\", description = \"Change of page authority over the last month.\" },\n    { wire = \"pza\", type = \"integer\"",
    );
    let before = generate(&common::spec_text());
    let after = generate(&text);
    let field = "#[cfg_attr(feature = \"schemars\", serde(default, rename = \"pza_trend\"))]\n        pub page_authority_trend: ::core::option::Option<f64>,";
    assert!(!before.contains(field));
    assert!(after.contains(field), "field not generated:\n{after}");
    assert!(after.contains("/// Change of page authority over the last month."));
}

/// Without the `format` feature (the client's build script) the generator gives
/// the same code unformatted: formatted, it is the golden file.
#[test]
fn the_plain_output_is_the_same_code() {
    let spec = seozoom_codegen::load_str("spec/seozoom-v2.toml", &common::spec_text())
        .unwrap_or_else(|d| panic!("{d}"));
    let plain = seozoom_codegen::emit::plain(&spec);
    let formatted = generate(&common::spec_text());
    let (plain_header, plain_code) = plain.split_once("\n\n").unwrap();
    let (header, code) = formatted.split_once("\n\n").unwrap();
    assert_eq!(plain_header, header);
    assert_ne!(plain_code, code, "the plain output is not formatted");
    let file = syn::parse_file(plain_code).expect("the plain output parses");
    assert!(seozoom_codegen::emit::space_out_items(&prettyplease::unparse(&file)) == code);
}
