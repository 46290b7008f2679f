//! Long waits told on stderr as they start: the library's wait events
//! ([`seozoom::wait`]) shown as one line updated in place on a terminal (and
//! cleared when the wait is over), or as one line per wait otherwise (a log,
//! a cron mail), so that a call waiting out a rate window never looks hung.

use std::io::{IsTerminal, Write};

use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::{Context, Layer};

/// The layer that shows wait events (target [`seozoom::wait::WAIT_TARGET`]).
pub struct Announcer {
    terminal: bool,
}

impl Announcer {
    /// Showing on stderr, in place when it is a terminal.
    pub fn new() -> Self {
        Announcer {
            terminal: std::io::stderr().is_terminal(),
        }
    }
}

/// The fields of a wait event the line needs.
#[derive(Default)]
struct WaitFields {
    event: String,
    message: String,
}

impl Visit for WaitFields {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "event" {
            value.clone_into(&mut self.event);
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.message = format!("{value:?}");
        }
    }
}

impl<S: Subscriber> Layer<S> for Announcer {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        if event.metadata().target() != seozoom::wait::WAIT_TARGET {
            return;
        }
        let mut fields = WaitFields::default();
        event.record(&mut fields);
        let mut stderr = std::io::stderr().lock();
        // Nothing to do if stderr is gone; the call goes on.
        let _ = match (fields.event.as_str(), self.terminal) {
            ("start", true) => write!(stderr, "\r\x1b[2K{}", fields.message),
            ("start", false) => writeln!(stderr, "{}", fields.message),
            ("end", true) => write!(stderr, "\r\x1b[2K"),
            _ => Ok(()),
        };
        let _ = stderr.flush();
    }
}
