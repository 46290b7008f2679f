//! Units: the running ledger a client keeps, the cost estimate of a request
//! before it is sent, and the budget guard. All figures come from the operation
//! table; nothing here names an action.

mod estimate;
mod ledger;

pub use estimate::{Basis, Estimate, LEARNED_OVER_DAYS, Learned, UnitParts, learns, unit_parts};
pub(crate) use estimate::{estimate, estimate_learned};
pub use ledger::Units;
pub(crate) use ledger::{BudgetHold, Ledger, Reservation};
