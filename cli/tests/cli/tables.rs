//! Tables people can read: the monthly volumes as one sparkline and the peak
//! month, the table fitted to the terminal's width (`COLUMNS`) by hiding the
//! least useful columns, with a note saying which; keywords and numbers never
//! wrapped; the key and the spec's main measures kept first. Snapshots of
//! the `keywords metrics`, `domains keywords` and `urls metrics` tables at
//! 80, 100 and 200 columns.

use crate::support;

use seozoom::operation_table::ValueKind;
use seozoom::operations::RECORDS;
use serde_json::Value;
use support::{Run, run_with_env};

/// The README's example: two keywords' metrics from the sandbox, as a table
/// on a terminal `width` columns wide.
fn metrics_table(width: &str) -> Run {
    let run = run_with_env(
        [
            "--sandbox",
            "--format",
            "table",
            "keywords",
            "metrics",
            "--keyword",
            "scarpe running",
            "--keyword",
            "mutuo casa",
        ],
        &[("COLUMNS", width)],
    );
    run.expect_code(0);
    run
}

/// The same call as JSON: the values the table must show whole.
fn metrics_json() -> Value {
    let run = support::run([
        "--sandbox",
        "--format",
        "json",
        "keywords",
        "metrics",
        "--keyword",
        "scarpe running",
        "--keyword",
        "mutuo casa",
    ]);
    run.expect_code(0);
    run.json()
}

/// The cells of a table line (`│ a ┆ b │`), trimmed.
fn cells(line: &str) -> Vec<String> {
    line.trim_matches('│')
        .split('┆')
        .map(|cell| cell.trim().to_owned())
        .collect()
}

/// The lines of a table that hold text: the header, then one per row line.
fn text_lines(table: &str) -> Vec<&str> {
    table.lines().filter(|l| l.starts_with('│')).collect()
}

#[test]
fn on_100_columns_every_keyword_and_number_is_whole_on_one_line() {
    let table = metrics_table("100");
    for line in table.stdout.lines() {
        assert!(
            line.chars().count() <= 100,
            "{} characters: {line}",
            line.chars().count()
        );
    }
    let lines = text_lines(&table.stdout);
    // A header and one line per keyword: nothing wrapped onto a second line.
    assert_eq!(lines.len(), 3, "{}", table.stdout);
    let header = cells(lines[0]);
    let records = metrics_json()["response"].as_array().unwrap().clone();
    for (line, record) in lines[1..].iter().zip(&records) {
        let row = cells(line);
        let mut numbers = 0;
        for (name, cell) in header.iter().zip(&row) {
            match &record[name.as_str()] {
                Value::String(text) => assert_eq!(cell, text, "{name}"),
                Value::Number(n) => {
                    assert_eq!(cell, &n.to_string(), "{name}");
                    numbers += 1;
                }
                _ => {}
            }
        }
        assert!(numbers >= 3, "few numbers shown: {line}");
    }
    assert!(table.stdout.contains("scarpe running") && table.stdout.contains("mutuo casa"));
    assert!(
        table.stderr.contains("columns hidden") && table.stderr.contains("--columns"),
        "{}",
        table.stderr
    );
}

#[test]
fn the_monthly_volumes_are_one_sparkline_and_the_peak_month() {
    let table = metrics_table("200");
    let lines = text_lines(&table.stdout);
    let header = cells(lines[0]);
    // No month shows as a column of its own.
    let months: Vec<&str> = RECORDS
        .iter()
        .flat_map(|r| r.fields)
        .filter(|f| f.hint.is_some_and(|h| h.kind == ValueKind::MonthlyVolume))
        .map(|f| f.wire)
        .collect();
    assert!(!months.is_empty());
    assert!(
        header.iter().all(|h| !months.contains(&h.as_str())),
        "{header:?}"
    );
    let records = metrics_json()["response"].as_array().unwrap().clone();
    let first = &records[0];
    let series: Vec<i64> = months[..12]
        .iter()
        .map(|m| first[*m].as_i64().unwrap())
        .collect();
    let row = cells(lines[1]);
    let spark = row
        .iter()
        .find(|c| c.chars().count() == 12 && c.chars().all(|ch| ('▁'..='█').contains(&ch)))
        .unwrap_or_else(|| panic!("no sparkline in {row:?}"));
    let bars: Vec<char> = spark.chars().collect();
    let high = series
        .iter()
        .position(|v| v == series.iter().max().unwrap())
        .unwrap();
    let low = series
        .iter()
        .position(|v| v == series.iter().min().unwrap())
        .unwrap();
    assert_eq!(
        (bars[high], bars[low]),
        ('█', '▁'),
        "{spark} for {series:?}"
    );
    let peak = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ][high];
    assert!(row.iter().any(|c| c == peak), "peak {peak} not in {row:?}");
    // Wide enough for everything: nothing hidden.
    assert!(!table.stderr.contains("hidden"), "{}", table.stderr);
}

/// A sandbox call printed as a table `width` columns wide: the table, then
/// stderr.
fn table_of(args: &[&str], width: usize) -> String {
    let mut all = vec!["--sandbox", "--format", "table"];
    all.extend_from_slice(args);
    let run = run_with_env(all, &[("COLUMNS", &width.to_string())]);
    run.expect_code(0);
    for line in run.stdout.lines() {
        assert!(line.chars().count() <= width, "{line}");
    }
    format!("{}\n--- stderr\n{}", run.stdout, run.stderr)
}

const KEYWORDS_METRICS: [&str; 6] = [
    "keywords",
    "metrics",
    "--keyword",
    "scarpe running",
    "--keyword",
    "mutuo casa",
];
const DOMAINS_KEYWORDS: [&str; 8] = [
    "domains",
    "keywords",
    "--domain",
    "example.it",
    "--type",
    "best",
    "--limit",
    "5",
];
const URLS_METRICS: [&str; 6] = [
    "urls",
    "metrics",
    "--url",
    "https://example.it/scarpe/running.html",
    "--url",
    "https://example.it/",
];

#[test]
fn keywords_metrics_tables() {
    for width in [80, 100, 200] {
        insta::assert_snapshot!(
            format!("keywords_metrics_{width}"),
            table_of(&KEYWORDS_METRICS, width)
        );
    }
}

#[test]
fn domains_keywords_tables() {
    for width in [80, 100, 200] {
        insta::assert_snapshot!(
            format!("domains_keywords_{width}"),
            table_of(&DOMAINS_KEYWORDS, width)
        );
    }
}

#[test]
fn urls_metrics_tables() {
    for width in [80, 100, 200] {
        insta::assert_snapshot!(
            format!("urls_metrics_{width}"),
            table_of(&URLS_METRICS, width)
        );
    }
}

/// What one runs `domains keywords` for fits 100 columns: the keyword, its
/// search volume, the position and the URL (the spec's main measures).
#[test]
fn at_100_columns_domains_keywords_shows_what_one_came_for() {
    let table = table_of(&DOMAINS_KEYWORDS, 100);
    let header = cells(text_lines(&table)[0]);
    for wanted in [
        "keyword",
        "search_volume",
        "ranking_position",
        "ranking_url",
    ] {
        assert!(header.iter().any(|h| h == wanted), "{wanted} in {header:?}");
    }
}

/// A long keyword is cut with `…` rather than lose a main measure; the
/// table still fits.
#[test]
fn a_long_key_is_cut_before_a_main_measure_is_hidden() {
    let table = table_of(&DOMAINS_KEYWORDS, 80);
    let header = cells(text_lines(&table)[0]);
    assert!(header.iter().any(|h| h == "ranking_position"), "{header:?}");
    assert!(table.contains('…'), "{table}");
}

#[test]
fn nested_lists_are_still_flattened_in_a_narrow_table() {
    let table = run_with_env(
        [
            "--sandbox",
            "domains",
            "niches",
            "--domain",
            "a.it",
            "--domain",
            "b.it",
            "--limit",
            "2",
        ],
        &[("COLUMNS", "60")],
    );
    table.expect_code(0);
    let lines = text_lines(&table.stdout);
    assert!(
        lines.iter().all(|l| l.chars().count() <= 60),
        "{}",
        table.stdout
    );
    let header = cells(lines[0]);
    assert!(header.iter().any(|h| h.contains('.')), "{header:?}");
    assert!(
        lines.iter().filter(|l| l.contains("a.it")).count() >= 2,
        "{}",
        table.stdout
    );
}

#[test]
fn output_to_a_pipe_without_a_width_hides_nothing() {
    let table = support::run([
        "--sandbox",
        "keywords",
        "metrics",
        "--keyword",
        "scarpe running",
    ]);
    table.expect_code(0);
    assert!(!table.stderr.contains("hidden"), "{}", table.stderr);
}
