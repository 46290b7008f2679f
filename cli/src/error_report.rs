//! What stderr says of an error, and the exit code it calls for: a call that
//! failed or was refused, and a job that stopped part-way. The library's errors
//! never hold the key.

use seozoom::Error;
use seozoom::error::ErrorKind;

use crate::exit;

/// Print an error on stderr; the exit code it calls for. The library's errors
/// never hold the key.
pub fn report(error: &Error) -> u8 {
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
        exit::REFUSED
    } else {
        exit::FAILED
    }
}

/// Say on stderr that a job stopped part-way after `rows` rows (printed), what
/// is `missing` and why; the exit code: 1 whatever the cause (requests were
/// sent and charged).
pub fn report_stopped(
    op: &'static seozoom::operation_table::Operation,
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
    exit::FAILED
}
