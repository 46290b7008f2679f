//! Jobs as a whole: what kind a run is ([`Job`]), and its holds while it
//! runs: on the client's budget, on the store's budget window, and the
//! bounds its caller set (the signal to stop, the most a call may wait).

use std::sync::Arc;
use std::time::Duration;

use super::{Client, Stop, Tell, WindowHold};
use crate::error::Error;
use crate::units::{BudgetHold, Estimate, Learned};
use crate::wait::Waits;

/// What kind of job a run is ([`Job::of_run`]): what it sends, and what its
/// plan ([`Client::plan`]) counts.
///
/// # Examples
///
/// What 250 keywords cost, sent as the batches of 100 the spec allows, and
/// what a thousand rows of a paged operation cost, before anything is sent:
///
/// ```
/// use seozoom::job::{Job, RunOptions};
/// use seozoom::types::KeywordType;
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let client = seozoom::Client::new("YOUR-KEY")?;
/// let keywords = client.keywords().metrics((0..250).map(|i| format!("keyword {i}")));
/// let batched = client.plan(&keywords.request(), &RunOptions::new()).await?;
/// assert_eq!((batched.job, batched.request_count), (Job::Batched, 3));
/// let one = client.estimate(&client.keywords().metrics(["mutuo casa"]).request())?;
/// assert!(batched.whole.max > one.max);
///
/// let rows = client.domains().keywords("example.it", KeywordType::Best, 100);
/// let paged = client.plan(&rows.request(), &RunOptions::new().max_rows(1_000)).await?;
/// assert_eq!(paged.job, Job::Pages { page_size: 100, max_rows: Some(1_000) });
/// println!("{} to {} units for 1,000 rows", paged.whole.min, paged.whole.max);
/// # Ok::<(), seozoom::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Job {
    /// Exactly the request given, as one request
    /// ([`RunOptions::one_request`](super::RunOptions::one_request)).
    One,
    /// The request's batches ([`Request::batches`](crate::request::Request::batches)), as a run sends them
    /// (one request for an operation that does not batch).
    Batched,
    /// The pages a run with a row cap fetches, or [`Client::pages`], with
    /// this page size and row cap.
    Pages {
        /// Rows per request (the limit parameter of every page but a last,
        /// smaller one).
        page_size: i64,
        /// The most rows wanted; `None` pages until a short page.
        max_rows: Option<usize>,
    },
}

impl Client {
    /// Hold a job's maximum estimate against the budget until the job ends, or
    /// refuse the job when it exceeds what is left. The job's requests reserve
    /// from the hold, so other calls and jobs on this client and its clones
    /// cannot take what the job was admitted with. `learned` is the figure
    /// the estimate was made with: the job's calls are estimated with it too.
    /// Its calls keep to `bounds`: they send nothing once its stop is given.
    pub(super) async fn hold_job(
        &self,
        what: &str,
        estimate: Estimate,
        learned: Option<Learned>,
        bounds: Bounds,
    ) -> Result<Arc<JobHold>, Error> {
        self.ledger().admit(what, estimate)?;
        let window = self.hold_window(what, estimate).await?;
        // No finite budget covers an unbounded job: the ledger refuses it; the
        // name says how to bound it.
        let what = match estimate.max {
            i64::MAX => format!("{what} (no row cap: give one to bound the cost)"),
            _ => what.to_owned(),
        };
        let budget = self.ledger().hold_job(&what, estimate.max)?;
        Ok(Arc::new(JobHold {
            budget: budget.with_learned(learned),
            window,
            bounds,
        }))
    }
}

/// What a caller bounds a call or job by: the signal that stops it, and the
/// most one of its calls may wait (at most the client's
/// [`max_wait`](crate::ClientBuilder::max_wait)); and what its calls tell
/// their waits, retries and cache hits to.
#[derive(Debug, Clone, Default)]
pub(crate) struct Bounds {
    /// The caller's signal to send nothing more, if it gave one.
    pub(crate) stop: Option<Stop>,
    /// The most a call may wait, if less than the client's.
    pub(crate) max_wait: Option<Duration>,
    /// The caller's progress callback, if it gave one.
    pub(crate) tell: Tell,
}

impl Bounds {
    /// Whether the caller has stopped.
    pub(crate) fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(Stop::is_stopped)
    }

    /// No waits yet for a call of `operation`, bounded by `max` in all (the
    /// shorter of the client's bound and this one: [`Bounds::max_wait`]),
    /// ended by the caller's stop, told to its progress callback.
    pub(crate) fn waits(&self, operation: String, max: Duration) -> Waits {
        Waits::new(operation, max, self.stop.clone(), self.tell.on_wait())
    }

    /// The bound on a call's waits, given the client's.
    pub(crate) fn max_wait(&self, client: Duration) -> Duration {
        self.max_wait.map_or(client, |run| run.min(client))
    }
}

/// What a running job holds until it ends (when this is dropped).
pub(crate) struct JobHold {
    /// Its hold on the client's budget.
    budget: BudgetHold,
    /// Its hold on the budget window in the store, if there is one.
    window: Option<WindowHold>,
    /// What its caller bounds its calls by.
    bounds: Bounds,
}

impl std::fmt::Debug for JobHold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobHold")
            .field("budget", &self.budget)
            .field("window", &self.window_id())
            .finish()
    }
}

impl JobHold {
    /// Its hold on the client's budget, which its calls reserve from.
    pub(crate) fn budget(&self) -> &BudgetHold {
        &self.budget
    }

    /// What its caller bounds its calls by.
    pub(crate) fn bounds(&self) -> &Bounds {
        &self.bounds
    }

    /// What the ledger had learned of the operation's charge when the job was
    /// estimated.
    pub(crate) fn learned(&self) -> Option<Learned> {
        self.budget.learned()
    }

    /// Give back the job's hold on the budget window, if it has one (the job
    /// has ended).
    pub(crate) async fn release_window(&self) {
        if let Some(window) = &self.window {
            window.release().await;
        }
    }

    /// The id of the job's hold on the budget window, if it has one.
    pub(crate) fn window_id(&self) -> Option<&str> {
        self.window.as_ref().map(|w| w.id.as_str())
    }
}
