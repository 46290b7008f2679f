//! What one tool call tells the agent while it runs, from the job's progress
//! events ([`Progress`]): `notifications/progress` after each request of a
//! batched job (when the call carries a `progressToken`), and log messages
//! (waits, retries, cache hits, and the library's warnings from
//! [`super::trace`]) at or above the level the client set with
//! `logging/setLevel`.
//!
//! Notifications are queued from synchronous code (the job's progress
//! callback, the tracing layer of [`super::trace`]) and sent by
//! [`Reporter::forward`], which runs in the handler's own task, beside the
//! call: so they go out before the answer, on the call's own stream over HTTP.

#![allow(deprecated)] // rmcp marks MCP logging deprecated (SEP-2577); clients still use it.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::spent::Spent;
use rmcp::model::{
    LoggingLevel, LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken,
};
use rmcp::{Peer, RoleServer};
use seozoom::job::{Progress, WaitCause};
use serde_json::json;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// The logger name of every log message.
const LOGGER: &str = "seozoom";

/// A notification waiting to be sent.
enum Note {
    /// Requests (or rows) done, of the total. The message is made when it is
    /// sent, so that it names a wait that began just after the request was
    /// answered (the job starts its next request, which waits, before the
    /// queue is read).
    Progress(ProgressToken, usize, usize, &'static str),
    Log(LoggingMessageNotificationParam),
}

/// When the wait for a rate-limit slot that the job is in ends.
type WaitingUntil = Arc<Mutex<Option<Instant>>>;

/// The reporter of one tool call.
pub struct Reporter {
    /// The tool called: what every log line of the call is named by.
    tool: String,
    /// What the MCP session this call is of spent.
    spent: Arc<Spent>,
    progress_token: Option<ProgressToken>,
    level: Option<LoggingLevel>,
    queue: Mutex<Option<UnboundedSender<Note>>>,
    /// When the wait for a rate-limit slot that the job is in ends.
    waiting_until: WaitingUntil,
}

impl Reporter {
    /// A reporter for a call of `tool` with this progress token, in a
    /// session whose client set this log level (`None`: no log messages);
    /// the receiver [`forward`](Self::forward) sends from.
    pub fn new(
        tool: &str,
        spent: Arc<Spent>,
        progress_token: Option<ProgressToken>,
        level: Option<LoggingLevel>,
    ) -> (Reporter, Receiver) {
        let (sender, receiver) = unbounded_channel();
        let waiting_until = WaitingUntil::default();
        let receiver = Receiver {
            queue: receiver,
            waiting_until: Arc::clone(&waiting_until),
        };
        let reporter = Reporter {
            tool: tool.to_owned(),
            spent,
            progress_token,
            level,
            queue: Mutex::new(Some(sender)),
            waiting_until,
        };
        (reporter, receiver)
    }

    fn queue(&self, note: Note) {
        let queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(sender) = queue.as_ref() {
            // The receiver goes only after the call: nothing is lost.
            let _ = sender.send(note);
        }
    }

    /// No more notifications: [`forward`](Self::forward) ends once the queue
    /// is sent.
    pub fn close(&self) {
        self.queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
    }

    /// How the job goes: a progress notification after each request of a
    /// batched job (or page of a paged one), naming a wait for the rate
    /// window that is under way; a row cap fitted to the budget, a wait and
    /// a cache hit logged at info, a retry at warning, each as the library
    /// says it, named by the tool called. A backoff is told by the retry
    /// before it, with its delay, not again as a wait.
    pub fn progress(&self, progress: Progress) {
        let (done, total, what) = match &progress {
            Progress::Requests { done, total } => (*done, *total, "requests"),
            Progress::Rows { done, max } => (*done, *max, "rows"),
            Progress::Waiting(wait) if wait.cause == WaitCause::Backoff => return,
            Progress::Waiting(wait) => {
                self.wait_under_way(wait.wait);
                return self.log(LoggingLevel::Info, progress.line_naming(&self.tool));
            }
            Progress::Retrying(_) => {
                return self.log(LoggingLevel::Warning, progress.line_naming(&self.tool));
            }
            Progress::Fitted(_) | Progress::Cached(_) => {
                return self.log(LoggingLevel::Info, progress.line_naming(&self.tool));
            }
            _ => return,
        };
        if let Some(token) = &self.progress_token {
            self.queue(Note::Progress(token.clone(), done, total, what));
        }
    }

    /// Count what the call did toward its MCP session's figures.
    pub fn spent(&self, figures: &seozoom::job::Figures) {
        self.spent.add(figures);
    }

    /// The tool called, which every log line of the call names.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The job waits `wait` (not a backoff): the progress notifications
    /// name it until it is over.
    fn wait_under_way(&self, wait: Duration) {
        *self
            .waiting_until
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(Instant::now() + wait);
    }

    /// A log message at `level`, sent when the client asked for that level
    /// or a lower one.
    pub fn log(&self, level: LoggingLevel, message: String) {
        let Some(wanted) = self.level else {
            return;
        };
        if rank(level) < rank(wanted) {
            return;
        }
        let mut param = LoggingMessageNotificationParam::new(level, json!(message));
        param.logger = Some(LOGGER.to_owned());
        self.queue(Note::Log(param));
    }
}

/// The queue of a call's notifications.
pub struct Receiver {
    queue: UnboundedReceiver<Note>,
    waiting_until: WaitingUntil,
}

impl Receiver {
    /// Send the queued notifications to `peer` until the reporter is closed.
    /// A notification that cannot be sent (the client left) is dropped.
    pub async fn forward(mut self, peer: &Peer<RoleServer>) {
        while let Some(note) = self.queue.recv().await {
            let _ = match note {
                Note::Progress(token, done, total, what) => {
                    peer.notify_progress(self.progress(token, done, total, what))
                        .await
                }
                Note::Log(param) => peer.notify_logging_message(param).await,
            };
        }
    }

    /// The progress notification of `done` requests (or rows) of `total`,
    /// naming a wait for the rate window under way.
    fn progress(
        &self,
        token: ProgressToken,
        done: usize,
        total: usize,
        what: &str,
    ) -> ProgressNotificationParam {
        let mut message = format!("{done} of {total} {what} done");
        let until = *self
            .waiting_until
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(left) = until
            .and_then(|until| until.checked_duration_since(Instant::now()))
            .filter(|left| !left.is_zero())
            && done < total
        {
            message.push_str(&format!("; waiting {} for the rate window", seconds(left)));
        }
        let mut param = ProgressNotificationParam::new(token, done as f64);
        param.total = Some(total as f64);
        param.message = Some(message);
        param
    }
}

/// A level's place in the order of RFC 5424 (debug lowest).
pub fn rank(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// A wait in whole seconds, rounded up (`38 s`).
fn seconds(wait: Duration) -> String {
    let whole = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    format!("{whole} s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_below_the_level_set_are_not_sent_and_none_without_one() {
        let (reporter, mut receiver) =
            Reporter::new("t", Arc::default(), None, Some(LoggingLevel::Warning));
        reporter.log(LoggingLevel::Info, "quiet".into());
        reporter.log(LoggingLevel::Error, "loud".into());
        reporter.close();
        let mut sent = Vec::new();
        while let Ok(Note::Log(param)) = receiver.queue.try_recv() {
            sent.push(param.data);
        }
        assert_eq!(sent, [json!("loud")]);
        let (silent, mut receiver) = Reporter::new("t", Arc::default(), None, None);
        silent.log(LoggingLevel::Emergency, "x".into());
        assert!(receiver.queue.try_recv().is_err());
    }

    #[test]
    fn progress_names_a_wait_under_way() {
        let token = ProgressToken(rmcp::model::NumberOrString::Number(7));
        let (reporter, mut receiver) = Reporter::new("t", Arc::default(), Some(token), None);
        reporter.progress(Progress::Requests {
            done: 20,
            total: 30,
        });
        // The wait begins after the request was answered, before the
        // notification is sent: it is named.
        reporter.wait_under_way(Duration::from_millis(37_200));
        let Ok(Note::Progress(token, done, total, what)) = receiver.queue.try_recv() else {
            panic!("no progress");
        };
        let param = receiver.progress(token, done, total, what);
        assert_eq!((param.progress, param.total), (20.0, Some(30.0)));
        assert_eq!(
            param.message.as_deref(),
            Some("20 of 30 requests done; waiting 38 s for the rate window")
        );
    }
}
