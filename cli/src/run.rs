//! Running one operation: its parameters checked first (no key needed), then
//! a dry run, or the library's runner through a client on the chosen store;
//! its result printed; the exit code. What job it is (one call, batched,
//! paged) and how it runs are the library's ([`seozoom::Job::of`],
//! `Client::run`).

use seozoom::operation_table::Shape;
use seozoom::operations::SERVICE;
use seozoom::{Client, Error, Job};
use serde_json::Value;

use crate::cli::{Invocation, Target};
use crate::error_report::report;
use crate::format::View;
use crate::progress::Shown;
use crate::result::{print_result, print_stopped};
use crate::stream::RowWriter;
use crate::{cli, dry_run, exit, interrupt, paged, sandbox, table_fit};

/// Run one operation and print its result; the exit code.
pub async fn operation(invocation: Invocation) -> u8 {
    // Check first: a bad parameter is reported even without a key, and
    // nothing is started or sent for it.
    let request = &invocation.request;
    let checked = Job::of(request, invocation.max_rows)
        .and_then(|job| Ok(job.validate(request, &SERVICE, cli::default_db())?));
    if let Err(error) = checked {
        return report(&error);
    }
    if invocation.dry_run {
        return dry_run::run(&invocation).await;
    }
    // Kept alive until the call is done; it stops when dropped.
    let _sandbox;
    let (api_key, base_url) = match &invocation.target {
        Target::Service { api_key, base_url } => {
            (api_key.clone().unwrap_or_default(), base_url.clone())
        }
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
    let client = match client(&invocation, api_key, base_url) {
        Ok(client) => client,
        Err(error) => return report(&error),
    };
    if invocation.fit_budget && invocation.max_rows.is_none() {
        eprintln!(
            "warning: --fit-budget fits a paged job (--max-rows) to a budget; this call is sent as it is"
        );
    }
    let shown = Shown::new();
    let options = shown
        .options(invocation.max_rows, invocation.fit_budget)
        .stop(interrupt::stop_on_ctrl_c());
    let op = invocation.request.operation();
    let (format, columns) = (invocation.format, invocation.columns.as_deref());
    // A paged job in a format printed row by row: each page as it comes.
    if invocation.max_rows.is_some() && op.response.shape == Shape::Array {
        let stdout = std::io::BufWriter::new(std::io::stdout());
        if let Some(writer) = RowWriter::new(format, op, columns, stdout) {
            let code = paged::stream(&client, invocation.request, options, writer).await;
            shown.finish();
            return code;
        }
    }
    let result = client.run::<Value>(invocation.request, options).await;
    shown.finish();
    let view = View {
        columns,
        width: table_fit::terminal_width(),
    };
    match result.map_err(Error::into_partial) {
        Ok(outcome) => print_result(format, &view, op, &outcome),
        Err(Ok(partial)) => print_stopped(format, &view, op, partial),
        Err(Err(error)) => report(&error),
    }
}

/// The client of a call: the library's defaults (bounded retries with
/// backoff for 429/5xx and transport failures, the spec's rate limits), with
/// the store, the budget, the rate window and the bound on waits asked for.
fn client(invocation: &Invocation, api_key: String, base_url: String) -> Result<Client, Error> {
    let mut builder = Client::builder().api_key(api_key).base_url(base_url);
    if let Some(window) = invocation.rate_window {
        builder = builder.rate_window(window);
    }
    if let Some(max_wait) = invocation.max_wait {
        builder = builder.max_wait(max_wait);
    }
    invocation
        .store
        .apply(builder, invocation.budget)
        .and_then(|builder| builder.build())
}
