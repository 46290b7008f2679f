//! Paged jobs: the rows of an `offset`/`limit` operation streamed page by
//! page ([`Client::pages`]), with the whole job's cost estimated and held
//! against the budget before the first request.
//!
//! Paged operations have a parameter with the `offset` role and one with the
//! `page_size` role, as the generator derives it into the table:
//! [`Operation::paging`]. Paging stops when a page comes
//! back short or a row cap is reached. A rule that pins the offset to one
//! value (`newentry`: offset must be 0) means the service does not page that
//! query: one page is fetched. Nothing here names an action.

use std::sync::Arc;

use futures_core::Stream;
use futures_util::stream::{self, StreamExt};

use super::output::Part;
use super::{Bounds, Client, JobHold};
use crate::decode::Decoder;
use crate::envelope::Envelope;
use crate::error::{Error, ErrorKind, InvalidInput};
use crate::operation_table::{Operation, Param};
use crate::request::Request;
use crate::units::{Estimate, Learned};

/// The two parameters that page an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    /// Where a page starts (the parameter with the `offset` role).
    pub offset: &'static Param,
    /// Rows per page (the parameter with the `page_size` role).
    pub limit: &'static Param,
}

impl Operation {
    /// The parameters that page the operation ([`Operation::paged_by`]): the
    /// generator's choice, the ones with the `offset` and `page_size` roles
    /// when its rows are records in an array. `None` when it does not page.
    pub fn paging(&self) -> Option<Paging> {
        let (offset, limit) = self.paged_by?;
        Some(Paging {
            offset: self.param(offset)?,
            limit: self.param(limit)?,
        })
    }
}

impl Paging {
    /// The most rows one request returns: the page size's maximum, the
    /// spec's per-request figure of an operation whose figure counts rows
    /// (the generator refuses a spec where they differ). The page size of a
    /// paged job that names none: the fewest requests. `None` only for a
    /// table built by hand without that maximum.
    #[must_use]
    pub fn most_per_page(&self) -> Option<i64> {
        self.limit.max.map(|max| max.value)
    }
}

impl Request {
    /// The requests a paged job ([`Client::pages`]) with this page size and a
    /// cap of `max_rows` rows sends at most, in order; fewer go out when a page
    /// comes back short, and one when a rule pins the offset. For dry runs: the
    /// requests are made lazily and not validated (each is checked when
    /// estimated or sent).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidInput`] when the operation
    /// does not page, or the page size is outside its limit.
    pub fn pages(
        &self,
        page_size: i64,
        max_rows: usize,
    ) -> Result<impl Iterator<Item = Request> + '_, Error> {
        let plan = plan_pages(self, page_size, Some(max_rows))?;
        let (mut offset, mut fetched, mut done) = (plan.start, 0usize, false);
        Ok(std::iter::from_fn(move || {
            let limit = plan.next_limit(fetched);
            if done || limit == 0 {
                return None;
            }
            let page = plan.page(self, offset, limit);
            done = plan.single;
            fetched = fetched.saturating_add(usize::try_from(limit).unwrap_or(usize::MAX));
            offset = offset.saturating_add(limit);
            Some(page)
        }))
    }
}

/// How a paged job runs, from its request.
#[derive(Debug, Clone)]
pub(super) struct PagePlan {
    paging: Paging,
    /// Offset of the first page.
    start: i64,
    page_size: i64,
    max_rows: Option<usize>,
    /// The service does not page this query (a rule pins the offset): one page.
    single: bool,
}

impl PagePlan {
    /// The offset of the first page.
    pub(super) fn start(&self) -> i64 {
        self.start
    }

    /// Rows a full page asks for.
    pub(super) fn page_size(&self) -> i64 {
        self.page_size
    }

    /// The row cap, if there is one.
    pub(super) fn max_rows(&self) -> Option<usize> {
        self.max_rows
    }

    /// The limit of the next page after `fetched` rows; 0 when the job is done.
    fn next_limit(&self, fetched: usize) -> i64 {
        let left = self.max_rows.map_or(i64::MAX, |cap| {
            i64::try_from(cap.saturating_sub(fetched)).unwrap_or(i64::MAX)
        });
        self.page_size.min(left).max(0)
    }

    /// The request of one page.
    pub(super) fn page(&self, request: &Request, offset: i64, limit: i64) -> Request {
        let mut page = request.clone();
        page.one(self.paging.offset.wire, &offset);
        page.one(self.paging.limit.wire, &limit);
        page
    }
}

/// Rows per full page and the number of full pages and the size of a last,
/// smaller one, for a capped job.
fn page_counts(page_size: i64, cap: usize) -> (u64, i64) {
    let cap = u64::try_from(cap).unwrap_or(u64::MAX);
    let size = page_size.max(1).unsigned_abs();
    (cap / size, i64::try_from(cap % size).unwrap_or(0))
}

impl Client {
    /// One page of a paged job: the cache's answer if it has one, else the
    /// call.
    async fn answer_page(
        &self,
        page: Request,
        decode: Decoder<Part>,
        job: &JobHold,
    ) -> Result<Envelope<Part>, Error> {
        let prepared = self.prepare(&page)?;
        let hit = self.look_up(&prepared).await?;
        self.answer((page, prepared), hit, decode, job).await
    }

    /// The pager of a paged job already planned and holding its budget:
    /// each page read and cut to the cap by `page`.
    pub(super) fn pager(
        &self,
        request: Request,
        (plan, job): (PagePlan, Arc<JobHold>),
        page: PageFns,
    ) -> Pager {
        let bounds = job.bounds().clone();
        let offset = plan.start;
        Pager {
            client: self.clone(),
            request,
            state: PagerState::Next {
                plan,
                offset,
                fetched: 0,
            },
            page,
            bounds,
            job: Some(job),
        }
    }

    /// A paged job's estimate, its pages estimated with `learned`
    /// ([`Client::estimate_with`]).
    pub(super) fn estimate_pages(
        &self,
        request: &Request,
        plan: &PagePlan,
        learned: Option<Learned>,
    ) -> Result<Estimate, Error> {
        let estimate = |page: &Request| self.estimate_with(page, learned);
        // A full page is validated whatever the cap: the page size must be a
        // limit the operation accepts.
        let full_page = estimate(&plan.page(request, plan.start, plan.page_size))?;
        let first = plan.next_limit(0);
        if first == 0 {
            return Ok(Estimate::ZERO);
        }
        let first_page = estimate(&plan.page(request, plan.start, first))?;
        if plan.single {
            return Ok(first_page);
        }
        let Some(cap) = plan.max_rows else {
            return Ok(Estimate {
                max: i64::MAX,
                ..first_page
            });
        };
        let (full, rest) = page_counts(plan.page_size, cap);
        let full = i64::try_from(full).unwrap_or(i64::MAX);
        let mut sum = Estimate {
            min: full_page.min.saturating_mul(full),
            max: full_page.max.saturating_mul(full),
            ..full_page
        };
        if rest > 0 {
            sum = sum.plus(estimate(&plan.page(request, plan.start, rest))?);
        }
        Ok(sum)
    }
}

/// How a paged job reads its pages, their type erased ([`Part`]): so that
/// the pager, and the calls under it, are compiled once, in this crate,
/// whatever the rows' type.
#[derive(Clone, Copy)]
pub(super) struct PageFns {
    /// One page decoded.
    pub(super) decode: Decoder<Part>,
    /// Rows in a page.
    pub(super) rows: fn(&Part) -> usize,
    /// A page cut to its first rows (the last page, to the cap).
    pub(super) truncate: fn(&mut Part, usize),
}

/// Where a paged job stands.
#[derive(Debug)]
enum PagerState {
    /// Fetching: the next offset and the rows so far.
    Next {
        plan: PagePlan,
        offset: i64,
        fetched: usize,
    },
    /// Nothing more to fetch.
    Done,
}

/// A paged job under way: its pages fetched one at a time
/// ([`next_page`](Self::next_page)).
pub(super) struct Pager {
    client: Client,
    request: Request,
    state: PagerState,
    page: PageFns,
    /// What the caller bounds the job's calls by.
    bounds: Bounds,
    /// The job's hold against the budget, until its last page.
    job: Option<Arc<JobHold>>,
}

impl Pager {
    /// The next page (or the error that ends the job); `None` once the job
    /// is done. Once the caller's stop is given, a job with pages left ends
    /// with [`ErrorKind::Stopped`] before the next page is asked for.
    pub(super) async fn next_page(&mut self) -> Option<Result<Envelope<Part>, Error>> {
        let (plan, offset, fetched) = match std::mem::replace(&mut self.state, PagerState::Done) {
            PagerState::Done => return None,
            PagerState::Next {
                plan,
                offset,
                fetched,
            } => (plan, offset, fetched),
        };
        let limit = plan.next_limit(fetched);
        if limit == 0 {
            self.end().await;
            return None;
        }
        if self.bounds.stopped() {
            self.end().await;
            let stopped = Error::new(self.request.operation().label(), ErrorKind::Stopped);
            return Some(Err(stopped));
        }
        let page = plan.page(&self.request, offset, limit);
        let job = self.job.clone()?;
        let answer = self.client.answer_page(page, self.page.decode, &job);
        let mut envelope = match answer.await {
            Ok(envelope) => envelope,
            Err(error) => {
                self.end().await;
                return Some(Err(error));
            }
        };
        // Rows kept raw are rows of the page: they count towards a full
        // page and the cap.
        let raw = envelope.raw_rows.len();
        let asked = usize::try_from(limit).unwrap_or(usize::MAX);
        (self.page.truncate)(&mut envelope.response, asked.saturating_sub(raw));
        let rows = (self.page.rows)(&envelope.response) + raw;
        let fetched = fetched + rows;
        let more = rows >= asked && !plan.single && plan.next_limit(fetched) > 0;
        if more {
            self.state = PagerState::Next {
                offset: offset.saturating_add(limit),
                fetched,
                plan,
            };
        } else {
            // The job is done: what it held and did not spend is free again.
            self.end().await;
        }
        Some(Ok(envelope))
    }

    /// Whether pages are left to fetch.
    pub(super) fn has_more(&self) -> bool {
        matches!(self.state, PagerState::Next { .. })
    }

    /// The job has ended: its holds go (the budget window's in the store
    /// awaited, so that a process about to exit leaves nothing held), and no
    /// page is fetched any more.
    pub(super) async fn end(&mut self) {
        self.state = PagerState::Done;
        if let Some(job) = self.job.take() {
            job.release_window().await;
        }
    }

    /// The pages as a stream, each page's envelope or the error that ends it.
    pub(super) fn into_stream(
        self,
    ) -> impl Stream<Item = Result<Envelope<Part>, Error>> + Send + Unpin {
        stream::unfold(self, |mut pager| async move {
            let page = pager.next_page().await?;
            Some((page, pager))
        })
        .boxed()
    }
}

/// How a request of a paged operation is paged.
pub(super) fn plan_pages(
    request: &Request,
    page_size: i64,
    max_rows: Option<usize>,
) -> Result<PagePlan, InvalidInput> {
    let op = request.operation();
    let Some(paging) = op.paging() else {
        return Err(InvalidInput {
            operation: op.label(),
            param: "(paging)".into(),
            value: page_size.to_string(),
            problem: "this operation does not page: it has no offset and limit parameters".into(),
        });
    };
    let value = |param: &Param| -> Option<String> {
        match request.get(param.wire) {
            Some([one]) => Some(one.clone()),
            Some(_) => None,
            None => param.default.map(str::to_owned),
        }
    };
    let offset_text = value(paging.offset).unwrap_or_default();
    let start = offset_text
        .trim()
        .parse::<i64>()
        .map_err(|_| InvalidInput {
            operation: op.label(),
            param: paging.offset.wire.into(),
            value: offset_text.clone(),
            problem: "must be a whole number".into(),
        })?;
    let single = op.rules.iter().any(|rule| {
        rule.require == paging.offset.wire
            && rule.equal_to.is_some()
            && op
                .param(rule.if_param)
                .and_then(&value)
                .is_some_and(|v| v == rule.if_value)
    });
    Ok(PagePlan {
        paging,
        start,
        page_size,
        max_rows,
        single,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(group: &str, action: &str) -> &'static Operation {
        Operation::find(group, action).unwrap()
    }

    #[test]
    fn the_pages_of_a_capped_job_cover_the_cap() {
        let keywords = op("domains", "keywords");
        let mut request = Request::new(keywords, None);
        request.one("domain", &"example.it".to_owned());
        request.one("type", &"best".to_owned());
        request.one("offset", &40i64);
        let pages: Vec<(String, String)> = request
            .pages(10, 25)
            .unwrap()
            .map(|page| {
                let get = |wire| page.get(wire).unwrap()[0].clone();
                (get("offset"), get("limit"))
            })
            .collect();
        let expected = [("40", "10"), ("50", "10"), ("60", "5")];
        assert_eq!(pages, expected.map(|(o, l)| (o.to_owned(), l.to_owned())));
        request.one("type", &"newentry".to_owned());
        assert_eq!(request.pages(10, 25).unwrap().count(), 1);
        let not_paged = Request::new(op("domains", "metrics"), None);
        assert!(not_paged.pages(10, 25).is_err());
    }

    #[test]
    fn a_pinned_offset_means_one_page() {
        let keywords = op("domains", "keywords");
        let mut request = Request::new(keywords, None);
        request.one("domain", &"example.it".to_owned());
        request.one("type", &"newentry".to_owned());
        request.one("limit", &100i64);
        assert!(plan_pages(&request, 10, None).unwrap().single);
        request.one("type", &"best".to_owned());
        let plan = plan_pages(&request, 10, Some(25)).unwrap();
        assert!(!plan.single);
        assert_eq!(
            (plan.next_limit(0), plan.next_limit(20), plan.next_limit(25)),
            (10, 5, 0)
        );
        assert_eq!(page_counts(10, 25), (2, 5));
    }
}
