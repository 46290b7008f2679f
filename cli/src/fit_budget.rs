//! `--fit-budget`: what stderr says of a paged job's row cap fitted to the
//! budget (the library fits it: [`seozoom::job::RunOptions::fit_budget`]), before the
//! first request; shared by a real run and a dry run.

use seozoom::job::FittedRows;

/// Say on stderr how the budget fits the rows asked.
pub fn note(fitted: &FittedRows) {
    let max_rows = fitted.asked;
    let per_row = match fitted.estimate.per_row {
        Some((_, high)) => format!(" at up to {high} units a row"),
        None => String::new(),
    };
    match fitted.budget_left {
        None => eprintln!("note: --fit-budget: no budget is set; up to {max_rows} rows"),
        // None fits: the job goes as asked, and is refused with the reason.
        Some(_) if fitted.rows == 0 => {
            eprintln!("note: --fit-budget: the budget covers no row of this job");
        }
        Some(left) if fitted.is_cut() => eprintln!(
            "note: --fit-budget: {left} units of budget cover {} of the {max_rows} rows asked{per_row} (worst case {} units); fetching up to {} rows",
            fitted.rows, fitted.estimate.max, fitted.rows
        ),
        Some(left) => eprintln!(
            "note: --fit-budget: {left} units of budget cover all {max_rows} rows asked{per_row} (worst case {} units)",
            fitted.estimate.max
        ),
    }
}
