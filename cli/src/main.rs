//! `seozoom`: the command line of the SEOZoom API v2.
//!
//! ```text
//! seozoom [OPTIONS] <GROUP> <ACTION> [PARAMS]
//! seozoom sandbox [--port N]
//! ```
//!
//! The whole command tree (groups, actions, their aliases, parameter flags and
//! help texts) is built at run time from the operation table the `seozoom` crate
//! generates from the spec ([`seozoom::operations::OPERATIONS`]), so an action
//! added to the spec is a subcommand here with no other edit. Parameter values are
//! handed to the library as wire text and checked there, against the same table.
//!
//! Bulk: a list parameter also takes `--<flag>-file FILE` (`-` for standard
//! input, one value per line). A list longer than one request takes is a batched
//! job: repeated values are sent once, the rest split into the fewest requests
//! (a progress bar on stderr when it is a terminal) and the answers merged into
//! one result in input order. `--dry-run` prints the requests (key redacted) and
//! the cost estimate of the whole job, and sends nothing.
//!
//! Exit codes: `0` success (including "No data found!", printed as an empty
//! result); `2` refused before anything was sent (a usage error, a parameter
//! breaking a limit or rule, an insecure URL, over budget, no key); `1` the request
//! failed (service error, transport, decode). The API key is never printed.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod cli;
mod output;
mod sandbox;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use seozoom::{Client, Error};

use crate::cli::{Command, Invocation, Target};
use crate::output::Format;

/// Exit code of a call that succeeded (or found no data).
const EXIT_OK: u8 = 0;
/// Exit code of a call that was sent and failed.
const EXIT_FAILED: u8 = 1;
/// Exit code of a call refused before anything was sent (also clap's usage errors).
const EXIT_REFUSED: u8 = 2;
/// The key a dry run builds its client with: it is never sent, and URLs show it
/// redacted.
const DRY_RUN_KEY: &str = "dry-run";

fn main() -> ExitCode {
    let command = match cli::parse(std::env::args_os()) {
        Ok(command) => command,
        // Help and version exit 0; usage errors exit 2.
        Err(error) => error.exit(),
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the async runtime: {error}");
            return ExitCode::from(EXIT_FAILED);
        }
    };
    let code = match command {
        Command::Call(invocation) => runtime.block_on(call(invocation)),
        Command::Sandbox { port } => runtime.block_on(serve_sandbox(port)),
    };
    ExitCode::from(code)
}

/// Run one operation and print its result; the exit code.
async fn call(invocation: Invocation) -> u8 {
    // Check the parameters first: a bad one is reported even without a key, and
    // nothing is started or sent for it. A list longer than one request takes is
    // a batched job: every one of its requests is checked.
    let batches = invocation.request.batches();
    for batch in &batches {
        if let Err(invalid) = batch.validate(&seozoom::operations::SERVICE, default_database()) {
            return report(&Error::InvalidInput(invalid));
        }
    }
    if invocation.dry_run {
        return dry_run(&invocation, &batches);
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
                return EXIT_FAILED;
            }
        },
    };

    // The library's defaults: bounded retries with backoff for 429/5xx and
    // transport failures, and the spec's per-operation rate limits.
    let mut builder = Client::builder().api_key(api_key).base_url(base_url);
    if let Some(budget) = invocation.budget {
        builder = builder.budget(budget);
    }
    let client = match builder.build() {
        Ok(client) => client,
        Err(error) => return report(&error),
    };

    let op = invocation.request.operation();
    let format = invocation.format;
    let result = if op.batch_param().is_some() {
        // Repeated inputs are sent once, more than one request takes are split,
        // and the answers merged in input order.
        let progress = progress_bar(batches.len());
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
        result
    } else {
        client.execute_json(invocation.request).await
    };
    match result {
        Ok(envelope) => print_result(format, op, &envelope),
        Err(Error::NoData { .. }) => {
            let envelope = output::empty_envelope(op, client.units().remaining.unwrap_or(0));
            print_result(format, op, &envelope)
        }
        Err(error) => report(&error),
    }
}

/// A progress bar on stderr for a job of `total` requests, when there is more
/// than one and stderr is a terminal.
fn progress_bar(total: usize) -> Option<indicatif::ProgressBar> {
    if total < 2 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} [{bar:30}] {pos}/{len} requests {elapsed}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    Some(bar)
}

/// `--dry-run`: print each request the call would send (key redacted) and the
/// estimate of the whole job, send nothing; the exit code. No key is needed.
fn dry_run(invocation: &Invocation, batches: &[seozoom::Request]) -> u8 {
    let base_url = match &invocation.target {
        Target::Service { base_url, .. } => base_url.clone(),
        Target::Sandbox => seozoom::operations::SERVICE.base_url.to_owned(),
    };
    // The key is only shown redacted; a placeholder stands in for it.
    let client = match Client::builder()
        .api_key(DRY_RUN_KEY)
        .base_url(base_url)
        .build()
    {
        Ok(client) => client,
        Err(error) => return report(&error),
    };
    let mut out = String::new();
    let mut total = seozoom::Estimate { min: 0, max: 0 };
    for batch in batches {
        let line = client
            .redacted_url(batch)
            .and_then(|url| Ok((url, client.estimate(batch)?)));
        match line {
            Ok((url, estimate)) => {
                out.push_str(&format!("GET {url}\n"));
                total = total.plus(estimate);
            }
            Err(error) => return report(&error),
        }
    }
    let requests = batches.len();
    out.push_str(&format!(
        "{requests} request{}, estimated cost {}..{} units",
        if requests == 1 { "" } else { "s" },
        total.min,
        total.max
    ));
    if let Some(budget) = invocation.budget.filter(|budget| total.max > *budget) {
        out.push_str(&format!(
            " (over the budget of {budget}: the call would be refused)"
        ));
    }
    out.push('\n');
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write the requests: {error}");
            EXIT_FAILED
        }
        _ => EXIT_OK,
    }
}

/// Print an envelope in the chosen format; the exit code.
fn print_result(
    format: Format,
    op: &'static seozoom::Operation,
    envelope: &seozoom::Envelope<serde_json::Value>,
) -> u8 {
    let mut stdout = std::io::stdout().lock();
    let written = output::write(format, op, envelope, &mut stdout).and_then(|()| stdout.flush());
    if envelope.no_data {
        // The service reports no units with this answer.
        eprintln!("{}: no data found (not charged)", op.label());
    } else if format != Format::Json {
        eprintln!(
            "rows: {}, units used: {}, units remaining: {}",
            envelope.result_rows, envelope.units_used, envelope.units_remaining
        );
    }
    match written {
        Ok(()) => EXIT_OK,
        // A closed pipe (`| head`) is not a failure of the call.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(error) => {
            eprintln!("error: cannot write the result: {error}");
            EXIT_FAILED
        }
    }
}

/// Print an error on stderr; the exit code it calls for. The library's errors
/// never hold the key.
fn report(error: &Error) -> u8 {
    eprintln!("error: {error}");
    if let Error::OverBudget { budget, .. } = error {
        eprintln!(
            "note: the budget is `--budget {budget}`; raise it, or ask for fewer items or rows"
        );
    }
    if error.is_refused() {
        EXIT_REFUSED
    } else {
        EXIT_FAILED
    }
}

/// The database used when `--db` is not given: the spec's default.
fn default_database() -> &'static str {
    seozoom::operations::SERVICE
        .database
        .default
        .unwrap_or("it")
}

/// `seozoom sandbox`: serve the sandbox until interrupted.
async fn serve_sandbox(port: Option<u16>) -> u8 {
    sandbox::serve(port).await
}
