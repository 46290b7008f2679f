//! What a budget guards, as people write it: `N` units for one client, or
//! `N/day`, `N/month` for the key's UTC window across every process on the
//! store. The one grammar of `--budget` (CLI, MCP) and `budget=` (Python).

use std::fmt;
use std::str::FromStr;

use super::BudgetWindow;

/// A budget: the units one client (one command, one MCP session, one Python
/// client) may spend, or the units the key may spend in a calendar window
/// kept in the store.
///
/// # Examples
///
/// ```
/// use seozoom::store::{Budget, BudgetWindow};
///
/// assert_eq!("500".parse::<Budget>(), Ok(Budget::Client(500)));
/// assert_eq!("500/day".parse::<Budget>(), Ok(Budget::Per(500, BudgetWindow::Day)));
/// assert!("500/week".parse::<Budget>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// This client only: `N`
    /// ([`ClientBuilder::budget`](crate::ClientBuilder::budget)).
    Client(i64),
    /// The key's UTC day or month, across processes sharing the store:
    /// `N/day`, `N/month`
    /// ([`ClientBuilder::budget_per`](crate::ClientBuilder::budget_per)).
    Per(i64, BudgetWindow),
}

impl Budget {
    /// The budget of this client only, if that is what it is.
    pub fn for_client(self) -> Option<i64> {
        match self {
            Budget::Client(units) => Some(units),
            Budget::Per(..) => None,
        }
    }
}

/// Why a budget's text is not a budget: a message that names the part at
/// fault and says what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetSyntaxError(String);

impl fmt::Display for BudgetSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BudgetSyntaxError {}

impl FromStr for Budget {
    type Err = BudgetSyntaxError;

    /// `N`, `N/day` or `N/month`, with `N` a whole number of units, at least 0.
    fn from_str(text: &str) -> Result<Budget, BudgetSyntaxError> {
        let fail = |message: String| Err(BudgetSyntaxError(message));
        let (units, window) = match text.split_once('/') {
            None => (text, None),
            Some((units, "day")) => (units, Some(BudgetWindow::Day)),
            Some((units, "month")) => (units, Some(BudgetWindow::Month)),
            Some((_, other)) => {
                return fail(format!(
                    "`{other}` is not a budget window: use N (this client), N/day or N/month (UTC)"
                ));
            }
        };
        let Ok(units) = units.trim().parse::<i64>() else {
            return fail(format!("`{units}` is not a whole number of units"));
        };
        if units < 0 {
            return fail(format!("{units} units: a budget is at least 0"));
        }
        Ok(match window {
            None => Budget::Client(units),
            Some(window) => Budget::Per(units, window),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_form_and_each_fault() {
        assert_eq!("0".parse(), Ok(Budget::Client(0)));
        assert_eq!(
            " 20000/month".parse(),
            Ok(Budget::Per(20_000, BudgetWindow::Month))
        );
        let fault = |text: &str| text.parse::<Budget>().unwrap_err().to_string();
        assert!(fault("10/week").contains("`week` is not a budget window"));
        assert!(fault("ten").contains("`ten` is not a whole number"));
        assert!(fault("-1/day").contains("-1 units: a budget is at least 0"));
    }
}
