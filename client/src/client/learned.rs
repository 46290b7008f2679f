//! Estimates refined by what the store's ledger learned: an operation whose
//! cost the spec does not know, or prints as two figures, is estimated from
//! the charge per row the service reported for it before
//! ([`crate::units::estimate_learned`] decides what the figure may change).
//!
//! The ledger is async and estimation is not, so the refinement is a step of
//! the plan ([`Client::plan`]): for an estimate, whenever the ledger can tell
//! what the spec does not; for a run, only when it can matter, for an unknown
//! cost under a budget (two figures keep the spec's range as the bound, so
//! the checks would not change).
//!
//! What the ledger learned, over the last [`LEARNED_OVER_DAYS`] days for this
//! key: an operation whose cost the spec does not know, once the ledger has
//! seen it return rows, is estimated `0..=charge per row x most rows`, marked
//! [`Basis::Observed`](crate::units::Basis::Observed) and no longer `unknown`
//! (a budget can admit it); an operation printed with two figures keeps the
//! spec's range, which bounds every reading of them, and reports the learned
//! figure in [`Estimate::learned`]; any other operation's estimate is the
//! spec's, and the store is not read.

use super::Client;
use super::job::Job;
use super::pages::plan_pages;
use super::prepared::Prepared;
use crate::error::Error;
use crate::operation_table::{Charged, Operation};
use crate::request::Request;
use crate::store::now_ms;
use crate::units::{Estimate, LEARNED_OVER_DAYS, Learned, estimate_learned, learns};

const DAY_MS: i64 = 86_400_000;

impl Client {
    /// A job's estimate given a learned figure.
    pub(super) fn estimate_job_with(
        &self,
        request: &Request,
        job: Job,
        learned: Option<Learned>,
    ) -> Result<Estimate, Error> {
        match job {
            Job::One => self.estimate_with(request, learned),
            Job::Batched => request
                .batches()
                .iter()
                .try_fold(Estimate::ZERO, |sum, batch| {
                    Ok(sum.plus(self.estimate_with(batch, learned)?))
                }),
            Job::Pages {
                page_size,
                max_rows,
            } => {
                let plan = plan_pages(request, page_size, max_rows)?;
                self.estimate_pages(request, &plan, learned)
            }
        }
    }

    /// A request's estimate given a learned figure (validated first).
    pub(super) fn estimate_with(
        &self,
        request: &Request,
        learned: Option<Learned>,
    ) -> Result<Estimate, Error> {
        Ok(self.estimate_of(&self.prepare(request)?, learned))
    }

    /// A checked request's estimate given a learned figure: the spec's, or
    /// the one `learned` makes.
    pub(super) fn estimate_of(&self, prepared: &Prepared, learned: Option<Learned>) -> Estimate {
        match learned {
            None => prepared.estimate,
            Some(_) => estimate_learned(
                prepared.op,
                &prepared.query,
                self.inner.service.list_separator,
                learned,
            ),
        }
    }

    /// What the ledger learned of `op`'s charge per row over the last
    /// [`LEARNED_OVER_DAYS`] days, when it can tell anything the spec does not
    /// ([`learns`]); `None` when it cannot, or has seen no row yet.
    pub(super) async fn learned(&self, op: &Operation) -> Result<Option<Learned>, Error> {
        if !learns(op) {
            return Ok(None);
        }
        let memory = &self.inner.memory;
        let since = now_ms().saturating_sub(LEARNED_OVER_DAYS * DAY_MS);
        let usage = memory
            .store
            .backend()
            .usage(&memory.scope, since)
            .await
            .map_err(|e| self.store_error(&op.label(), e))?;
        Ok(usage
            .iter()
            .find(|u| u.group == op.group && u.action == op.action)
            .and_then(|u| Learned::from_totals(u.units_used, u.rows)))
    }

    /// Whether a budget guards the client: its own, or one per day or month.
    pub(super) fn budgeted(&self) -> bool {
        self.inner.ledger.budget().is_some() || self.inner.memory.window.is_some()
    }

    /// What the budget checks of a call or job of `op` estimate with: the
    /// learned figure when a budget guards the client and the spec does not
    /// know the cost (the only case where it changes what the checks see);
    /// else `None`, and the ledger is not read.
    ///
    /// A ledger that cannot be read is logged and teaches nothing: the
    /// estimate stays the spec's (unknown), which a budget refuses, so that
    /// nothing is sent on a figure nobody could read (and a client that goes
    /// on without its store is refused as it would be without one).
    pub(super) async fn learned_for_budget(&self, op: &Operation) -> Option<Learned> {
        if !self.budgeted() || op.cost.charged != Charged::Unknown {
            return None;
        }
        match self.learned(op).await {
            Ok(learned) => learned,
            Err(error) => {
                tracing::warn!(%error, "cannot read what the ledger learned; the estimate is the spec's");
                None
            }
        }
    }
}
