//! `--fit-budget`: a paged job's row cap cut to what the budget covers, said on
//! stderr before the first request; shared by a real run and a dry run.

use seozoom::request::Request;
use seozoom::{Client, Error};

/// `--fit-budget`: a paged job's row cap cut to what the budget covers at
/// worst, said on stderr before the first request; the pages as they were
/// otherwise (and a warning when the option has nothing to fit).
pub async fn fit_to_budget(
    client: &Client,
    request: &Request,
    fit_budget: bool,
    pages: Option<(i64, usize)>,
) -> Result<Option<(i64, usize)>, Error> {
    if !fit_budget {
        return Ok(pages);
    }
    let Some((page_size, max_rows)) = pages else {
        eprintln!(
            "warning: --fit-budget fits a paged job (--max-rows) to a budget; this call is sent as it is"
        );
        return Ok(pages);
    };
    let fitted = client.fit_rows(request, page_size, max_rows).await?;
    let per_row = match fitted.estimate.per_row {
        Some((_, high)) => format!(" at up to {high} units a row"),
        None => String::new(),
    };
    match fitted.budget_left {
        None => eprintln!("note: --fit-budget: no budget is set; up to {max_rows} rows"),
        // None fits: the job goes as asked, and is refused with the reason.
        Some(_) if fitted.rows == 0 => {
            eprintln!("note: --fit-budget: the budget covers no row of this job");
            return Ok(pages);
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
    Ok(Some((page_size, fitted.rows)))
}
