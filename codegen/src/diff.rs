//! `seozoom-codegen diff OLD NEW`: what changed between two versions of the spec,
//! for users of the generated `seozoom` crate, and the version bump it implies.
//!
//! Both specs are validated first; the comparison is of the two [`Spec`] models,
//! so it sees what the generated code sees (fieldsets expanded, names final).
//! Every change is one [`Change`]: added, removed or changed, the item it is about
//! (`action domains keywords / param limit`, `record domain_keyword / field KD`),
//! what changed, and a [`Level`]:
//!
//! - [`Level::Breaking`]: code that compiled may no longer compile, or a call that
//!   was accepted (or a body that decoded) may now be refused: a removed group,
//!   action, record, field, parameter, enum or enum value; a new required
//!   parameter; a changed Rust type (including a field gaining or losing
//!   `Option`); a renamed Rust item; a parameter turned from a list into a single
//!   value or back; a narrowed limit (smaller maximum, larger minimum, a new
//!   limit); a new rule; a changed default; a changed wire name of a field or enum
//!   value (what the types serialize).
//! - [`Level::Minor`]: something new that breaks nothing: an added group, action,
//!   record, field, enum, optional parameter or enum value (records and enums are
//!   `#[non_exhaustive]`), a widened or dropped limit, a dropped rule, a changed
//!   wire name of an action or parameter.
//! - [`Level::Patch`]: documentation and figures: descriptions, provenance and
//!   notes, unit costs and rate figures.
//!
//! The bump follows Cargo's reading of SemVer: before 1.0 a breaking change bumps
//! the minor number (0.1.3 -> 0.2.0) and any other change the patch number; from
//! 1.0 on, breaking, minor and patch changes bump the major, minor and patch
//! numbers.
//!
//! This module is also compiled into the `seozoom` build script (through
//! `client/codegen`), so it uses only the standard library and `crate::` modules
//! other than the crate root.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fmt::{self, Write as _};
use std::path::Path;
use std::process::ExitCode;

use crate::diagnostics::Diagnostics;
use crate::model::{
    Action, Charged, Counts, Enum, EnumValue, Field, FieldType, Group, Limit, ListItem, Member,
    Param, ParamType, Payload, Record, Rule, Shape, Source, Spec,
};

/// Exit status when no change is breaking (or there is no change).
pub const EXIT_COMPATIBLE: u8 = 0;
/// Exit status when a spec cannot be read or is not valid.
pub const EXIT_SPEC_ERROR: u8 = 1;
/// Exit status for a bad command line.
pub const EXIT_USAGE: u8 = 2;
/// Exit status when at least one change is breaking.
pub const EXIT_BREAKING: u8 = 3;

/// The command line of `diff`.
pub const USAGE: &str = "seozoom-codegen diff [--json] [--current VERSION] OLD NEW";

const HELP: &str = "\
Compares two versions of the spec and reports what changed for users of the
seozoom crate: every added, removed or changed group, action, parameter, rule,
record, field, enum value, type, limit, name and figure, each classified as
BREAKING, minor or patch, then the version bump they imply.

  --json             print the changes and the bump as JSON
  --current VERSION  the version the bump starts from (default: the workspace's)

Exit status: 0 no breaking change (or no change), 3 at least one breaking change,
1 a spec cannot be read or is invalid (every error located), 2 bad command line.";

/// How much a change matters to a user of the generated crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Code or calls that worked may stop working.
    Breaking,
    /// New things; nothing that worked stops working.
    Minor,
    /// Documentation, provenance and figures.
    Patch,
}

impl Level {
    /// The label in the text report.
    pub fn label(self) -> &'static str {
        match self {
            Level::Breaking => "BREAKING",
            Level::Minor => "minor",
            Level::Patch => "patch",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Level::Breaking => "breaking",
            Level::Minor => "minor",
            Level::Patch => "patch",
        }
    }

    /// The bump this level implies from 1.0 on.
    fn bump_from_1_0(self) -> &'static str {
        match self {
            Level::Breaking => "major",
            Level::Minor => "minor",
            Level::Patch => "patch",
        }
    }
}

/// What happened to the item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Added,
    Removed,
    Changed,
}

impl Kind {
    /// The label in the text report.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Added => "added",
            Kind::Removed => "removed",
            Kind::Changed => "changed",
        }
    }
}

/// One difference between the two specs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Change {
    pub level: Level,
    /// The item (`record domain_keyword / field KD`).
    pub item: String,
    pub kind: Kind,
    /// For `Changed`: the property that changed (`max`, `type`, `description`,
    /// ...); empty for `Added` and `Removed`.
    pub aspect: String,
    /// The old and new value of `aspect`, as text (`None` for long texts such as
    /// descriptions, and for `Added` and `Removed`).
    pub old: Option<String>,
    pub new: Option<String>,
    /// What it means for users: the Rust item, what is now refused, ...
    pub note: String,
}

impl Change {
    /// The text after the item: `max 5 (stated) -> 3 (stated); narrowed: values above 3 are now refused`.
    pub fn detail(&self) -> String {
        let mut detail = self.aspect.clone();
        if let (Some(old), Some(new)) = (&self.old, &self.new) {
            detail = format!("{detail} {old} -> {new}");
        }
        match (detail.is_empty(), self.note.is_empty()) {
            (_, true) => detail,
            (true, false) => self.note.clone(),
            (false, false) => format!("{detail}; {}", self.note),
        }
    }
}

impl fmt::Display for Change {
    /// `BREAKING  removed   record domain_keyword / field KD: ...`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:<10}{:<10}{}",
            self.level.label(),
            self.kind.label(),
            self.item
        )?;
        let detail = self.detail();
        if !detail.is_empty() {
            write!(f, ": {detail}")?;
        }
        Ok(())
    }
}

/// Every change from `old` to `new`, sorted: breaking first, then minor, then
/// patch; within a level by item, then by what changed.
pub fn diff(old: &Spec, new: &Spec) -> Vec<Change> {
    let mut d = Differ::default();
    d.api(old, new);
    d.envelope(old, new);
    d.common(old, new);
    d.groups(&old.groups, &new.groups);
    d.enums(&old.enums, &new.enums);
    d.records(&old.records, &new.records);
    d.actions(&old.actions, &new.actions);
    let changes: BTreeSet<Change> = d.changes.into_iter().collect();
    changes.into_iter().collect()
}

/// The most severe level among `changes`, or `None` when there are none.
pub fn level(changes: &[Change]) -> Option<Level> {
    changes.iter().map(|c| c.level).min()
}

/// A `MAJOR.MINOR.PATCH` version (a pre-release or build suffix is ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
}

impl Version {
    /// The workspace's version, which the `seozoom` crate shares.
    pub fn current() -> Version {
        Version::parse(env!("CARGO_PKG_VERSION")).unwrap_or(Version {
            major: 0,
            minor: 1,
            patch: 0,
        })
    }

    /// `1.2.3`, `0.2.0-rc.1`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Version> {
        let core = text.split(['-', '+']).next()?;
        let mut parts = core.split('.').map(|p| p.parse::<u64>().ok());
        let version = Version {
            major: parts.next()??,
            minor: parts.next()??,
            patch: parts.next()??,
        };
        parts.next().is_none().then_some(version)
    }

    /// The next version after a change of `level`, by Cargo's SemVer rules.
    pub fn bumped(self, level: Level) -> Version {
        let Version {
            major,
            minor,
            patch,
        } = self;
        let (major, minor, patch) = match (major, minor, level) {
            (0, 0, _) => (0, 0, patch + 1),
            (0, _, Level::Breaking) => (0, minor + 1, 0),
            (0, _, _) => (0, minor, patch + 1),
            (_, _, Level::Breaking) => (major + 1, 0, 0),
            (_, _, Level::Minor) => (major, minor + 1, 0),
            (_, _, Level::Patch) => (major, minor, patch + 1),
        };
        Version {
            major,
            minor,
            patch,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

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

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_opt(s: Option<&str>) -> String {
    s.map_or_else(|| "null".to_owned(), json_str)
}

/// The report as JSON, one change per line:
/// `{"changes": [{"level", "breaking", "kind", "item", "aspect", "old", "new",
/// "note", "text"}, ...], "summary": {"changes", "breaking", "minor", "patch",
/// "level", "current", "next", "bump_from_1_0"}}`.
pub fn render_json(changes: &[Change], current: Version) -> String {
    let mut out = String::from("{\n  \"changes\": [");
    for (i, c) in changes.iter().enumerate() {
        let _ = write!(
            out,
            "{}\n    {{\"level\": {}, \"breaking\": {}, \"kind\": {}, \"item\": {}, \"aspect\": {}, \"old\": {}, \"new\": {}, \"note\": {}, \"text\": {}}}",
            if i == 0 { "" } else { "," },
            json_str(c.level.name()),
            c.level == Level::Breaking,
            json_str(c.kind.label()),
            json_str(&c.item),
            json_str(&c.aspect),
            json_opt(c.old.as_deref()),
            json_opt(c.new.as_deref()),
            json_str(&c.note),
            json_str(&c.to_string()),
        );
    }
    if !changes.is_empty() {
        out.push_str("\n  ");
    }
    let count = |l| changes.iter().filter(|c| c.level == l).count();
    let (level, next, from_1_0) = match level(changes) {
        Some(l) => (
            json_str(l.name()),
            current.bumped(l).to_string(),
            json_str(l.bump_from_1_0()),
        ),
        None => ("null".to_owned(), current.to_string(), "null".to_owned()),
    };
    let _ = write!(
        out,
        "],\n  \"summary\": {{\"changes\": {}, \"breaking\": {}, \"minor\": {}, \"patch\": {}, \"level\": {level}, \"current\": {}, \"next\": {}, \"bump_from_1_0\": {from_1_0}}}\n}}\n",
        changes.len(),
        count(Level::Breaking),
        count(Level::Minor),
        count(Level::Patch),
        json_str(&current.to_string()),
        json_str(&next),
    );
    out
}

// --- the command -------------------------------------------------------------

struct Args {
    json: bool,
    current: Version,
    old: OsString,
    new: OsString,
}

fn parse_args(args: &[OsString]) -> Result<Option<Args>, String> {
    let mut json = false;
    let mut current = Version::current();
    let mut specs = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("-h" | "--help") => return Ok(None),
            Some("--json") => json = true,
            Some("--current") => {
                let value = args.next().ok_or("`--current` needs a version")?;
                let text = value.to_string_lossy();
                current = Version::parse(&text)
                    .ok_or_else(|| format!("`{text}` is not a version (MAJOR.MINOR.PATCH)"))?;
            }
            Some(flag) if flag.starts_with('-') && flag != "-" => {
                return Err(format!("unknown option `{flag}`"));
            }
            _ => specs.push(arg.clone()),
        }
    }
    let [old, new]: [OsString; 2] = specs.try_into().map_err(|specs: Vec<OsString>| {
        format!("expected two specs, OLD and NEW; got {}", specs.len())
    })?;
    Ok(Some(Args {
        json,
        current,
        old,
        new,
    }))
}

/// Read and validate the spec at `path`; every problem as a located diagnostic.
pub fn load(path: &Path) -> Result<Spec, Diagnostics> {
    super::load_file(path)
}

/// `seozoom-codegen diff [--json] [--current VERSION] OLD NEW`, given the
/// arguments after `diff`. The report goes to stdout, diagnostics to stderr; the
/// status is one of the `EXIT_` constants.
pub fn run(args: &[OsString]) -> ExitCode {
    let args = match parse_args(args) {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("usage: {USAGE}\n\n{HELP}");
            return ExitCode::from(EXIT_COMPATIBLE);
        }
        Err(err) => {
            eprintln!("seozoom-codegen diff: {err}\nusage: {USAGE}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let (old, new) = match (load(Path::new(&args.old)), load(Path::new(&args.new))) {
        (Ok(old), Ok(new)) => (old, new),
        (old, new) => {
            for diagnostics in [old.err(), new.err()].into_iter().flatten() {
                eprintln!("{diagnostics}");
            }
            return ExitCode::from(EXIT_SPEC_ERROR);
        }
    };
    let changes = diff(&old, &new);
    if args.json {
        print!("{}", render_json(&changes, args.current));
    } else {
        print!("{}", render_text(&changes, args.current));
    }
    if level(&changes) == Some(Level::Breaking) {
        ExitCode::from(EXIT_BREAKING)
    } else {
        ExitCode::from(EXIT_COMPATIBLE)
    }
}

// --- the comparison ----------------------------------------------------------

/// Items of both lists taken as the same item, removed items and added items.
type Paired<'a, T> = (Vec<(&'a T, &'a T)>, Vec<&'a T>, Vec<&'a T>);

/// Pairs the items of two lists: first by `key`, then the leftovers by `alt`
/// when that is unambiguous (so a renamed Rust item or a changed wire name is one
/// change, not a removal and an addition).
fn pair<'a, T>(
    old: &'a [T],
    new: &'a [T],
    key: impl Fn(&T) -> String,
    alt: impl Fn(&T) -> String,
) -> Paired<'a, T> {
    let mut pairs = Vec::new();
    let mut added: Vec<&T> = new.iter().collect();
    let mut unmatched = Vec::new();
    for o in old {
        match added.iter().position(|n| key(n) == key(o)) {
            Some(i) => pairs.push((o, added.remove(i))),
            None => unmatched.push(o),
        }
    }
    let mut removed = Vec::new();
    for o in unmatched {
        let unique_old = old.iter().filter(|x| alt(x) == alt(o)).count() == 1;
        let found: Vec<usize> = (0..added.len())
            .filter(|&i| alt(added[i]) == alt(o))
            .collect();
        match found[..] {
            [i] if unique_old => pairs.push((o, added.remove(i))),
            _ => removed.push(o),
        }
    }
    (pairs, removed, added)
}

fn quoted(s: &str) -> String {
    format!("`{s}`")
}

fn source_name(s: Source) -> &'static str {
    match s {
        Source::Stated => "stated",
        Source::Inferred => "inferred",
        Source::Observed => "observed",
        Source::Decided => "decided",
    }
}

fn limit_text(l: &Limit) -> String {
    format!("{} ({})", l.value, source_name(l.source))
}

fn param_type_name(t: &ParamType) -> String {
    match t {
        ParamType::String => "string".into(),
        ParamType::Integer => "integer".into(),
        ParamType::Date => "date".into(),
        ParamType::Enum { type_name, .. } => type_name.clone(),
    }
}

/// The Rust type of a field as the generated record has it (short paths).
fn field_rust_type(f: &Field) -> String {
    let ty = match &f.ty {
        FieldType::Integer => "i64".to_owned(),
        FieldType::Number => "f64".to_owned(),
        FieldType::String => "String".to_owned(),
        FieldType::BoolWord => "Option<bool>".to_owned(),
        FieldType::Flag => "bool".to_owned(),
        FieldType::Date => "Date".to_owned(),
        FieldType::DateTime => "DateTime".to_owned(),
        FieldType::Time => "Time".to_owned(),
        FieldType::Serp => "Serp".to_owned(),
        FieldType::CommaList(ListItem::String) => "Vec<String>".to_owned(),
        FieldType::CommaList(ListItem::Enum { type_name }) => format!("Vec<{type_name}>"),
        FieldType::List { type_name, .. } => format!("Vec<{type_name}>"),
    };
    if f.is_option() {
        format!("Option<{ty}>")
    } else {
        ty
    }
}

/// The spec's name of a field type, with its flags (`integer, nullable`).
fn field_type_name(f: &Field) -> String {
    let mut name = match &f.ty {
        FieldType::Integer => "integer".to_owned(),
        FieldType::Number => "number".to_owned(),
        FieldType::String => "string".to_owned(),
        FieldType::BoolWord => "bool_word".to_owned(),
        FieldType::Flag => "flag".to_owned(),
        FieldType::Date => "date".to_owned(),
        FieldType::DateTime => "datetime".to_owned(),
        FieldType::Time => "time".to_owned(),
        FieldType::Serp => "serp".to_owned(),
        FieldType::CommaList(ListItem::String) => "comma_list of string".to_owned(),
        FieldType::CommaList(ListItem::Enum { type_name }) => format!("comma_list of {type_name}"),
        FieldType::List { record, .. } => format!("list of {record}"),
    };
    if f.nullable {
        name.push_str(", nullable");
    }
    if f.optional {
        name.push_str(", optional");
    }
    name
}

fn output_type(a: &Action) -> String {
    let payload = match &a.response.payload {
        Payload::Record { type_name, .. } => type_name.clone(),
        Payload::Serp => "Serp".into(),
    };
    match &a.response.shape {
        Shape::Array => format!("Vec<{payload}>"),
        Shape::Single => payload,
        Shape::Map { key } => format!("ByKey<{payload}> by {key}"),
    }
}

/// `client.domains().keywords`.
fn method(a: &Action) -> String {
    let mut group = String::new();
    for (i, c) in a.group_type.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            group.push('_');
        }
        group.push(c.to_ascii_lowercase());
    }
    format!("client.{group}().{}", a.rust)
}

/// `client.domains().keywords(domain, keyword_type, limit)`.
fn call(a: &Action) -> String {
    let args: Vec<&str> = a
        .params
        .iter()
        .filter(|p| p.required)
        .map(|p| p.rust.as_str())
        .collect();
    format!("{}({})", method(a), args.join(", "))
}

/// What a new or narrower limit refuses.
fn refused(upper: bool, items: bool, value: i64) -> String {
    match (upper, items) {
        (true, false) => format!("values above {value} are now refused"),
        (false, false) => format!("values below {value} are now refused"),
        (true, true) => format!("more than {value} values are now refused"),
        (false, true) => format!("fewer than {value} values are now refused"),
    }
}

#[derive(Default)]
struct Differ {
    changes: Vec<Change>,
}

impl Differ {
    /// An added or removed item.
    fn push(&mut self, level: Level, kind: Kind, item: &str, note: impl Into<String>) {
        self.changes.push(Change {
            level,
            item: item.to_owned(),
            kind,
            aspect: String::new(),
            old: None,
            new: None,
            note: note.into(),
        });
    }

    /// The items only one side has, where a removal is always breaking (code
    /// that used the item no longer compiles) and an addition never is.
    fn removed_and_added<T>(
        &mut self,
        removed: &[&T],
        added: &[&T],
        item: impl Fn(&T) -> String,
        removed_note: impl Fn(&T) -> String,
        added_note: impl Fn(&T) -> String,
    ) {
        for &t in removed {
            self.push(Level::Breaking, Kind::Removed, &item(t), removed_note(t));
        }
        for &t in added {
            self.push(Level::Minor, Kind::Added, &item(t), added_note(t));
        }
    }

    /// A changed property, when `old != new`.
    fn changed(
        &mut self,
        level: Level,
        item: &str,
        aspect: &str,
        old: impl Into<String>,
        new: impl Into<String>,
        note: impl Into<String>,
    ) {
        let (old, new) = (old.into(), new.into());
        if old != new {
            self.changes.push(Change {
                level,
                item: item.to_owned(),
                kind: Kind::Changed,
                aspect: aspect.to_owned(),
                old: Some(old),
                new: Some(new),
                note: note.into(),
            });
        }
    }

    /// A changed text that is documentation only; the texts are not repeated.
    fn docs(&mut self, item: &str, aspect: &str, old: &str, new: &str) {
        if old != new {
            self.changes.push(Change {
                level: Level::Patch,
                item: item.to_owned(),
                kind: Kind::Changed,
                aspect: aspect.to_owned(),
                old: None,
                new: None,
                note: String::new(),
            });
        }
    }

    fn api(&mut self, old: &Spec, new: &Spec) {
        self.docs("api", "title", &old.title, &new.title);
        self.docs("api", "description", &old.description, &new.description);
        self.docs("api", "notes", &old.notes.join("\n"), &new.notes.join("\n"));
        self.changed(
            Level::Minor,
            "api",
            "base_url",
            quoted(&old.base_url),
            quoted(&new.base_url),
            "the client's default service address",
        );
        self.changed(
            Level::Breaking,
            "api",
            "list_separator",
            quoted(&old.list_separator.to_string()),
            quoted(&new.list_separator.to_string()),
            "values that contain the new separator are now refused",
        );
        self.changed(
            Level::Minor,
            "api",
            "no_data",
            format!("{} {}", old.no_data.status, quoted(&old.no_data.message)),
            format!("{} {}", new.no_data.status, quoted(&new.no_data.message)),
            "how a \"no data\" answer is recognised",
        );
        self.changed(
            Level::Patch,
            "api",
            "no_data source",
            source_name(old.no_data.source),
            source_name(new.no_data.source),
            "",
        );
    }

    fn envelope(&mut self, old: &Spec, new: &Spec) {
        let (o, n) = (&old.envelope, &new.envelope);
        self.docs("envelope", "description", &o.description, &n.description);
        let members: [(&str, &Member, &Member); 4] = [
            ("result_rows", &o.result_rows, &n.result_rows),
            ("units_used", &o.units_used, &n.units_used),
            ("units_remaining", &o.units_remaining, &n.units_remaining),
            ("response", &o.response, &n.response),
        ];
        for (role, o, n) in members {
            let item = format!("envelope / member {role}");
            self.changed(
                Level::Breaking,
                &item,
                "wire",
                quoted(&o.wire),
                quoted(&n.wire),
                "`Envelope` is (de)serialized under the new name",
            );
            self.docs(&item, "description", &o.description, &n.description);
        }
    }

    fn common(&mut self, old: &Spec, new: &Spec) {
        for (role, o, n) in [
            ("key", &old.common.key, &new.common.key),
            ("database", &old.common.database, &new.common.database),
            ("action", &old.common.action, &new.common.action),
        ] {
            let item = format!("common {role}");
            self.changed(
                Level::Patch,
                &item,
                "rust",
                quoted(&o.rust),
                quoted(&n.rust),
                "the operation table's name only",
            );
            self.param(&item, "every call", o, n);
        }
    }

    fn groups(&mut self, old: &[Group], new: &[Group]) {
        let (pairs, removed, added) = pair(old, new, |g| g.wire.clone(), |g| g.rust.clone());
        self.removed_and_added(
            &removed,
            &added,
            |g| format!("group {}", g.wire),
            |g| format!("`client.{}()` and `{}`", g.rust, g.type_name),
            |g| format!("`client.{}()` -> `{}`", g.rust, g.type_name),
        );
        for (o, n) in pairs {
            let item = format!("group {}", o.wire);
            self.changed(
                Level::Minor,
                &item,
                "wire",
                quoted(&o.wire),
                quoted(&n.wire),
                "the CLI's group name",
            );
            self.changed(
                Level::Breaking,
                &item,
                "rust",
                format!("`client.{}()` -> `{}`", o.rust, o.type_name),
                format!("`client.{}()` -> `{}`", n.rust, n.type_name),
                "renamed accessor",
            );
            self.changed(
                Level::Minor,
                &item,
                "path",
                quoted(&o.path),
                quoted(&n.path),
                "its calls go to the new path",
            );
            self.docs(&item, "description", &o.description, &n.description);
        }
    }

    fn enums(&mut self, old: &[Enum], new: &[Enum]) {
        let (pairs, removed, added) = pair(old, new, |e| e.name.clone(), |e| e.type_name.clone());
        self.removed_and_added(
            &removed,
            &added,
            |e| format!("enum {}", e.name),
            |e| quoted(&e.type_name),
            |e| {
                format!(
                    "`{}` ({}, {} values)",
                    e.type_name,
                    if e.open { "open" } else { "closed" },
                    e.values.len()
                )
            },
        );
        for (o, n) in pairs {
            let item = format!("enum {}", o.name);
            self.changed(
                Level::Patch,
                &item,
                "name",
                quoted(&o.name),
                quoted(&n.name),
                "the spec's name only",
            );
            self.changed(
                Level::Breaking,
                &item,
                "rust",
                quoted(&o.type_name),
                quoted(&n.type_name),
                "renamed type",
            );
            self.changed(
                Level::Breaking,
                &item,
                "open",
                o.open.to_string(),
                n.open.to_string(),
                if n.open {
                    "it gains `Other(String)` and loses `Copy`"
                } else {
                    "it loses `Other(String)`: values it does not list are now refused"
                },
            );
            self.docs(&item, "description", &o.description, &n.description);
            let source = |e: &Enum| e.source.as_ref().map_or("none", |p| source_name(p.source));
            self.changed(Level::Patch, &item, "source", source(o), source(n), "");
            let note = |e: &Enum| e.source.as_ref().and_then(|p| p.note.clone());
            if source(o) == source(n) {
                self.docs(
                    &item,
                    "source note",
                    &note(o).unwrap_or_default(),
                    &note(n).unwrap_or_default(),
                );
            }
            self.enum_values(&item, o, n);
        }
    }

    fn enum_values(&mut self, item: &str, o: &Enum, n: &Enum) {
        let (pairs, removed, added) = pair(
            &o.values,
            &n.values,
            |v: &EnumValue| v.wire.clone(),
            |v: &EnumValue| v.variant.clone(),
        );
        let then = if o.open {
            "the value now decodes as `Other`"
        } else {
            "the value is now refused"
        };
        self.removed_and_added(
            &removed,
            &added,
            |v| format!("{item} / value {}", v.wire),
            |v| format!("`{}::{}` ({then})", o.type_name, v.variant),
            |v| {
                format!(
                    "`{}::{}` (the enum is `#[non_exhaustive]`)",
                    n.type_name, v.variant
                )
            },
        );
        for (ov, nv) in pairs {
            let item = format!("{item} / value {}", ov.wire);
            self.changed(
                Level::Breaking,
                &item,
                "wire",
                quoted(&ov.wire),
                quoted(&nv.wire),
                "the variant is sent and read as the new value",
            );
            self.changed(
                Level::Breaking,
                &item,
                "rust",
                format!("`{}::{}`", o.type_name, ov.variant),
                format!("`{}::{}`", n.type_name, nv.variant),
                "renamed variant",
            );
            self.docs(&item, "description", &ov.description, &nv.description);
        }
    }

    fn records(&mut self, old: &[Record], new: &[Record]) {
        let (pairs, removed, added) = pair(old, new, |r| r.name.clone(), |r| r.type_name.clone());
        self.removed_and_added(
            &removed,
            &added,
            |r| format!("record {}", r.name),
            |r| quoted(&r.type_name),
            |r| format!("`{}` ({} fields)", r.type_name, r.fields.len()),
        );
        for (o, n) in pairs {
            let item = format!("record {}", o.name);
            self.changed(
                Level::Patch,
                &item,
                "name",
                quoted(&o.name),
                quoted(&n.name),
                "the spec's name only",
            );
            self.changed(
                Level::Breaking,
                &item,
                "rust",
                quoted(&o.type_name),
                quoted(&n.type_name),
                "renamed type",
            );
            self.docs(&item, "description", &o.description, &n.description);
            self.fields(&item, o, n);
        }
    }

    fn fields(&mut self, item: &str, o: &Record, n: &Record) {
        let (pairs, removed, added) = pair(
            &o.fields,
            &n.fields,
            |f: &Field| f.wire.clone(),
            |f: &Field| f.rust.clone(),
        );
        self.removed_and_added(
            &removed,
            &added,
            |f| format!("{item} / field {}", f.wire),
            |f| format!("`{}::{}` ({})", o.type_name, f.rust, field_rust_type(f)),
            |f| {
                format!(
                    "`{}::{}` ({}; the record is `#[non_exhaustive]`)",
                    n.type_name,
                    f.rust,
                    field_rust_type(f)
                )
            },
        );
        for (of, nf) in pairs {
            let item = format!("{item} / field {}", of.wire);
            self.changed(
                Level::Breaking,
                &item,
                "wire",
                quoted(&of.wire),
                quoted(&nf.wire),
                "the field is (de)serialized under the new name",
            );
            self.changed(
                Level::Breaking,
                &item,
                "rust",
                format!("`{}::{}`", o.type_name, of.rust),
                format!("`{}::{}`", n.type_name, nf.rust),
                "renamed field",
            );
            self.field(&item, of, nf);
            self.docs(&item, "description", &of.description, &nf.description);
        }
    }

    /// Type, nullability and presence of a field: one line when its Rust type
    /// changes (whatever made it change), else one per property.
    fn field(&mut self, item: &str, o: &Field, n: &Field) {
        let (ot, nt) = (field_rust_type(o), field_rust_type(n));
        if ot != nt {
            self.changed(
                Level::Breaking,
                item,
                "type",
                format!("{ot} ({})", field_type_name(o)),
                format!("{nt} ({})", field_type_name(n)),
                "the field's Rust type changes",
            );
            return;
        }
        if o.ty != n.ty {
            self.changed(
                Level::Minor,
                item,
                "type",
                field_type_name(o),
                field_type_name(n),
                format!("same Rust type ({nt})"),
            );
            return;
        }
        for (aspect, was, is) in [
            ("nullable", o.nullable, n.nullable),
            ("optional", o.optional, n.optional),
        ] {
            let (level, note) = if is {
                (Level::Minor, "more bodies decode; same Rust type")
            } else {
                (
                    Level::Breaking,
                    "bodies where it is null or missing no longer decode",
                )
            };
            self.changed(level, item, aspect, was.to_string(), is.to_string(), note);
        }
    }

    fn actions(&mut self, old: &[Action], new: &[Action]) {
        let (pairs, removed, added) = pair(
            old,
            new,
            |a| format!("{} {}", a.group, a.wire),
            |a| format!("{} {}", a.group, a.rust),
        );
        self.removed_and_added(
            &removed,
            &added,
            |a| format!("action {} {}", a.group, a.wire),
            |a| format!("`{}` and `{}`", call(a), a.type_name),
            |a| format!("`{}` -> `{}`", call(a), a.type_name),
        );
        for (o, n) in pairs {
            self.action(o, n);
        }
    }

    fn action(&mut self, o: &Action, n: &Action) {
        let item = format!("action {} {}", o.group, o.wire);
        self.changed(
            Level::Minor,
            &item,
            "wire",
            quoted(&o.wire),
            quoted(&n.wire),
            "the `action` sent, and the CLI's subcommand",
        );
        self.changed(
            Level::Breaking,
            &item,
            "rust",
            format!("`{}` -> `{}`", method(o), o.type_name),
            format!("`{}` -> `{}`", method(n), n.type_name),
            "renamed method and builder",
        );
        self.docs(&item, "description", &o.description, &n.description);
        let (oa, na): (BTreeSet<&String>, BTreeSet<&String>) =
            (o.aliases.iter().collect(), n.aliases.iter().collect());
        for alias in oa.difference(&na) {
            self.push(
                Level::Breaking,
                Kind::Removed,
                &format!("{item} / alias {alias}"),
                "the CLI no longer accepts it",
            );
        }
        for alias in na.difference(&oa) {
            self.push(
                Level::Minor,
                Kind::Added,
                &format!("{item} / alias {alias}"),
                "",
            );
        }
        self.params(&item, o, n);
        self.rules(&item, o, n);
        self.response(&item, o, n);
        self.cost(&item, o, n);
    }

    fn params(&mut self, item: &str, o: &Action, n: &Action) {
        let (pairs, removed, added) = pair(
            &o.params,
            &n.params,
            |p: &Param| p.wire.clone(),
            |p: &Param| p.rust.clone(),
        );
        for p in removed {
            let note = if p.required {
                format!("argument `{}` of `{}`", p.rust, call(o))
            } else {
                format!("`{}::{}(..)`", o.type_name, p.rust)
            };
            self.push(
                Level::Breaking,
                Kind::Removed,
                &format!("{item} / param {}", p.wire),
                note,
            );
        }
        for p in added {
            let item = format!("{item} / param {}", p.wire);
            let what = format!(
                "{}{}",
                if p.list { "list of " } else { "" },
                param_type_name(&p.ty)
            );
            if p.required {
                self.push(
                    Level::Breaking,
                    Kind::Added,
                    &item,
                    format!("required {what}, a new argument: `{}`", call(n)),
                );
            } else {
                self.push(
                    Level::Minor,
                    Kind::Added,
                    &item,
                    format!(
                        "optional {what}, a new method: `{}::{}(..)`",
                        n.type_name, p.rust
                    ),
                );
            }
        }
        for (op, np) in pairs {
            let item = format!("{item} / param {}", op.wire);
            let note = if np.required {
                format!("renamed argument of `{}`", call(n))
            } else {
                format!("renamed method `{}::{}(..)`", n.type_name, np.rust)
            };
            self.changed(
                Level::Breaking,
                &item,
                "rust",
                quoted(&op.rust),
                quoted(&np.rust),
                note,
            );
            self.param(&item, &call(n), op, np);
        }
    }

    /// Everything of a parameter but its Rust name (an action's or a common one);
    /// `call` is where a required parameter is an argument.
    fn param(&mut self, item: &str, call: &str, o: &Param, n: &Param) {
        self.changed(
            Level::Minor,
            item,
            "wire",
            quoted(&o.wire),
            quoted(&n.wire),
            "sent under the new name, and the CLI's flag",
        );
        self.changed(
            Level::Breaking,
            item,
            "type",
            param_type_name(&o.ty),
            param_type_name(&n.ty),
            "the Rust argument type changes",
        );
        self.changed(
            Level::Breaking,
            item,
            "required",
            o.required.to_string(),
            n.required.to_string(),
            if n.required {
                format!("now an argument of `{call}`, no longer a method")
            } else {
                format!("no longer an argument of `{call}`, now a method")
            },
        );
        self.changed(
            Level::Breaking,
            item,
            "list",
            o.list.to_string(),
            n.list.to_string(),
            if n.list {
                "it takes an iterator of values instead of one value"
            } else {
                "it takes one value instead of an iterator of values"
            },
        );
        self.changed(
            Level::Breaking,
            item,
            "implicit",
            o.implicit.to_string(),
            n.implicit.to_string(),
            "",
        );
        for (aspect, ol, nl, upper, items) in [
            ("min_items", &o.min_items, &n.min_items, false, true),
            ("max_items", &o.max_items, &n.max_items, true, true),
            ("min", &o.min, &n.min, false, false),
            ("max", &o.max, &n.max, true, false),
        ] {
            self.limit(item, aspect, ol.as_ref(), nl.as_ref(), (upper, items));
        }
        match (&o.default, &n.default) {
            (None, None) => {}
            (None, Some(d)) => self.changed(
                Level::Minor,
                item,
                "default",
                "none",
                quoted(d),
                format!("calls that do not set it now send {}", quoted(d)),
            ),
            (Some(d), None) => self.changed(
                Level::Minor,
                item,
                "default",
                quoted(d),
                "none",
                "calls that do not set it no longer send it",
            ),
            (Some(od), Some(nd)) => self.changed(
                Level::Breaking,
                item,
                "default",
                quoted(od),
                quoted(nd),
                "calls that do not set it now ask for something else",
            ),
        }
        let presence = |p: &Param| {
            p.presence
                .as_ref()
                .map_or("none", |p| source_name(p.source))
        };
        self.changed(Level::Patch, item, "presence", presence(o), presence(n), "");
        self.docs(item, "description", &o.description, &n.description);
    }

    /// A limit. `upper` for a maximum, `items` for a number of list values. A
    /// narrower or new limit refuses calls that were accepted.
    fn limit(
        &mut self,
        item: &str,
        aspect: &str,
        o: Option<&Limit>,
        n: Option<&Limit>,
        (upper, items): (bool, bool),
    ) {
        let (level, note) = match (o, n) {
            (None, None) => return,
            (None, Some(n)) => (
                Level::Breaking,
                format!("new limit: {}", refused(upper, items, n.value)),
            ),
            (Some(_), None) => (Level::Minor, "limit dropped".to_owned()),
            (Some(o), Some(n)) if o.value == n.value => {
                if o.source == n.source {
                    let note = |l: &Limit| l.note.clone().unwrap_or_default();
                    self.docs(item, &format!("{aspect} note"), &note(o), &note(n));
                    return;
                }
                (Level::Patch, "provenance only".to_owned())
            }
            (Some(o), Some(n)) => {
                let narrower = if upper {
                    n.value < o.value
                } else {
                    n.value > o.value
                };
                if narrower {
                    (
                        Level::Breaking,
                        format!("narrowed: {}", refused(upper, items, n.value)),
                    )
                } else {
                    (Level::Minor, "widened".to_owned())
                }
            }
        };
        let text = |l: Option<&Limit>| l.map_or_else(|| "none".to_owned(), limit_text);
        self.changed(level, item, aspect, text(o), text(n), note);
    }

    fn rules(&mut self, item: &str, o: &Action, n: &Action) {
        let key = |r: &Rule| format!("{}={} requires {}", r.if_param, r.if_value, r.require);
        let (pairs, removed, added) = pair(&o.rules, &n.rules, key, key);
        for r in removed {
            self.push(
                Level::Minor,
                Kind::Removed,
                &format!("{item} / rule {}", key(r)),
                "calls it refused are now accepted",
            );
        }
        for r in added {
            let required = match &r.equal_to {
                Some(v) => format!("`{}` = {v}", r.require),
                None => format!("`{}`", r.require),
            };
            self.push(
                Level::Breaking,
                Kind::Added,
                &format!("{item} / rule {}", key(r)),
                format!(
                    "calls with `{}` = {} and without {required} are now refused",
                    r.if_param, r.if_value
                ),
            );
        }
        for (or, nr) in pairs {
            let item = format!("{item} / rule {}", key(or));
            let (level, note) = if nr.equal_to.is_none() {
                (Level::Minor, "any value is now accepted")
            } else {
                (Level::Breaking, "other values are now refused")
            };
            self.changed(
                level,
                &item,
                "equal_to",
                or.equal_to.as_deref().unwrap_or("none"),
                nr.equal_to.as_deref().unwrap_or("none"),
                note,
            );
            self.changed(
                Level::Patch,
                &item,
                "source",
                source_name(or.source),
                source_name(nr.source),
                "",
            );
            self.docs(&item, "description", &or.description, &nr.description);
        }
    }

    fn response(&mut self, item: &str, o: &Action, n: &Action) {
        let item = format!("{item} / response");
        self.changed(
            Level::Breaking,
            &item,
            "type",
            output_type(o),
            output_type(n),
            "`send` returns another type",
        );
        self.docs(
            &item,
            "description",
            &o.response.description,
            &n.response.description,
        );
    }

    fn cost(&mut self, item: &str, o: &Action, n: &Action) {
        let item = format!("{item} / cost");
        let (oc, nc) = (&o.cost, &n.cost);
        let units = |u: &[i64]| {
            u.iter()
                .map(|u| u.to_string())
                .collect::<Vec<_>>()
                .join(" to ")
        };
        self.changed(
            Level::Patch,
            &item,
            "units",
            units(&oc.units),
            units(&nc.units),
            "estimates and budget checks",
        );
        if oc.units == nc.units {
            let printed = |c: &crate::model::Cost| c.printed.clone().unwrap_or_default();
            self.docs(&item, "printed", &printed(oc), &printed(nc));
        }
        let charged = |c: Charged| match c {
            Charged::PerRow => "per_row",
            Charged::PerCall => "per_call",
            Charged::Unknown => "unknown",
        };
        self.changed(
            Level::Patch,
            &item,
            "charged",
            charged(oc.charged),
            charged(nc.charged),
            "estimates and budget checks",
        );
        self.changed(
            Level::Patch,
            &item,
            "charged_source",
            source_name(oc.charged_source.source),
            source_name(nc.charged_source.source),
            "",
        );
        let counts = |c: Counts| match c {
            Counts::Items => "items",
            Counts::Rows => "rows",
        };
        self.changed(
            Level::Patch,
            &item,
            "per_request",
            format!(
                "{} {}",
                limit_text(&oc.per_request),
                counts(oc.per_request_counts)
            ),
            format!(
                "{} {}",
                limit_text(&nc.per_request),
                counts(nc.per_request_counts)
            ),
            "estimates",
        );
        self.changed(
            Level::Patch,
            &item,
            "requests_per_minute",
            limit_text(&oc.requests_per_minute),
            limit_text(&nc.requests_per_minute),
            "the client's rate limit for the operation",
        );
        if oc.per_request.value == nc.per_request.value
            && oc.requests_per_minute.value == nc.requests_per_minute.value
        {
            let trailing = |c: &crate::model::Cost| c.trailing.clone().unwrap_or_default();
            self.docs(&item, "trailing", &trailing(oc), &trailing(nc));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_bump_by_cargo_rules() {
        let v = |s| Version::parse(s).unwrap();
        assert_eq!(v("0.1.3").bumped(Level::Breaking), v("0.2.0"));
        assert_eq!(v("0.1.3").bumped(Level::Minor), v("0.1.4"));
        assert_eq!(v("0.1.3").bumped(Level::Patch), v("0.1.4"));
        assert_eq!(v("0.0.3").bumped(Level::Breaking), v("0.0.4"));
        assert_eq!(v("1.2.3").bumped(Level::Breaking), v("2.0.0"));
        assert_eq!(v("1.2.3").bumped(Level::Minor), v("1.3.0"));
        assert_eq!(v("1.2.3").bumped(Level::Patch), v("1.2.4"));
        assert_eq!(Version::parse("1.2.3-rc.1"), Some(v("1.2.3")));
        assert_eq!(Version::parse("1.2"), None);
        assert_eq!(Version::parse("1.2.3.4"), None);
    }

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
    fn pairing_matches_a_renamed_item_once() {
        let old = ["a:x", "b:y", "c:z"];
        let new = ["a:x", "b2:y", "d:w"];
        let key = |s: &&str| s.split(':').next().unwrap().to_owned();
        let alt = |s: &&str| s.split(':').nth(1).unwrap().to_owned();
        let (pairs, removed, added) = pair(&old, &new, key, alt);
        assert_eq!(pairs, vec![(&"a:x", &"a:x"), (&"b:y", &"b2:y")]);
        assert_eq!(removed, vec![&"c:z"]);
        assert_eq!(added, vec![&"d:w"]);
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_str("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
    }
}
