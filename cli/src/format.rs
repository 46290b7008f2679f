//! How a result is printed: the format (`--format`) and the view beyond it
//! (`--columns`, the terminal's width), shared by every module that prints.

/// How a result is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The envelope as one JSON document, with the API's member names.
    Json,
    /// One JSON object per record of the response, one per line.
    Ndjson,
    /// Rows as CSV with a header line.
    Csv,
    /// Rows as a text table.
    Table,
}

impl Format {
    /// The words of `--format`, as the command line takes them.
    pub const WORDS: [&'static str; 4] = ["json", "ndjson", "csv", "table"];

    /// The format of a `--format` word.
    pub fn from_word(word: &str) -> Option<Format> {
        match word {
            "json" => Some(Format::Json),
            "ndjson" => Some(Format::Ndjson),
            "csv" => Some(Format::Csv),
            "table" => Some(Format::Table),
            _ => None,
        }
    }
}

/// How to print beyond the format: the columns asked for and the room a table
/// has.
#[derive(Debug, Clone, Default)]
pub struct View<'a> {
    /// `--columns`: these columns, in this order (already checked against the
    /// operation's columns).
    pub columns: Option<&'a [String]>,
    /// The terminal's width in characters, when known (tables only).
    pub width: Option<usize>,
}
