//! The spec's figures in words, with their provenance, as the schemas' and
//! documents' descriptions say them.

use crate::model::{Action, Charged, Limit, Source};

/// `decided: why` / `stated`.
pub fn provenance(source: Source, note: Option<&str>) -> String {
    let word = source.variant().to_lowercase();
    match note {
        Some(note) => format!("{word}: {note}"),
        None => word,
    }
}

/// A limit and its provenance: `100 (stated)`.
pub fn limit_words(l: &Limit) -> String {
    format!("{} ({})", l.value, provenance(l.source, l.note.as_deref()))
}

/// How the units of an action are charged, in words.
pub fn cost_words(action: &Action) -> String {
    let c = &action.cost;
    let units = match c.units.as_slice() {
        [one] => format!("{one} units"),
        figures => {
            let figures: Vec<String> = figures.iter().map(i64::to_string).collect();
            format!(
                "{} units (printed \"{}\")",
                figures.join(" or "),
                c.printed.as_deref().unwrap_or_default()
            )
        }
    };
    let reading = match c.charged {
        Charged::PerRow => format!("{units} per row: `UnitsUsed` = figure x `ResultRows`"),
        Charged::PerCall => format!("{units} per call, whatever the row count"),
        Charged::Unknown => {
            "unknown: the reference prints no unit cost; `UnitsUsed` says what a call cost"
                .to_owned()
        }
    };
    format!(
        "{reading} ({})",
        provenance(c.charged_source.source, c.charged_source.note.as_deref())
    )
}
