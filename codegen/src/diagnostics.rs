//! Located error messages about the spec, collected rather than thrown.

use std::fmt;
use std::ops::Range;

/// The spec text and the name it is reported under.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path shown in messages.
    pub name: String,
    /// The whole file.
    pub text: String,
}

impl SourceFile {
    /// A source with a display name (usually its path).
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            name: name.into(),
            text: text.into(),
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = self.text.get(..offset).unwrap_or(&self.text);
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        (line, column)
    }

    /// A diagnostic pointing at `span`.
    pub fn diagnostic(&self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        let (line, column) = self.line_col(span.start);
        Diagnostic {
            file: self.name.clone(),
            line,
            column,
            message: message.into(),
        }
    }
}

/// One problem in the spec, with where it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Spec file as given to the generator.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong, and what would be right.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

/// Every problem found in one run, in the order of the spec text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        write!(f, "{} error(s) in the spec", self.0.len())
    }
}

impl std::error::Error for Diagnostics {}

/// Collects diagnostics while validation carries on (serde_derive's `Ctxt`).
pub struct Collector<'a> {
    file: &'a SourceFile,
    found: Vec<(usize, Diagnostic)>,
}

impl<'a> Collector<'a> {
    /// An empty collector for `file`.
    pub fn new(file: &'a SourceFile) -> Self {
        Collector {
            file,
            found: Vec::new(),
        }
    }

    /// Record a problem at `span`.
    pub fn error(&mut self, span: Range<usize>, message: impl Into<String>) {
        let start = span.start;
        self.found
            .push((start, self.file.diagnostic(span, message)));
    }

    /// Whether anything has been recorded.
    pub fn is_empty(&self) -> bool {
        self.found.is_empty()
    }

    /// All problems sorted by position, or `Ok` when there were none.
    ///
    /// # Errors
    ///
    /// Every problem collected, sorted by position, when there was one.
    pub fn finish(self) -> Result<(), Diagnostics> {
        if self.found.is_empty() {
            return Ok(());
        }
        Err(self.into_diagnostics())
    }

    /// All problems sorted by position, each once: a shared definition used
    /// by several actions is reported once, where it is written.
    pub fn into_diagnostics(mut self) -> Diagnostics {
        self.found.sort_by_key(|(start, _)| *start);
        let mut seen = std::collections::HashSet::new();
        Diagnostics(
            self.found
                .into_iter()
                .map(|(_, d)| d)
                .filter(|d| seen.insert(d.clone()))
                .collect(),
        )
    }
}
