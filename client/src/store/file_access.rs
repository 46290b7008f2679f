//! Who may read a store kept in a file: the answers in it were paid for, so a
//! SQLite store's directory and file are created for their owner alone
//! (`0700` and `0600`, as gh keeps its files). SQLite creates the file's
//! `-wal`, `-shm` and `-journal` files with the file's own permissions, so
//! they follow. A file that already exists is left as it is, and
//! [`Store::readable_by_others`](super::Store::readable_by_others) reports it
//! when users other than its owner may read it.
//!
//! Permissions are Unix ones: elsewhere a file is created as the system
//! creates it, and nothing is reported.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// A file of a store that users other than its owner may read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadableByOthers {
    /// The file.
    pub path: PathBuf,
    /// Its permission bits (`0o644`).
    pub mode: u32,
}

impl fmt::Display for ReadableByOthers {
    /// `` `PATH` can be read by other users (mode 0644): `chmod 600 PATH` makes it yours alone ``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        write!(
            f,
            "`{path}` can be read by other users (mode {:04o}): `chmod 600 {path}` makes it yours alone",
            self.mode
        )
    }
}

/// The SQLite files beside a store's file `path`, as SQLite names them.
const COMPANIONS: [&str; 3] = ["-wal", "-shm", "-journal"];

/// Create `dir` and any directory missing above it, each for its owner alone;
/// directories that exist are left as they are.
pub(crate) fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Create the file `path`, empty and for its owner alone, unless it exists
/// (another process may create it first: that is no error).
pub(crate) fn create_private_file(path: &Path) -> io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(error) => Err(error),
    }
}

/// The store file `path` and its SQLite companions, those that exist and
/// that users other than their owner may read.
pub(crate) fn readable_by_others(path: &Path) -> Vec<ReadableByOthers> {
    let companions = COMPANIONS.iter().map(|suffix| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    });
    std::iter::once(path.to_owned())
        .chain(companions)
        .filter_map(|file| {
            let mode = others_may_read(&file)?;
            Some(ReadableByOthers { path: file, mode })
        })
        .collect()
}

/// The permission bits of `file` when its group or everyone may read it.
#[cfg(unix)]
fn others_may_read(file: &Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(file).ok()?.permissions().mode() & 0o777;
    (mode & 0o044 != 0).then_some(mode)
}

#[cfg(not(unix))]
fn others_may_read(_file: &Path) -> Option<u32> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn directories_and_files_are_created_for_their_owner_and_existing_ones_left_alone() {
        let root = std::env::temp_dir().join(format!(
            "seozoom-file-access-{}-{}",
            std::process::id(),
            fastrand::u64(..)
        ));
        let dir = root.join("a").join("b");
        create_private_dir(&dir).unwrap();
        assert_eq!(mode(&root), 0o700);
        assert_eq!(mode(&dir), 0o700);
        let file = dir.join("store.sqlite3");
        create_private_file(&file).unwrap();
        assert_eq!(mode(&file), 0o600);
        assert_eq!(readable_by_others(&file), []);

        // An existing file keeps its permissions, and is reported.
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        create_private_file(&file).unwrap();
        assert_eq!(mode(&file), 0o644);
        let wal = dir.join("store.sqlite3-wal");
        std::fs::write(&wal, b"").unwrap();
        std::fs::set_permissions(&wal, std::fs::Permissions::from_mode(0o640)).unwrap();
        let reported = readable_by_others(&file);
        assert_eq!(
            reported,
            [
                ReadableByOthers {
                    path: file.clone(),
                    mode: 0o644
                },
                ReadableByOthers {
                    path: wal,
                    mode: 0o640
                },
            ]
        );
        let text = reported[0].to_string();
        assert!(
            text.contains("mode 0644") && text.contains("chmod 600"),
            "{text}"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
