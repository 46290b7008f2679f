//! What a call's attempts were charged, written to the two ledgers in one
//! place: this client's units ledger (which budgets read, shared by its
//! clones) and the store's (which usage, budget windows and other processes
//! read).
//!
//! The retry loop (`call`) writes nothing: it notes each attempt it retries
//! in [`Attempts`], and ends with the call's last answer. Once the call has
//! ended, [`Client::account`] writes every attempt the service may have
//! charged, each once: the retried ones (a retried call may be charged twice)
//! and the last, with its answer cached. A call whose future is dropped
//! before it ends (a timeout, a cancelled task) still has its retried attempts
//! written, as its [`Attempts`] are dropped.

use super::Client;
use std::time::Instant;

use super::prepared::Prepared;
use super::store_use::{AnswerFigures, RowExtras, items_of};
use crate::charge::{BodyUnits, Charge};
use crate::drift::Observation;
use crate::drift::observe;
use crate::drift::seen::Seen;
use crate::error::{Error, ErrorKind};
use crate::operation_table::Operation;
use crate::request::Request;
use crate::store::{LedgerEntry, now_ms};
use crate::units::Reservation;

/// What a call that got no answer was charged: nothing when it was refused,
/// stopped or out of time before it was sent; unknown after a transport
/// failure, which may have reached the service.
fn unanswered_charge(error: &Error) -> Charge {
    match error.kind() {
        _ if error.is_refused() => Charge::None,
        ErrorKind::WaitedTooLong { .. } => Charge::None,
        _ => Charge::Unknown,
    }
}

/// What a ledger row says of a charge that cannot be read: stores count it as
/// a call of 0 units (they count no negative charge).
const UNKNOWN_CHARGE: i64 = -1;

/// The attempts of one call that were tried again, as the retry loop reports
/// them: each may have been charged (a timeout too, though nobody can say
/// how much). Written to the ledgers by [`Client::account`], or, should the
/// call be dropped first, as this is dropped.
pub(super) struct Attempts {
    client: Client,
    /// The call's operation, database and input items, for the rows.
    op: &'static Operation,
    database: String,
    items: i64,
    /// When each was answered, and its units; `None` for one that got no
    /// answer (its charge is unknown, and it has no row).
    retried: Vec<(i64, Option<BodyUnits>)>,
}

impl Attempts {
    /// No attempt yet of the call `prepared` asking for `items` items.
    pub(super) fn new(client: &Client, prepared: &Prepared, items: i64) -> Attempts {
        Attempts {
            client: client.clone(),
            op: prepared.op,
            database: prepared.database.clone(),
            items,
            retried: Vec::new(),
        }
    }

    /// An attempt is tried again: it got `answered` (its units read from
    /// the body), or none.
    pub(super) fn retried(&mut self, answered: Option<BodyUnits>) {
        self.retried.push((now_ms(), answered));
    }

    /// The last attempt tried again is the call's last after all (the retry
    /// was not sent): its answer is the call's.
    pub(super) fn not_retried(&mut self) {
        self.retried.pop();
    }

    /// What the attempts tried again were charged together.
    pub(super) fn charged(&self) -> Charge {
        self.retried.iter().fold(Charge::None, |sum, (_, units)| {
            sum.plus(units.map_or(Charge::Unknown, BodyUnits::charge))
        })
    }

    /// The ledger rows of the attempts answered, taken out, each counted in
    /// the client's units ledger as it is taken.
    fn take_rows(&mut self) -> Vec<LedgerEntry> {
        let ledger = &self.client.inner.ledger;
        std::mem::take(&mut self.retried)
            .into_iter()
            .filter_map(|(at_ms, units)| {
                let units = units?;
                let charge = units.charge();
                // A budget must see what a retried attempt was charged.
                if let Charge::Units(used) = charge {
                    ledger.record(used, units.remaining);
                }
                Some(LedgerEntry {
                    at_ms,
                    ..ledger_row(
                        self.op,
                        &self.database,
                        self.items,
                        charge,
                        units.remaining,
                        None,
                    )
                })
            })
            .collect()
    }
}

impl Drop for Attempts {
    fn drop(&mut self) {
        let rows = self.take_rows();
        if rows.is_empty() {
            return;
        }
        // Outside a runtime (a client dropped after its runtime), the
        // client's ledger has them, and the store's cannot be written.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let client = self.client.clone();
            runtime.spawn(async move {
                for row in rows {
                    client.record(row).await;
                }
            });
        }
    }
}

/// A call admitted and about to be sent: what it holds until it ends.
pub(super) struct Sending<'a> {
    /// When the call began, for its latency.
    pub(super) started: Instant,
    /// Its maximum, reserved in the ledger; released when this is dropped.
    pub(super) reservation: Reservation<'a>,
    /// The window hold its ledger row shrinks (its job's), and the units it
    /// holds for this call.
    pub(super) hold: Option<(String, i64)>,
}

/// How a call's last attempt ended.
pub(super) enum Last<'a> {
    /// Answered and decoded: its figures, its body for the cache, and what
    /// its decode met that the spec does not say.
    Decoded {
        figures: AnswerFigures,
        body: Vec<u8>,
        seen: Vec<Seen>,
    },
    /// Answered with what does not decode into the result (a service error,
    /// a body cut short): `error` says what.
    Unread {
        body: Vec<u8>,
        error: &'a Error,
        seen: Vec<Seen>,
    },
    /// Not answered: refused or stopped before it was sent, a wait too long,
    /// or a transport failure.
    Unanswered { error: &'a Error },
}

/// What a call comes to once its attempts are in the ledgers.
pub(super) struct Accounted {
    /// The balance to report with a decoded answer: the answer's (`None`
    /// when it did not report one), or for "no data" (the service reports
    /// none) the last one known.
    pub(super) units_remaining: Option<i64>,
    /// What all its attempts were charged, for its error.
    pub(super) charged: Charge,
}

impl Client {
    /// The one place a call's attempts reach the ledgers, once the call has
    /// ended: the attempts tried again, then the last, whose answer is
    /// cached; its reservation settled (its units counted in the ledger now).
    pub(super) async fn account(
        &self,
        sending: Sending<'_>,
        request: &Request,
        prepared: &Prepared,
        mut attempts: Attempts,
        last: Last<'_>,
    ) -> Accounted {
        let earlier = attempts.charged();
        for row in attempts.take_rows() {
            self.record(row).await;
        }
        let Sending {
            started,
            reservation,
            hold,
        } = sending;
        let (units_remaining, charge) = match last {
            Last::Decoded {
                figures,
                body,
                seen,
            } => {
                reservation.settle(figures.units_used, figures.balance());
                let answer = (figures, body, seen);
                let remaining = self.account_decoded(request, prepared, answer, hold).await;
                (remaining, figures.charge())
            }
            Last::Unread { body, error, seen } => {
                let units = self.body_units(&body);
                // "No data found!" for a single object: the service charges none.
                let charge = match error.kind() {
                    ErrorKind::NoData => Charge::Units(0),
                    _ => units.charge(),
                };
                let used = match charge {
                    Charge::Units(n) => n,
                    _ => 0,
                };
                reservation.settle(used, units.remaining);
                let unread = (body, error, seen);
                self.account_unread(request, prepared, unread, (charge, units), hold)
                    .await;
                (None, charge)
            }
            Last::Unanswered { error } => {
                drop(reservation);
                (None, unanswered_charge(error))
            }
        };
        tracing::Span::current().record("latency_ms", started.elapsed().as_millis() as u64);
        Accounted {
            units_remaining,
            charged: earlier.plus(charge),
        }
    }

    /// A decoded answer's ledger row and cache entries; the balance to
    /// report with it.
    async fn account_decoded(
        &self,
        request: &Request,
        prepared: &Prepared,
        (figures, body, mut seen): (AnswerFigures, Vec<u8>, Vec<Seen>),
        hold: Option<(String, i64)>,
    ) -> Option<i64> {
        if !figures.no_data && !figures.unreported.units_used {
            let (rows, used) = (figures.result_rows, figures.units_used);
            seen.extend(observe::charge(prepared.op, rows, used));
        }
        let drift = self.drift_of(prepared, figures.result_rows, seen);
        let row = RowExtras { hold, drift };
        let freshness = self.freshness(prepared.op, &prepared.query);
        self.remember(request, prepared, (figures, body), row, freshness)
            .await;
        let units_remaining = match figures.no_data {
            true => self.units().remaining,
            false => figures.balance(),
        };
        let span = tracing::Span::current();
        span.record("units_used", figures.units_used);
        if let Some(units_remaining) = units_remaining {
            span.record("units_remaining", units_remaining);
        }
        units_remaining
    }

    /// An answer that does not decode into the result: its ledger row, with
    /// the drift it shows, and, when it was paid for, the answer kept.
    async fn account_unread(
        &self,
        request: &Request,
        prepared: &Prepared,
        (body, error, mut seen): (Vec<u8>, &Error, Vec<Seen>),
        (charge, units): (Charge, BodyUnits),
        hold: Option<(String, i64)>,
    ) {
        let used = match charge {
            Charge::Units(n) => n,
            _ => 0,
        };
        tracing::Span::current().record("units_used", used);
        let items = items_of(request);
        let (op, db) = (prepared.op, &prepared.database);
        let mut row = ledger_row(op, db, items, charge, units.remaining, hold);
        if let ErrorKind::Service {
            status, message, ..
        }
        | ErrorKind::OutOfUnits {
            status, message, ..
        } = error.kind()
        {
            seen.extend(observe::status(op, *status, message.as_deref()));
        }
        let rows = match seen.is_empty() {
            true => 0,
            false => self.result_rows_of(&body),
        };
        row.drift = self.drift_of(prepared, rows, seen);
        // A paid answer that does not decode at all is kept (in the same
        // write), until a client built from a fixed spec decodes it.
        let kept = match error.answer() {
            Some(_) => self.kept_undecoded(prepared, &body, used, units.remaining),
            None => Vec::new(),
        };
        self.record_with(row, kept).await;
        tracing::debug!(charged = %charge, "the answer was recorded though it does not decode");
    }
}

impl Client {
    /// `ResultRows` of a body that did not decode, when it can be read (else
    /// 0): the rows its drift was seen in.
    fn result_rows_of(&self, body: &[u8]) -> i64 {
        serde_json::from_slice::<serde_json::Value>(body)
            .ok()
            .and_then(|v| v.get(self.inner.service.envelope_result_rows)?.as_i64())
            .unwrap_or(0)
    }

    /// What a call saw that the spec does not say, as the store keeps it:
    /// under the client's origin, the key hidden in every text.
    fn drift_of(&self, prepared: &Prepared, rows: i64, seen: Vec<Seen>) -> Vec<Observation> {
        if seen.is_empty() {
            return Vec::new();
        }
        let call = observe::Call {
            origin: &self.inner.origin,
            op: prepared.op,
            at_ms: now_ms(),
            rows,
        };
        let drift = observe::observations(&call, seen, |text| self.inner.key.scrub(text));
        for observed in &drift {
            tracing::info!(
                operation = %prepared.op.label(),
                record = observed.record.as_str(),
                member = observed.member.as_str(),
                kind = observed.kind.as_str(),
                count = observed.count,
                "the answer holds what the spec does not say (see `seozoom drift`)"
            );
        }
        drift
    }
}

/// The ledger row of an attempt of a call of `op` on `db` for `items` input
/// items: its charge, the balance it reported, and the budget hold it shrinks.
fn ledger_row(
    op: &Operation,
    db: &str,
    items: i64,
    charge: Charge,
    balance: Option<i64>,
    hold: Option<(String, i64)>,
) -> LedgerEntry {
    LedgerEntry {
        at_ms: now_ms(),
        group: op.group.to_owned(),
        action: op.action.to_owned(),
        db: db.to_owned(),
        items,
        rows: 0,
        units_used: row_units(charge),
        balance,
        cache_hit: false,
        units_saved: 0,
        hold,
        drift: Vec::new(),
    }
}

/// A charge as a ledger row keeps it: units, 0 for none, or
/// [`UNKNOWN_CHARGE`].
pub(super) fn row_units(charge: Charge) -> i64 {
    match charge {
        Charge::Units(n) => n,
        Charge::None => 0,
        Charge::Unknown => UNKNOWN_CHARGE,
    }
}
