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
mod dry_run;
mod example;
mod format;
mod mcp;
mod output;
mod paged;
mod partial;
mod rows;
mod sandbox;
mod store;
mod stream;
mod table_fit;
mod waits;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use seozoom::error::ErrorKind;
use seozoom::{Client, Error};

use crate::cli::{Command, Invocation, Target};
use crate::format::{Format, View};
use crate::partial::{Failure, Stopped};

/// Exit code of a call that succeeded (or found no data).
const EXIT_OK: u8 = 0;
/// Exit code of a call that was sent and failed.
const EXIT_FAILED: u8 = 1;
/// Exit code of a call refused before anything was sent (also clap's usage errors).
const EXIT_REFUSED: u8 = 2;

/// The library's warnings (a store falling back, a cache entry ignored) on
/// stderr; `SEOZOOM_LOG=info` or `debug` shows more, `off` none.
///
/// Long waits (the library's `seozoom::wait` events) are told on stderr as
/// they start, whatever the level ([`waits::Announcer`]).
fn init_logging() {
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    use tracing_subscriber::{Layer as _, filter};
    let level = stderr_log_level();
    let log = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .without_time()
        .with_target(false)
        .with_ansi(false)
        .with_filter(level);
    let waits = waits::Announcer::new().with_filter(filter::filter_fn(|meta| {
        meta.target() == seozoom::wait::WAIT_TARGET
    }));
    tracing_subscriber::registry().with(log).with(waits).init();
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

/// `--fit-budget`: a paged job's row cap cut to what the budget covers at
/// worst, said on stderr before the first request; the pages as they were
/// otherwise (and a warning when the option has nothing to fit).
pub(crate) async fn fit_to_budget(
    client: &Client,
    request: &seozoom::request::Request,
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

/// A job that stopped part-way: its rows printed as a result, then what is
/// missing and why on stderr; exit code 1 whatever the cause (requests were
/// sent and charged).
fn print_stopped(
    format: Format,
    view: &View<'_>,
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
    eprintln!("charged for the failed request: {}", cause.charged());
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

/// Print an envelope in the chosen format; the exit code.
fn print_result(
    format: Format,
    view: &View<'_>,
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
    // What it cost, for a program or a person deciding whether to run it again.
    eprintln!("charged: {}", error.charged());
    if let ErrorKind::OverBudget { budget, .. } = error.kind() {
        eprintln!(
            "note: the budget is `--budget {budget}`; raise it, or ask for fewer items or rows"
        );
    }
    if let ErrorKind::WaitedTooLong { max_wait, .. } = error.kind() {
        eprintln!(
            "note: the longest a call may wait is `--max-wait {}` (seconds); raise it to wait longer",
            max_wait.as_secs_f64()
        );
    }
    if error.is_refused() {
        EXIT_REFUSED
    } else {
        EXIT_FAILED
    }
}
