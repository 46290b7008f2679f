//! The code this crate compiles is the reviewed golden file of `seozoom-codegen`:
//! the golden snapshot is therefore compiled (with this crate's lints) on every build.
//!
//! The build script generates without the `format` feature (no syn or
//! prettyplease in users' builds), so the test formats what was compiled the way
//! the golden file is formatted (prettyplease, then items spaced out), and
//! compares.

#[test]
fn compiled_code_is_the_golden_file() {
    let compiled = include_str!(concat!(env!("OUT_DIR"), "/generated.rs"));
    let golden = include_str!("../../../codegen/tests/golden/generated.rs");
    let (compiled_header, compiled_code) = compiled.split_once("\n\n").expect("a header line");
    let (golden_header, golden_code) = golden.split_once("\n\n").expect("a header line");
    let formatted = seozoom_codegen::emit::space_out_items(&prettyplease::unparse(
        &syn::parse_file(compiled_code).expect("valid Rust"),
    ));
    assert!(
        compiled_header == golden_header && formatted == golden_code,
        "client/build.rs generated code that differs from codegen/tests/golden/generated.rs; \
         run `UPDATE_GOLDEN=1 cargo test -p seozoom-codegen --test codegen generation::` and review the diff"
    );
}

#[test]
fn every_operation_is_in_the_table_once() {
    let ops = seozoom::operations::OPERATIONS;
    // The reference's 23, and `keywords related`, known from public use.
    assert_eq!(ops.len(), 24);
    let mut keys: Vec<(&str, &str)> = ops.iter().map(|o| (o.group, o.action)).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), ops.len(), "an action appears twice");
    assert!(
        ops.iter()
            .any(|o| o.action == "aikeywords" && o.aliases.contains(&"aioverview"))
    );
}
