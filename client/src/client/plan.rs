//! The first step of every run: the plan ([`Client::plan`]). Before anything
//! is sent, it decides what the job is (one request, a batched job, a paged
//! job; its row cap fitted to the budget), what the store's cache already
//! answers (item by item, and whole requests), what is still to send and
//! what that costs. A run carries the plan out ([`super::run`]); a dry run
//! or an estimate is the same plan, not carried out.

use super::fitted_rows::FittedRows;
use super::job::Job;
use super::merge::InputOrder;
use super::pages::{PagePlan, plan_pages};
use super::prepared::Prepared;
use super::{Bounds, Client, JobHold, RunOptions};
use std::sync::Arc;

use crate::error::Error;
use crate::operation_table::Operation;
use crate::request::Request;
use crate::store::CachedAnswer;
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

/// What a run would do now: which requests it would still send, how many of
/// its items or pages the cache answers fresh, and what they cost.
///
/// # Examples
///
/// A new client's store has nothing cached, so every input is still to send:
///
/// ```
/// use seozoom::job::{Counted, RunOptions};
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let client = seozoom::Client::new("YOUR-KEY")?;
/// let request = client.keywords().metrics(["mutuo casa", "scarpe running"]).request();
/// let plan = client.plan(&request, &RunOptions::new()).await?;
/// assert_eq!(plan.counted, Counted::Items);
/// assert_eq!((plan.total, plan.cached, plan.to_send), (2, 0, 2));
/// assert_eq!(plan.request_count, 1);
/// assert_eq!(plan.estimate, plan.whole);
/// # Ok::<(), seozoom::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct JobPlan {
    /// The job ([`Job::of_run`]), its row cap fitted to the budget when the
    /// options ask for it.
    pub job: Job,
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
    /// The cost range of the requests still to send (an answer from the
    /// cache costs nothing), with what the ledger learned of the
    /// operation's charge.
    pub estimate: Estimate,
    /// The cost range of the whole job, as if the cache answered nothing.
    /// A paged job without a row cap has no finite maximum: `i64::MAX`.
    pub whole: Estimate,
    /// The row cap fitted to the budget, when the options asked for it
    /// ([`RunOptions::fit_budget`]) and the job has a cap.
    pub fitted: Option<FittedRows>,
}

/// One request of a plan, checked, with the cache's whole answer to it if it
/// has one.
pub(super) struct Planned {
    pub(super) request: Request,
    pub(super) prepared: Prepared,
    pub(super) hit: Option<CachedAnswer>,
}

/// A plan as a run carries it out.
pub(super) struct Plan {
    pub(super) job: Job,
    pub(super) fitted: Option<FittedRows>,
    /// What the ledger had learned of the operation's charge, which every
    /// call of the job is estimated with.
    pub(super) learned: Option<Learned>,
    /// The database the job asks (the request's, else the client's).
    pub(super) database: String,
    /// What the requests still to send cost.
    pub(super) estimate: Estimate,
    /// What the job sends.
    pub(super) kind: Sends,
}

/// What a planned job sends.
pub(super) enum Sends {
    /// A job that is not paged.
    Requests {
        /// The order of a batched job's inputs, cached or not: how rows
        /// merge.
        order: InputOrder,
        /// The items of a batched job the cache answers, not asked again.
        item_hits: Vec<CachedAnswer>,
        /// Its requests: still to send, or answered whole by the cache.
        requests: Vec<Planned>,
    },
    /// A paged job.
    Pages {
        /// How it pages.
        pages: PagePlan,
        /// Its pages the cache does not answer, when they were looked up
        /// (for an estimate, or under a budget).
        to_send: Option<PagesToSend>,
    },
}

/// Who the plan is for: a run reads the ledger only where its budget checks
/// need it and goes on without a store that fails; an estimate reads it
/// whenever the ledger can tell what the spec does not, and says when it
/// cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Purpose {
    Run,
    Estimate,
}

impl Client {
    /// What a run of `request` with `options` would send now and what it
    /// would cost, given what the store's cache answers fresh; nothing is
    /// sent, spent or recorded. The same plan a run carries out: the job
    /// ([`Job::of_run`]), its row cap fitted to the budget
    /// ([`RunOptions::fit_budget`]), the items of a batched job or the pages
    /// of a paged one already answered, the requests still to send, their
    /// estimate and the whole job's, with what the ledger learned of the
    /// operation's charge. Also fills [`units().remaining`](Self::units)
    /// with the store's last balance when this client knows none yet.
    ///
    /// With [`refresh`](crate::ClientBuilder::refresh) nothing comes from the
    /// cache. A paged job without a row cap is not looked up (it has no last
    /// page): every page is to send, and the estimate has no maximum.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidInput`](crate::error::ErrorKind::InvalidInput) when a request of the
    /// job breaks a limit of the spec, [`ErrorKind::UnknownCost`](crate::error::ErrorKind::UnknownCost)
    /// when a row cap is to be fitted to a budget and the cost is unknown, and
    /// [`ErrorKind::Store`](crate::error::ErrorKind::Store) when the store cannot be read.
    pub async fn plan(&self, request: &Request, options: &RunOptions) -> Result<JobPlan, Error> {
        let plan = self.plan_run(request, options, Purpose::Estimate).await?;
        let whole = self.estimate_job_with(request, plan.job, plan.learned)?;
        Ok(summary(request, plan, whole))
    }

    /// The plan of a run of `request` with `options`: the one place a job is
    /// decided, its cache looked up and its cost estimated.
    pub(super) async fn plan_run(
        &self,
        request: &Request,
        options: &RunOptions,
        purpose: Purpose,
    ) -> Result<Plan, Error> {
        let op = request.operation();
        let learned = match purpose {
            Purpose::Run => self.learned_for_budget(op).await,
            Purpose::Estimate => self.learned(op).await?,
        };
        let (job, fitted) = self.fitted_job(request, options, learned).await?;
        let mut plan = self.plan_job(request, job, learned, purpose).await?;
        plan.fitted = fitted;
        Ok(plan)
    }

    /// The plan of `job`, a job of `request`, estimated with `learned`.
    pub(super) async fn plan_job(
        &self,
        request: &Request,
        job: Job,
        learned: Option<Learned>,
        purpose: Purpose,
    ) -> Result<Plan, Error> {
        match job {
            Job::Pages {
                page_size,
                max_rows,
            } => {
                let pages = plan_pages(request, page_size, max_rows)?;
                // Under a budget, the pages the cache answers cost nothing:
                // the hold is what an estimate counts.
                let looked_up = match purpose == Purpose::Estimate || self.budgeted() {
                    true => Some(self.pages_to_send(request, &pages, learned).await?),
                    false => None,
                };
                let estimate = match &looked_up {
                    Some(to_send) => to_send.estimate,
                    None => self.estimate_pages(request, &pages, learned)?,
                };
                let first = pages.page(request, pages.start(), page_size);
                Ok(Plan {
                    job,
                    fitted: None,
                    learned,
                    database: self.prepare(&first)?.database,
                    estimate,
                    kind: Sends::Pages {
                        pages,
                        to_send: looked_up,
                    },
                })
            }
            Job::One | Job::Batched => self.plan_requests(request, job, learned).await,
        }
    }

    /// Hold what a planned job of `op` still sends against the budget until
    /// it ends, or refuse it: the one budget check of a run (its calls
    /// reserve from the hold).
    pub(super) async fn hold(
        &self,
        op: &Operation,
        plan: &Plan,
        bounds: Bounds,
    ) -> Result<Arc<JobHold>, Error> {
        let what = match &plan.kind {
            Sends::Requests { requests, .. } if requests.len() > 1 => {
                format!("{} ({} requests)", op.label(), requests.len())
            }
            _ => op.label(),
        };
        self.hold_job(&what, plan.estimate, plan.learned, bounds)
            .await
    }

    /// The job `options` ask for, its row cap fitted to the budget when they
    /// ask for that.
    async fn fitted_job(
        &self,
        request: &Request,
        options: &RunOptions,
        learned: Option<Learned>,
    ) -> Result<(Job, Option<FittedRows>), Error> {
        let job = Job::of_run(request, options)?;
        let Job::Pages {
            page_size,
            max_rows: Some(asked),
        } = job
        else {
            return Ok((job, None));
        };
        if !options.fit_budget {
            return Ok((job, None));
        }
        let fitted = self.fit(request, page_size, asked, learned).await?;
        // None fits: the job goes as asked, and is refused with the reason.
        let rows = match fitted.rows {
            0 => asked,
            rows => rows,
        };
        let job = Job::Pages {
            page_size,
            max_rows: Some(rows),
        };
        Ok((job, Some(fitted)))
    }

    /// The plan of a job that is not paged: the items the cache answers, the
    /// requests for the rest (each looked up whole), and their estimate.
    async fn plan_requests(
        &self,
        request: &Request,
        job: Job,
        learned: Option<Learned>,
    ) -> Result<Plan, Error> {
        let op = request.operation();
        let batches = match job {
            Job::One => vec![request.clone()],
            _ => request.batches(),
        };
        // Every request is valid, or the job is refused before anything.
        let prepared = batches
            .iter()
            .map(|batch| self.prepare(batch))
            .collect::<Result<Vec<_>, Error>>()?;
        let freshness = prepared
            .first()
            .and_then(|first| self.freshness(op, &first.query));
        let database = prepared
            .first()
            .map_or_else(|| self.inner.database.to_owned(), |p| p.database.clone());
        let planned: Vec<(Request, Prepared)> = batches.into_iter().zip(prepared).collect();
        let (order, rest, item_hits) = match (job, op.batch_param()) {
            (Job::Batched, Some(param)) => {
                let inputs = param.distinct(request.get(param.wire).unwrap_or_default());
                let order = InputOrder::new(param, &inputs, op.key_field(self.inner.records));
                let (rest, hits) = self.cached_items(request.clone(), freshness).await?;
                let rest = match (hits.is_empty(), rest) {
                    (true, _) => planned,
                    (false, None) => Vec::new(),
                    (false, Some(rest)) => self.prepared(rest.batches())?,
                };
                (order, rest, hits)
            }
            _ => (InputOrder::default(), planned, Vec::new()),
        };
        let mut requests = Vec::with_capacity(rest.len());
        let mut estimate = Estimate::ZERO;
        for (request, prepared) in rest {
            let hit = self.cached_answer(&prepared, freshness).await?;
            if hit.is_none() {
                estimate = estimate.plus(self.estimate_of(&prepared, learned));
            }
            requests.push(Planned {
                request,
                prepared,
                hit,
            });
        }
        Ok(Plan {
            job,
            fitted: None,
            learned,
            database,
            estimate,
            kind: Sends::Requests {
                order,
                item_hits,
                requests,
            },
        })
    }

    /// Requests, each with its check.
    fn prepared(&self, requests: Vec<Request>) -> Result<Vec<(Request, Prepared)>, Error> {
        requests
            .into_iter()
            .map(|request| {
                let prepared = self.prepare(&request)?;
                Ok((request, prepared))
            })
            .collect()
    }

    /// The pages of a capped paged job the cache does not answer, and what
    /// they cost. Only whether each page is cached is kept: a run reads each
    /// page's answer when it comes to it, so that a job's memory stays one
    /// page's.
    async fn pages_to_send(
        &self,
        request: &Request,
        plan: &PagePlan,
        learned: Option<Learned>,
    ) -> Result<PagesToSend, Error> {
        let whole = self.estimate_pages(request, plan, learned)?;
        let Some(max_rows) = plan.max_rows() else {
            return Ok(PagesToSend {
                total: 0,
                cached: 0,
                requests: Vec::new(),
                estimate: whole,
            });
        };
        let pages: Vec<Request> = request
            .pages(plan.page_size(), max_rows)?
            .take(PAGES_LOOKED_UP)
            .collect();
        let size = usize::try_from(plan.page_size().max(1)).unwrap_or(usize::MAX);
        let total = match pages.len() {
            n if n < PAGES_LOOKED_UP => n,
            _ => max_rows.div_ceil(size),
        };
        let prepared = pages
            .iter()
            .map(|page| self.prepare(page))
            .collect::<Result<Vec<_>, Error>>()?;
        let Some(first) = prepared.first() else {
            return Ok(PagesToSend {
                total,
                cached: 0,
                requests: Vec::new(),
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
        let estimate = match total > PAGES_LOOKED_UP {
            // Not every page was looked up: the whole job's, less nothing.
            true => whole,
            false => requests.iter().try_fold(Estimate::ZERO, |sum, page| {
                Ok::<_, Error>(sum.plus(self.estimate_with(page, learned)?))
            })?,
        };
        Ok(PagesToSend {
            total,
            cached,
            requests,
            estimate,
        })
    }
}

/// A plan as a caller sees it: items or pages counted.
fn summary(request: &Request, plan: Plan, whole: Estimate) -> JobPlan {
    let Plan {
        job,
        fitted,
        estimate,
        kind,
        ..
    } = plan;
    let (counted, total, cached, requests, request_count) = match kind {
        Sends::Requests {
            item_hits,
            requests,
            ..
        } => {
            let (total, cached, requests) = item_counts(request, item_hits.len(), requests);
            let count = requests.len();
            (Counted::Items, total, cached, requests, count)
        }
        // Not looked up: a paged job without a row cap.
        Sends::Pages { to_send: None, .. } => (Counted::Pages, 0, 0, Vec::new(), 0),
        Sends::Pages {
            to_send: Some(to_send),
            ..
        } => {
            let count = to_send.total - to_send.cached;
            let (total, cached) = (to_send.total, to_send.cached);
            (Counted::Pages, total, cached, to_send.requests, count)
        }
    };
    JobPlan {
        job,
        counted,
        total,
        cached,
        to_send: total - cached,
        requests,
        request_count,
        estimate,
        whole,
        fitted,
    }
}

/// The items of a job that is not paged in all, those the cache answers
/// (item by item, or whole requests), and the requests still to send.
fn item_counts(
    request: &Request,
    item_hits: usize,
    requests: Vec<Planned>,
) -> (usize, usize, Vec<Request>) {
    let op = request.operation();
    let items = |request: &Request| match op.batch_param() {
        Some(param) => request.get(param.wire).map_or(0, <[String]>::len).max(1),
        None => 1,
    };
    let mut cached = item_hits;
    let mut to_send = Vec::with_capacity(requests.len());
    let mut sent_items = 0;
    for planned in requests {
        match planned.hit {
            Some(_) => cached += items(&planned.request),
            None => {
                sent_items += items(&planned.request);
                to_send.push(planned.request);
            }
        }
    }
    ((cached + sent_items).max(1), cached, to_send)
}

/// The pages of a paged job still to send.
pub(super) struct PagesToSend {
    /// Pages in all (at most).
    total: usize,
    /// Of them, answered by the cache.
    cached: usize,
    requests: Vec<Request>,
    estimate: Estimate,
}
