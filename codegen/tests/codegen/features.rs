//! Small specs, one per feature of the generator, each with its golden `.rs`
//! beside it (in the manner of typify's `tests/schemas.rs`): a change to how a
//! feature is generated shows up as a small diff that reviews well, next to the
//! whole-spec golden of `generation.rs`.
//!
//! Each `features/NAME.toml` is `features/_base.toml` (what every spec has)
//! followed by its own text. The goldens are generated to be compiled outside
//! the runtime's crate (`Options::external`): the `seozoom-tests` crate
//! includes each one as a module (`tests/tests/cross_crate/feature_goldens.rs`), so every
//! golden is compiled against the real runtime.
//!
//! `UPDATE_GOLDEN=1 cargo test -p seozoom-codegen --test codegen features::` rewrites them.

use std::path::{Path, PathBuf};

use seozoom_codegen::emit::{Options, emit_with};

/// The feature specs, in the order the `seozoom-tests` crate includes them.
const FEATURES: &[&str] = &["open_enum", "list_param", "serp_map", "paged", "history"];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/features")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The code generated from one feature spec.
fn generate(feature: &str) -> String {
    let text =
        read(&dir().join("_base.toml")) + "\n" + &read(&dir().join(format!("{feature}.toml")));
    let name = format!("codegen/tests/features/{feature}.toml");
    let spec = seozoom_codegen::load_str(&name, &text).unwrap_or_else(|d| panic!("{d}"));
    emit_with(&spec, &Options::external()).expect("the emitter makes a Rust file")
}

#[test]
fn every_feature_matches_its_golden() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut stale = Vec::new();
    for feature in FEATURES {
        let generated = generate(feature);
        let path = dir().join(format!("{feature}.rs"));
        if update {
            std::fs::write(&path, &generated).expect("golden written");
        } else if std::fs::read_to_string(&path).unwrap_or_default() != generated {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "generated code differs from {stale:?}; review the change and run \
         `UPDATE_GOLDEN=1 cargo test -p seozoom-codegen --test codegen features::`"
    );
}

#[test]
fn every_spec_in_the_directory_is_tested() {
    let mut found: Vec<String> = std::fs::read_dir(dir())
        .expect("the features directory")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".toml")?;
            (!stem.starts_with('_')).then(|| stem.to_owned())
        })
        .collect();
    found.sort();
    let mut listed: Vec<String> = FEATURES.iter().map(|f| f.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed);
}

/// Each golden shows its feature: a mistake that drops it fails here, not only
/// as a golden diff someone might accept.
#[test]
fn each_golden_has_its_feature() {
    let expect: &[(&str, &str)] = &[
        ("open_enum", "Other(String)"),
        ("list_param", ".list()"),
        ("serp_map", "rt::ByKey<rt::Serp>"),
        ("paged", "pub fn pages("),
        ("history", ".past_days_for_good()"),
    ];
    for (feature, needle) in expect {
        let code = generate(feature);
        assert!(code.contains(needle), "{feature}: no {needle:?} in\n{code}");
    }
}

/// How often the table says an operation batches and pages, and how many
/// builders have the matching method: derived once (the model's
/// `Action::batch_param` and `Action::paging`), the counts agree.
fn bulk_counts(code: &str) -> [usize; 4] {
    [
        code.matches(".batched_by(").count(),
        code.matches("pub fn send_all(").count(),
        code.matches(".paged_by(").count(),
        code.matches("pub fn pages(").count(),
    ]
}

#[test]
fn the_table_and_the_builders_agree_on_bulk_jobs() {
    for feature in FEATURES {
        let [batched, send_all, paged, pages] = bulk_counts(&generate(feature));
        assert_eq!((batched, paged), (send_all, pages), "{feature}");
    }
    let spec = seozoom_codegen::load_str(seozoom_spec::FILE_NAME, seozoom_spec::TEXT).unwrap();
    let code = emit_with(&spec, &Options::default()).unwrap();
    let [batched, send_all, paged, pages] = bulk_counts(&code);
    assert_eq!((batched, paged), (send_all, pages));
    assert!(
        batched > 0 && paged > 0,
        "the spec has batched and paged actions"
    );

    // A list input whose answer is one object cannot be merged: no batched
    // job in the table, and no `send_all`.
    let single =
        read(&dir().join("list_param.toml")).replace("shape = \"array\"", "shape = \"single\"");
    let text = read(&dir().join("_base.toml")) + "\n" + &single;
    let spec = seozoom_codegen::load_str("single.toml", &text).unwrap_or_else(|d| panic!("{d}"));
    let code = emit_with(&spec, &Options::external()).unwrap();
    assert_eq!(bulk_counts(&code), [0, 0, 0, 0]);
    // The roles decide paging: without `page_size` the paged spec does not page.
    let unpaged = read(&dir().join("paged.toml")).replace("role = \"page_size\", ", "");
    let text = read(&dir().join("_base.toml")) + "\n" + &unpaged;
    let spec = seozoom_codegen::load_str("unpaged.toml", &text).unwrap_or_else(|d| panic!("{d}"));
    let code = emit_with(&spec, &Options::external()).unwrap();
    assert_eq!(bulk_counts(&code), [0, 0, 0, 0]);
}
