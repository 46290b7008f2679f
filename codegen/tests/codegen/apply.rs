//! `seozoom-codegen apply PATCH [SPEC]`: a patch in the spec's own format
//! (what `seozoom drift --patch` prints) merged into the real spec, keeping
//! its formatting and comments; a conflicting patch refused with nothing
//! written; `diff` then shows the semver effect.

use std::process::Command;

use seozoom_codegen::apply::apply;
use seozoom_codegen::{diff, load_str};

use crate::common::{scratch_file, spec_text};

/// A patch as `seozoom drift --patch` writes one: a new field, a presence
/// widened on a field of a fieldset, a new enum value, and a comment.
const PATCH: &str = r#"# What the service sent that the spec does not say (`seozoom drift --patch`).

[[records]]
name = "keyword_metrics"
fields = [
    { wire = "brand_new_metric", type = "number", presence = { source = "observed", note = "seen 40 time(s) in 40 row(s) (keywords metrics), from 2026-11-27 to 2026-11-27; JSON types: number; e.g. 7.5" }, description = "Not in the reference: seen from the service (`seozoom drift`)." },
    { wire = "keyword", presence = { optional = true, source = "observed", note = "missing 1 time(s) in 40 row(s) (keywords metrics), from 2026-11-27 to 2026-11-27" } },
]

[[enums]]
name = "search_intent"
values = [
    { wire = "commercial", rust = "Commercial", description = "Not in the reference: seen from the service (`seozoom drift`).", source = { source = "observed", note = "`search_intent` held it 3 time(s) in 40 row(s) (keywords metrics), from 2026-11-27 to 2026-11-27; e.g. \"commercial\"" } },
]

# Not patched: the spec has no place for these, or they need a person.
# - a charge that differs from the spec's cost (...)
"#;

fn merged() -> String {
    apply("spec.toml", &spec_text(), PATCH)
        .unwrap_or_else(|conflicts| panic!("{conflicts:#?}"))
        .text
}

#[test]
fn a_patch_is_merged_keeping_the_spec_as_written() {
    let spec = spec_text();
    let applied = apply("spec.toml", &spec, PATCH).unwrap_or_else(|c| panic!("{c:#?}"));
    assert_eq!(
        applied.changes,
        [
            "record `keyword_metrics`: field `brand_new_metric` added",
            "record `keyword_metrics`: field `keyword`: presence widened (in fieldset `keyword_locale`, for every record that includes it)",
            "enum `search_intent`: value `commercial` added",
        ]
    );
    let text = &applied.text;
    // Every line of the spec is still there, in its order, but the one
    // changed: the comments, the order and the layout.
    let mut after = text.lines().peekable();
    let mut gone = Vec::new();
    for line in spec.lines() {
        while after
            .peek()
            .is_some_and(|l| *l != line && !spec.contains(*l))
        {
            after.next();
        }
        match after.peek() {
            Some(l) if *l == line => {
                after.next();
            }
            _ => gone.push(line),
        }
    }
    assert_eq!(gone.len(), 1, "{gone:#?}");
    assert!(
        gone[0].contains("wire = \"keyword\", type = \"string\", presence = \"names_the_row\"")
    );
    assert!(text.contains("\n    { wire = \"keyword\", type = \"string\", presence = { optional = true, source = \"observed\", note = \"missing 1 time(s)"));
    // The new field is a line of its own, last of the record's fields.
    let record = &text[text.find("name = \"keyword_metrics\"").unwrap()..];
    let fields = &record[..record.find("\n]\n").unwrap()];
    assert!(
        fields.ends_with("\n    { wire = \"brand_new_metric\", type = \"number\", presence = { source = \"observed\", note = \"seen 40 time(s) in 40 row(s) (keywords metrics), from 2026-11-27 to 2026-11-27; JSON types: number; e.g. 7.5\" }, description = \"Not in the reference: seen from the service (`seozoom drift`).\" },"),
        "{fields}"
    );
    assert!(text.contains("\n    { wire = \"commercial\", rust = \"Commercial\""));
    load_str("spec.toml", text).unwrap_or_else(|d| panic!("{d}"));
}

#[test]
fn diff_shows_the_semver_effect_of_what_was_merged() {
    let old = load_str("old.toml", &spec_text()).unwrap();
    let new = load_str("new.toml", &merged()).unwrap();
    let report = diff::render_text(&diff::diff(&old, &new), semver::V0_2_0);
    assert!(report.contains("minor     added     record keyword_metrics / field brand_new_metric: `KeywordMetrics::brand_new_metric` (f64; the record is `#[non_exhaustive]`)"), "{report}");
    assert!(
        report.contains("minor     added     enum search_intent / value commercial"),
        "{report}"
    );
    // What names the row made optional: `Option` in every record of the fieldset.
    assert!(report.contains("BREAKING  changed   record keyword_metrics / field keyword: type String (string) -> Option<String> (string, optional)"), "{report}");
    assert!(report.contains("semver: breaking"), "{report}");
}

mod semver {
    use seozoom_codegen::diff::Version;

    pub const V0_2_0: Version = Version {
        major: 0,
        minor: 2,
        patch: 0,
    };
}

#[test]
fn applying_it_again_changes_nothing() {
    let once = merged();
    let twice = apply("spec.toml", &once, PATCH).unwrap_or_else(|c| panic!("{c:#?}"));
    assert_eq!(twice.text, once);
    assert!(
        twice.changes.iter().all(|c| c.contains("already")),
        "{:#?}",
        twice.changes
    );
}

#[test]
fn a_conflicting_patch_is_refused_whole() {
    let cases = [
        (
            PATCH.replace("name = \"keyword_metrics\"", "name = \"keyword_metric\""),
            "record `keyword_metric`: the spec has no such record",
        ),
        (
            PATCH.replace(
                "{ wire = \"keyword\", presence",
                "{ wire = \"keyword\", type = \"integer\", presence",
            ),
            "field `keyword` has type `string` in the spec, `integer` in the patch",
        ),
        (
            PATCH.replace(
                "wire = \"brand_new_metric\"",
                "wire = \"brand_new_metric\", rust = \"search_volume\"",
            ),
            "new field `brand_new_metric` would be named `search_volume`, as a field the record has",
        ),
        (
            PATCH.replace("rust = \"Commercial\"", "rust = \"Navigational\""),
            "new value `commercial` would be `Navigational`, a variant the enum has",
        ),
        (
            PATCH.replace("name = \"search_intent\"", "name = \"search_intents\""),
            "enum `search_intents`: the spec has no such enum",
        ),
        (
            PATCH.replace(
                "type = \"number\", presence = { source",
                "type = \"decimal\", presence = { source",
            ),
            "unknown field type `decimal`",
        ),
        (
            format!("{PATCH}\n[api]\ntitle = \"x\"\n"),
            "a patch holds only `[[records]]` and `[[enums]]`",
        ),
    ];
    for (patch, conflict) in cases {
        let conflicts = apply("spec.toml", &spec_text(), &patch).unwrap_err();
        assert!(
            conflicts.iter().any(|c| c.contains(conflict)),
            "{conflict}: {conflicts:#?}"
        );
    }
}

#[test]
fn the_command_writes_the_spec_or_nothing() {
    let dir = "apply-command";
    let spec = scratch_file(dir, "spec.toml", &spec_text());
    let patch = scratch_file(dir, "patch.toml", PATCH);
    let output = Command::new(env!("CARGO_BIN_EXE_seozoom-codegen"))
        .args(["apply".as_ref(), patch.as_os_str(), spec.as_os_str()])
        .output()
        .expect("seozoom-codegen runs");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("field `brand_new_metric` added"),
        "{stdout}"
    );
    assert!(stdout.contains("3 change(s) merged into"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&spec).unwrap(), merged());

    let before = std::fs::read_to_string(&spec).unwrap();
    let bad = scratch_file(
        dir,
        "bad.toml",
        &PATCH.replace("keyword_metrics", "nothing"),
    );
    let output = Command::new(env!("CARGO_BIN_EXE_seozoom-codegen"))
        .args(["apply".as_ref(), bad.as_os_str(), spec.as_os_str()])
        .output()
        .expect("seozoom-codegen runs");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("record `nothing`: the spec has no such record"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&spec).unwrap(), before);
}
