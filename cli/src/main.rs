//! `seozoom`: the command line of the SEOZoom API v2.
//!
//! ```text
//! seozoom [OPTIONS] <GROUP> <ACTION> [PARAMS]
//! seozoom sandbox [--port N] [--strict [--rate-window SECS]]
//! seozoom [OPTIONS] mcp [--http ADDR] [--max-result-rows N]
//! seozoom completions bash|zsh|fish|powershell
//! seozoom man
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
//! one result in input order. An operation that pages takes `--max-rows N`:
//! pages of `--limit` rows until a short page or N rows, printed as each page
//! arrives for `ndjson` and `csv` (memory stays one page's), as one result for
//! `json` and `table`.
//! `--dry-run` prints the requests (key redacted) and the cost estimate of the
//! whole job, and sends nothing.
//!
//! Exit codes: `0` success (including "No data found!", printed as an empty
//! result); `2` refused before anything was sent (a usage error, a parameter
//! breaking a limit or rule, an insecure URL, over budget, no key); `1` the request
//! failed (service error, transport, decode). A bulk job that fails after some
//! of its requests were answered prints the rows they paid for, says on stderr
//! what is missing and why, and exits `1`. The API key is never printed.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod cli;
mod columns;
mod completions;
mod example;
mod mcp;
mod output;
mod paged;
mod partial;
mod sandbox;
mod store;
mod stream;
mod table_fit;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use seozoom::error::ErrorKind;
use seozoom::{Client, Error};

use crate::cli::{Command, Invocation, Target};
use crate::output::Format;
use crate::partial::{Failure, Stopped};

/// Exit code of a call that succeeded (or found no data).
const EXIT_OK: u8 = 0;
/// Exit code of a call that was sent and failed.
const EXIT_FAILED: u8 = 1;
/// Exit code of a call refused before anything was sent (also clap's usage errors).
const EXIT_REFUSED: u8 = 2;
/// The most pages a dry run of a paged job lists one by one; the rest are
/// counted (a cap of millions of rows in small pages would be millions of lines).
const DRY_RUN_PAGES_SHOWN: usize = 100;
/// The key a dry run builds its client with: it is never sent, and URLs show it
/// redacted.
const DRY_RUN_KEY: &str = "dry-run";

/// The library's warnings (a store falling back, a cache entry ignored) on
/// stderr; `SEOZOOM_LOG=info` or `debug` shows more, `off` none.
fn init_logging() {
    let level = stderr_log_level();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .without_time()
        .with_target(false)
        .with_ansi(false)
        .init();
}

/// The level of the library's messages on stderr: `SEOZOOM_LOG`, else warnings.
fn stderr_log_level() -> tracing_subscriber::filter::LevelFilter {
    std::env::var("SEOZOOM_LOG")
        .ok()
        .and_then(|level| level.parse().ok())
        .unwrap_or(tracing_subscriber::filter::LevelFilter::WARN)
}

fn main() -> ExitCode {
    init_logging();
    let command = match cli::parse(std::env::args_os()) {
        Ok(Command::Print(print)) => return print_page(print),
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
        Command::Sandbox { port, strict } => runtime.block_on(sandbox::serve(port, strict)),
        Command::Mcp(options) => runtime.block_on(mcp::serve(options)),
        Command::Usage(usage) => runtime.block_on(store::report_usage(usage)),
        Command::Print(print) => return print_page(print),
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
            Some((page_size, max_rows)) => dry_run_pages(&invocation, page_size, max_rows).await,
            None => dry_run(&invocation, &batches).await,
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
                return EXIT_FAILED;
            }
        },
    };

    // The library's defaults: bounded retries with backoff for 429/5xx and
    // transport failures, and the spec's per-operation rate limits.
    let mut builder = Client::builder().api_key(api_key).base_url(base_url);
    if let Some(window) = invocation.rate_window {
        builder = builder.rate_window(window);
    }
    let client = match invocation
        .store
        .apply(builder, invocation.budget)
        .and_then(|builder| builder.build())
    {
        Ok(client) => client,
        Err(error) => return report(&error),
    };

    let op = invocation.request.operation();
    let format = invocation.format;
    let columns = invocation.columns.clone();
    let view = output::View {
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
        let progress = progress_bar(batches.len(), "requests");
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
            let envelope = output::empty_envelope(op, client.units().remaining.unwrap_or(0));
            print_result(format, &view, op, &envelope)
        }
        Err(Failure::Error(error)) => report(&error),
        Err(Failure::Stopped(stopped)) => print_stopped(format, &view, op, &stopped),
    }
}

/// A job that stopped part-way: its rows printed as a result, then what is
/// missing and why on stderr; exit code 1 whatever the cause (requests were
/// sent and charged).
fn print_stopped(
    format: Format,
    view: &output::View<'_>,
    op: &'static seozoom::table::Operation,
    stopped: &Stopped,
) -> u8 {
    print_result(format, view, op, &stopped.received);
    report_stopped(
        op,
        stopped.received.result_rows,
        &stopped.missing,
        &stopped.cause,
    )
}

/// Say on stderr that a job stopped part-way after `rows` rows (printed), what
/// is `missing` and why; the exit code: 1 whatever the cause (requests were
/// sent and charged).
fn report_stopped(
    op: &'static seozoom::table::Operation,
    rows: impl std::fmt::Display,
    missing: &str,
    cause: &Error,
) -> u8 {
    eprintln!(
        "error: {}: the job stopped part-way; the {rows} rows received are printed, and missing are {missing}",
        op.label(),
    );
    eprintln!("error: {cause}");
    EXIT_FAILED
}

/// `--max-rows`: the page size (the request's limit, which the command line
/// sets when it is not given) and the row cap; refused when the operation does
/// not page or a page would break a limit.
fn paged_job(request: &seozoom::request::Request, max_rows: usize) -> Result<(i64, usize), Error> {
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
fn not_paged(request: &seozoom::request::Request, max_rows: usize) -> seozoom::error::InvalidInput {
    seozoom::error::InvalidInput {
        operation: request.operation().label(),
        param: "max-rows".into(),
        value: max_rows.to_string(),
        problem: "this operation does not page".into(),
    }
}

/// A progress bar on stderr for a job of `total` steps (requests, rows), when
/// there is more than one and stderr is a terminal.
fn progress_bar(total: usize, what: &str) -> Option<indicatif::ProgressBar> {
    if total < 2 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(&format!(
        "{{spinner}} [{{bar:30}}] {{pos}}/{{len}} {what} {{elapsed}}"
    )) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    Some(bar)
}

/// `--dry-run`: print each request the call would send (key redacted) and the
/// estimate of the whole job, send nothing; the exit code. No key is needed.
async fn dry_run(invocation: &Invocation, batches: &[seozoom::request::Request]) -> u8 {
    let lines = || -> Result<(Vec<String>, seozoom::units::Estimate), Error> {
        let client = dry_run_client(invocation)?;
        let mut lines = Vec::with_capacity(batches.len() + 1);
        let mut total = seozoom::units::Estimate::ZERO;
        for batch in batches {
            lines.push(format!("GET {}", client.redacted_url(batch)?));
            total = total.plus(client.estimate(batch)?);
        }
        Ok((lines, total))
    };
    match lines() {
        Ok((mut lines, total)) => {
            let total = observed_or(invocation, seozoom::Job::Batched, total).await;
            lines.push(job_summary(
                requests(batches.len()),
                total,
                invocation.budget.and_then(store::Budget::for_command),
            ));
            print_lines(&lines)
        }
        Err(error) => report(&error),
    }
}

/// `--dry-run --max-rows`: the pages a job sends at most (key redacted) and the
/// estimate of the whole job; nothing is sent.
async fn dry_run_pages(invocation: &Invocation, page_size: i64, max_rows: usize) -> u8 {
    let request = &invocation.request;
    let job = seozoom::Job::Pages {
        page_size,
        max_rows: Some(max_rows),
    };
    let lines = || -> Result<(Vec<String>, usize, seozoom::units::Estimate), Error> {
        let client = dry_run_client(invocation)?;
        let estimate = client.estimate_job(request, job)?;
        let mut lines = request
            .pages(page_size, max_rows)?
            .take(DRY_RUN_PAGES_SHOWN + 1)
            .map(|page| Ok(format!("GET {}", client.redacted_url(&page)?)))
            .collect::<Result<Vec<_>, Error>>()?;
        let mut pages = lines.len();
        if pages > DRY_RUN_PAGES_SHOWN {
            // Full pages but a last one: the cap over the page size, rounded up
            // (the page size passed the validator, so it is at least 1).
            let size = usize::try_from(page_size).unwrap_or(1).max(1);
            pages = max_rows.div_ceil(size);
            lines.truncate(DRY_RUN_PAGES_SHOWN);
            lines.push(format!(
                "... {} more pages like these",
                pages - DRY_RUN_PAGES_SHOWN
            ));
        }
        Ok((lines, pages, estimate))
    };
    match lines() {
        Ok((mut lines, pages, estimate)) => {
            let estimate = observed_or(invocation, job, estimate).await;
            lines.push(job_summary(
                format!(
                    "at most {} (fewer if a page comes back short)",
                    requests(pages)
                ),
                estimate,
                invocation.budget.and_then(store::Budget::for_command),
            ));
            print_lines(&lines)
        }
        Err(error) => report(&error),
    }
}

/// The estimate a dry run prints: `spec` (the spec's), or, when the key is
/// known and the spec leaves the operation's charge open (an unknown cost, or
/// two figures), the estimate with what the store's ledger learned of it for
/// the key (`(observed: ...)`). Only then is the store opened. A store that
/// cannot be read leaves the spec's estimate, with a warning: a dry run sends
/// nothing and needs no store.
async fn observed_or(
    invocation: &Invocation,
    job: seozoom::Job,
    spec: seozoom::units::Estimate,
) -> seozoom::units::Estimate {
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
    let estimate = match client {
        Ok(client) => client.estimate_job_observed(request, job).await,
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
fn job_summary(
    requests: String,
    estimate: seozoom::units::Estimate,
    budget: Option<i64>,
) -> String {
    format!(
        "{requests}, estimated cost {estimate}{}",
        over_budget(budget, estimate),
    )
}

/// The note of a dry run whose job may cost more than the budget, or whose
/// cost no budget can cover.
fn over_budget(budget: Option<i64>, estimate: seozoom::units::Estimate) -> String {
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
    let mut text = lines.join("\n");
    text.push('\n');
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write the requests: {error}");
            EXIT_FAILED
        }
        _ => EXIT_OK,
    }
}

/// The client a dry run estimates with and shows URLs of: a placeholder key,
/// only ever shown redacted, and the target's base URL.
fn dry_run_client(invocation: &Invocation) -> Result<Client, Error> {
    let base_url = match &invocation.target {
        Target::Service { base_url, .. } => base_url.clone(),
        Target::Sandbox => seozoom::operations::SERVICE.base_url.to_owned(),
    };
    Client::builder()
        .api_key(DRY_RUN_KEY)
        .base_url(base_url)
        .build()
}

/// Print an envelope in the chosen format; the exit code.
fn print_result(
    format: Format,
    view: &output::View<'_>,
    op: &'static seozoom::table::Operation,
    envelope: &seozoom::Envelope<serde_json::Value>,
) -> u8 {
    let mut stdout = std::io::stdout().lock();
    let written = output::write(format, op, envelope, view, &mut stdout)
        .and_then(|note| stdout.flush().map(|()| note))
        .map(|note| {
            if let Some(note) = note {
                eprintln!("{note}");
            }
        });
    if let Some(at) = envelope.fetched_at {
        let how = if envelope.units_used == 0 {
            "answered"
        } else {
            "partly answered"
        };
        eprintln!(
            "{}: {how} from the cache, fetched {} (not charged again; --refresh sends it)",
            op.label(),
            store::utc_text(at)
        );
    }
    let counts = (
        envelope.result_rows,
        envelope.units_used,
        envelope.units_remaining,
    );
    summary(op, format, envelope.no_data, counts, written)
}

/// What stderr says after a result was printed (`written`): no data, or the
/// rows and units `(rows, units used, units remaining)` (but for JSON, whose
/// envelope has them); the exit code.
fn summary(
    op: &'static seozoom::table::Operation,
    format: Format,
    no_data: bool,
    (rows, used, remaining): (impl std::fmt::Display, i64, i64),
    written: std::io::Result<()>,
) -> u8 {
    if no_data {
        // The service reports no units with this answer.
        eprintln!("{}: no data found (not charged)", op.label());
    } else if format != Format::Json {
        eprintln!("rows: {rows}, units used: {used}, units remaining: {remaining}");
    }
    match written {
        Ok(_) => EXIT_OK,
        // A closed pipe (`| head`) is not a failure of the call.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(error) => {
            eprintln!("error: cannot write the result: {error}");
            EXIT_FAILED
        }
    }
}

/// `seozoom completions SHELL`, `seozoom man`: print it; the exit code.
fn print_page(print: completions::Print) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match completions::write(print, &mut stdout).and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write it: {error}");
            ExitCode::from(EXIT_FAILED)
        }
        _ => ExitCode::from(EXIT_OK),
    }
}

/// Print an error on stderr; the exit code it calls for. The library's errors
/// never hold the key.
fn report(error: &Error) -> u8 {
    eprintln!("error: {error}");
    if let ErrorKind::OverBudget { budget, .. } = error.kind() {
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
