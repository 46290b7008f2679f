//! The code this crate compiles is the reviewed golden file of `seozoom-codegen`:
//! the golden snapshot is therefore compiled (with this crate's lints) on every build.

#[test]
fn compiled_code_is_the_golden_file() {
    let compiled = include_str!(concat!(env!("OUT_DIR"), "/generated.rs"));
    let golden = include_str!("../../codegen/tests/golden/generated.rs");
    assert!(
        compiled == golden,
        "client/build.rs generated code that differs from codegen/tests/golden/generated.rs; \
         run `UPDATE_GOLDEN=1 cargo test -p seozoom-codegen --test generation` and review the diff"
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
