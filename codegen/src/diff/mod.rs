//! `seozoom-codegen diff OLD NEW`: what changed between two versions of the spec,
//! for users of the generated `seozoom` crate, and the version bump it implies.
//!
//! Both specs are validated first; the comparison is of the two [`Spec`](crate::model::Spec) models,
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
//! The module is split by job: `compare` (the two models in, the changes out),
//! `version` (SemVer bumps), `report` (the text and JSON reports) and `command`
//! (the `diff` subcommand). It needs the `cli` feature.

mod command;
mod compare;
mod report;
mod version;

use std::fmt;

pub use command::{
    Args, EXIT_BREAKING, EXIT_COMPATIBLE, EXIT_SPEC_ERROR, EXIT_USAGE, USAGE, load, run,
};
pub use compare::diff;
pub use report::{render_changelog, render_json, render_text};
pub use version::Version;

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

    /// The label at the start of a CHANGELOG line.
    pub fn title(self) -> &'static str {
        match self {
            Kind::Added => "Added",
            Kind::Removed => "Removed",
            Kind::Changed => "Changed",
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

/// The most severe level among `changes`, or `None` when there are none.
pub fn level(changes: &[Change]) -> Option<Level> {
    changes.iter().map(|c| c.level).min()
}
