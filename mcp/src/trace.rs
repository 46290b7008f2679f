//! The library's log (`tracing`) during one tool call: its warnings and
//! errors reach the agent as log messages ([`Reporter`]), and every message
//! goes to stderr at the level the host sets (`SEOZOOM_LOG` for `seozoom
//! mcp`), as outside a tool call. The call runs under a dispatcher of its own
//! ([`dispatch`]), so the events of concurrent calls never mix. Waits,
//! retries and cache hits are not read here: the run's progress events tell
//! them ([`Reporter::progress`]).

#![allow(deprecated)] // rmcp marks MCP logging deprecated (SEP-2577); clients still use it.

use std::fmt::Debug;
use std::sync::Arc;

use rmcp::model::LoggingLevel;
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::Layer;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

use super::report::Reporter;

/// A dispatcher for one tool call: its events reach `reporter`, and stderr
/// from `stderr_level` up.
pub fn dispatch(reporter: Arc<Reporter>, stderr_level: LevelFilter) -> tracing::Dispatch {
    let stderr = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .without_time()
        .with_target(false)
        .with_ansi(false)
        .with_filter(stderr_level);
    let agent = ToAgent { reporter }.with_filter(LevelFilter::WARN);
    tracing::Dispatch::new(tracing_subscriber::registry().with(stderr).with(agent))
}

/// The layer that tells the agent.
struct ToAgent {
    reporter: Arc<Reporter>,
}

/// The message of an event, and its other fields as `name=value`.
#[derive(Default)]
struct Fields {
    message: String,
    others: Vec<String>,
}

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        match field.name() {
            "message" => self.message = format!("{value:?}"),
            name => self.others.push(format!("{name}={value:?}")),
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "message" => self.message = value.to_owned(),
            name => self.others.push(format!("{name}={value}")),
        }
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for ToAgent {
    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        let level = *event.metadata().level();
        if level > Level::WARN {
            return;
        }
        let mut fields = Fields::default();
        event.record(&mut fields);
        // Named by the tool called (what the agent knows it by), not the
        // library's label of the operation.
        let mut text = format!("{}: {}", self.reporter.tool(), fields.message);
        if !fields.others.is_empty() {
            text.push_str(&format!(" ({})", fields.others.join(", ")));
        }
        let level = if level == Level::ERROR {
            LoggingLevel::Error
        } else {
            LoggingLevel::Warning
        };
        self.reporter.log(level, text);
    }
}
