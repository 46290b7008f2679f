//! The library's `tracing` events during one tool call, turned into what the
//! agent sees ([`Reporter`]): waits for a rate-limit slot, retries, cache hits,
//! and the library's warnings. The call runs under a dispatcher of its own
//! ([`dispatch`]), so the events of concurrent calls never mix; the library's
//! messages still go to stderr at the level the host sets (`SEOZOOM_LOG` for
//! `seozoom mcp`), as outside a tool call.
//!
//! Events are recognised by their message and fields, which the library
//! documents as its log; an event this does not know is only printed.

#![allow(deprecated)] // rmcp marks MCP logging deprecated (SEP-2577); clients still use it.

use std::fmt::Debug;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::LoggingLevel;
use tracing::field::{Field, Visit};
use tracing::span::{Id, Record};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::Layer;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

use super::report::Reporter;

/// The field a library call's span sets when the answer came from the cache.
const CACHED: &str = "cached";
/// The `cause` of a library wait that is a backoff after a failure, not a
/// wait for the rate window (`seozoom::wait`).
const BACKOFF: &str = "backoff";

/// A dispatcher for one tool call: its events reach `reporter`, and stderr
/// from `stderr_level` up.
pub fn dispatch(reporter: Arc<Reporter>, stderr_level: LevelFilter) -> tracing::Dispatch {
    let stderr = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .without_time()
        .with_target(false)
        .with_ansi(false)
        .with_filter(stderr_level);
    let agent = ToAgent { reporter }.with_filter(LevelFilter::DEBUG);
    tracing::Dispatch::new(tracing_subscriber::registry().with(stderr).with(agent))
}

/// The layer that tells the agent.
struct ToAgent {
    reporter: Arc<Reporter>,
}

/// The fields of an event that matter here.
#[derive(Default)]
struct Fields {
    message: String,
    operation: Option<String>,
    wait_ms: Option<u64>,
    delay_ms: Option<u64>,
    attempt: Option<u64>,
    items: Option<u64>,
    /// `start` or `end` on the library's announced waits (`seozoom::wait`).
    event: Option<String>,
    /// Why a wait (`seozoom::wait`): `rate_limit`, `backoff`, ...
    cause: Option<String>,
    /// Why a retry or a wait, for people (`HTTP 500`).
    reason: Option<String>,
    cached: bool,
    others: Vec<String>,
}

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        match field.name() {
            "message" => self.message = format!("{value:?}"),
            "operation" => self.operation = Some(format!("{value:?}")),
            name => self.others.push(format!("{name}={value:?}")),
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "message" => self.message = value.to_owned(),
            "operation" => self.operation = Some(value.to_owned()),
            "event" => self.event = Some(value.to_owned()),
            "cause" => self.cause = Some(value.to_owned()),
            "reason" => self.reason = Some(value.to_owned()),
            name => self.others.push(format!("{name}={value}")),
        }
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        match field.name() {
            "wait_ms" => self.wait_ms = Some(value),
            "delay_ms" => self.delay_ms = Some(value),
            "attempt" => self.attempt = Some(value),
            "items" => self.items = Some(value),
            name => self.others.push(format!("{name}={value}")),
        }
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.record_u64(field, u64::try_from(value).unwrap_or(0));
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        match field.name() {
            CACHED => self.cached = value,
            name => self.others.push(format!("{name}={value}")),
        }
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for ToAgent {
    fn on_record(&self, _id: &Id, values: &Record<'_>, _ctx: Context<'_, S>) {
        let mut fields = Fields::default();
        values.record(&mut fields);
        if !fields.cached {
            return;
        }
        // Named by the tool called, as every log line of the call is.
        self.reporter.cache_hit(self.reporter.tool(), None);
    }

    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        let mut fields = Fields::default();
        event.record(&mut fields);
        // Named by the tool called (what the agent knows it by), not the
        // library's label of the operation.
        let operation = self.reporter.tool().to_owned();
        if fields.event.as_deref() == Some("end") {
            // A long wait's end: the next progress notification says so.
        } else if fields.wait_ms.is_some() && fields.cause.as_deref() == Some(BACKOFF) {
            // A backoff is told by the retry before it, with its delay; told
            // again it would be called a wait for the rate window.
        } else if let Some(wait) = fields.wait_ms {
            self.reporter
                .waiting(&operation, Duration::from_millis(wait));
        } else if let Some(delay) = fields.delay_ms {
            self.reporter.log(
                LoggingLevel::Warning,
                format!(
                    "{operation}: retrying in {} ms (attempt {} failed: {})",
                    delay,
                    fields.attempt.unwrap_or(0),
                    fields
                        .reason
                        .clone()
                        .unwrap_or_else(|| fields.others.join(", "))
                ),
            );
        } else if let Some(items) = fields.items {
            self.reporter
                .cache_hit(&operation, Some(usize::try_from(items).unwrap_or(0)));
        } else if *event.metadata().level() <= Level::WARN {
            let mut text = format!("{operation}: {}", fields.message);
            if !fields.others.is_empty() {
                text.push_str(&format!(" ({})", fields.others.join(", ")));
            }
            let level = if *event.metadata().level() == Level::ERROR {
                LoggingLevel::Error
            } else {
                LoggingLevel::Warning
            };
            self.reporter.log(level, text);
        }
    }
}
