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

use std::sync::Arc;

use futures_util::stream::{FuturesUnordered, StreamExt};

use super::answers::Answers;
use super::merge::InputOrder;
use super::output::{Erased, Part};
use super::plan::{Plan, Planned, Sends};
use super::progress::Progress;
use super::reduce::{Failed, Ran, Stopped, Tally};
use super::run_options::RunOptions;
use super::store_use::unreadable_stored;
use super::{Client, JobHold};
use crate::decode::Decoder;
use crate::envelope::Envelope;
use crate::error::partial::Missing;
use crate::error::{Error, ErrorKind};
use crate::operation_table::{Operation, Param, RecordInfo};
use crate::request::Request;
use crate::store::CachedAnswer;

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

/// The answers of a job's requests as they came, each in its request's
/// slot, and the failures, each with its request's index.
struct Answered<T> {
    slots: Vec<Option<Envelope<T>>>,
    failures: Vec<(usize, Error)>,
}

impl Client {
    /// One request's result as the job's, and "no data found" for one object
    /// the empty result (`nothing`): the service was asked, and charged
    /// nothing.
    fn one_result(
        &self,
        op: &'static Operation,
        answer: Result<Envelope<Part>, Error>,
        nothing: fn(&Operation) -> Part,
    ) -> Result<Envelope<Part>, Error> {
        match answer {
            Err(error) if matches!(error.kind(), ErrorKind::NoData) => {
                Ok(Envelope::no_data(nothing(op), self.units().remaining))
            }
            answer => answer,
        }
    }

    /// A job that is not paged, carried out as `plan` says: the items the
    /// cache answers decoded, the requests sent (or answered whole from the
    /// cache) at most [`BATCH_CONCURRENCY`] at once under `job`'s hold, and
    /// what they came to merged in input order.
    pub(super) async fn run_requests(
        &self,
        op: &'static Operation,
        plan: Plan,
        (job, options): (Arc<JobHold>, &RunOptions),
        erased: Erased,
    ) -> Result<Ran<Part>, Failed<Part>> {
        let Plan { database, kind, .. } = plan;
        let Sends::Requests {
            order,
            item_hits,
            requests,
        } = kind
        else {
            return Ok(Ran::nothing((erased.nothing)(op)));
        };
        let tell = &job.bounds().tell;
        let hits = (item_hits, erased.decode);
        let cached = self.decode_hits(op, &database, hits, tell).await?;
        let inputs: Vec<Request> = requests.iter().map(|p| p.request.clone()).collect();
        let sent = self.send_requests(requests, &job, options, erased).await;
        // Every request has ended and is recorded: the job's hold goes.
        job.release_window().await;
        self.merge_sent(op, (&order, erased), cached, sent, &inputs)
    }

    /// The requests of a job sent, at most [`BATCH_CONCURRENCY`] at once,
    /// until one fails or the job is stopped.
    async fn send_requests(
        &self,
        requests: Vec<Planned>,
        job: &Arc<JobHold>,
        options: &RunOptions,
        erased: Erased,
    ) -> Answered<Part> {
        let total = requests.len();
        let mut sent = Answered {
            slots: std::iter::repeat_with(|| None).take(total).collect(),
            failures: Vec::new(),
        };
        let mut queue = requests.into_iter().enumerate();
        let mut in_flight = FuturesUnordered::new();
        let mut answered = 0;
        loop {
            // After a failure nothing more is started; the requests already in
            // flight are awaited, since the service may have charged them.
            // Once stopped, likewise; a request in flight that has not gone
            // out yet sees the signal and ends without being sent.
            while sent.failures.is_empty()
                && !job.bounds().stopped()
                && in_flight.len() < BATCH_CONCURRENCY
            {
                let Some((index, planned)) = queue.next() else {
                    break;
                };
                let Planned {
                    request,
                    prepared,
                    hit,
                } = planned;
                let op = prepared.op;
                let answer = self.answer((request, prepared), hit, erased.decode, job);
                let nothing = erased.nothing;
                in_flight.push(async move { (index, self.one_result(op, answer.await, nothing)) });
            }
            let Some((index, result)) = in_flight.next().await else {
                break;
            };
            match result {
                Ok(envelope) => {
                    answered += 1;
                    options.tell(Progress::Requests {
                        done: answered,
                        total,
                    });
                    if let Some(slot) = sent.slots.get_mut(index) {
                        *slot = Some(envelope);
                    }
                }
                Err(error) => sent.failures.push((index, error)),
            }
        }
        sent
    }

    /// What a job's requests came to, merged in input order with the items
    /// the cache answered; the first failure in input order, when one
    /// failed, with what was received.
    fn merge_sent(
        &self,
        op: &'static Operation,
        (order, erased): (&InputOrder, Erased),
        cached: Vec<Envelope<Part>>,
        sent: Answered<Part>,
        inputs: &[Request],
    ) -> Result<Ran<Part>, Failed<Part>> {
        let Answered {
            slots,
            mut failures,
        } = sent;
        // Stopped with nothing failed: the requests never started are missing
        // all the same, and the stop is why.
        if failures.is_empty()
            && let Some(index) = slots.iter().position(Option::is_none)
        {
            failures.push((index, Error::new(op.label(), ErrorKind::Stopped)));
        }
        let mut tally = Tally {
            cached_items: cached.len(),
            ..Tally::default()
        };
        for (_, error) in &failures {
            tally.failed(error);
        }
        let mut answers = Answers::new(slots.len() + cached.len());
        for envelope in cached {
            answers.add(envelope);
        }
        let mut unanswered = Vec::new();
        for (index, slot) in slots.into_iter().enumerate() {
            match slot {
                Some(envelope) => {
                    tally.answered(&envelope);
                    answers.add(envelope);
                }
                None => unanswered.push(index),
            }
        }
        let anything = answers.answered() > 0;
        let received = Ran {
            reported: answers.latest(),
            envelope: answers.merge(order, self.units().remaining, erased.merge),
            tally,
        };
        // The error that stopped the job is the first failure in input order.
        failures.sort_by_key(|(index, _)| *index);
        let Some((_, cause)) = failures.into_iter().next() else {
            return Ok(received);
        };
        if !anything {
            return Err(Failed::Error(cause));
        }
        Err(Failed::Part(Box::new(Stopped {
            received,
            missing: missing_inputs(op, &unanswered, inputs),
            requests: inputs.len(),
            cause,
        })))
    }

    /// Cached item answers decoded as the job's results, recorded in the
    /// ledger as one hit and told to the caller's progress callback (`tell`).
    ///
    /// # Errors
    ///
    /// An answer this build cannot read: its item is not asked again (it
    /// was paid for), nor left out of the result unsaid.
    async fn decode_hits(
        &self,
        op: &'static Operation,
        database: &str,
        (hits, decode): (Vec<CachedAnswer>, Decoder<Part>),
        tell: &super::Tell,
    ) -> Result<Vec<Envelope<Part>>, Error> {
        if hits.is_empty() {
            return Ok(Vec::new());
        }
        let (items, saved) = (hits.len() as i64, hits.iter().map(|h| h.units_used).sum());
        let oldest = hits.iter().map(|h| h.fetched_at_ms).min().unwrap_or(0);
        // The last balance reported ([`Client::cached`] put it in every hit).
        let balance = hits.iter().filter_map(|h| h.units_remaining).min();
        let envelopes: Vec<Envelope<Part>> = hits
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
        self.record_hit(op, database, items, rows, saved).await;
        Ok(envelopes)
    }
}

/// The inputs of the requests without an answer, in input order (the
/// requests are).
fn missing_inputs(op: &Operation, unanswered: &[usize], requests: &[Request]) -> Missing {
    let param = op.batch_param().map_or("", |p| p.wire);
    let values = unanswered
        .iter()
        .filter_map(|&i| requests.get(i)?.get(param))
        .flatten()
        .cloned()
        .collect();
    Missing::Inputs {
        param,
        values,
        requests: unanswered.len(),
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
