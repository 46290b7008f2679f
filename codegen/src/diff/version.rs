//! Versions and the bump a change implies, by Cargo's reading of SemVer.

use std::fmt;

use super::Level;

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
}
