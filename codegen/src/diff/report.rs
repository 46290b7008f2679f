//! The reports: one line of text per change, or JSON, each ending with the bump;
//! or the lines of a CHANGELOG entry.

use std::fmt::Write as _;
use std::io;

use serde::Serialize;
use serde_json::ser::Formatter;

use super::{Change, Kind, Level, Version, level};

/// The `semver:` line: the bump from `current`, and before 1.0 what it would be
/// from 1.0 on.
fn semver_text(level: Option<Level>, current: Version) -> String {
    let Some(level) = level else {
        return format!("semver: no bump needed ({current} stays)");
    };
    let next = current.bumped(level);
    let what = match level {
        Level::Breaking => "breaking",
        Level::Minor => "compatible additions",
        Level::Patch => "documentation and figures only",
    };
    if current.major > 0 {
        return format!(
            "semver: {what}: {} bump, {current} -> {next}",
            level.bump_from_1_0()
        );
    }
    let rule = match level {
        _ if current.minor == 0 => "before 0.1 every change bumps the patch number",
        Level::Breaking => "before 1.0 a breaking change bumps the minor number",
        _ => "before 1.0 a compatible change bumps the patch number",
    };
    format!(
        "semver: {what}: {current} -> {next} ({rule}); from 1.0 on: a {} bump",
        level.bump_from_1_0()
    )
}

/// The text report: one line per change, a count by level, and the bump.
pub fn render_text(changes: &[Change], current: Version) -> String {
    let mut out = String::new();
    if changes.is_empty() {
        out.push_str("no changes\n");
    } else {
        for change in changes {
            let _ = writeln!(out, "{change}");
        }
        let count = |l| changes.iter().filter(|c| c.level == l).count();
        let _ = writeln!(
            out,
            "\n{} change(s): {} breaking, {} minor, {} patch",
            changes.len(),
            count(Level::Breaking),
            count(Level::Minor),
            count(Level::Patch)
        );
    }
    let _ = writeln!(out, "{}", semver_text(level(changes), current));
    out
}

/// One change in the JSON report.
#[derive(Serialize)]
struct JsonChange<'a> {
    level: &'static str,
    breaking: bool,
    kind: &'static str,
    item: &'a str,
    aspect: &'a str,
    old: Option<&'a str>,
    new: Option<&'a str>,
    note: &'a str,
    text: String,
}

/// The counts and the bump in the JSON report.
#[derive(Serialize)]
struct JsonSummary {
    changes: usize,
    breaking: usize,
    minor: usize,
    patch: usize,
    level: Option<&'static str>,
    current: String,
    next: String,
    bump_from_1_0: Option<&'static str>,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    changes: Vec<JsonChange<'a>>,
    summary: JsonSummary,
}

/// The report as JSON, one change per line:
/// `{"changes": [{"level", "breaking", "kind", "item", "aspect", "old", "new",
/// "note", "text"}, ...], "summary": {"changes", "breaking", "minor", "patch",
/// "level", "current", "next", "bump_from_1_0"}}`.
pub fn render_json(changes: &[Change], current: Version) -> String {
    let count = |l| changes.iter().filter(|c| c.level == l).count();
    let level = level(changes);
    let report = JsonReport {
        changes: changes
            .iter()
            .map(|c| JsonChange {
                level: c.level.name(),
                breaking: c.level == Level::Breaking,
                kind: c.kind.label(),
                item: &c.item,
                aspect: &c.aspect,
                old: c.old.as_deref(),
                new: c.new.as_deref(),
                note: &c.note,
                text: c.to_string(),
            })
            .collect(),
        summary: JsonSummary {
            changes: changes.len(),
            breaking: count(Level::Breaking),
            minor: count(Level::Minor),
            patch: count(Level::Patch),
            level: level.map(Level::name),
            current: current.to_string(),
            next: level.map_or(current, |l| current.bumped(l)).to_string(),
            bump_from_1_0: level.map(Level::bump_from_1_0),
        },
    };
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, Layout::default());
    report
        .serialize(&mut serializer)
        .expect("a report of strings, numbers and booleans serializes");
    out.push(b'\n');
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// The report's layout, which a diff of two reports reads well in: the top
/// object and the arrays directly in it one member per line (so one change per
/// line), everything deeper on that line, spaced as `"key": value, ...`.
#[derive(Default)]
struct Layout {
    /// The open arrays and objects, outermost first.
    open: Vec<Open>,
}

struct Open {
    /// Its members go on lines of their own.
    broken: bool,
    /// It has had a member (an empty one closes on its line: `[]`).
    filled: bool,
}

impl Layout {
    fn begin<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        bracket: &[u8],
        array: bool,
    ) -> io::Result<()> {
        let broken = match self.open.as_slice() {
            [] => true,
            [outer] => outer.broken && array,
            _ => false,
        };
        self.open.push(Open {
            broken,
            filled: false,
        });
        w.write_all(bracket)
    }

    fn end<W: ?Sized + io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        if let Some(Open {
            broken: true,
            filled: true,
        }) = self.open.pop()
        {
            self.newline(w)?;
        }
        w.write_all(bracket)
    }

    /// Before a member: a comma after the first, then its own line or a space.
    fn member<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        let Some(open) = self.open.last_mut() else {
            return Ok(());
        };
        open.filled = true;
        if open.broken {
            self.newline(w)
        } else if first {
            Ok(())
        } else {
            w.write_all(b" ")
        }
    }

    /// A line break indented to the innermost open container's members.
    fn newline<W: ?Sized + io::Write>(&self, w: &mut W) -> io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..self.open.len() {
            w.write_all(b"  ")?;
        }
        Ok(())
    }
}

impl Formatter for Layout {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, b"[", true)
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.member(w, first)
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, b"{", false)
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.member(w, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
}

/// The changes as lines of a CHANGELOG entry in the Keep a Changelog form, to
/// paste under a version's heading: breaking changes first (`### Changed
/// (breaking)`, each saying what happened), then the compatible ones by what
/// happened (`### Added`, `### Changed`, `### Removed`), one `- ` line each
/// with the item and what it means for users. Empty when nothing changed.
pub fn render_changelog(changes: &[Change]) -> String {
    type Belongs = fn(&Change) -> bool;
    let sections: [(&str, Belongs); 4] = [
        ("Changed (breaking)", |c| c.level == Level::Breaking),
        ("Added", |c| {
            c.level != Level::Breaking && c.kind == Kind::Added
        }),
        ("Changed", |c| {
            c.level != Level::Breaking && c.kind == Kind::Changed
        }),
        ("Removed", |c| {
            c.level != Level::Breaking && c.kind == Kind::Removed
        }),
    ];
    let mut out = String::new();
    for (heading, belongs) in sections {
        let mut lines = changes.iter().filter(|c| belongs(c)).peekable();
        if lines.peek().is_none() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        let _ = writeln!(out, "### {heading}\n");
        for change in lines {
            // Under the breaking heading, say what happened to the item.
            let what = match change.level {
                Level::Breaking => format!("{}: ", change.kind.title()),
                _ => String::new(),
            };
            let detail = change.detail();
            let _ = match detail.is_empty() {
                true => writeln!(out, "- {what}{}", change.item),
                false => writeln!(out, "- {what}{}: {detail}", change.item),
            };
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semver_lines_say_both_readings_before_1_0() {
        let v = |s| Version::parse(s).unwrap();
        assert_eq!(
            semver_text(Some(Level::Breaking), v("0.1.0")),
            "semver: breaking: 0.1.0 -> 0.2.0 (before 1.0 a breaking change bumps the minor number); from 1.0 on: a major bump"
        );
        assert_eq!(
            semver_text(Some(Level::Minor), v("1.4.2")),
            "semver: compatible additions: minor bump, 1.4.2 -> 1.5.0"
        );
        assert_eq!(
            semver_text(None, v("0.1.0")),
            "semver: no bump needed (0.1.0 stays)"
        );
    }

    #[test]
    fn json_strings_are_escaped_and_read_back() {
        let change = Change {
            level: Level::Patch,
            item: "a\"b\\c\nd\u{1}".to_owned(),
            kind: super::super::Kind::Changed,
            aspect: "description".to_owned(),
            old: None,
            new: None,
            note: String::new(),
        };
        let json = render_json(&[change], Version::parse("0.1.0").unwrap());
        assert!(json.contains(r#""item": "a\"b\\c\nd\u0001""#), "{json}");
        let value: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        assert_eq!(value["changes"][0]["item"], "a\"b\\c\nd\u{1}");
        assert_eq!(value["summary"]["next"], "0.1.1");
    }
}
