//! The exit codes of the binary, which every command shares (and its
//! README documents): one home, importing nothing of the others.

/// Exit code of a call that succeeded (or found no data).
pub const OK: u8 = 0;
/// Exit code of a call that was sent and failed.
pub const FAILED: u8 = 1;
/// Exit code of a call refused before anything was sent (also clap's usage errors).
pub const REFUSED: u8 = 2;
