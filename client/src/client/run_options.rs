//! How a caller runs a job ([`RunOptions`]): the most rows, fitting to the
//! budget, a stop signal, a progress callback ([`Progress`]) and the most
//! time to wait.

use std::fmt;
use std::time::Duration;

use super::job::Bounds;
use super::progress::{Progress, Tell};
use crate::stop::Stop;

/// The options of one run of [`Client::run`](super::Client::run): each
/// means the same whatever the kind of job, and whichever face (command
/// line, MCP server, Python) sets it.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use seozoom::job::{Progress, RunOptions, Stop};
///
/// let stop = Stop::new();
/// let options = RunOptions::new()
///     .max_rows(5_000)
///     .fit_budget(true)
///     .stop(stop.clone())
///     .max_wait(Duration::from_secs(30))
///     .on_progress(|progress| {
///         if let Progress::Requests { done, total } = progress {
///             eprintln!("{done}/{total} requests");
///         }
///     });
/// # let _ = options;
/// ```
#[derive(Clone, Default)]
pub struct RunOptions {
    pub(super) max_rows: Option<usize>,
    pub(super) fit_budget: bool,
    pub(super) one_request: bool,
    stop: Option<Stop>,
    max_wait: Option<Duration>,
    progress: Tell,
}

impl fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunOptions")
            .field("max_rows", &self.max_rows)
            .field("fit_budget", &self.fit_budget)
            .field("one_request", &self.one_request)
            .field("stop", &self.stop)
            .field("max_wait", &self.max_wait)
            .field("progress", &self.progress)
            .finish()
    }
}

impl RunOptions {
    /// One call or batched job as the operation takes it, no row cap, no
    /// stop, the client's bound on waits.
    pub fn new() -> Self {
        RunOptions::default()
    }

    /// The most rows: page through a paged operation's rows until a page
    /// comes back short or this many have come (the page size is the
    /// request's limit, else the most one request takes). Refused for an
    /// operation that does not page.
    pub fn max_rows(mut self, rows: usize) -> Self {
        self.max_rows = Some(rows);
        self
    }

    /// Exactly the request given, as one request: neither batched nor paged.
    /// A list longer than one request takes is refused (the parameter, the
    /// value and the limit) rather than split, and its values are sent as
    /// given, repeats and all; the rows come as the service sent them. What
    /// a generated builder's `send()` runs.
    pub fn one_request() -> Self {
        RunOptions {
            one_request: true,
            ..RunOptions::default()
        }
    }

    /// With a budget and a row cap: cut the row cap to what the budget
    /// covers at worst ([`JobPlan::fitted`](super::JobPlan::fitted)),
    /// told as [`Progress::Fitted`] before the first request, instead of
    /// refusing the whole job. Without a row cap it changes nothing.
    pub fn fit_budget(mut self, fit: bool) -> Self {
        self.fit_budget = fit;
        self
    }

    /// The signal that stops the run: from then on no request is sent, every
    /// wait (a rate-limit slot, a `Retry-After`, a 429's window, a backoff)
    /// ends at once, a request already on the wire is let finish and its rows
    /// kept, and the run ends as [`ErrorKind::Partial`](crate::error::ErrorKind::Partial)
    /// (cause [`ErrorKind::Stopped`](crate::error::ErrorKind::Stopped)), or
    /// that cause itself when nothing was received.
    pub fn stop(mut self, stop: Stop) -> Self {
        self.stop = Some(stop);
        self
    }

    /// The most any call of the run may wait, all its waits together (rate-
    /// limit slots, `Retry-After`s, 429 windows, backoffs): a wait that would
    /// pass it is not begun, and the call stops with
    /// [`ErrorKind::WaitedTooLong`](crate::error::ErrorKind::WaitedTooLong).
    /// At most the client's [`max_wait`](crate::ClientBuilder::max_wait): a
    /// longer one is the client's.
    pub fn max_wait(mut self, max_wait: Duration) -> Self {
        self.max_wait = Some(max_wait);
        self
    }

    /// A callback told how the run goes ([`Progress`]): how far the job is,
    /// and every wait, retry and cache hit of its calls. Called from the
    /// task that runs the job: keep it quick.
    pub fn on_progress(mut self, progress: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        self.progress = Tell::new(progress);
        self
    }

    /// What the run's calls keep to.
    pub(crate) fn bounds(&self) -> Bounds {
        Bounds {
            stop: self.stop.clone(),
            max_wait: self.max_wait,
            tell: self.progress.clone(),
        }
    }

    /// Tell the progress callback, if there is one.
    pub(crate) fn tell(&self, progress: Progress) {
        self.progress.tell(|| progress);
    }
}
