//! Bulk jobs at the least cost: auto-batching of list parameters and pagination
//! of `offset`/`limit` operations, with the whole job's cost estimated and held
//! against the budget before the first request.
//!
//! Everything is read from the operation table; nothing here names an action.
//!
//! - **Batchable** operations have a list parameter with the `input` role and
//!   a `max_items` limit: [`Operation::batch_param`]. A job's inputs are
//!   deduplicated (first occurrence wins, compared after trimming; the exact
//!   text of that occurrence is sent), split into the fewest requests of at
//!   most `max_items` values ([`Request::batches`]), sent under the rate limits
//!   with at most [`BATCH_CONCURRENCY`] requests in flight, and merged into one
//!   result ([`Merge`]): rows back in input order, matched by their key field.
//! - **Paged** operations have a parameter with the `offset` role and one
//!   with the `page_size` role: [`Operation::paging`]. [`Client::pages`] streams their
//!   rows page by page until a page comes back short or a row cap is reached. A
//!   rule that pins the offset to one value (`newentry`: offset must be 0) means
//!   the service does not page that query: one page is fetched.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use futures_core::Stream;
use futures_util::future::BoxFuture;
use futures_util::stream::{self, FuturesUnordered, StreamExt};
use serde::de::DeserializeOwned;

use crate::Envelope;
use crate::answers::Answers;
use crate::by_key::ByKey;
use crate::client::Client;
use crate::error::{Error, InvalidInput};
use crate::operations::RECORDS;
use crate::partial::{Missing, Partial};
use crate::request::Request;
use crate::table::{Operation, Param, Role};
use crate::units::{Estimate, JobHold};

/// Requests of one batched job in flight at once. Each request also waits for
/// its operation's rate-limit slot, so this only bounds the parallelism within
/// the per-minute figure.
pub const BATCH_CONCURRENCY: usize = 2;

/// A response record whose text fields can be read by wire name. The generator
/// implements it for every record of the spec; batched jobs use it to match rows
/// back to their inputs.
pub trait Row {
    /// The value of the text field with this wire name, if the record has one
    /// and it is not `null`.
    fn text_field(&self, wire: &str) -> Option<&str>;
}

/// The two parameters that page an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    /// Where a page starts (the parameter with the `offset` role).
    pub offset: &'static Param,
    /// Rows per page (the parameter with the `page_size` role).
    pub limit: &'static Param,
}

impl Operation {
    /// The list parameter a batched job splits: the operation's list input
    /// (role `input`) with a `max_items` limit. `None` when there is none.
    pub fn batch_param(&self) -> Option<&'static Param> {
        self.param_with(Role::Input)
            .filter(|p| p.list && p.max_items.is_some())
    }

    /// The parameters that page the operation: the ones with the `offset` and
    /// `page_size` roles. `None` when it has not both.
    pub fn paging(&self) -> Option<Paging> {
        Some(Paging {
            offset: self.param_with(Role::Offset)?,
            limit: self.param_with(Role::PageSize)?,
        })
    }

    /// The field of the response record that names a row's input: the
    /// record's `key` in the spec.
    fn key_field(&self) -> Option<&'static str> {
        RECORDS
            .iter()
            .find(|r| r.name == self.response.payload)?
            .key
    }
}

/// Values without repeats: the first occurrence of each trimmed value, as given.
fn dedupe(values: &[String]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    values
        .iter()
        .filter(|v| seen.insert(v.trim().to_owned()))
        .cloned()
        .collect()
}

impl Request {
    /// The requests a paged job ([`Client::pages`]) with this page size and a
    /// cap of `max_rows` rows sends at most, in order; fewer go out when a page
    /// comes back short, and one when a rule pins the offset. For dry runs: the
    /// requests are made lazily and not validated (each is checked when
    /// estimated or sent).
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

    /// The requests a batched job sends for this one: the values of the
    /// operation's batch parameter ([`Operation::batch_param`]) without repeats
    /// (the first occurrence of each trimmed value, sent as given), split into
    /// the fewest chunks of at most `max_items` values. A request of an operation
    /// that does not batch, or without values for the parameter, is its own only
    /// batch. Not validated: each batch is checked when estimated or sent.
    pub fn batches(&self) -> Vec<Request> {
        let op = self.operation();
        let Some((param, values)) = op.batch_param().and_then(|p| Some((p, self.get(p.wire)?)))
        else {
            return vec![self.clone()];
        };
        let unique = dedupe(values);
        let size = param.max_items.map_or(usize::MAX, |m| {
            usize::try_from(m.value.max(1)).unwrap_or(usize::MAX)
        });
        if unique.len() <= size {
            let mut only = self.clone();
            only.set(param.wire, unique);
            return vec![only];
        }
        unique
            .chunks(size)
            .map(|chunk| {
                let mut batch = self.clone();
                batch.set(param.wire, chunk.to_vec());
                batch
            })
            .collect()
    }
}

/// Where each input of a batched job stands, to put merged rows back in input
/// order.
#[derive(Debug, Clone, Default)]
pub struct InputOrder {
    key_field: Option<&'static str>,
    positions: HashMap<String, usize>,
}

impl InputOrder {
    /// The order of `inputs` (already without repeats), matched on `key_field`.
    pub fn new(inputs: &[String], key_field: Option<&'static str>) -> Self {
        let mut positions = HashMap::new();
        for (i, input) in inputs.iter().enumerate() {
            positions.entry(normalise(input)).or_insert(i);
        }
        InputOrder {
            key_field,
            positions,
        }
    }

    /// The wire name of the record field that names a row's input, if any.
    pub fn key_field(&self) -> Option<&'static str> {
        self.key_field
    }

    /// The input position of a key, compared normalised (case, surrounding
    /// spaces, a leading `www.` and a trailing `/` do not count).
    pub fn position(&self, key: &str) -> Option<usize> {
        self.positions.get(&normalise(key)).copied()
    }

    /// `rows` reordered by the input each names (rows of one input keep their
    /// order); rows that name no input follow, in the order given.
    pub fn sort<R>(&self, rows: Vec<R>, key: impl Fn(&R) -> Option<&str>) -> Vec<R> {
        let mut matched = Vec::with_capacity(rows.len());
        let mut unmatched = Vec::new();
        for row in rows {
            match key(&row).and_then(|k| self.position(k)) {
                Some(position) => matched.push((position, row)),
                None => unmatched.push(row),
            }
        }
        matched.sort_by_key(|(position, _)| *position);
        matched
            .into_iter()
            .map(|(_, row)| row)
            .chain(unmatched)
            .collect()
    }
}

/// An input or a key as compared: trimmed, lower case, without a leading `www.`
/// (after any scheme) and without a trailing `/`.
fn normalise(text: &str) -> String {
    let lower = text.trim().to_lowercase();
    let (scheme, rest) = match lower.find("://") {
        Some(at) => lower.split_at(at + 3),
        None => ("", lower.as_str()),
    };
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    format!("{scheme}{rest}")
}

/// A result that the results of several batches merge into.
pub trait Merge: Sized {
    /// One result from the non-empty results of a job's batches, in batch order.
    fn merge(parts: Vec<Self>, order: &InputOrder) -> Self;
}

impl<R: Row> Merge for Vec<R> {
    /// Rows in input order, matched by the key field; rows with no matching
    /// input keep the service's order, at the end.
    fn merge(parts: Vec<Self>, order: &InputOrder) -> Self {
        let rows: Vec<R> = parts.into_iter().flatten().collect();
        match order.key_field() {
            Some(field) => order.sort(rows, |row| row.text_field(field)),
            None => rows,
        }
    }
}

impl<V> Merge for ByKey<V> {
    /// The maps joined (a key met twice keeps its first value).
    fn merge(parts: Vec<Self>, _order: &InputOrder) -> Self {
        let mut merged = ByKey::default();
        for part in parts {
            for (key, value) in part {
                merged.0.entry(key).or_insert(value);
            }
        }
        merged
    }
}

impl Merge for serde_json::Value {
    /// Arrays are joined and put in input order by the key field's member;
    /// objects are joined (a member met twice keeps its first value).
    fn merge(parts: Vec<Self>, order: &InputOrder) -> Self {
        use serde_json::Value;
        let mut rows = Vec::new();
        let mut members = serde_json::Map::new();
        let (mut arrays, mut objects) = (false, false);
        let mut other = None;
        for part in parts {
            match part {
                Value::Array(items) => {
                    arrays = true;
                    rows.extend(items);
                }
                Value::Object(map) => {
                    objects = true;
                    for (key, value) in map {
                        members.entry(key).or_insert(value);
                    }
                }
                Value::Null => {}
                value => other = other.or(Some(value)),
            }
        }
        if arrays {
            let field = order.key_field();
            Value::Array(order.sort(rows, |row| row.get(field?)?.as_str()))
        } else if objects {
            Value::Object(members)
        } else {
            other.unwrap_or(Value::Null)
        }
    }
}

/// A bulk job whose whole cost [`Client::estimate_job`] gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Job {
    /// The request's batches ([`Request::batches`]), as
    /// [`Client::execute_batched`] sends them.
    Batched,
    /// The pages [`Client::pages`] fetches with this page size and row cap.
    Pages {
        /// Rows per request (the limit parameter of every page but a last,
        /// smaller one).
        page_size: i64,
        /// The most rows wanted; `None` pages until a short page.
        max_rows: Option<usize>,
    },
}

/// How a paged job runs, from its request.
#[derive(Debug, Clone)]
struct PagePlan {
    paging: Paging,
    /// Offset of the first page.
    start: i64,
    page_size: i64,
    max_rows: Option<usize>,
    /// The service does not page this query (a rule pins the offset): one page.
    single: bool,
}

impl PagePlan {
    /// The limit of the next page after `fetched` rows; 0 when the job is done.
    fn next_limit(&self, fetched: usize) -> i64 {
        let left = self.max_rows.map_or(i64::MAX, |cap| {
            i64::try_from(cap.saturating_sub(fetched)).unwrap_or(i64::MAX)
        });
        self.page_size.min(left).max(0)
    }

    /// The request of one page.
    fn page(&self, request: &Request, offset: i64, limit: i64) -> Request {
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
    /// The whole cost range of a bulk job, from the spec's figures, before
    /// anything is sent: the sum of the estimates of its batches, or of its
    /// pages. Every request of the job is validated first, so an invalid one
    /// gives its error here.
    ///
    /// A paged job without a row cap has no finite maximum: its `max` is
    /// `i64::MAX`.
    pub fn estimate_job(&self, request: &Request, job: Job) -> Result<Estimate, Error> {
        match job {
            Job::Batched => request
                .batches()
                .iter()
                .try_fold(Estimate::ZERO, |sum, batch| {
                    Ok(sum.plus(self.estimate(batch)?))
                }),
            Job::Pages {
                page_size,
                max_rows,
            } => {
                let plan = plan_pages(request, page_size, max_rows)?;
                self.estimate_pages(request, &plan)
            }
        }
    }

    fn estimate_pages(&self, request: &Request, plan: &PagePlan) -> Result<Estimate, Error> {
        // A full page is validated whatever the cap: the page size must be a
        // limit the operation accepts.
        let full_page = self.estimate(&plan.page(request, plan.start, plan.page_size))?;
        let first = plan.next_limit(0);
        if first == 0 {
            return Ok(Estimate::ZERO);
        }
        let first_page = self.estimate(&plan.page(request, plan.start, first))?;
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
            unknown: full_page.unknown,
        };
        if rest > 0 {
            sum = sum.plus(self.estimate(&plan.page(request, plan.start, rest))?);
        }
        Ok(sum)
    }

    /// Hold a job's maximum estimate against the budget until the job ends, or
    /// refuse the job when it exceeds what is left. The job's requests reserve
    /// from the hold, so other calls and jobs on this client and its clones
    /// cannot take what the job was admitted with.
    fn hold_job(&self, what: &str, estimate: Estimate) -> Result<Arc<JobHold>, Error> {
        self.ledger().admit(what, estimate)?;
        // No finite budget covers an unbounded job: the ledger refuses it; the
        // name says how to bound it.
        let what = match estimate.max {
            i64::MAX => format!("{what} (no row cap: give one to bound the cost)"),
            _ => what.to_owned(),
        };
        self.ledger().hold_job(&what, estimate.max).map(Arc::new)
    }

    /// Send a request of any size as a batched job and merge the results into
    /// one typed result `T` (`Vec` of a record, or [`ByKey`]).
    ///
    /// The inputs of the operation's batch parameter are deduplicated and split
    /// into the fewest requests ([`Request::batches`]); every request is
    /// validated and the whole job's maximum estimate held against the budget
    /// from before the first is sent until the job ends ([`Error::OverBudget`]
    /// when it does not fit: nothing sent). Requests go
    /// under the rate limits, at most [`BATCH_CONCURRENCY`] at once. The merged
    /// envelope has the rows in input order (matched back by their key field:
    /// the service may reorder them), `result_rows` and `units_used` summed over
    /// the requests and `units_remaining` the latest balance reported (the lowest
    /// of the answers: requests in flight together may be charged in any order); a batch
    /// answered "no data found" adds nothing, and `no_data` is set only when
    /// every batch was.
    ///
    /// The first failing request stops the job: nothing more is sent, and the
    /// requests already in flight are awaited (the service may have charged
    /// them). When some requests were answered, the error is
    /// [`Error::Partial`]: it holds their merged result (rows in input order,
    /// units summed), the inputs without an answer and the error that stopped
    /// the job. When none was, it is that error itself. Under
    /// [`RateLimitMode::Refuse`](crate::config::RateLimitMode::Refuse), a job that needs
    /// more requests than the operation has slots left stops at the first one
    /// refused.
    pub async fn execute_batched<T: DeserializeOwned + Merge + Send + Sync + 'static>(
        &self,
        request: Request,
    ) -> Result<Envelope<T>, Error> {
        self.execute_batched_with(request, |_, _| {}).await
    }

    /// Like [`execute_batched`](Self::execute_batched), calling
    /// `on_batch(done, total)` as each request of the job is answered (`done`
    /// counts them, whatever their order), for a progress display.
    pub async fn execute_batched_with<T: DeserializeOwned + Merge + Send + Sync + 'static>(
        &self,
        request: Request,
        on_batch: impl FnMut(usize, usize) + Send,
    ) -> Result<Envelope<T>, Error> {
        self.run_batched(request, on_batch, |batch, job| {
            self.execute_in::<T>(batch, job)
        })
        .await
    }

    /// Like [`execute_batched_with`](Self::execute_batched_with), for any
    /// operation: each batch is decoded as with
    /// [`execute_json`](Self::execute_json) and the `response`s merged as JSON
    /// (arrays in input order by the key field's member, objects joined).
    pub async fn execute_json_batched(
        &self,
        request: Request,
        on_batch: impl FnMut(usize, usize) + Send,
    ) -> Result<Envelope<serde_json::Value>, Error> {
        self.run_batched(request, on_batch, |batch, job| {
            self.execute_json_in(batch, job)
        })
        .await
    }

    async fn run_batched<T, F>(
        &self,
        request: Request,
        mut on_batch: impl FnMut(usize, usize) + Send,
        send: impl Fn(Request, Arc<JobHold>) -> F,
    ) -> Result<Envelope<T>, Error>
    where
        T: Merge + Send + Sync + 'static,
        F: Future<Output = Result<Envelope<T>, Error>>,
    {
        let op = request.operation();
        let batches = request.batches();
        let total = batches.len();
        let estimate = batches.iter().try_fold(Estimate::ZERO, |sum, batch| {
            Ok::<_, Error>(sum.plus(self.estimate(batch)?))
        })?;
        let what = match total {
            1 => op.label(),
            n => format!("{} ({n} requests)", op.label()),
        };
        // Held until the job ends, when this is dropped.
        let job = self.hold_job(&what, estimate)?;

        let order = match op.batch_param() {
            Some(param) => {
                let inputs: Vec<String> = batches
                    .iter()
                    .flat_map(|b| b.get(param.wire).unwrap_or_default().iter().cloned())
                    .collect();
                InputOrder::new(&inputs, op.key_field())
            }
            None => InputOrder::default(),
        };

        // Each batch's answer, kept in its slot: they come in any order, and
        // are merged in batch order.
        let mut slots: Vec<Option<Envelope<T>>> = Vec::with_capacity(total);
        slots.resize_with(total, || None);
        let mut queue = batches.iter().cloned().enumerate();
        let mut in_flight = FuturesUnordered::new();
        let mut failures: Vec<(usize, Error)> = Vec::new();
        let mut answered = 0;
        loop {
            // After a failure nothing more is started; the requests already in
            // flight are awaited, since the service may have charged them.
            while failures.is_empty() && in_flight.len() < BATCH_CONCURRENCY {
                let Some((index, batch)) = queue.next() else {
                    break;
                };
                let answer = send(batch, Arc::clone(&job));
                in_flight.push(async move { (index, answer.await) });
            }
            let Some((index, result)) = in_flight.next().await else {
                break;
            };
            match result {
                Ok(envelope) => {
                    answered += 1;
                    on_batch(answered, total);
                    if let Some(slot) = slots.get_mut(index) {
                        *slot = Some(envelope);
                    }
                }
                Err(error) => failures.push((index, error)),
            }
        }
        let mut answers = Answers::new(total);
        let mut unanswered = Vec::new();
        for (index, slot) in slots.into_iter().enumerate() {
            match slot {
                Some(envelope) => answers.add(envelope),
                None => unanswered.push(index),
            }
        }
        let known_remaining = self.units().remaining.unwrap_or(0);
        // The error that stopped the job is the first failure in input order.
        failures.sort_by_key(|(index, _)| *index);
        let Some((_, cause)) = failures.into_iter().next() else {
            return Ok(answers.merge(&order, known_remaining));
        };
        if answers.answered() == 0 {
            return Err(cause);
        }
        // The inputs without an answer, in input order: the batches are.
        let param = op.batch_param().map_or("", |p| p.wire);
        let values = unanswered
            .iter()
            .filter_map(|&i| batches.get(i)?.get(param))
            .flatten()
            .cloned()
            .collect();
        let missing = Missing {
            param,
            values,
            requests: unanswered.len(),
        };
        let received = answers.merge(&order, known_remaining);
        Err(Error::Partial(Box::new(Partial::new(
            op.label(),
            received,
            total,
            missing,
            cause,
        ))))
    }

    /// The rows of a paged operation ([`Operation::paging`]) as a stream, page by
    /// page: each request asks for `page_size` rows (fewer for a last page that
    /// reaches `max_rows`) from where the previous page ended, starting at the
    /// request's own offset (its default when not set). The request's limit is
    /// replaced by `page_size`. Paging stops when a page comes back short (or
    /// "no data found"), or when `max_rows` rows have come; `None` sets no cap.
    ///
    /// When a rule of the operation pins the offset for this request (domains
    /// `keywords` with `newentry`: the service does not page it), one page is
    /// fetched.
    ///
    /// Before the first request, the pages are validated and the whole job's
    /// maximum estimate ([`Job::Pages`]) is held against the budget until the
    /// last page (or until the stream is dropped); a job
    /// without a row cap has no finite maximum, so under a budget it is refused.
    /// A refusal or a failed page is the stream's last item.
    ///
    /// Pages are fetched one at a time (whether there is a next one depends on
    /// the last), under the operation's rate limit.
    pub fn pages<T>(
        &self,
        request: Request,
        page_size: i64,
        max_rows: Option<usize>,
    ) -> impl Stream<Item = Result<T, Error>> + Send + Unpin + use<T>
    where
        T: DeserializeOwned + Send + 'static,
    {
        let fetch: Fetch<T> = |client, page, job| {
            Box::pin(async move { Ok(client.execute_rows_in::<T>(page, job).await?.response) })
        };
        self.pager(request, page_size, max_rows, fetch)
    }

    /// Like [`pages`](Self::pages), for any paged operation: each row is decoded
    /// as the operation's typed record, as with
    /// [`execute_json`](Self::execute_json), and re-encoded as JSON with the
    /// API's field names.
    #[inline]
    pub fn pages_json(
        &self,
        request: Request,
        page_size: i64,
        max_rows: Option<usize>,
    ) -> impl Stream<Item = Result<serde_json::Value, Error>> + Send + Unpin + use<> {
        let fetch: Fetch<serde_json::Value> = |client, page, job| {
            Box::pin(async move {
                Ok(match client.execute_json_in(page, job).await?.response {
                    serde_json::Value::Array(rows) => rows,
                    serde_json::Value::Null => Vec::new(),
                    other => vec![other],
                })
            })
        };
        self.pager(request, page_size, max_rows, fetch)
    }

    fn pager<T: Send + 'static>(
        &self,
        request: Request,
        page_size: i64,
        max_rows: Option<usize>,
        fetch: Fetch<T>,
    ) -> impl Stream<Item = Result<T, Error>> + Send + Unpin + use<T> {
        let pager = Pager {
            client: self.clone(),
            request,
            page_size,
            max_rows,
            state: PagerState::Start,
            fetch,
            job: None,
        };
        stream::unfold(pager, Pager::step)
            .flat_map(stream::iter)
            .boxed()
    }
}

/// How a paged job fetches the rows of one page.
type Fetch<T> = fn(Client, Request, Arc<JobHold>) -> BoxFuture<'static, Result<Vec<T>, Error>>;

/// Where a paged job stands.
#[derive(Debug)]
enum PagerState {
    /// Not planned yet.
    Start,
    /// Fetching: the next offset and the rows so far.
    Next {
        plan: PagePlan,
        offset: i64,
        fetched: usize,
    },
    /// Nothing more to fetch.
    Done,
}

struct Pager<T> {
    client: Client,
    request: Request,
    page_size: i64,
    max_rows: Option<usize>,
    state: PagerState,
    fetch: Fetch<T>,
    /// The job's hold against the budget, from its start until its last page.
    job: Option<Arc<JobHold>>,
}

impl<T> Pager<T> {
    /// One page: its rows (or the error that ends the stream) and what follows.
    async fn step(mut self) -> Option<(Vec<Result<T, Error>>, Self)> {
        let (plan, offset, fetched) = match std::mem::replace(&mut self.state, PagerState::Done) {
            PagerState::Done => return None,
            PagerState::Next {
                plan,
                offset,
                fetched,
            } => (plan, offset, fetched),
            PagerState::Start => match self.start() {
                Ok((plan, job)) => {
                    self.job = Some(job);
                    let start = plan.start;
                    (plan, start, 0)
                }
                Err(error) => return Some((vec![Err(error)], self)),
            },
        };
        let limit = plan.next_limit(fetched);
        if limit == 0 {
            return None;
        }
        let page = plan.page(&self.request, offset, limit);
        let job = self.job.clone()?;
        let mut rows = match (self.fetch)(self.client.clone(), page, job).await {
            Ok(rows) => rows,
            Err(error) => {
                self.job = None;
                return Some((vec![Err(error)], self));
            }
        };
        let asked = usize::try_from(limit).unwrap_or(usize::MAX);
        let full = rows.len() >= asked;
        rows.truncate(asked);
        let fetched = fetched + rows.len();
        let more = full && !plan.single && plan.next_limit(fetched) > 0;
        if more {
            self.state = PagerState::Next {
                offset: offset.saturating_add(limit),
                fetched,
                plan,
            };
        } else {
            // The job is done: what it held and did not spend is free again.
            self.job = None;
        }
        Some((rows.into_iter().map(Ok).collect(), self))
    }

    /// Plan the job, validate it and hold its cost against the budget.
    fn start(&self) -> Result<(PagePlan, Arc<JobHold>), Error> {
        let plan = plan_pages(&self.request, self.page_size, self.max_rows)?;
        let estimate = self.client.estimate_pages(&self.request, &plan)?;
        let what = self.request.operation().label();
        let job = self.client.hold_job(&what, estimate)?;
        Ok((plan, job))
    }
}

/// How a request of a paged operation is paged.
fn plan_pages(
    request: &Request,
    page_size: i64,
    max_rows: Option<usize>,
) -> Result<PagePlan, Error> {
    let op = request.operation();
    let Some(paging) = op.paging() else {
        return Err(Error::InvalidInput(InvalidInput {
            operation: op.label(),
            param: "(paging)".into(),
            value: page_size.to_string(),
            problem: "this operation does not page: it has no offset and limit parameters".into(),
        }));
    };
    let value = |param: &Param| -> Option<String> {
        match request.get(param.wire) {
            Some([one]) => Some(one.clone()),
            Some(_) => None,
            None => param.default.map(str::to_owned),
        }
    };
    let offset_text = value(paging.offset).unwrap_or_default();
    let start = offset_text.trim().parse::<i64>().map_err(|_| {
        Error::InvalidInput(InvalidInput {
            operation: op.label(),
            param: paging.offset.wire.into(),
            value: offset_text.clone(),
            problem: "must be a whole number".into(),
        })
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
    use crate::operations::OPERATIONS;

    fn op(group: &str, action: &str) -> &'static Operation {
        Operation::find(group, action).unwrap()
    }

    #[test]
    fn batchable_and_paged_operations_come_from_the_table() {
        let batchable: Vec<String> = OPERATIONS
            .iter()
            .filter_map(|o| Some(format!("{} {}", o.label(), o.batch_param()?.wire)))
            .collect();
        assert_eq!(
            batchable,
            [
                "domains metrics domain",
                "domains metricshistory domain",
                "domains authority domain",
                "domains niches domain",
                "domains competitor domain",
                "urls metrics url",
                "keywords metrics keyword",
                "keywords serp keyword",
            ]
        );
        let paged: Vec<String> = OPERATIONS
            .iter()
            .filter_map(|o| {
                let p = o.paging()?;
                Some(format!("{} {} {}", o.label(), p.offset.wire, p.limit.wire))
            })
            .collect();
        assert_eq!(
            paged,
            [
                "domains keywords offset limit",
                "domains aikeywords offset limit"
            ]
        );
    }

    #[test]
    fn key_fields_come_from_the_spec() {
        let metrics = op("domains", "metrics");
        assert_eq!(metrics.key_field(), Some("domain"));
        let keywords = op("keywords", "metrics");
        assert_eq!(keywords.key_field(), Some("keyword"));
        let urls = op("urls", "metrics");
        assert_eq!(urls.key_field(), Some("url"));
    }

    #[test]
    fn batches_dedupe_after_trimming_and_keep_the_first_text() {
        let mut request = Request::new(op("keywords", "metrics"), None);
        let mut values: Vec<String> = (0..250).map(|i| format!("kw {i}")).collect();
        values.insert(3, " kw 7 ".into());
        values.push("kw 0".into());
        request.set("keyword", values);
        let batches = request.batches();
        assert_eq!(batches.len(), 3);
        let sizes: Vec<usize> = batches
            .iter()
            .map(|b| b.get("keyword").unwrap().len())
            .collect();
        assert_eq!(sizes, [100, 100, 50]);
        let first = batches[0].get("keyword").unwrap();
        assert_eq!(first[3], " kw 7 ");
        assert!(!first[4..].iter().any(|v| v == "kw 7"));
    }

    #[test]
    fn rows_are_put_back_in_input_order_by_their_normalised_key() {
        let inputs: Vec<String> = ["B.it", "https://www.a.it/", "c.it"]
            .map(String::from)
            .to_vec();
        let order = InputOrder::new(&inputs, Some("domain"));
        let rows = serde_json::json!([
            {"domain": "zz.it", "n": 0},
            {"domain": "c.it", "n": 1},
            {"domain": "https://a.it", "n": 2},
            {"domain": "www.b.it", "n": 3},
            {"n": 4},
        ]);
        let merged = serde_json::Value::merge(vec![rows], &order);
        let ns: Vec<i64> = merged
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["n"].as_i64().unwrap())
            .collect();
        assert_eq!(ns, [3, 2, 1, 0, 4]);
    }

    #[test]
    fn maps_merge_and_objects_join() {
        let a: ByKey<i64> = serde_json::from_str(r#"{"x":1}"#).unwrap();
        let b: ByKey<i64> = serde_json::from_str(r#"{"y":2,"x":9}"#).unwrap();
        let merged = ByKey::merge(vec![a, b], &InputOrder::default());
        assert_eq!(merged.get("x"), Some(&1));
        assert_eq!(merged.get("y"), Some(&2));
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
