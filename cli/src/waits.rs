//! Long waits told on stderr as they start: the run's wait events
//! ([`Progress::Waiting`], [`Progress::Waited`]) longer than
//! [`ANNOUNCED_WAIT`] shown as one line updated in place on a terminal (and
//! cleared when the wait is over), or as one line per wait otherwise (a log,
//! a cron mail), so that a call waiting out a rate window never looks hung.

use std::io::{IsTerminal, Write};

use seozoom::job::Progress;
use seozoom::wait::ANNOUNCED_WAIT;

/// What shows the run's long waits on stderr.
#[derive(Debug, Clone, Copy)]
pub struct Announcer {
    terminal: bool,
}

impl Default for Announcer {
    fn default() -> Self {
        Announcer::new()
    }
}

impl Announcer {
    /// Showing on stderr, in place when it is a terminal.
    pub fn new() -> Self {
        Announcer {
            terminal: std::io::stderr().is_terminal(),
        }
    }

    /// Show a long wait as it starts (and, on a terminal, clear it when it
    /// ends); every other event is not a wait, or too short to tell.
    pub fn show(&self, progress: &Progress) {
        let mut stderr = std::io::stderr().lock();
        // Nothing to do if stderr is gone; the call goes on.
        let _ = match (progress, self.terminal) {
            (Progress::Waiting(wait), true) if wait.wait > ANNOUNCED_WAIT => {
                write!(stderr, "\r\x1b[2K{progress}")
            }
            (Progress::Waiting(wait), false) if wait.wait > ANNOUNCED_WAIT => {
                writeln!(stderr, "{progress}")
            }
            (Progress::Waited(waited), true) if waited.wait > ANNOUNCED_WAIT => {
                write!(stderr, "\r\x1b[2K")
            }
            _ => return,
        };
        let _ = stderr.flush();
    }
}
