//! `seozoom-codegen diff OLD NEW`: what changed for users between two versions of
//! the spec, each change classified, and the version bump. The new versions here
//! are copies of the real spec with one edit each.

use crate::common;

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

use common::{replaced, scratch_file, spec_text, spec_with_keywords_suggestions, without_line};
use seozoom_codegen::diff::{self, Level, Version};
use seozoom_codegen::load_str;

const V0_1_0: Version = Version {
    major: 0,
    minor: 1,
    patch: 0,
};

/// The changes from the real spec to `new`, one text line each.
fn lines(new: &str) -> Vec<String> {
    changes(&spec_text(), new)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn changes(old: &str, new: &str) -> Vec<diff::Change> {
    let load = |name: &str, text: &str| load_str(name, text).unwrap_or_else(|d| panic!("{d}"));
    diff::diff(&load("old.toml", old), &load("new.toml", new))
}

/// The text report from the real spec to `new`, from version 0.1.0.
fn report(new: &str) -> String {
    diff::render_text(&changes(&spec_text(), new), V0_1_0)
}

// --- three edits: a field removed, a limit narrowed, a parameter added ------

/// The domain keyword record loses `ranking_url`.
fn removed_field(text: &str) -> String {
    without_line(text, "wire = \"ranking_url\"")
}

/// `urls keywords` gets an optional `offset`.
fn added_optional_param(text: &str) -> String {
    replaced(
        text,
        r#"{ use = "limit", description = "Maximum number of keywords to return." }]"#,
        r#"{ use = "limit", description = "Maximum number of keywords to return." }, { wire = "offset", type = "integer", description = "Index from which results start; 0 starts at the first keyword.", required = false, presence = { source = "decided", note = "as in domains keywords" }, min = { value = 0, source = "decided", note = "an index cannot be negative" } }]"#,
    )
}

/// `domains keywords` `page` goes from 1-5 to 1-3.
fn narrowed_limit(text: &str) -> String {
    replaced(
        text,
        "max = { value = 5, source = \"stated\" }",
        "max = { value = 3, source = \"stated\" }",
    )
}

const REMOVED_FIELD: &str = "BREAKING  removed   record domain_keyword / field ranking_url: `DomainKeyword::ranking_url` (Option<String>)";
const ADDED_OPTIONAL_PARAM: &str = "minor     added     action urls keywords / param offset: optional integer, a new method: `UrlsKeywords::offset(..)`";
const NARROWED_LIMIT: &str = "BREAKING  changed   action domains keywords / param page: max 5 (stated) -> 3 (stated); narrowed: values above 3 are now refused";

#[test]
fn identical_specs_have_no_changes() {
    assert_eq!(lines(&spec_text()), Vec::<String>::new());
    assert_eq!(
        report(&spec_text()),
        "no changes\nsemver: no bump needed (0.1.0 stays)\n"
    );
}

#[test]
fn a_removed_field_is_breaking() {
    assert_eq!(lines(&removed_field(&spec_text())), [REMOVED_FIELD]);
}

#[test]
fn a_field_removed_from_a_fieldset_is_removed_from_every_record_that_includes_it() {
    let text = without_line(&spec_text(), "wire = \"KD\"");
    assert_eq!(
        lines(&text),
        [
            "BREAKING  removed   record domain_keyword / field KD: `DomainKeyword::keyword_difficulty` (Option<i64>)",
            "BREAKING  removed   record keyword_metrics / field KD: `KeywordMetrics::keyword_difficulty` (Option<i64>)",
            "BREAKING  removed   record monitored_keyword / field KD: `MonitoredKeyword::keyword_difficulty` (Option<i64>)",
            "BREAKING  removed   record url_keyword / field KD: `UrlKeyword::keyword_difficulty` (Option<i64>)",
        ]
    );
}

#[test]
fn an_added_optional_parameter_is_not_breaking() {
    let text = added_optional_param(&spec_text());
    assert_eq!(lines(&text), [ADDED_OPTIONAL_PARAM]);
    assert!(report(&text).ends_with(
        "\n1 change(s): 0 breaking, 1 minor, 0 patch\n\
         semver: compatible additions: 0.1.0 -> 0.1.1 (before 1.0 a compatible change bumps the patch number); from 1.0 on: a minor bump\n"
    ));
}

#[test]
fn a_narrowed_limit_is_breaking_and_a_widened_one_is_not() {
    let narrowed = narrowed_limit(&spec_text());
    assert_eq!(lines(&narrowed), [NARROWED_LIMIT]);
    let back: Vec<String> = changes(&narrowed, &spec_text())
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        back,
        [
            "minor     changed   action domains keywords / param page: max 3 (stated) -> 5 (stated); widened"
        ]
    );
}

#[test]
fn the_three_together_give_one_sorted_report_and_a_breaking_bump() {
    let text = narrowed_limit(&added_optional_param(&removed_field(&spec_text())));
    assert_eq!(
        report(&text),
        format!(
            "{NARROWED_LIMIT}\n{REMOVED_FIELD}\n{ADDED_OPTIONAL_PARAM}\n\n\
             3 change(s): 2 breaking, 1 minor, 0 patch\n\
             semver: breaking: 0.1.0 -> 0.2.0 (before 1.0 a breaking change bumps the minor number); from 1.0 on: a major bump\n"
        )
    );
    let from_1_x = diff::render_text(
        &changes(&spec_text(), &text),
        Version::parse("1.4.2").unwrap(),
    );
    assert!(
        from_1_x.ends_with("semver: breaking: major bump, 1.4.2 -> 2.0.0\n"),
        "{from_1_x}"
    );
}

#[test]
fn an_added_action_is_not_breaking() {
    assert_eq!(
        lines(&spec_with_keywords_suggestions()),
        [
            "minor     added     action keywords suggestions: `client.keywords().suggestions(keyword, limit)` -> `KeywordsSuggestions`",
            "minor     added     record keyword_suggestion: `KeywordSuggestion` (15 fields)",
        ]
    );
    let changes = changes(&spec_text(), &spec_with_keywords_suggestions());
    assert_eq!(diff::level(&changes), Some(Level::Minor));
    assert_eq!(V0_1_0.bumped(Level::Minor).to_string(), "0.1.1");
}

/// One edit each, and the line it gives.
#[test]
fn each_kind_of_change_is_classified() {
    let spec = spec_text();
    let cases: Vec<(String, &str)> = vec![
        // A new required parameter is a new constructor argument.
        (
            replaced(
                &added_optional_param(&spec),
                "first keyword.\", required = false",
                "first keyword.\", required = true",
            ),
            "BREAKING  added     action urls keywords / param offset: required integer, a new argument: `client.urls().keywords(url, limit, offset)`",
        ),
        // A field made nullable changes its Rust type to `Option`.
        (
            replaced(
                &spec,
                "wire = \"project_id\", type = \"integer\", presence = \"names_the_row\",",
                "wire = \"project_id\", type = \"integer\", presence = \"unstated\",",
            ),
            "BREAKING  changed   record project / field project_id: type i64 (integer) -> Option<i64> (integer, nullable, optional); the field's Rust type changes",
        ),
        // A renamed Rust field.
        (
            replaced(
                &spec,
                "wire = \"posizione\", rust = \"position\"",
                "wire = \"posizione\", rust = \"rank\"",
            ),
            "BREAKING  changed   record ai_overview_keyword / field posizione: rust `AiOverviewKeyword::position` -> `AiOverviewKeyword::rank`; renamed field",
        ),
        // A value added to an enum (every enum is `#[non_exhaustive]`).
        (
            replaced(
                &spec,
                "{ wire = \"navigational\"",
                "{ wire = \"commercial\", rust = \"Commercial\", description = \"Looking to compare before buying.\" },\n    { wire = \"navigational\"",
            ),
            "minor     added     enum search_intent / value commercial: `SearchIntent::Commercial` (the enum is `#[non_exhaustive]`)",
        ),
        // A value removed from a closed enum.
        (
            without_line(&spec, "wire = \"exited\""),
            "BREAKING  removed   enum keyword_type / value exited: `KeywordType::Exited` (the value is now refused)",
        ),
        // Provenance of a limit, a cost figure and a description: documentation and figures.
        (
            replaced(
                &spec,
                "max_items = { value = 30, source = \"stated\" }",
                "max_items = { value = 30, source = \"observed\" }",
            ),
            "patch     changed   action urls metrics / param url: max_items 30 (stated) -> 30 (observed); provenance only",
        ),
        (
            // The requests-per-minute figure is read from `trailing`.
            replaced(&spec, "trailing = \"1 / 150\"", "trailing = \"1 / 100\""),
            "patch     changed   action urls urlpza / cost: requests_per_minute 150 (inferred) -> 100 (inferred); the client's rate limit for the operation",
        ),
        // How long a cache keeps an action's answers: a figure, like its cost.
        (
            replaced(
                &spec,
                "printed = \"100\", trailing = \"100 / 20\", charged_source = { source = \"observed\", note = \"the reference's examples: UnitsUsed equals the unit figure times ResultRows, one row per keyword\" } }\nfreshness = \"live\"",
                "printed = \"100\", trailing = \"100 / 20\", charged_source = { source = \"observed\", note = \"the reference's examples: UnitsUsed equals the unit figure times ResultRows, one row per keyword\" } }\nfreshness = { use = \"live\", ttl = \"1h\" }",
            ),
            "patch     changed   action keywords serp / freshness: ttl 24h -> 1h; how long a cached answer is served",
        ),
        (
            replaced(
                &spec,
                "description = \"The caller's projects.\"",
                "description = \"Every project of the caller.\"",
            ),
            "patch     changed   action projects list: description",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(lines(&text), [expected]);
    }
}

#[test]
fn a_history_action_made_live_loses_its_past_days() {
    let text = replaced(
        &spec_text(),
        "trailing = \"50 / 20\" }\nfreshness = \"history\"",
        "trailing = \"50 / 20\" }\nfreshness = \"live\"",
    );
    assert_eq!(
        lines(&text),
        [
            "patch     changed   action domains metricshistory / freshness: note",
            "patch     changed   action domains metricshistory / freshness: past_days for good -> like the ttl; how long a cached answer about a day before today is served",
        ]
    );
}

#[test]
fn required_ness_and_list_ness_changes_are_breaking() {
    let spec = spec_text();
    let required = replaced(
        &spec,
        "Result page, 1 to 5; required when `type` is `bypage`.\", required = false",
        "Result page, 1 to 5; required when `type` is `bypage`.\", required = true",
    );
    // The validator refuses a rule about a parameter that is always required, so
    // drop that rule too; its removal is a compatible change of its own.
    let required = without_line(&required, "if_value = \"bypage\"");
    assert_eq!(
        lines(&required),
        [
            "BREAKING  changed   action domains keywords / param page: required false -> true; now an argument of `client.domains().keywords(domain, keyword_type, limit, page)`, no longer a method",
            "minor     removed   action domains keywords / rule type=bypage requires page: calls it refused are now accepted",
        ]
    );
    let single = replaced(
        &spec,
        // The first is niches'.
        r#"{ use = "domains", max_items = { value = 10, source = "stated" } },"#,
        r#"{ use = "domain", description = "Domains to query, joined with `|` on the wire." },"#,
    );
    assert_eq!(
        lines(&single),
        [
            "BREAKING  changed   action domains niches / param domain: list true -> false; it takes one value instead of an iterator of values",
            "minor     changed   action domains niches / param domain: max_items 10 (stated) -> none; limit dropped",
            "minor     changed   action domains niches / param domain: min_items 1 (decided) -> none; limit dropped",
        ]
    );
}

#[test]
fn json_output_is_stable() {
    let text = narrowed_limit(&spec_text());
    let json = diff::render_json(&changes(&spec_text(), &text), V0_1_0);
    assert_eq!(
        json,
        format!(
            "{{\n  \"changes\": [\n    {{\"level\": \"breaking\", \"breaking\": true, \"kind\": \"changed\", \"item\": \"action domains keywords / param page\", \"aspect\": \"max\", \"old\": \"5 (stated)\", \"new\": \"3 (stated)\", \"note\": \"narrowed: values above 3 are now refused\", \"text\": \"{NARROWED_LIMIT}\"}}\n  ],\n  \
             \"summary\": {{\"changes\": 1, \"breaking\": 1, \"minor\": 0, \"patch\": 0, \"level\": \"breaking\", \"current\": \"0.1.0\", \"next\": \"0.2.0\", \"bump_from_1_0\": \"major\"}}\n}}\n"
        )
    );
    assert_eq!(
        diff::render_json(&[], V0_1_0),
        "{\n  \"changes\": [],\n  \"summary\": {\"changes\": 0, \"breaking\": 0, \"minor\": 0, \"patch\": 0, \"level\": null, \"current\": \"0.1.0\", \"next\": \"0.1.0\", \"bump_from_1_0\": null}\n}\n"
    );
}

#[test]
fn changelog_lines_put_breaking_changes_first_and_group_the_rest() {
    let text = narrowed_limit(&added_optional_param(&removed_field(&spec_text())));
    assert_eq!(
        diff::render_changelog(&changes(&spec_text(), &text)),
        "### Changed (breaking)\n\n\
         - Changed: action domains keywords / param page: max 5 (stated) -> 3 (stated); narrowed: values above 3 are now refused\n\
         - Removed: record domain_keyword / field ranking_url: `DomainKeyword::ranking_url` (Option<String>)\n\
         \n### Added\n\n\
         - action urls keywords / param offset: optional integer, a new method: `UrlsKeywords::offset(..)`\n"
    );
    assert_eq!(diff::render_changelog(&[]), "");
}

// --- the command ---------------------------------------------------------------

fn codegen<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Output {
    Command::new(env!("CARGO_BIN_EXE_seozoom-codegen"))
        .args(args)
        .output()
        .expect("seozoom-codegen runs")
}

fn diff_command(old: &Path, new: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<&OsStr> = vec![OsStr::new("diff")];
    args.extend(extra.iter().map(OsStr::new));
    args.extend([old.as_os_str(), new.as_os_str()]);
    codegen(args)
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn the_command_prints_the_report_and_exits_3_on_a_breaking_change() {
    let dir = "diff-command-breaking";
    let old = scratch_file(dir, "old.toml", &spec_text());
    let new_text = narrowed_limit(&added_optional_param(&removed_field(&spec_text())));
    let new = scratch_file(dir, "new.toml", &new_text);
    let output = diff_command(&old, &new, &["--current", "0.1.0"]);
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    assert_eq!(stdout(&output), report(&new_text));
    assert!(stdout(&output).starts_with(&format!(
        "{NARROWED_LIMIT}\n{REMOVED_FIELD}\n{ADDED_OPTIONAL_PARAM}\n"
    )));
    for json_flags in [&["--json"][..], &["--format", "json"]] {
        let json = diff_command(&old, &new, &[json_flags, &["--current", "0.1.0"]].concat());
        assert_eq!(json.status.code(), Some(3));
        assert!(
            stdout(&json)
                .contains("\"level\": \"breaking\", \"current\": \"0.1.0\", \"next\": \"0.2.0\"")
        );
    }
    let changelog = diff_command(&old, &new, &["--format", "changelog"]);
    assert_eq!(changelog.status.code(), Some(3));
    assert_eq!(
        stdout(&changelog),
        diff::render_changelog(&changes(&spec_text(), &new_text))
    );
}

#[test]
fn the_command_exits_0_without_a_breaking_change() {
    let dir = "diff-command-compatible";
    let old = scratch_file(dir, "old.toml", &spec_text());
    let same = diff_command(&old, &old, &[]);
    assert_eq!(same.status.code(), Some(0), "{same:?}");
    assert!(stdout(&same).starts_with("no changes\nsemver: no bump needed ("));

    let new = scratch_file(dir, "new.toml", &spec_with_keywords_suggestions());
    let added = diff_command(&old, &new, &["--current", "0.1.0"]);
    assert_eq!(added.status.code(), Some(0), "{added:?}");
    assert!(
        stdout(&added).contains("minor     added     action keywords suggestions: "),
        "{}",
        stdout(&added)
    );
    assert!(stdout(&added).ends_with("semver: compatible additions: 0.1.0 -> 0.1.1 (before 1.0 a compatible change bumps the patch number); from 1.0 on: a minor bump\n"));
}

#[test]
fn the_command_exits_1_with_located_errors_for_a_bad_spec() {
    let dir = "diff-command-bad-spec";
    let old = scratch_file(dir, "old.toml", &spec_text());
    let bad_text = replaced(&spec_text(), "type = \"integer\"", "type = \"int\"");
    let bad = scratch_file(dir, "bad.toml", &bad_text);
    let output = diff_command(&old, &bad, &[]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(output.stdout.is_empty());
    let (line, column) = common::position_of(&bad_text, "\"int\"");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "{}:{line}:{column}: error: unknown field type `int`",
            bad.display()
        )),
        "{stderr}"
    );
    let missing = diff_command(&old, &Path::new(dir).join("missing.toml"), &[]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read the spec"));
}

#[test]
fn the_command_exits_2_on_a_bad_command_line() {
    let old = scratch_file("diff-command-usage", "old.toml", &spec_text());
    let old = old.to_str().expect("a UTF-8 path");
    for args in [
        vec!["diff", old],
        vec!["diff", "--frobnicate", old, old],
        vec!["diff", "--current", "one", old, old],
    ] {
        let output = codegen(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("usage: seozoom-codegen diff"));
    }
    let help = codegen(["diff", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("Exit status: 0 no breaking change"));
}

/// A spec written before fields said their presence (`nullable` and
/// `optional` as field keys) is read as such by `diff`, for the spec it
/// compares with; the generator refuses it.
#[test]
fn an_older_spec_without_presence_is_compared_all_the_same() {
    let current = spec_text();
    let older = current
        .replacen(
            "wire = \"project_id\", type = \"integer\", presence = \"names_the_row\",",
            "wire = \"project_id\", type = \"integer\",",
            1,
        )
        .replacen(
            "type = \"string\", presence = \"or_null\", kind = \"category\"",
            "type = \"string\", nullable = true, kind = \"category\"",
            1,
        );
    let error = load_str("old.toml", &older).unwrap_err().to_string();
    assert!(error.contains("missing field `presence`"), "{error}");
    assert!(
        error.contains("written in the field's `presence`"),
        "{error}"
    );
    let old = seozoom_codegen::load_str_older("old.toml", &older).unwrap_or_else(|d| panic!("{d}"));
    let new = load_str("new.toml", &current).unwrap_or_else(|d| panic!("{d}"));
    let report = diff::render_text(&diff::diff(&old, &new), V0_1_0);
    assert!(
        report.contains("patch     changed   record project / field project_id: presence stated -> decided; the provenance of its presence"),
        "{report}"
    );
    assert!(
        report.contains("patch     changed   record project / field category: presence note"),
        "{report}"
    );
    assert!(report.contains("0 breaking"), "{report}");
}

/// Another rule for what counts as the same input changes what jobs send,
/// cache and match, not what compiles: minor, once per action taking the
/// parameter.
#[test]
fn what_counts_as_the_same_input_is_a_minor_change() {
    let text = replaced(
        &spec_text(),
        "fold = [\"trim\", \"host_case\"]",
        "fold = [\"trim\", \"case\"]",
    );
    let lines = lines(&text);
    assert!(!lines.is_empty());
    for line in &lines {
        assert!(
            line.starts_with("minor     changed   action urls ")
                && line.ends_with(" / param url: compare trim, host_case -> trim, case; what counts as the same input changed: jobs send, cache and match their inputs by the new rule"),
            "{line}"
        );
    }
    let spec = load_str("spec.toml", &spec_text()).unwrap_or_else(|d| panic!("{d}"));
    let urls_actions = spec
        .actions
        .iter()
        .filter(|a| a.params.iter().any(|p| p.wire == "url"))
        .count();
    assert_eq!(lines.len(), urls_actions, "{lines:#?}");
}
