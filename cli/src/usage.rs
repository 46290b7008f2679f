//! `seozoom usage`: what the store's ledger holds for the key, per operation,
//! printed in the chosen format, and a warning when users other than its
//! owner may read the store's file.

use std::io::Write;

use seozoom::Client;
use seozoom::error::Error;

use crate::cli::{Target, Usage};
use crate::format::Format;
use crate::store::{StoreOptions, utc_text};
use crate::{error_report, exit, sandbox};

/// The client of `usage`: the key (or the sandbox's) on the store, sending
/// nothing.
fn usage_client(api_key: String, options: &StoreOptions) -> Result<Client, Error> {
    options
        .apply(Client::builder().api_key(api_key), None)?
        .build()
}

/// The columns of `seozoom usage` in CSV and tables (JSON has the library's
/// members, these and `rows`).
const USAGE_COLUMNS: [&str; 6] = [
    "group",
    "action",
    "calls",
    "cache_hits",
    "units_used",
    "units_saved",
];

/// `seozoom usage`: the ledger per operation; the exit code.
pub async fn report(usage: Usage) -> u8 {
    let api_key = match usage.target {
        Target::Sandbox => sandbox::API_KEY.to_owned(),
        Target::Service { api_key, .. } => api_key.unwrap_or_default(),
    };
    let client = match usage_client(api_key, &usage.store) {
        Ok(client) => client,
        Err(error) => return error_report::report(&error),
    };
    let (rows, balance) = match (
        client.usage(usage.since_ms).await,
        client.last_balance().await,
    ) {
        (Ok(rows), Ok(balance)) => (rows, balance),
        (Err(error), _) | (_, Err(error)) => return error_report::report(&error),
    };
    // Paid data others may read: said on stderr, whatever the format, and
    // left for the user to change.
    for file in client.store().readable_by_others() {
        eprintln!("warning: the store's file {file}");
    }
    let mut stdout = std::io::stdout().lock();
    let written =
        write_usage(usage.format, &rows, balance, &mut stdout).and_then(|()| stdout.flush());
    match written {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write the usage: {error}");
            exit::FAILED
        }
        _ => exit::OK,
    }
}

/// The ledger's lines in `format`; the table also shows the last balance
/// reported (the other formats are the documented list of objects).
fn write_usage(
    format: Format,
    rows: &[seozoom::store::Usage],
    balance: Option<seozoom::store::Balance>,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, rows)?;
            writeln!(out)
        }
        Format::Ndjson => rows.iter().try_for_each(|row| {
            serde_json::to_writer(&mut *out, row)?;
            writeln!(out)
        }),
        Format::Csv => {
            let mut csv = csv::Writer::from_writer(out);
            csv.write_record(USAGE_COLUMNS)?;
            for row in rows {
                csv.write_record(usage_line(row))?;
            }
            csv.flush()
        }
        Format::Table => {
            let mut table = comfy_table::Table::new();
            table.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
            table.set_header(USAGE_COLUMNS.map(|c| c.replace('_', " ")));
            for row in rows {
                table.add_row(usage_line(row));
            }
            writeln!(out, "{table}")?;
            match balance {
                Some(balance) => {
                    let at = u64::try_from(balance.at_ms).unwrap_or(0);
                    let at = std::time::UNIX_EPOCH + std::time::Duration::from_millis(at);
                    writeln!(
                        out,
                        "last balance reported: {} units, at {}",
                        balance.units_remaining,
                        utc_text(at)
                    )
                }
                None => writeln!(out, "no balance reported yet"),
            }
        }
    }
}

fn usage_line(row: &seozoom::store::Usage) -> [String; 6] {
    [
        row.group.clone(),
        row.action.clone(),
        row.calls.to_string(),
        row.cache_hits.to_string(),
        row.units_used.to_string(),
        row.units_saved.to_string(),
    ]
}
