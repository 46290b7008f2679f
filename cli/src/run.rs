//! Running one operation: its parameters checked first, then sent (batched,
//! paged, fitted to the budget, or as a dry run) through a client on the
//! chosen store, and its result printed; the exit code.

use seozoom::error::ErrorKind;
use seozoom::request::Request;
use seozoom::{Client, Error};

use crate::cli::{Invocation, Target};
use crate::error_report::report;
use crate::fit_budget::fit_to_budget;
use crate::format::View;
use crate::partial::Failure;
use crate::result::{print_result, print_stopped};
use crate::{cli, dry_run, exit, paged, progress, sandbox, table_fit};

/// Run one operation and print its result; the exit code.
pub async fn operation(invocation: Invocation) -> u8 {
    // Check the parameters first: a bad one is reported even without a key, and
    // nothing is started or sent for it. A list longer than one request takes is
    // a batched job: every one of its requests is checked.
    let batches = invocation.request.batches();
    for batch in &batches {
        if let Err(invalid) = batch.validate(&seozoom::operations::SERVICE, cli::default_db()) {
            return report(&Error::from(invalid));
        }
    }
    let pages = match invocation.max_rows {
        Some(max_rows) => match paged_job(&invocation.request, max_rows) {
            Ok(job) => Some(job),
            Err(error) => return report(&error),
        },
        None => None,
    };
    if invocation.dry_run {
        return match pages {
            Some((page_size, max_rows)) => dry_run::pages(&invocation, page_size, max_rows).await,
            None => dry_run::batched(&invocation, &batches).await,
        };
    }

    // Kept alive until the call is done; it stops when dropped.
    let _sandbox;
    let (api_key, base_url) = match invocation.target {
        Target::Service { api_key, base_url } => (api_key.unwrap_or_default(), base_url),
        Target::Sandbox => match sandbox::start().await {
            Ok(running) => {
                let target = (sandbox::API_KEY.to_owned(), running.base_url());
                _sandbox = running;
                target
            }
            Err(error) => {
                eprintln!("error: cannot start the sandbox: {error}");
                return exit::FAILED;
            }
        },
    };

    // The library's defaults: bounded retries with backoff for 429/5xx and
    // transport failures, and the spec's per-operation rate limits.
    let mut builder = Client::builder().api_key(api_key).base_url(base_url);
    if let Some(window) = invocation.rate_window {
        builder = builder.rate_window(window);
    }
    if let Some(max_wait) = invocation.max_wait {
        builder = builder.max_wait(max_wait);
    }
    let client = match invocation
        .store
        .apply(builder, invocation.budget)
        .and_then(|builder| builder.build())
    {
        Ok(client) => client,
        Err(error) => return report(&error),
    };
    let pages =
        match fit_to_budget(&client, &invocation.request, invocation.fit_budget, pages).await {
            Ok(pages) => pages,
            Err(error) => return report(&error),
        };

    let op = invocation.request.operation();
    let format = invocation.format;
    let columns = invocation.columns.clone();
    let view = View {
        columns: columns.as_deref(),
        width: table_fit::terminal_width(),
    };
    let result = if let Some((page_size, max_rows)) = pages {
        let job = paged::Job {
            request: invocation.request,
            page_size,
            max_rows,
        };
        // Printed as the pages arrive when the format allows, stopped or not.
        match job.stream(&client, format, columns.as_deref()).await {
            Ok(code) => return code,
            Err(job) => job.collect(&client).await,
        }
    } else if op.batch_param().is_some() {
        // Repeated inputs are sent once, more than one request takes are split,
        // and the answers merged in input order.
        let progress = progress::bar(batches.len(), "requests");
        let result = client
            .execute_json_batched(invocation.request, |done, _| {
                if let Some(bar) = &progress {
                    bar.set_position(done as u64);
                }
            })
            .await;
        if let Some(bar) = progress {
            bar.finish_and_clear();
        }
        result.map_err(Failure::from)
    } else {
        client
            .execute_json(invocation.request)
            .await
            .map_err(Failure::from)
    };
    match result {
        Ok(envelope) => print_result(format, &view, op, &envelope),
        Err(Failure::Error(error)) if matches!(error.kind(), ErrorKind::NoData) => {
            let envelope = seozoom::Envelope::no_data(
                <serde_json::Value as seozoom::job::Output>::nothing(op),
                client.units().remaining.unwrap_or(0),
            );
            print_result(format, &view, op, &envelope)
        }
        Err(Failure::Error(error)) => report(&error),
        Err(Failure::Stopped(stopped)) => print_stopped(format, &view, op, &stopped),
    }
}

/// `--max-rows`: the page size (the request's limit, which the command line
/// sets when it is not given) and the row cap; refused when the operation does
/// not page or a page would break a limit.
fn paged_job(request: &Request, max_rows: usize) -> Result<(i64, usize), Error> {
    let op = request.operation();
    let limit = op
        .paging()
        .and_then(|paging| request.get(paging.limit.wire));
    let page_size = match limit {
        Some([one]) => one.trim().parse().ok(),
        _ => None,
    };
    // The request has passed the validator, so a paged operation's limit is a
    // whole number here; only an operation that does not page has none.
    let page_size = page_size.ok_or_else(|| Error::from(not_paged(request, max_rows)))?;
    Ok((page_size, max_rows))
}

/// The refusal of `--max-rows` on a request whose rows cannot be paged.
fn not_paged(request: &Request, max_rows: usize) -> seozoom::error::InvalidInput {
    seozoom::error::InvalidInput {
        operation: request.operation().label(),
        param: "max-rows".into(),
        value: max_rows.to_string(),
        problem: "this operation does not page".into(),
    }
}
