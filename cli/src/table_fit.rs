//! A table people can read: a record's monthly series drawn as one sparkline
//! and its peak month, and the whole made to fit the terminal by hiding the
//! least useful columns first.
//!
//! Everything is read from the spec, never from names: a monthly series is the
//! run of a record's fields whose hint is [`ValueKind::MonthlyVolume`] (in spec
//! order, January first), and how useful a column is comes from its field's
//! hint and wire type and from the record's key, which is never hidden.
//!
//! Numbers and keys are never wrapped: a table too wide for the terminal loses
//! whole columns instead (the note on stderr says which, and how to see them).

use std::io::IsTerminal;

use comfy_table::{CellAlignment, ColumnConstraint, ContentArrangement, Table, presets};
use seozoom::operation_table::{FieldKind, ValueKind};
use unicode_width::UnicodeWidthStr;

use crate::columns::FLAG as COLUMNS_FLAG;
use crate::format::View;
use crate::rows::{Column, Rows};

/// The environment variable that sets the terminal's width (as shells do);
/// it wins over the width the terminal reports, so scripts and tests can set it.
pub const WIDTH_ENV: &str = "COLUMNS";

/// The bars of a sparkline, lowest to highest.
const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// Month names of a twelve-field series, January first (the spec's convention
/// for monthly volumes).
const MONTH_NAMES: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Header of a series' sparkline column and of its peak-month column (after
/// the list field's prefix, for a nested series).
const SERIES_HEADER: &str = "by month";
const PEAK_HEADER: &str = "peak";

/// Characters a table spends on each column besides its content (a space on
/// each side and the separator), and once on the left border.
const PER_COLUMN: usize = 3;
const BORDER: usize = 1;
/// The width a text column may be wrapped to (a URL over two or three lines)
/// before columns are hidden for it.
const WRAPPED: usize = 24;

/// A table as text, and the note for stderr when columns were hidden.
#[derive(Debug)]
pub struct Rendered {
    /// The table.
    pub text: String,
    /// What was hidden and how to see it.
    pub note: Option<String>,
}

/// The terminal's width: `COLUMNS` when set to a number, else the width of the
/// terminal standard output is, else none (output to a file or a pipe is not
/// cut to any width).
pub fn terminal_width() -> Option<usize> {
    if let Some(width) = std::env::var(WIDTH_ENV)
        .ok()
        .and_then(|text| text.trim().parse::<usize>().ok())
        .filter(|&width| width > 0)
    {
        return Some(width);
    }
    if !std::io::stdout().is_terminal() {
        return None;
    }
    Table::new().width().map(usize::from)
}

/// How useful a column is to a reader, lowest hidden first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Usefulness {
    /// Nothing in it.
    Empty,
    /// Locales, categories and tags: context the reader rarely scans.
    Context,
    /// Flags, dates, word lists and unhinted text.
    Detail,
    /// Figures.
    Figure,
    /// What the rows are about (URLs, domains, keywords, names, positions)
    /// and the seasonality.
    Subject,
    /// The row's key, or the whole of a payload the spec does not describe
    /// as a record: never hidden.
    Key,
}

/// One column of the table being laid out.
#[derive(Debug)]
struct Col {
    header: String,
    cells: Vec<String>,
    usefulness: Usefulness,
    /// Never wrapped: numbers, keys, sparklines.
    whole: bool,
    /// Numbers, aligned right so that their digits line up.
    figure: bool,
    /// One month of a monthly series.
    month: bool,
    /// Keywords or domains: what a row without a key is about.
    name: bool,
    /// Its rank among the record's main measures, if it is one.
    main: Option<u8>,
}

impl Col {
    /// The width of its widest text.
    fn width(&self) -> usize {
        std::iter::once(&self.header)
            .chain(&self.cells)
            .flat_map(|text| text.lines())
            .map(UnicodeWidthStr::width)
            .max()
            .unwrap_or(0)
    }
}

/// The table of `rows`: the columns asked for with `--columns` as they are,
/// or else every column with monthly series folded and, when the width is
/// known, the least useful hidden until it fits.
pub fn table(rows: Rows, view: &View<'_>) -> Rendered {
    let (cols, note) = match view.columns {
        Some(names) => (columns(rows.select(names)), None),
        None => {
            let mut cols = fold_series(columns(rows));
            promote_lead(&mut cols);
            let hidden = match view.width {
                Some(width) => fit(&mut cols, width),
                None => Vec::new(),
            };
            let note = hidden_note(&hidden, cols.len() + hidden.len(), view.width);
            (cols, note)
        }
    };
    Rendered {
        text: render(&cols, view.width),
        note,
    }
}

/// The columns of `rows`, each with its cells.
fn columns(rows: Rows) -> Vec<Col> {
    let Rows {
        header,
        info,
        lines,
    } = rows;
    header
        .into_iter()
        .zip(info)
        .enumerate()
        .map(|(i, (header, column))| {
            let cells: Vec<String> = lines.iter().map(|line| line[i].clone()).collect();
            let empty = !cells.is_empty() && cells.iter().all(|c| c.trim().is_empty());
            Col {
                header,
                usefulness: if empty && !column.key {
                    Usefulness::Empty
                } else {
                    usefulness(&column)
                },
                whole: column.key || is_figure(&column) || is_name(&column),
                figure: is_figure(&column),
                month: is_month(&column),
                name: is_name(&column),
                main: column.main,
                cells,
            }
        })
        .collect()
}

/// Whether a column holds keywords or domains, which are read whole.
fn is_name(column: &Column) -> bool {
    column
        .field
        .and_then(|field| field.hint)
        .is_some_and(|hint| matches!(hint.kind, ValueKind::Keyword | ValueKind::Domain))
}

/// Whether a column holds numbers.
fn is_figure(column: &Column) -> bool {
    column.field.is_some_and(|field| {
        matches!(
            field.kind,
            FieldKind::Integer | FieldKind::Number | FieldKind::Flag
        )
    })
}

fn usefulness(column: &Column) -> Usefulness {
    if column.key {
        return Usefulness::Key;
    }
    let Some(field) = column.field else {
        // A SERP's position and URL, or an undescribed value: the whole
        // payload.
        return Usefulness::Key;
    };
    match field.hint.map(|hint| hint.kind) {
        Some(
            ValueKind::Language
            | ValueKind::SearchEngine
            | ValueKind::Locality
            | ValueKind::Category
            | ValueKind::Tag,
        ) => Usefulness::Context,
        // A label names its row (a project's, a niche's name); a position is
        // what a ranking is.
        Some(
            ValueKind::Url
            | ValueKind::Domain
            | ValueKind::Keyword
            | ValueKind::Label
            | ValueKind::Position,
        ) => Usefulness::Subject,
        _ if is_figure(column) => Usefulness::Figure,
        _ => Usefulness::Detail,
    }
}

/// Whether a column is one month of a monthly series.
fn is_month(column: &Column) -> bool {
    column
        .field
        .and_then(|field| field.hint)
        .is_some_and(|hint| hint.kind == ValueKind::MonthlyVolume)
}

/// The list-field prefix of a column name (`niches.` of `niches.name`).
fn prefix(name: &str) -> &str {
    name.rfind('.').map_or("", |at| &name[..=at])
}

/// Each run of monthly columns (of one record) folded into a sparkline column
/// and a peak-month column.
fn fold_series(cols: Vec<Col>) -> Vec<Col> {
    let mut folded = Vec::with_capacity(cols.len());
    let mut run: Vec<Col> = Vec::new();
    for col in cols {
        let continues = run
            .first()
            .is_some_and(|first| prefix(&first.header) == prefix(&col.header));
        if col.month {
            if !continues {
                flush(&mut run, &mut folded);
            }
            run.push(col);
        } else {
            flush(&mut run, &mut folded);
            folded.push(col);
        }
    }
    flush(&mut run, &mut folded);
    folded
}

/// Fold a run of month columns (if any) into its two columns.
fn flush(run: &mut Vec<Col>, out: &mut Vec<Col>) {
    if run.is_empty() {
        return;
    }
    let run = std::mem::take(run);
    let lead = prefix(&run[0].header).to_owned();
    let lines = run[0].cells.len();
    let mut sparks = Vec::with_capacity(lines);
    let mut peaks = Vec::with_capacity(lines);
    for line in 0..lines {
        let values: Vec<Option<f64>> = run
            .iter()
            .map(|col| col.cells[line].trim().parse::<f64>().ok())
            .collect();
        sparks.push(sparkline(&values));
        peaks.push(peak(&values).map_or_else(String::new, |at| month_name(at, run.len())));
    }
    out.push(Col {
        header: format!("{lead}{SERIES_HEADER}"),
        cells: sparks,
        usefulness: Usefulness::Subject,
        whole: true,
        figure: false,
        month: false,
        name: false,
        main: None,
    });
    out.push(Col {
        header: format!("{lead}{PEAK_HEADER}"),
        cells: peaks,
        usefulness: Usefulness::Figure,
        whole: true,
        figure: false,
        month: false,
        name: false,
        main: None,
    });
}

/// The name of month `at` of a series of `len`: a month name for a year's
/// twelve, else its place from 1.
fn month_name(at: usize, len: usize) -> String {
    match MONTH_NAMES.get(at) {
        Some(name) if len == MONTH_NAMES.len() => (*name).to_owned(),
        _ => (at + 1).to_string(),
    }
}

/// One bar per value, from the lowest to the highest of the series; a space
/// where a value is missing. A flat series is a row of middle bars.
fn sparkline(values: &[Option<f64>]) -> String {
    let known = values.iter().flatten().copied();
    let (low, high) = known.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if low > high {
        return String::new();
    }
    let top = (BARS.len() - 1) as f64;
    values
        .iter()
        .map(|value| match value {
            None => ' ',
            Some(_) if high == low => BARS[BARS.len() / 2],
            Some(v) => {
                let level = ((v - low) / (high - low) * top).round() as usize;
                BARS[level.min(BARS.len() - 1)]
            }
        })
        .collect()
}

/// Where a series is highest (its first highest month).
fn peak(values: &[Option<f64>]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (at, value) in values.iter().enumerate() {
        if let Some(v) = value
            && best.is_none_or(|(_, b)| *v > b)
        {
            best = Some((at, *v));
        }
    }
    best.map(|(at, _)| at)
}

/// The width the table needs: its whole columns at their widest, and text
/// columns (which wrap) at most [`WRAPPED`] wide.
fn table_width(cols: &[Col]) -> usize {
    BORDER + cols.iter().map(|c| need(c) + PER_COLUMN).sum::<usize>()
}

/// The narrowest a long key column is cut to (with `…`) to make room for a
/// main measure: still enough to tell most keywords and URLs apart.
const SHORTEST_LEAD: usize = 20;

/// The order columns are kept in when not all fit: the row's key first, then
/// the record's main measures as the spec ranks them, then the others, the
/// most useful first (the narrowest first among equals, then the leftmost).
fn rank(col: &Col) -> (u8, u8, std::cmp::Reverse<Usefulness>, usize) {
    match (col.usefulness, col.main) {
        (Usefulness::Key, _) => (0, 0, std::cmp::Reverse(Usefulness::Key), 0),
        (Usefulness::Empty, _) => (3, 0, std::cmp::Reverse(Usefulness::Empty), col.width()),
        (_, Some(rank)) => (1, rank, std::cmp::Reverse(col.usefulness), 0),
        (usefulness, None) => (2, 0, std::cmp::Reverse(usefulness), col.width()),
    }
}

/// A record without a key is about its first keyword or domain: that column
/// is kept as a key is.
fn promote_lead(cols: &mut [Col]) {
    if cols.iter().any(|col| col.usefulness == Usefulness::Key) {
        return;
    }
    if let Some(col) = cols.iter_mut().find(|col| col.name) {
        col.usefulness = Usefulness::Key;
    }
}

/// The column whose text may be cut to make room for a main measure: the
/// row's key (or its first keyword or domain, [`promote_lead`]).
fn lead(cols: &[Col]) -> Option<usize> {
    let text = |col: &Col| !col.figure && col.width() > SHORTEST_LEAD;
    cols.iter()
        .position(|col| col.usefulness == Usefulness::Key)
        .filter(|&at| text(&cols[at]))
}

/// The width a column takes in the table: its widest text when it is read
/// whole, at most [`WRAPPED`] when it wraps.
fn need(col: &Col) -> usize {
    match col.whole {
        true => col.width(),
        false => col.width().min(WRAPPED),
    }
}

/// Keep the columns that fit `width` in [`rank`] order, every one that still
/// fits after a wider one did not (keys are always kept), cutting a long
/// key column with `…` before a main measure is left out; the names left
/// out, in table order.
fn fit(cols: &mut Vec<Col>, width: usize) -> Vec<String> {
    if table_width(cols) <= width {
        return Vec::new();
    }
    let lead = lead(cols);
    let mut order: Vec<usize> = (0..cols.len()).collect();
    order.sort_by_key(|&at| (rank(&cols[at]), at));
    let mut kept = vec![false; cols.len()];
    let mut used = BORDER;
    let mut lead_width = lead.map_or(0, |at| need(&cols[at]));
    for at in order {
        let cost = need(&cols[at]) + PER_COLUMN;
        let key = cols[at].usefulness == Usefulness::Key;
        if key || used + cost <= width {
            kept[at] = true;
            used += cost;
            continue;
        }
        // A main measure left out for want of room the key column could give.
        let Some(lead_at) = lead.filter(|&l| kept[l] && cols[at].main.is_some()) else {
            continue;
        };
        let shortest = SHORTEST_LEAD.max(UnicodeWidthStr::width(cols[lead_at].header.as_str()));
        let short = used + cost - width;
        if lead_width >= shortest + short {
            lead_width -= short;
            used = used - short + cost;
            kept[at] = true;
        }
    }
    if let Some(at) = lead
        && lead_width < need(&cols[at])
    {
        for cell in &mut cols[at].cells {
            *cell = cut(cell, lead_width);
        }
    }
    let mut hidden = Vec::new();
    let mut at = 0;
    cols.retain(|col| {
        let keep = kept[at];
        at += 1;
        if !keep {
            hidden.push(col.header.clone());
        }
        keep
    });
    hidden
}

/// `text` cut to `width` columns, the last one `…`, when it is wider.
fn cut(text: &str, width: usize) -> String {
    if UnicodeWidthStr::width(text) <= width {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for ch in text.chars() {
        let w = unicode_width::UnicodeWidthChar::width(ch).unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        out.push(ch);
        used += w;
    }
    out.push('…');
    out
}

/// The stderr note of a table that hid columns.
fn hidden_note(hidden: &[String], total: usize, width: Option<usize>) -> Option<String> {
    if hidden.is_empty() {
        return None;
    }
    let (count, width) = (hidden.len(), width.unwrap_or_default());
    Some(format!(
        "note: {count} of {total} column{} hidden to fit {width} characters: {}; \
         pick columns with `{COLUMNS_FLAG} a,b,c`, or see every field with `--format csv`",
        if total == 1 { "" } else { "s" },
        hidden.join(", "),
    ))
}

/// The table's text: wrapped to `width` when it is known, text columns only.
fn render(cols: &[Col], width: Option<usize>) -> String {
    let mut table = Table::new();
    table
        .load_preset(presets::UTF8_FULL_CONDENSED)
        .set_header(cols.iter().map(|c| c.header.as_str()));
    let lines = cols.first().map_or(0, |c| c.cells.len());
    for line in 0..lines {
        table.add_row(cols.iter().map(|c| c.cells[line].as_str()));
    }
    for (at, col) in cols.iter().enumerate() {
        if let (true, Some(column)) = (col.figure, table.column_mut(at)) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    match width {
        Some(width) => {
            table
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(u16::try_from(width).unwrap_or(u16::MAX));
            for (at, col) in cols.iter().enumerate() {
                if let (true, Some(column)) = (col.whole, table.column_mut(at)) {
                    column.set_constraint(ColumnConstraint::ContentWidth);
                }
            }
        }
        None => {
            table.set_content_arrangement(ContentArrangement::Disabled);
        }
    }
    table.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(values: &[i64]) -> Vec<Option<f64>> {
        values.iter().map(|&v| Some(v as f64)).collect()
    }

    #[test]
    fn a_sparkline_runs_from_the_lowest_bar_to_the_highest() {
        assert_eq!(sparkline(&series(&[0, 2, 14, 2])), "▁▂█▂");
        assert_eq!(sparkline(&series(&[5, 5])), "▅▅");
        assert_eq!(sparkline(&[Some(1.0), None, Some(2.0)]), "▁ █");
        assert_eq!(sparkline(&[None, None]), "");
    }

    #[test]
    fn the_peak_is_the_first_highest_month() {
        assert_eq!(peak(&series(&[1, 9, 3, 9])), Some(1));
        assert_eq!(month_name(1, 12), "Feb");
        assert_eq!(month_name(1, 6), "2");
    }

    fn col(header: &str, width: usize, usefulness: Usefulness) -> Col {
        Col {
            header: header.to_owned(),
            cells: vec!["x".repeat(width)],
            usefulness,
            whole: true,
            figure: false,
            month: false,
            name: false,
            main: None,
        }
    }

    #[test]
    fn the_least_useful_go_first_and_keys_stay() {
        let mut cols = vec![
            col("key", 30, Usefulness::Key),
            col("lang", 10, Usefulness::Context),
            col("figure", 10, Usefulness::Figure),
            col("flag", 10, Usefulness::Detail),
        ];
        // 1 + 4 columns of (width + 3).
        assert_eq!(table_width(&cols), 1 + 33 + 13 * 3);
        let hidden = fit(&mut cols, 50);
        assert_eq!(hidden, ["lang", "flag"]);
        assert_eq!(table_width(&cols), 47);
        let hidden = fit(&mut cols, 10);
        assert_eq!(hidden, ["figure"]);
        assert_eq!(cols.len(), 1, "the key is never hidden");
    }
}
