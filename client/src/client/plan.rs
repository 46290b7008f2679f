//! What a bulk job would send now, given what the store's cache already
//! answers: read from the store, spending nothing ([`Client::plan_job`]).
//! Dry runs and estimates use it, and a job's budget check counts the same
//! requests, so that what is estimated is what is held.

use super::Client;
use super::job::Job;
use super::pages::plan_pages;
use crate::error::Error;
use crate::request::Request;
use crate::units::{Estimate, Learned};

/// The most pages of a paged job whose cached answers are looked up one by
/// one: beyond it (a cap of millions of rows in small pages), the rest are
/// counted as to send.
const PAGES_LOOKED_UP: usize = 10_000;

/// What counts in a [`JobPlan`]: the items of a batched job (values of its
/// batch parameter, or the one request of an operation that does not batch),
/// or the pages of a paged job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Counted {
    /// Input items.
    Items,
    /// Pages.
    Pages,
}

/// What a job would do now: which requests it would still send, how many of
/// its items or pages the cache answers fresh, and the cost of the requests
/// still to send only (an answer from the cache costs nothing).
///
/// # Examples
///
/// A new client's store has nothing cached, so every input is still to send:
///
/// ```
/// use seozoom::job::{Counted, Job};
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let client = seozoom::Client::new("YOUR-KEY")?;
/// let request = client.keywords().metrics(["mutuo casa", "scarpe running"]).request();
/// let plan = client.plan_job(&request, Job::Batched).await?;
/// assert_eq!(plan.counted, Counted::Items);
/// assert_eq!((plan.total, plan.cached, plan.to_send), (2, 0, 2));
/// assert_eq!(plan.request_count, 1);
/// # Ok::<(), seozoom::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct JobPlan {
    /// What `total`, `cached` and `to_send` count.
    pub counted: Counted,
    /// Items or pages the job asks for in all (a paged job: at most).
    pub total: usize,
    /// Of them, answered fresh from the cache.
    pub cached: usize,
    /// Of them, still to be asked of the service.
    pub to_send: usize,
    /// The requests still to send, in order (a paged job: at most; fewer when
    /// a page comes back short). A paged job over 10,000 pages lists the first
    /// 10,000 that are not cached.
    pub requests: Vec<Request>,
    /// How many requests that is (for a paged job over 10,000 pages, more
    /// than `requests` lists).
    pub request_count: usize,
    /// The cost range of the requests still to send.
    pub estimate: Estimate,
}

impl Client {
    /// What a job would send now and what it would cost, given what the
    /// store's cache answers fresh (nothing is sent, spent or recorded): the
    /// items of a batched job or the pages of a paged one already answered,
    /// the requests still to send, and the estimate of those only, with what
    /// the ledger learned of the operation's charge
    /// ([`estimate_job_observed`](Self::estimate_job_observed)). Also fills
    /// [`units().remaining`](Self::units) with the store's last balance when
    /// this client knows none yet.
    ///
    /// With [`refresh`](crate::ClientBuilder::refresh) nothing comes from the
    /// cache. A paged job without a row cap is not looked up (it has no last
    /// page): every page is to send, and the estimate has no maximum.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidInput`](crate::error::ErrorKind::InvalidInput) when a request of the
    /// job breaks a limit of the spec, and [`ErrorKind::Store`](crate::error::ErrorKind::Store)
    /// when the store cannot be read.
    pub async fn plan_job(&self, request: &Request, job: Job) -> Result<JobPlan, Error> {
        let learned = self.learned(request.operation()).await?;
        match job {
            Job::Batched => self.plan_batched(request, learned).await,
            Job::Pages {
                page_size,
                max_rows,
            } => self.plan_pages(request, page_size, max_rows, learned).await,
        }
    }

    async fn plan_batched(
        &self,
        request: &Request,
        learned: Option<Learned>,
    ) -> Result<JobPlan, Error> {
        let op = request.operation();
        let batches = request.batches();
        let first = self.prepare(batches.first().unwrap_or(request))?;
        // Every batch is valid, or the job is refused as it would be.
        for batch in &batches {
            self.prepare(batch)?;
        }
        let freshness = self.freshness(op, &first.query);
        let total = match op.batch_param() {
            Some(param) => batches
                .iter()
                .map(|b| b.get(param.wire).map_or(0, <[String]>::len))
                .sum::<usize>()
                .max(1),
            None => 1,
        };
        let (rest, hits) = self.cached_items(request.clone(), freshness).await?;
        let (rest, cached) = match rest {
            // A request of one item: the call's own lookup.
            Some(rest) if hits.is_empty() && total == 1 => {
                match self.cached_answer(&first, freshness).await? {
                    Some(_) => (None, 1),
                    None => (Some(rest), 0),
                }
            }
            rest => (rest, hits.len()),
        };
        let requests = rest.map_or_else(Vec::new, |rest| rest.batches());
        let estimate = requests.iter().try_fold(Estimate::ZERO, |sum, batch| {
            Ok::<_, Error>(sum.plus(self.estimate_with(batch, learned)?))
        })?;
        Ok(JobPlan {
            counted: Counted::Items,
            total,
            cached,
            to_send: total - cached,
            request_count: requests.len(),
            requests,
            estimate,
        })
    }

    pub(super) async fn plan_pages(
        &self,
        request: &Request,
        page_size: i64,
        max_rows: Option<usize>,
        learned: Option<Learned>,
    ) -> Result<JobPlan, Error> {
        let plan = plan_pages(request, page_size, max_rows)?;
        let whole = self.estimate_pages(request, &plan, learned)?;
        let Some(max_rows) = max_rows else {
            return Ok(JobPlan {
                counted: Counted::Pages,
                total: 0,
                cached: 0,
                to_send: 0,
                requests: Vec::new(),
                request_count: 0,
                estimate: whole,
            });
        };
        let size = usize::try_from(page_size.max(1)).unwrap_or(usize::MAX);
        let pages: Vec<Request> = request
            .pages(page_size, max_rows)?
            .take(PAGES_LOOKED_UP)
            .collect();
        let total = match pages.len() {
            n if n < PAGES_LOOKED_UP => n,
            _ => max_rows.div_ceil(size),
        };
        let prepared = pages
            .iter()
            .map(|page| self.prepare(page))
            .collect::<Result<Vec<_>, Error>>()?;
        let Some(first) = prepared.first() else {
            return Ok(JobPlan {
                counted: Counted::Pages,
                total,
                cached: 0,
                to_send: total,
                requests: Vec::new(),
                request_count: total,
                estimate: whole,
            });
        };
        let freshness = self.freshness(first.op, &first.query);
        let keys: Vec<String> = prepared.iter().map(|p| p.cache_key.clone()).collect();
        let found = self
            .cached(&request.operation().label(), &keys, freshness)
            .await?;
        let cached = found.iter().filter(|answer| answer.is_some()).count();
        let requests: Vec<Request> = pages
            .into_iter()
            .zip(&found)
            .filter(|(_, answer)| answer.is_none())
            .map(|(page, _)| page)
            .collect();
        let estimate = if total > PAGES_LOOKED_UP {
            // Not every page was looked up: the whole job's, less nothing.
            whole
        } else {
            requests.iter().try_fold(Estimate::ZERO, |sum, page| {
                Ok::<_, Error>(sum.plus(self.estimate_with(page, learned)?))
            })?
        };
        Ok(JobPlan {
            counted: Counted::Pages,
            total,
            cached,
            to_send: total - cached,
            request_count: total - cached,
            requests,
            estimate,
        })
    }
}
