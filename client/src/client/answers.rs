//! The answers of a batched job's requests, gathered as they come and merged
//! into one envelope: the whole result of a job that succeeded, or the part
//! that was paid for of one that failed ([`crate::job::Partial`]).

use super::merge::InputOrder;
use crate::envelope::Envelope;

/// The answered requests of one job, in batch order.
pub(crate) struct Answers<T> {
    parts: Vec<T>,
    /// The rows of every answer that could not be typed, in batch order.
    raw_rows: Vec<crate::envelope::RawRow>,
    /// The first "no data found" answer, returned as is when every answer was.
    empty: Option<Envelope<T>>,
    rows: i64,
    used: i64,
    /// Requests in flight together may be charged in any order, so the latest
    /// balance is the lowest one reported.
    latest: Option<i64>,
    answered: usize,
    /// When the oldest answer that came from the cache was fetched.
    fetched_at: Option<std::time::SystemTime>,
    /// The envelope members the spec does not know, of every answer (a
    /// later answer's member replaces an earlier one's of the same name).
    extras: crate::record::UnknownMembers,
    /// The figures some answer did not report.
    unreported: crate::envelope::Unreported,
    /// Whether some answer did not report the balance.
    unknown_balance: bool,
}

impl<T> Answers<T> {
    /// Room for the answers of `requests` requests.
    pub(crate) fn new(requests: usize) -> Self {
        Answers {
            parts: Vec::with_capacity(requests),
            raw_rows: Vec::new(),
            empty: None,
            rows: 0,
            used: 0,
            latest: None,
            answered: 0,
            fetched_at: None,
            extras: Default::default(),
            unreported: Default::default(),
            unknown_balance: false,
        }
    }

    /// Requests answered so far.
    pub(crate) fn answered(&self) -> usize {
        self.answered
    }

    /// The latest balance an answer reported, if one did ("no data found"
    /// reports none).
    pub(crate) fn latest(&self) -> Option<i64> {
        self.latest
    }

    /// One more answer, in batch order. A "no data found" answer adds nothing.
    pub(crate) fn add(&mut self, envelope: Envelope<T>) {
        self.answered += 1;
        if let Some(at) = envelope.fetched_at {
            self.fetched_at = Some(self.fetched_at.map_or(at, |oldest| oldest.min(at)));
        }
        if envelope.no_data {
            self.empty.get_or_insert(envelope);
            return;
        }
        self.rows = self.rows.saturating_add(envelope.result_rows);
        self.used = self.used.saturating_add(envelope.units_used);
        if let Some(remaining) = envelope.units_remaining {
            self.latest = Some(self.latest.map_or(remaining, |l| l.min(remaining)));
        } else {
            self.unknown_balance = true;
        }
        self.unreported.units_used |= envelope.unreported.units_used;
        self.raw_rows.extend(envelope.raw_rows);
        self.extras.extend(envelope.extras);
        self.parts.push(envelope.response);
    }

    /// One envelope: the rows in input order, `result_rows` and `units_used`
    /// summed, the lowest balance reported (else, when no answer left it
    /// unreported, `known_remaining`, the client's last known one); the "no
    /// data found" envelope when every answer was that.
    pub(crate) fn merge(
        self,
        order: &InputOrder,
        known_remaining: Option<i64>,
        join: fn(Vec<T>, &InputOrder) -> T,
    ) -> Envelope<T> {
        let remaining = match self.unknown_balance {
            true => self.latest,
            false => self.latest.or(known_remaining),
        };
        match (self.parts.is_empty(), self.empty) {
            (true, Some(mut envelope)) => {
                envelope.units_remaining = self.latest.or(known_remaining);
                envelope
            }
            _ => Envelope {
                result_rows: self.rows,
                units_used: self.used,
                units_remaining: remaining,
                response: join(self.parts, order),
                raw_rows: self.raw_rows,
                extras: self.extras,
                unreported: self.unreported,
                no_data: false,
                fetched_at: self.fetched_at,
            },
        }
    }
}
