//! A bad spec gives every problem at once, each at its file, line and column,
//! and never a panic.

use crate::common;

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
fn a_value_of_the_wrong_type_is_located() {
    let text = edited("no_data = { status = 400,", "no_data = { status = \"400\",");
    assert_error_at(
        &errors(&text),
        &text,
        "\"400\"",
        "invalid type: string, expected an integer",
    );
    // A reference is a name or a table, nothing else.
    let text = edited("freshness = \"live\"\n", "freshness = 7\n");
    assert_error_at(
        &errors(&text),
        &text,
        "7\n",
        "expected a name (string) or a table",
    );
}

#[test]
fn an_array_where_a_table_is_expected_is_located() {
    let text = edited(
        "no_data = { status = 400, message = \"No data found!\", source = \"observed\" }",
        "no_data = [400]",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "[400]",
        "invalid type: array, expected a table",
    );
}

#[test]
fn a_wire_name_that_is_not_a_rust_name_needs_one() {
    // `1a3` is the competitor record's wire name; without its `rust` name it cannot be a field.
    let text = edited(
        "wire = \"1a3\", rust = \"positions_1_to_3\",",
        "wire = \"1a3\",",
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
    let text = edited("params = [\"project_id\"]", "params = [\"projekt_id\"]");
    let text = text.replacen(
        "type = \"integer\", presence = \"unstated\", description",
        "type = \"int\", presence = \"unstated\", description",
        1,
    );
    let text = text.replacen("of = \"project\"", "of = \"projekt\"", 1);
    let diagnostics = errors(&text);
    assert_eq!(diagnostics.0.len(), 3, "{diagnostics}");
    assert_error_at(
        &diagnostics,
        &text,
        "\"projekt_id\"",
        "unknown name `projekt_id`: no `[params.projekt_id]`",
    );
    assert_error_at(&diagnostics, &text, "\"int\"", "unknown field type `int`");
    assert_error_at(&diagnostics, &text, "\"projekt\"", "`of` names no record");
    let lines: Vec<usize> = diagnostics.0.iter().map(|d| d.line).collect();
    assert!(lines.is_sorted(), "diagnostics in spec order: {lines:?}");
    assert!(diagnostics.to_string().ends_with("3 error(s) in the spec"));
}

#[test]
fn printed_figures_must_match_units() {
    // `units` is read from `printed`; the plain form may give both, and then they agree.
    let text = edited(
        "printed = \"50 and 10\"",
        "printed = \"50 and 15\"\nunits = [50, 10]",
    );
    let diagnostics = errors(&text);
    assert_error_at(
        &diagnostics,
        &text,
        "[50, 10]",
        "does not show the figures of `units` [50, 10]",
    );
    let text = edited("printed = \"50 and 10\"", "printed = \"50, 10 and 5\"");
    let diagnostics = errors(&text);
    assert_error_at(
        &diagnostics,
        &text,
        "\"50, 10 and 5\"",
        "one or two positive unit figures",
    );
}

#[test]
fn an_inferred_limit_must_be_its_trailing_figure() {
    let text = edited(
        "max = \"per_request\"",
        "max = { value = 1000, source = \"inferred\" }",
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
        "\"type\", type",
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

// --- shared definitions -------------------------------------------------------

#[test]
fn a_reference_to_an_unknown_name_is_located() {
    for (from, to, at, message) in [
        (
            "cost = \"project_rows\"",
            "cost = \"project_row\"",
            "\"project_row\"",
            "unknown name `project_row`: no `[costs.project_row]`",
        ),
        (
            "\npresence = \"always_sent\"",
            "\npresence = \"allways_sent\"",
            "\"allways_sent\"",
            "unknown provenance `allways_sent`",
        ),
        (
            "why = \"no_empty_list\" }\n",
            "why = \"no_empty_lists\" }\n",
            "\"no_empty_lists\"",
            "unknown provenance `no_empty_lists`",
        ),
        (
            "    \"authority\",",
            "    \"authorities\",",
            "\"authorities\"",
            "unknown fieldset `authorities`",
        ),
        (
            "use = \"domain\"",
            "use = \"domian\"",
            "\"domian\"",
            "unknown name `domian`: no `[params.domian]`",
        ),
    ] {
        let text = edited(from, to);
        assert_error_at(&errors(&text), &text, at, message);
    }
}

#[test]
fn a_cycle_of_use_is_located() {
    // `limit` builds on `page_limit`, which builds on `limit`.
    let text = edited(
        "[params.limit]\nwire = \"limit\"",
        "[params.limit]\nuse = \"page_limit\"\nwire = \"limit\"",
    );
    let diagnostics = errors(&text);
    assert_error_at(
        &diagnostics,
        &text,
        "\"page_limit\"\nwire",
        "`use` makes a cycle: `[params.page_limit]` ends up building on itself",
    );
    let text = edited("[costs.rows]\n", "[costs.rows]\nuse = \"two_figures\"\n");
    assert!(
        errors(&text).to_string().contains("makes a cycle"),
        "{}",
        errors(&text)
    );
}

#[test]
fn an_override_of_something_that_does_not_exist_is_located() {
    // `[params.url]` has no list limits: an action cannot add one by overriding.
    let text = edited(
        "params = [\"url\", \"limit\"]",
        "params = [{ use = \"url\", max_items = { value = 7, source = \"stated\" } }, \"limit\"]",
    );
    let diagnostics = errors(&text);
    assert_error_at(
        &diagnostics,
        &text,
        "{ value = 7",
        "`max_items` overrides nothing: `[params.url]` has no `max_items`",
    );
}

#[test]
fn a_shared_definition_reports_what_it_lacks_once() {
    // `wire` gone from a parameter that seven actions use: one error, at the definition.
    let text = edited(
        "[params.project_id]\nwire = \"id\"\n",
        "[params.project_id]\n",
    );
    let diagnostics = errors(&text);
    let missing: Vec<_> = diagnostics
        .0
        .iter()
        .filter(|d| d.message.contains("has no `wire`"))
        .collect();
    assert!(!missing.is_empty(), "{diagnostics}");
    assert!(
        missing
            .iter()
            .all(|d| d.line > position_of(&text, "[[actions]]").0),
        "reported where the actions use it: {diagnostics}"
    );
}

#[test]
fn per_request_is_a_figure_of_an_action() {
    let text = edited(
        "wire = \"api_key\"",
        "wire = \"api_key\"\nmax = \"per_request\"",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "\"per_request\"\n",
        "`per_request` is a figure of an action's cost",
    );
}

#[test]
fn a_page_size_is_bounded_by_the_rows_one_request_returns() {
    // A paged job without a page size asks for the page size's maximum: it
    // must be the most rows a request returns, so the runtime never guesses.
    let page_size = "\"limit\"\ntype = \"integer\"";
    let message = "must be at most the rows one request returns";
    let unbounded = edited("max = \"per_request\"\nrole", "role");
    assert_error_at(&errors(&unbounded), &unbounded, page_size, message);
    let other = edited(
        "max = \"per_request\"\nrole",
        "max = { value = 500, source = \"decided\", note = \"fewer\" }\nrole",
    );
    assert_error_at(&errors(&other), &other, page_size, message);
    // A cost whose per-request figure counts input items says nothing of rows.
    let items = edited(
        "domain keyword records.\" }\ncost = { use = \"per_row\"",
        "domain keyword records.\" }\ncost = { use = \"items_per_row\"",
    );
    assert_error_at(&errors(&items), &items, page_size, message);
}

// --- roles and hints ----------------------------------------------------------

#[test]
fn a_role_on_a_parameter_of_the_wrong_type_is_located() {
    let text = edited("role = \"page_size\"", "role = \"day\"");
    assert_error_at(
        &errors(&text),
        &text,
        "\"day\"\n\n[params.page_limit]",
        "the role `day` does not fit a `integer` parameter",
    );
    let text = edited("role = \"page_size\"", "role = \"pagesize\"");
    assert_error_at(
        &errors(&text),
        &text,
        "\"pagesize\"",
        "unknown role `pagesize`",
    );
}

#[test]
fn a_hint_must_fit_its_field_and_a_key_must_name_a_text_field() {
    let text = edited(
        "{ wire = \"pza\", type = \"integer\", presence = \"unstated\", kind = \"score\"",
        "{ wire = \"pza\", type = \"integer\", presence = \"unstated\", kind = \"url\"",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "\"url\", description = \"Page authority",
        "a `integer` field cannot hold a `url` value",
    );
    let text = edited("key = \"url\"", "key = \"pza\"");
    assert_error_at(
        &errors(&text),
        &text,
        "\"pza\"\n",
        "`key` names no text field of record `url_metrics`",
    );
}

// --- unknown costs ------------------------------------------------------------

#[test]
fn an_unknown_cost_prints_no_figures_and_a_known_one_does() {
    let text = edited(
        "cost = { use = \"rows\", charged = \"unknown\",",
        "cost = { use = \"rows\", printed = \"10\", charged = \"unknown\",",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "\"10\", charged = \"unknown\"",
        "a cost that is `unknown` has no `printed` figures",
    );
    let text = edited(
        "cost = { use = \"rows\", charged = \"unknown\",",
        "cost = { use = \"rows\", charged = \"per_row\",",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "\"per_row\", charged_source = { source = \"observed\", note = \"the reference prints no",
        "this cost has no `printed`",
    );
}

#[test]
fn inferred_figures_need_the_trailing_they_are_read_from() {
    let text = edited(
        "per_request = { value = 10000, source = \"observed\"",
        "per_request = { value = 10000, source = \"inferred\"",
    );
    assert!(
        errors(&text)
            .to_string()
            .contains("`inferred` figures are read from the cost table: give the `trailing`"),
        "{}",
        errors(&text)
    );
}

// --- freshness ----------------------------------------------------------------

#[test]
fn a_bad_duration_is_located_where_it_is_written() {
    let text = edited("ttl = \"24h\"", "ttl = \"24 hours\"");
    assert_error_at(
        &errors(&text),
        &text,
        "\"24 hours\"",
        "`ttl` \"24 hours\" is not a duration: write a whole number and one unit, s, m, h or d (`24h`)",
    );
    let text = edited("past_days = \"for_good\"", "past_days = \"forever\"");
    assert_error_at(
        &errors(&text),
        &text,
        "\"forever\"",
        "`past_days` \"forever\" is not a duration: write a whole number and one unit, s, m, h or d (`24h`), or `for_good`",
    );
}

#[test]
fn an_unknown_freshness_is_located_where_the_action_names_it() {
    let text = edited(
        "trailing = \"1 / 150\" }\nfreshness = \"live\"",
        "trailing = \"1 / 150\" }\nfreshness = \"hourly\"",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "\"hourly\"",
        "unknown name `hourly`: no `[freshness.hourly]`",
    );
}

#[test]
fn past_days_need_a_day_parameter() {
    // `urls urlpza` is about a URL, not a day: nothing is a past day's record.
    let text = edited(
        "trailing = \"1 / 150\" }\nfreshness = \"live\"",
        "trailing = \"1 / 150\" }\nfreshness = \"history\"",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "\"history\"\n\n[[actions]]\ngroup = \"urls\"",
        "this freshness keeps past days (`past_days`), but the action has no parameter with the role `day`",
    );
}

#[test]
fn every_action_names_its_freshness() {
    let text = edited(
        "trailing = \"1 / 150\" }\nfreshness = \"live\"\n",
        "trailing = \"1 / 150\" }\n",
    );
    let diagnostics = errors(&text);
    assert!(
        diagnostics
            .to_string()
            .contains("missing field `freshness`"),
        "{diagnostics}"
    );
}

#[test]
fn a_freshness_has_known_keys_and_says_why() {
    let text = edited("ttl = \"24h\"", "ttl = \"24h\"\nttl_seconds = 86400");
    assert_error_at(
        &errors(&text),
        &text,
        "ttl_seconds",
        "unknown field `ttl_seconds`",
    );
    // An action's own freshness that gives its own provenance gives all of it.
    let text = edited(
        "trailing = \"1 / 150\" }\nfreshness = \"live\"",
        "trailing = \"1 / 150\" }\nfreshness = { use = \"live\", ttl = \"1h\", source = \"decided\" }",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "\"decided\" }",
        "a `decided` value needs a `note`",
    );
    let text = edited(
        "trailing = \"1 / 150\" }\nfreshness = \"live\"",
        "trailing = \"1 / 150\" }\nfreshness = { ttl = \"1h\" }",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "{ ttl = \"1h\" }",
        "a freshness needs its provenance: `source` (and `note`), or `why`",
    );
}

#[test]
fn a_default_of_the_wrong_kind_is_located_and_named_by_its_kind() {
    let from = "default = 0\nrole = \"offset\"";
    let text = edited(from, "default = \"zero\"\nrole = \"offset\"");
    let diagnostics = errors(&text);
    assert_error_at(
        &diagnostics,
        &text,
        "\"zero\"",
        "a TOML string does not fit the parameter's type",
    );
}

#[test]
fn a_priority_out_of_its_range_is_located() {
    let text = edited(
        "priority = 2, description = \"Position of the domain",
        "priority = 12, description = \"Position of the domain",
    );
    let diagnostics = errors(&text);
    assert_error_at(
        &diagnostics,
        &text,
        "12, description = \"Position of the domain",
        "from 1 (most wanted) to 9, not 12",
    );
}

// --- what counts as the same input ---------------------------------------------

#[test]
fn every_input_says_what_counts_as_the_same_input_and_no_other_parameter_does() {
    // The URL's `compare` line taken out.
    let spec = common::spec_text();
    let start = spec
        .find("compare = { fold = [\"trim\", \"host_case\"]")
        .expect("the URL's compare line");
    let line = &spec[start..][..spec[start..].find('\n').unwrap_or(spec.len() - start)];
    let text = edited(line, "");
    assert_error_at(
        &errors(&text),
        &text,
        "\"url\"\ntype = \"string\"\ndescription = \"The URL to query",
        "the role `input` must say what counts as the same input",
    );

    let text = edited(
        "role = \"page_size\"",
        "role = \"page_size\"\ncompare = { fold = [], source = \"stated\" }",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "{ fold = [], source = \"stated\" }",
        "only a parameter with the role `input` says what counts as the same input",
    );

    let text = edited(
        "fold = [\"trim\", \"case\"]",
        "fold = [\"trim\", \"lower\"]",
    );
    assert_error_at(&errors(&text), &text, "\"lower\"", "unknown fold `lower`");

    let text = edited(
        "fold = [\"trim\", \"host_case\"]",
        "fold = [\"case\", \"host_case\"]",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "[\"case\", \"host_case\"]",
        "`case` folds the whole value, `host_case` only a URL's scheme and host",
    );
}

#[test]
fn a_field_says_its_presence_and_why() {
    let field = "{ wire = \"pza\", type = \"integer\", presence = \"unstated\",";
    let text = edited(
        field,
        "{ wire = \"pza\", type = \"integer\", presence = \"unstatd\",",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "\"unstatd\"",
        "unknown presence `unstatd`: no `[presence.unstatd]`",
    );
    let text = edited(
        field,
        "{ wire = \"pza\", type = \"integer\", presence = { optional = true },",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "{ optional = true }",
        "a presence needs its provenance: `source` (and `note`), or `why`",
    );
    let text = edited(
        field,
        "{ wire = \"pza\", type = \"integer\", presence = { nullable = true, source = \"decided\" },",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "\"decided\" }",
        "a `decided` value needs a `note`",
    );
    let text = edited(field, "{ wire = \"pza\", type = \"integer\",");
    assert_error_at(
        &errors(&text),
        &text,
        "\"pza\", type = \"integer\", kind",
        "missing field `presence`",
    );
}

#[test]
fn no_field_takes_the_name_of_the_unknown_members_accessor() {
    let text = edited(
        "{ wire = \"pza\", type = \"integer\", presence",
        "{ wire = \"pza\", rust = \"unknown_members\", type = \"integer\", presence",
    );
    assert_error_at(
        &errors(&text),
        &text,
        "\"unknown_members\"",
        "`unknown_members` is the records' own accessor",
    );
}

#[test]
fn a_refusal_twice_or_not_an_error_status_is_located() {
    let text = edited(
        "    { status = 401, description",
        "    { status = 299, description = \"Not a refusal.\", source = \"observed\" },\n    { status = 400, description = \"Twice.\", source = \"observed\" },\n    { status = 401, description",
    );
    let diagnostics = errors(&text);
    assert_error_at(
        &diagnostics,
        &text,
        "299",
        "a refusal's `status` must be an error status",
    );
    let (twice, _) = position_of(&text, "{ status = 400, description = \"Twice.\"");
    assert!(
        diagnostics
            .0
            .iter()
            .any(|d| d.line == twice && d.message.contains("refusal 400 is listed twice")),
        "{diagnostics}"
    );
}
