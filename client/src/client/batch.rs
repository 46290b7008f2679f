//! Batched jobs: a request of any size split into the fewest requests the
//! operation accepts, sent under the rate limits with at most
//! [`BATCH_CONCURRENCY`] in flight, and merged back into one result.
//!
//! Batchable operations have a list parameter with the `input` role and a
//! `max_items` limit, as the generator derives it into the table:
//! [`Operation::batch_param`]. A job's inputs are deduplicated as the spec
//! compares the parameter's values (the first value given of each input wins
//! and is sent as given: [`Param::distinct`]), split into the fewest requests
//! of at most `max_items` values ([`Request::batches`]) and merged into one
//! result ([`Merge`]): rows back in input order, matched by their key field by
//! the same rule. Nothing here names an action.

use std::future::Future;
use std::sync::Arc;

use futures_util::stream::{FuturesUnordered, StreamExt};
use serde::de::DeserializeOwned;

use super::answers::Answers;
use super::merge::{InputOrder, Merge};
use super::run::{Failed, Ran};
use super::store_use::unreadable_stored;
use super::{Bounds, Client, JobHold, Stop};
use crate::charge::Charge;
use crate::decode::{Decoder, decode_typed};
use crate::envelope::Envelope;
use crate::error::partial::Missing;
use crate::error::{Error, ErrorKind};
use crate::operation_table::{Operation, Param, RecordInfo};
use crate::request::Request;
use crate::store::CachedAnswer;
use crate::units::Estimate;

/// Requests of one batched job in flight at once. Each request also waits for
/// its operation's rate-limit slot, so this only bounds the parallelism within
/// the per-minute figure.
pub const BATCH_CONCURRENCY: usize = 2;

impl Operation {
    /// The list parameter a batched job splits ([`Operation::batched_by`]):
    /// the generator's choice, the operation's list input (role `input`) with
    /// a `max_items` limit, when its result merges. `None` when there is none.
    pub fn batch_param(&self) -> Option<&'static Param> {
        self.param(self.batched_by?)
    }

    /// The field of the response record that names a row's input: the
    /// record's `key` in `records` (the spec's records).
    pub(crate) fn key_field(&self, records: &[RecordInfo]) -> Option<&'static str> {
        records
            .iter()
            .find(|r| r.name == self.response.payload)?
            .key
    }
}

impl Request {
    /// The requests a batched job sends for this one: the values of the
    /// operation's batch parameter ([`Operation::batch_param`]) without repeats
    /// (the first value given of each input, sent as given: values are the
    /// same input as the spec says for the parameter, [`Param::distinct`]),
    /// split into
    /// the fewest chunks of at most `max_items` values. A request of an operation
    /// that does not batch, or without values for the parameter, is its own only
    /// batch. Not validated: each batch is checked when estimated or sent.
    pub fn batches(&self) -> Vec<Request> {
        let op = self.operation();
        let Some((param, values)) = op.batch_param().and_then(|p| Some((p, self.get(p.wire)?)))
        else {
            return vec![self.clone()];
        };
        let unique = param.distinct(values);
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

impl Client {
    /// Send a request of any size as a batched job and merge the results into
    /// one typed result `T` (`Vec` of a record, or [`ByKey`](crate::types::ByKey)).
    ///
    /// The inputs of the operation's batch parameter are deduplicated and split
    /// into the fewest requests ([`Request::batches`]); every request is
    /// validated and the whole job's maximum estimate held against the budget
    /// from before the first is sent until the job ends ([`ErrorKind::OverBudget`]
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
    /// [`ErrorKind::Partial`]: it holds their merged result (rows in input order,
    /// units summed), the inputs without an answer and the error that stopped
    /// the job. When none was, it is that error itself. Under
    /// [`RateLimitMode::Refuse`](crate::config::RateLimitMode::Refuse), a job that needs
    /// more requests than the operation has slots left stops at the first one
    /// refused.
    ///
    /// # Errors
    ///
    /// Refused before the first request (nothing sent, nothing charged) when any batch breaks a
    /// limit of the spec, or the whole job's maximum cost does not fit the budget;
    /// [`ErrorKind::Partial`] when the job stops after some requests were answered; otherwise
    /// the error of its one failed request, as [`execute`](Self::execute) gives it.
    pub async fn execute_batched<T: DeserializeOwned + Merge + Send + Sync + 'static>(
        &self,
        request: Request,
    ) -> Result<Envelope<T>, Error> {
        self.execute_batched_with(request, |_, _| {}).await
    }

    /// Like [`execute_batched`](Self::execute_batched), calling
    /// `on_batch(done, total)` as each request of the job is answered (`done`
    /// counts them, whatever their order), for a progress display.
    ///
    /// # Errors
    ///
    /// As [`execute_batched`](Self::execute_batched).
    pub async fn execute_batched_with<T: DeserializeOwned + Merge + Send + Sync + 'static>(
        &self,
        request: Request,
        on_batch: impl FnMut(usize, usize) + Send,
    ) -> Result<Envelope<T>, Error> {
        self.batched(request, on_batch, None, decode_typed::<T>, |batch, job| {
            self.execute_in::<T>(batch, job)
        })
        .await
    }

    /// Like [`execute_batched_with`](Self::execute_batched_with), until
    /// `stop` is given, as
    /// [`execute_json_batched_until`](Self::execute_json_batched_until) stops:
    /// no request is sent after it (one waiting for its rate-limit slot or a
    /// retry is not sent), those in flight finish, and what was received is
    /// [`ErrorKind::Partial`] with the cause [`ErrorKind::Stopped`].
    ///
    /// # Errors
    ///
    /// As [`execute_batched`](Self::execute_batched), and
    /// [`ErrorKind::Stopped`] or [`ErrorKind::Partial`] once stopped.
    pub async fn execute_batched_until<T: DeserializeOwned + Merge + Send + Sync + 'static>(
        &self,
        request: Request,
        on_batch: impl FnMut(usize, usize) + Send,
        stop: &Stop,
    ) -> Result<Envelope<T>, Error> {
        self.batched(
            request,
            on_batch,
            Some(stop),
            decode_typed::<T>,
            |batch, job| self.execute_in::<T>(batch, job),
        )
        .await
    }

    /// [`execute_batched_with`](Self::execute_batched_with) decoded by
    /// `decode`, until `stop` if given. `Client::execute_json_batched` and
    /// `Client::execute_json_batched_until` (generated) hand it the table's
    /// decoder of every operation.
    #[doc(hidden)]
    pub async fn execute_batched_decoded<T: Merge + Send + Sync + 'static>(
        &self,
        request: Request,
        on_batch: impl FnMut(usize, usize) + Send,
        stop: Option<&Stop>,
        decode: Decoder<T>,
    ) -> Result<Envelope<T>, Error> {
        self.batched(request, on_batch, stop, decode, |batch, job| {
            self.execute_decoded_in(batch, decode, job)
        })
        .await
    }

    /// A batched job's envelope, or the error (or [`ErrorKind::Partial`])
    /// that ended it.
    async fn batched<T, F>(
        &self,
        request: Request,
        on_batch: impl FnMut(usize, usize) + Send,
        stop: Option<&Stop>,
        decode: impl Fn(&Operation, u16, &[u8]) -> Result<Envelope<T>, Error>,
        send: impl Fn(Request, Arc<JobHold>) -> F,
    ) -> Result<Envelope<T>, Error>
    where
        T: Merge + Send + Sync + 'static,
        F: Future<Output = Result<Envelope<T>, Error>>,
    {
        let op = request.operation();
        let bounds = Bounds::stop(stop);
        match self
            .run_batched(request, on_batch, bounds, decode, send)
            .await
        {
            Ok(ran) => Ok(ran.envelope),
            Err(failed) => Err(self.failure(op.label(), failed)),
        }
    }

    /// A batched job, kept to the caller's `bounds`: what its requests came
    /// to, or what it received before it stopped part-way.
    pub(super) async fn run_batched<T, F>(
        &self,
        request: Request,
        mut on_batch: impl FnMut(usize, usize) + Send,
        bounds: Bounds,
        decode: impl Fn(&Operation, u16, &[u8]) -> Result<Envelope<T>, Error>,
        send: impl Fn(Request, Arc<JobHold>) -> F,
    ) -> Result<Ran<T>, Failed<T>>
    where
        T: Merge + Send + Sync + 'static,
        F: Future<Output = Result<Envelope<T>, Error>>,
    {
        let op = request.operation();
        // Rows are merged in the order of every input, cached or not.
        let order = match op.batch_param() {
            Some(param) => {
                let inputs = param.distinct(request.get(param.wire).unwrap_or_default());
                InputOrder::new(param, &inputs, op.key_field(self.inner.records))
            }
            None => InputOrder::default(),
        };
        // The items the cache answers fresh are not asked again.
        let first = request
            .batches()
            .into_iter()
            .next()
            .unwrap_or_else(|| request.clone());
        let first = self.prepare(&first)?;
        let freshness = self.freshness(op, &first.query);
        let (rest, hits) = self.cached_items(request.clone(), freshness).await?;
        let cached = self
            .decode_hits(&first, hits, &decode, &bounds.tell)
            .await?;
        let batches = rest.map_or_else(Vec::new, |rest| rest.batches());
        let total = batches.len();
        let learned = self.learned_for_budget(op).await;
        // A request of one item the cache answers is answered by its call's
        // own lookup, for nothing: the budget counts what will be sent, as
        // [`Client::plan_job`] does.
        let answered_by_cache = match (total, cached.is_empty()) {
            (1, true) if self.budgeted() => {
                let only = self.prepare(&batches[0])?;
                self.cached_answer(&only, freshness).await?.is_some()
            }
            _ => false,
        };
        let estimate = match answered_by_cache {
            true => Estimate::ZERO,
            false => batches.iter().try_fold(Estimate::ZERO, |sum, batch| {
                Ok::<_, Error>(sum.plus(self.estimate_with(batch, learned)?))
            })?,
        };
        let what = match total {
            1 => op.label(),
            n => format!("{} ({n} requests)", op.label()),
        };
        // Held until the job ends, when this is dropped.
        let job = self.hold_job(&what, estimate, learned, bounds).await?;
        let stopped = || job.bounds().stopped();

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
            // Once stopped, likewise; a request in flight that has not gone
            // out yet sees the signal and ends without being sent.
            while failures.is_empty() && !stopped() && in_flight.len() < BATCH_CONCURRENCY {
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
        // Every request has ended and is recorded: the job's hold goes.
        job.release_window().await;
        // Stopped with nothing failed: the requests never started are missing
        // all the same, and the stop is why.
        if failures.is_empty()
            && let Some(index) = slots.iter().position(Option::is_none)
        {
            failures.push((index, Error::new(op.label(), ErrorKind::Stopped)));
        }
        // A failed request was sent unless nothing was charged for it (it
        // was refused, or stopped before it went out).
        let failed_sent = failures
            .iter()
            .filter(|(_, error)| error.charged() != Charge::None)
            .count();
        let cached_items = cached.len();
        let mut answers = Answers::new(total + cached.len());
        for envelope in cached {
            answers.add(envelope);
        }
        let (mut sent, mut cached_requests) = (failed_sent, 0);
        let mut unanswered = Vec::new();
        for (index, slot) in slots.into_iter().enumerate() {
            match slot {
                Some(envelope) => {
                    match envelope.fetched_at {
                        Some(_) => cached_requests += 1,
                        None => sent += 1,
                    }
                    answers.add(envelope);
                }
                None => unanswered.push(index),
            }
        }
        let reported = answers.latest();
        let known_remaining = self.units().remaining;
        let anything = answers.answered() > 0;
        let received = Ran {
            envelope: answers.merge(&order, known_remaining),
            reported,
            requests_sent: sent,
            cached_items,
            cached_requests,
        };
        // The error that stopped the job is the first failure in input order.
        failures.sort_by_key(|(index, _)| *index);
        let Some((_, cause)) = failures.into_iter().next() else {
            return Ok(received);
        };
        if !anything {
            return Err(Failed::Error(cause));
        }
        // The inputs without an answer, in input order: the batches are.
        let param = op.batch_param().map_or("", |p| p.wire);
        let values = unanswered
            .iter()
            .filter_map(|&i| batches.get(i)?.get(param))
            .flatten()
            .cloned()
            .collect();
        let missing = Missing::Inputs {
            param,
            values,
            requests: unanswered.len(),
        };
        Err(Failed::Part {
            received,
            missing,
            requests: total,
            cause,
        })
    }
}

impl Client {
    /// Cached item answers decoded as the job's results, recorded in the
    /// ledger as one hit and told to the caller's progress callback (`tell`).
    ///
    /// # Errors
    ///
    /// An answer this build cannot read: its item is not asked again (it
    /// was paid for), nor left out of the result unsaid.
    async fn decode_hits<T>(
        &self,
        first: &super::prepared::Prepared,
        hits: Vec<CachedAnswer>,
        decode: &impl Fn(&Operation, u16, &[u8]) -> Result<Envelope<T>, Error>,
        tell: &super::Tell,
    ) -> Result<Vec<Envelope<T>>, Error> {
        if hits.is_empty() {
            return Ok(Vec::new());
        }
        let op = first.op;
        let (items, saved) = (hits.len() as i64, hits.iter().map(|h| h.units_used).sum());
        let oldest = hits.iter().map(|h| h.fetched_at_ms).min().unwrap_or(0);
        // The last balance reported ([`Client::cached`] put it in every hit).
        let balance = hits.iter().filter_map(|h| h.units_remaining).min();
        let envelopes: Vec<Envelope<T>> = hits
            .into_iter()
            .map(|hit| {
                let mut envelope = decode(op, 200, &hit.body)
                    .map_err(|error| self.inner.key.hide(unreadable_stored(error)))?;
                envelope.units_used = 0;
                envelope.units_remaining = balance;
                envelope.unreported = Default::default();
                envelope.fetched_at = Some(super::store_use::time_of(hit.fetched_at_ms));
                envelope.no_data |= super::store_use::found_nothing(&envelope, &hit);
                Ok(envelope)
            })
            .collect::<Result<_, Error>>()?;
        let rows = envelopes.iter().map(|e| e.result_rows).sum();
        tracing::debug!(items, oldest, "items answered from the cache");
        let fetched_at = super::store_use::time_of(oldest);
        tell.cached(op, 0, envelopes.len(), fetched_at);
        self.record_hit(op, &first.database, items, rows, saved)
            .await;
        Ok(envelopes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::{OPERATIONS, RECORDS};

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
        assert_eq!(metrics.key_field(RECORDS), Some("domain"));
        let keywords = op("keywords", "metrics");
        assert_eq!(keywords.key_field(RECORDS), Some("keyword"));
        let urls = op("urls", "metrics");
        assert_eq!(urls.key_field(RECORDS), Some("url"));
    }

    #[test]
    fn batches_send_each_input_once_as_first_given() {
        let mut request = Request::new(op("keywords", "metrics"), None);
        let mut values: Vec<String> = (0..250).map(|i| format!("kw {i}")).collect();
        values.insert(3, " kw 7 ".into());
        values.push("KW 0".into());
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
}
