//! The last step of a run: its requests' answers made one result with its
//! figures ([`Outcome`]), or, for a run that stopped part-way, what it
//! received, what is missing and why ([`Partial`]). What a request counts as
//! (sent, answered by the cache) is decided here, in [`Tally`], for every
//! kind of job.

use super::Client;
use super::output::{Output, Part, typed};
use crate::charge::Charge;
use crate::envelope::Envelope;
use crate::error::partial::{Missing, Partial};
use crate::error::{Error, ErrorKind};
use crate::operation_table::Operation;
use crate::outcome::{Figures, Outcome};

/// What a run's requests came to, counted as they end.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Tally {
    /// Requests that reached the service.
    pub(crate) sent: usize,
    /// Inputs answered from the cache item by item.
    pub(crate) cached_items: usize,
    /// Requests answered whole from the cache.
    pub(crate) cached_requests: usize,
}

impl Tally {
    /// An answered request: from the cache (it has a fetch time) or sent.
    pub(crate) fn answered<T>(&mut self, envelope: &Envelope<T>) {
        match envelope.fetched_at {
            Some(_) => self.cached_requests += 1,
            None => self.sent += 1,
        }
    }

    /// A failed request: sent unless nothing was charged for it (it was
    /// refused, or stopped before it went out).
    pub(crate) fn failed(&mut self, error: &Error) {
        if error.charged() != Charge::None {
            self.sent += 1;
        }
    }

    /// Requests answered, by the service or whole by the cache.
    pub(crate) fn requests_answered(&self) -> usize {
        self.sent + self.cached_requests
    }
}

/// What a job's requests came to, before its figures are made.
pub(crate) struct Ran<T> {
    /// The result, merged.
    pub(crate) envelope: Envelope<T>,
    /// The latest balance an answer of the job reported (a "no data" answer
    /// reports none).
    pub(crate) reported: Option<i64>,
    /// What its requests counted as.
    pub(crate) tally: Tally,
}

impl Ran<Part> {
    /// The result given its type back.
    fn typed<T: Output>(self, op: &Operation) -> Ran<T> {
        Ran {
            envelope: self.envelope.map(|part| typed::<T>(part, op)),
            reported: self.reported,
            tally: self.tally,
        }
    }
}

impl<T> Ran<T> {
    /// A job that asked nothing and received nothing.
    pub(crate) fn nothing(response: T) -> Self {
        Ran {
            envelope: Envelope::no_data(response, None),
            reported: None,
            tally: Tally::default(),
        }
    }
}

/// A job that did not end with its whole result.
pub(crate) enum Failed<T> {
    /// Nothing received: the error itself.
    Error(Error),
    /// Stopped part-way.
    Part(Box<Stopped<T>>),
}

/// What a job that stopped part-way received, what is missing, the job's
/// requests in all, and why it stopped.
pub(crate) struct Stopped<T> {
    pub(crate) received: Ran<T>,
    pub(crate) missing: Missing,
    pub(crate) requests: usize,
    pub(crate) cause: Error,
}

impl<T> From<Error> for Failed<T> {
    fn from(error: Error) -> Self {
        Failed::Error(error)
    }
}

impl Client {
    /// A job's result and figures, or the error that ended it
    /// ([`ErrorKind::Partial`] with what it received).
    pub(crate) fn reduce<T: Output>(
        &self,
        op: &'static Operation,
        ran: Result<Ran<Part>, Failed<Part>>,
    ) -> Result<Outcome<T>, Error> {
        let operation = op.label();
        match ran.map(|ran| ran.typed(op)) {
            Ok(ran) => Ok(self.outcome(ran)),
            Err(Failed::Error(error)) => Err(error),
            Err(Failed::Part(stopped)) => {
                let Stopped {
                    received,
                    missing,
                    requests,
                    cause,
                } = *stopped;
                let received = self.outcome(received.typed::<T>(op));
                let partial = Partial::new(operation.clone(), received, requests, missing, cause);
                Err(Error::new(operation, ErrorKind::Partial(Box::new(partial))))
            }
        }
    }

    /// A job's figures, from what its requests came to.
    fn outcome<T>(&self, ran: Ran<T>) -> Outcome<T> {
        let Ran {
            envelope,
            reported,
            tally,
        } = ran;
        let cached = tally.cached_items + tally.cached_requests;
        let figures = Figures {
            requests_sent: tally.sent,
            from_cache: tally.sent == 0 && cached > 0,
            cached_items: tally.cached_items,
            cached_requests: tally.cached_requests,
            units_used: envelope.units_used,
            units_remaining: reported.or(self.units().remaining),
            no_data: envelope.no_data,
        };
        Outcome { envelope, figures }
    }
}
