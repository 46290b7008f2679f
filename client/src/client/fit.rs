//! A paged job fitted to the budget: as many rows as the budget's worst case
//! covers, instead of a refusal of the whole job
//! ([`RunOptions::fit_budget`](super::RunOptions::fit_budget)); part of the
//! plan ([`Client::plan`]).

use super::Client;
use super::fitted_rows::FittedRows;
use super::pages::plan_pages;
use crate::error::Error;
use crate::request::Request;
use crate::store::now_ms;
use crate::units::{Estimate, Learned};

impl Client {
    /// The most rows of a paged job of `page_size` rows a page, up to
    /// `max_rows`, whose maximum estimate (with `learned`) fits what is left
    /// of the budget: the client's own ([`budget`](crate::ClientBuilder::budget))
    /// and the store's per day or month ([`budget_per`](crate::ClientBuilder::budget_per),
    /// counted from the ledger; jobs running elsewhere may hold some of it,
    /// and the job is still admitted against the window when it starts).
    /// Without a budget every row asked fits. An operation whose cost is
    /// unknown fits no row under a budget: its
    /// [`ErrorKind::UnknownCost`](crate::error::ErrorKind::UnknownCost).
    pub(super) async fn fit(
        &self,
        request: &Request,
        page_size: i64,
        max_rows: usize,
        learned: Option<Learned>,
    ) -> Result<FittedRows, Error> {
        let op = request.operation();
        let estimate = |rows: usize| -> Result<Estimate, Error> {
            let plan = plan_pages(request, page_size, Some(rows))?;
            self.estimate_pages(request, &plan, learned)
        };
        let whole = estimate(max_rows)?;
        let Some(left) = self.budget_left().await? else {
            return Ok(FittedRows {
                asked: max_rows,
                rows: max_rows,
                budget_left: None,
                estimate: whole,
            });
        };
        self.ledger().admit(&op.label(), whole)?;
        // The estimate grows with the rows: the most that fits, by bisection.
        let (mut fits, mut over) = (0usize, max_rows.saturating_add(1));
        if whole.max <= left {
            fits = max_rows;
        } else {
            while over - fits > 1 {
                let mid = fits + (over - fits) / 2;
                match estimate(mid)?.max <= left {
                    true => fits = mid,
                    false => over = mid,
                }
            }
        }
        Ok(FittedRows {
            asked: max_rows,
            rows: fits,
            budget_left: Some(left),
            estimate: estimate(fits)?,
        })
    }

    /// What is left of the tighter of the client's budget and its budget
    /// per day or month (as the ledger counts it); `None` without either.
    async fn budget_left(&self) -> Result<Option<i64>, Error> {
        let own = self.ledger().left();
        let window = match self.inner.memory.window {
            Some((units, window)) => {
                let spent: i64 = self
                    .usage(window.start_ms(now_ms()))
                    .await?
                    .iter()
                    .map(|usage| usage.units_used)
                    .sum();
                Some(units.saturating_sub(spent).max(0))
            }
            None => None,
        };
        Ok(match (own, window) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        })
    }
}
