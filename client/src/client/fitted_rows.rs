//! How many rows of a paged job the budget covers at worst ([`FittedRows`]):
//! what a plan finds ([`Client::plan`](super::Client::plan)), and what a run's
//! progress callback is told when it fits its row cap to the budget.

use crate::units::Estimate;

/// How many rows of a paged job the budget covers at worst.
///
/// # Examples
///
/// Under a budget of 20 units, a paged job of 10,000 rows is cut to what the
/// budget covers at worst, rather than refused:
///
/// ```
/// use seozoom::job::RunOptions;
/// use seozoom::types::KeywordType;
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let client = seozoom::Client::builder().api_key("YOUR-KEY").budget(20).build()?;
/// let request = client.domains().keywords("example.it", KeywordType::Best, 100).request();
/// let options = RunOptions::new().max_rows(10_000).fit_budget(true);
/// let fitted = client.plan(&request, &options).await?.fitted.unwrap();
/// assert!(fitted.is_cut() && fitted.rows < 10_000);
/// assert_eq!(fitted.budget_left, Some(20));
/// assert!(fitted.estimate.max <= 20);
/// # Ok::<(), seozoom::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct FittedRows {
    /// The rows asked for (the job's row cap).
    pub asked: usize,
    /// The most rows, up to `asked`, whose worst case fits what is left of
    /// the budget: the row cap to page with.
    pub rows: usize,
    /// What was left of the budget (the tighter of the client's and the
    /// store's day or month, when both are set); `None` without a budget.
    pub budget_left: Option<i64>,
    /// The estimate of the job of `rows` rows.
    pub estimate: Estimate,
}

impl FittedRows {
    /// Whether fewer rows than asked fit.
    pub fn is_cut(&self) -> bool {
        self.rows < self.asked
    }
}
