//! `--dry-run`: the requests a command would send (key redacted) and what
//! they would cost; nothing is sent or spent. With a key, the store is read
//! (never written): the items or pages its cache answers are not requests,
//! and cost nothing ([`Client::plan`]). Without one, or when the store
//! cannot be read, every request is listed with the spec's estimate.

use seozoom::job::{Counted, JobPlan, RunOptions};
use seozoom::request::Request;
use seozoom::units::Estimate;
use seozoom::{Client, Error, Job};

use crate::cli::{Invocation, Target};
use crate::error_report::report;
use crate::{exit, sandbox, store};

/// The most pages a dry run of a paged job lists one by one; the rest are
/// counted (a cap of millions of rows in small pages would be millions of lines).
const PAGES_SHOWN: usize = 100;
/// The key a dry run without one builds its client with: it is never sent,
/// and URLs show it redacted.
const PLACEHOLDER_KEY: &str = "dry-run";

/// The dry run of the job the invocation asks for (its parameters already
/// checked); the exit code.
pub async fn run(invocation: &Invocation) -> u8 {
    match Job::of(&invocation.request, invocation.max_rows) {
        Ok(Job::Pages {
            page_size,
            max_rows,
        }) => pages(invocation, page_size, max_rows.unwrap_or(usize::MAX)).await,
        Ok(_) => batched(invocation, &invocation.request.batches()).await,
        Err(error) => report(&error),
    }
}

/// A batched job (or one call): each request still to send and the estimate
/// of those; the exit code.
async fn batched(invocation: &Invocation, batches: &[Request]) -> u8 {
    if let Some(client) = keyed_client(invocation)
        && let Some(plan) = plan(&client, &invocation.request, None).await
    {
        let lines = plan
            .requests
            .iter()
            .map(|batch| Ok(format!("GET {}", client.redacted_url(batch)?)))
            .collect::<Result<Vec<_>, Error>>();
        return match lines {
            Ok(mut lines) => {
                lines.push(summary(requests(plan.request_count), &plan, invocation));
                print_lines(&lines)
            }
            Err(error) => report(&error),
        };
    }
    let lines = || -> Result<(Vec<String>, Estimate), Error> {
        let client = placeholder_client(invocation)?;
        let mut lines = Vec::with_capacity(batches.len() + 1);
        let mut total = Estimate::ZERO;
        for batch in batches {
            lines.push(format!("GET {}", client.redacted_url(batch)?));
            total = total.plus(client.estimate(batch)?);
        }
        Ok((lines, total))
    };
    match lines() {
        Ok((mut lines, total)) => {
            let total = observed_or(invocation, Job::Batched, total).await;
            lines.push(job_summary(
                requests(batches.len()),
                total,
                invocation.budget.and_then(store::Budget::for_client),
            ));
            print_lines(&lines)
        }
        Err(error) => report(&error),
    }
}

/// A paged job (`--max-rows`): the pages it sends at most (key redacted) and
/// the estimate of those; the exit code.
async fn pages(invocation: &Invocation, page_size: i64, max_rows: usize) -> u8 {
    let max_rows = match fit_budget(invocation, max_rows).await {
        Ok(max_rows) => max_rows,
        Err(error) => return report(&error),
    };
    let request = &invocation.request;
    let job = Job::Pages {
        page_size,
        max_rows: Some(max_rows),
    };
    if let Some(client) = keyed_client(invocation)
        && let Some(plan) = plan(&client, request, Some(max_rows)).await
    {
        let lines = plan
            .requests
            .iter()
            .take(PAGES_SHOWN)
            .map(|page| Ok(format!("GET {}", client.redacted_url(page)?)))
            .collect::<Result<Vec<_>, Error>>();
        return match lines {
            Ok(mut lines) => {
                if plan.request_count > PAGES_SHOWN {
                    lines.push(more_pages(plan.request_count - PAGES_SHOWN));
                }
                let sent = at_most(plan.request_count);
                lines.push(summary(sent, &plan, invocation));
                print_lines(&lines)
            }
            Err(error) => report(&error),
        };
    }
    let lines = async || -> Result<(Vec<String>, usize, Estimate), Error> {
        let client = placeholder_client(invocation)?;
        let options = RunOptions::new().max_rows(max_rows);
        let estimate = client.plan(request, &options).await?.whole;
        let mut lines = request
            .pages(page_size, max_rows)?
            .take(PAGES_SHOWN + 1)
            .map(|page| Ok(format!("GET {}", client.redacted_url(&page)?)))
            .collect::<Result<Vec<_>, Error>>()?;
        let mut pages = lines.len();
        if pages > PAGES_SHOWN {
            // Full pages but a last one: the cap over the page size, rounded up
            // (the page size passed the validator, so it is at least 1).
            let size = usize::try_from(page_size).unwrap_or(1).max(1);
            pages = max_rows.div_ceil(size);
            lines.truncate(PAGES_SHOWN);
            lines.push(more_pages(pages - PAGES_SHOWN));
        }
        Ok((lines, pages, estimate))
    };
    match lines().await {
        Ok((mut lines, pages, estimate)) => {
            let estimate = observed_or(invocation, job, estimate).await;
            lines.push(job_summary(
                at_most(pages),
                estimate,
                invocation.budget.and_then(store::Budget::for_client),
            ));
            print_lines(&lines)
        }
        Err(error) => report(&error),
    }
}

/// `--fit-budget` with `--budget N`: the row cap the budget covers, said as
/// the real run says it (a budget per day or month is the store's, which a
/// dry run does not read for it: the cap stays).
async fn fit_budget(invocation: &Invocation, max_rows: usize) -> Result<usize, Error> {
    let budget = invocation.budget.and_then(store::Budget::for_client);
    let (true, Some(budget)) = (invocation.fit_budget, budget) else {
        return Ok(max_rows);
    };
    let client = placeholder_client(invocation)?;
    let client = Client::builder()
        .api_key(PLACEHOLDER_KEY)
        .base_url(client.base_url())
        .budget(budget)
        .build()?;
    let options = RunOptions::new().max_rows(max_rows).fit_budget(true);
    let plan = client.plan(&invocation.request, &options).await?;
    if let Some(fitted) = &plan.fitted {
        crate::fit_budget::note(fitted);
    }
    // The plan's cap: fitted, or as asked when none fits (the job is then
    // refused with the reason).
    Ok(match plan.job {
        Job::Pages {
            max_rows: Some(rows),
            ..
        } => rows,
        _ => max_rows,
    })
}

fn more_pages(n: usize) -> String {
    format!("... {n} more pages like these")
}

fn at_most(pages: usize) -> String {
    format!(
        "at most {} (fewer if a page comes back short)",
        requests(pages)
    )
}

/// The job (up to `max_rows` rows) as the store's cache would leave it, or
/// `None` (with a warning) when the store cannot be read: a dry run needs no
/// store.
async fn plan(client: &Client, request: &Request, max_rows: Option<usize>) -> Option<JobPlan> {
    let options = match max_rows {
        Some(rows) => RunOptions::new().max_rows(rows),
        None => RunOptions::new(),
    };
    match client.plan(request, &options).await {
        Ok(plan) => Some(plan),
        Err(error) => {
            // An invalid request is reported by the spec's path, as usual.
            if !matches!(error.kind(), seozoom::error::ErrorKind::InvalidInput(_)) {
                eprintln!("warning: the cache was not read: {error}");
            }
            None
        }
    }
}

/// The client of the key the command runs with, on its store, when there is
/// a key and a store that remembers: what the cache holds is the key's, and
/// the origin's. `None` without a key, for the sandbox (a new port each run)
/// or with `--store none`.
fn keyed_client(invocation: &Invocation) -> Option<Client> {
    let Target::Service {
        api_key: Some(key),
        base_url,
    } = &invocation.target
    else {
        return None;
    };
    if key.trim().is_empty() {
        return None;
    }
    let builder = Client::builder().api_key(key.clone()).base_url(base_url);
    let client = invocation
        .store
        .apply(builder, None)
        .and_then(|builder| builder.build());
    match client {
        Ok(client) if client.store().name() != "none" => Some(client),
        Ok(_) => None,
        Err(error) => {
            eprintln!("warning: the cache was not read: {error}");
            None
        }
    }
}

/// The last line of a dry run that read the cache: the requests, for how
/// many items or pages, their estimate, and how many the cache answers.
fn summary(requests: String, plan: &JobPlan, invocation: &Invocation) -> String {
    let budget = invocation.budget.and_then(store::Budget::for_client);
    if plan.cached == 0 {
        return job_summary(requests, plan.estimate, budget);
    }
    let noun = |n| counted(plan.counted, n);
    let cost = match plan.estimate {
        Estimate {
            min: 0,
            max: 0,
            unknown: false,
            ..
        } => "0 units".to_owned(),
        estimate => estimate.to_string(),
    };
    let for_what = match plan.request_count {
        0 => String::new(),
        _ => format!(" for {} {}", plan.to_send, noun(plan.to_send)),
    };
    format!(
        "{requests}{for_what}, estimated cost {cost}; {} of {} {} from the cache{}",
        plan.cached,
        plan.total,
        noun(plan.total),
        over_budget(budget, plan.estimate),
    )
}

/// `1 item`, `2 items`; pages are counted in the plural (`1 of 1 pages`), as
/// the page count's other lines have them.
fn counted(what: Counted, n: usize) -> &'static str {
    match (what, n) {
        (Counted::Items, 1) => "item",
        (Counted::Items, _) => "items",
        _ => "pages",
    }
}

/// The estimate a dry run prints: `spec` (the spec's), or, when the key is
/// known and the spec leaves the operation's charge open (an unknown cost, or
/// two figures), the estimate with what the store's ledger learned of it for
/// the key (`(observed: ...)`). Only then is the store opened. A store that
/// cannot be read leaves the spec's estimate, with a warning: a dry run sends
/// nothing and needs no store.
async fn observed_or(invocation: &Invocation, job: Job, spec: Estimate) -> Estimate {
    let request = &invocation.request;
    if !seozoom::units::learns(request.operation()) {
        return spec;
    }
    let (api_key, base_url) = match &invocation.target {
        Target::Service {
            api_key: Some(key),
            base_url,
        } if !key.trim().is_empty() => (key.clone(), base_url.clone()),
        Target::Service { .. } => return spec,
        Target::Sandbox => (
            sandbox::API_KEY.to_owned(),
            seozoom::operations::SERVICE.base_url.to_owned(),
        ),
    };
    let builder = Client::builder().api_key(api_key).base_url(base_url);
    let client = invocation
        .store
        .apply(builder, None)
        .and_then(|builder| builder.build());
    let options = match job {
        Job::Pages {
            max_rows: Some(rows),
            ..
        } => RunOptions::new().max_rows(rows),
        _ => RunOptions::new(),
    };
    let estimate = match client {
        Ok(client) => client.plan(request, &options).await.map(|plan| plan.whole),
        Err(error) => Err(error),
    };
    estimate.unwrap_or_else(|error| {
        eprintln!("warning: the estimate is the spec's: {error}");
        spec
    })
}

/// `1 request`, `3 requests`.
fn requests(n: usize) -> String {
    format!("{n} request{}", if n == 1 { "" } else { "s" })
}

/// The last line of a dry run: how many requests, the job's estimate, and a
/// note when it is over the budget.
fn job_summary(requests: String, estimate: Estimate, budget: Option<i64>) -> String {
    format!(
        "{requests}, estimated cost {estimate}{}",
        over_budget(budget, estimate),
    )
}

/// The note of a dry run whose job may cost more than the budget, or whose
/// cost no budget can cover.
fn over_budget(budget: Option<i64>, estimate: Estimate) -> String {
    match budget {
        Some(budget) if estimate.unknown => {
            format!(
                " (a budget of {budget} cannot cover an unknown cost: the call would be refused)"
            )
        }
        Some(budget) if estimate.max > budget => {
            format!(" (over the budget of {budget}: the call would be refused)")
        }
        _ => String::new(),
    }
}

/// Print a dry run's lines on stdout; the exit code.
fn print_lines(lines: &[String]) -> u8 {
    use std::io::Write;
    let mut text = lines.join("\n");
    text.push('\n');
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write the requests: {error}");
            exit::FAILED
        }
        _ => exit::OK,
    }
}

/// The client a dry run without a key estimates with and shows URLs of: a
/// placeholder key, only ever shown redacted, and the target's base URL.
fn placeholder_client(invocation: &Invocation) -> Result<Client, Error> {
    let base_url = match &invocation.target {
        Target::Service { base_url, .. } => base_url.clone(),
        Target::Sandbox => seozoom::operations::SERVICE.base_url.to_owned(),
    };
    Client::builder()
        .api_key(PLACEHOLDER_KEY)
        .base_url(base_url)
        .build()
}
