//! A call's result on stdout in the chosen format, and what stderr says of it
//! after (from the cache, no data, rows and units); the exit code.

use std::io::Write;

use seozoom::job::{Outcome, Partial};
use seozoom::operation_table::Operation;
use seozoom::{Envelope, Error};
use serde_json::Value;

use crate::error_report::{report, report_stopped};
use crate::format::{Format, View};
use crate::{exit, output, store};

/// Print a run's result in the chosen format; the exit code.
pub fn print_result(
    format: Format,
    view: &View<'_>,
    op: &'static Operation,
    outcome: &Outcome<Value>,
) -> u8 {
    let envelope: &Envelope<Value> = &outcome.envelope;
    let mut stdout = std::io::stdout().lock();
    let written = output::write(format, op, envelope, view, &mut stdout)
        .and_then(|note| stdout.flush().map(|()| note))
        .map(|note| {
            if let Some(note) = note {
                eprintln!("{note}");
            }
        });
    let figures = &outcome.figures;
    let how = match figures.from_cache {
        true => "answered",
        false => "partly answered",
    };
    let cached = figures.cached_items + figures.cached_requests > 0;
    if let (true, Some(at)) = (cached, envelope.fetched_at) {
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
    summary(op, format, figures.no_data, counts, written)
}

/// What stderr says after a result was printed (`written`): no data, or the
/// rows and units `(rows, units used, units remaining)` (but for JSON, whose
/// envelope has them; a balance the service did not report is "unknown");
/// the exit code.
pub fn summary(
    op: &'static Operation,
    format: Format,
    no_data: bool,
    (rows, used, remaining): (impl std::fmt::Display, i64, Option<i64>),
    written: std::io::Result<()>,
) -> u8 {
    if no_data {
        // The service reports no units with this answer.
        eprintln!("{}: no data found (not charged)", op.label());
    } else if format != Format::Json {
        let remaining = remaining.map_or_else(|| "unknown".to_owned(), |left| left.to_string());
        eprintln!("rows: {rows}, units used: {used}, units remaining: {remaining}");
    }
    match written {
        Ok(_) => exit::OK,
        // A closed pipe (`| head`) is not a failure of the call.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => exit::OK,
        Err(error) => {
            eprintln!("error: cannot write the result: {error}");
            exit::FAILED
        }
    }
}

/// A job that stopped part-way: its rows printed as a result, then what is
/// missing and why on stderr; exit code 1 whatever the cause (requests were
/// sent and charged).
pub fn print_stopped(
    format: Format,
    view: &View<'_>,
    op: &'static Operation,
    partial: Box<Partial>,
) -> u8 {
    let missing = partial.missing_summary();
    let (received, _, cause) = match partial.into_outcome::<Value>() {
        Ok(parts) => parts,
        Err(partial) => return report(&Error::from(partial)),
    };
    print_result(format, view, op, &received);
    report_stopped(op, received.envelope.result_rows, &missing, &cause)
}
