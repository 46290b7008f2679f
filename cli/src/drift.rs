//! `seozoom drift`: what the service sent that the spec does not say, as the
//! store recorded it, printed in the chosen format or as a patch of the spec.

use std::io::Write;

use seozoom::Client;
use seozoom::drift::{DriftReport, JsonType, Observation};
use seozoom::error::Error;

use crate::cli::{Drift, Target};
use crate::format::Format;
use crate::store::utc_text;
use crate::{error_report, exit};

/// The columns of `seozoom drift`, as its CSV header and table header.
const COLUMNS: [&str; 10] = [
    "operation",
    "record",
    "member",
    "kind",
    "count",
    "rows",
    "first_seen",
    "last_seen",
    "types",
    "example",
];

/// The client of `drift`: the key on the store, at the base URL whose origin
/// is reported, sending nothing.
fn drift_client(drift: &Drift) -> Result<Client, Error> {
    let (api_key, base_url) = match &drift.target {
        Target::Service { api_key, base_url } => (api_key.clone().unwrap_or_default(), base_url),
        // A sandbox started for one call has an origin of its own each time.
        Target::Sandbox => {
            return Err(Error::from(seozoom::error::InvalidInput {
                operation: "drift".into(),
                param: "sandbox".into(),
                value: "--sandbox".into(),
                problem: "a sandbox started for one call is gone with it: serve one (`seozoom sandbox --drift --port N`) and give its --base-url and --api-key sandbox".into(),
            }));
        }
    };
    drift
        .store
        .apply(Client::builder().api_key(api_key).base_url(base_url), None)?
        .build()
}

/// `seozoom drift`: the drift of the origin, or its patch; the exit code.
pub async fn report(drift: Drift) -> u8 {
    let client = match drift_client(&drift) {
        Ok(client) => client,
        Err(error) => return error_report::report(&error),
    };
    let report = match client.drift().await {
        Ok(report) => report,
        Err(error) => return error_report::report(&error),
    };
    let mut stdout = std::io::stdout().lock();
    let written = match drift.patch {
        true => write!(stdout, "{}", report.patch()),
        false => write_report(drift.format, &report, &mut stdout),
    };
    match written.and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write the drift: {error}");
            exit::FAILED
        }
        _ => exit::OK,
    }
}

/// A time in ms since the epoch, as people read it.
fn time(ms: i64) -> String {
    let at =
        std::time::UNIX_EPOCH + std::time::Duration::from_millis(u64::try_from(ms).unwrap_or(0));
    utc_text(at)
}

/// One observation as the cells of a line.
fn line(o: &Observation) -> [String; 10] {
    let types: Vec<&str> = o.types.iter().map(JsonType::as_str).collect();
    [
        o.operation(),
        o.record.clone(),
        o.member.clone(),
        o.kind.as_str().to_owned(),
        o.count.to_string(),
        o.rows.to_string(),
        time(o.first_ms),
        time(o.last_ms),
        types.join(" "),
        o.example.clone(),
    ]
}

/// The report in `format`: JSON is `{"origin", "observations"}`, ndjson one
/// observation a line, CSV and the table one line each.
fn write_report(format: Format, report: &DriftReport, out: &mut impl Write) -> std::io::Result<()> {
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, report)?;
            writeln!(out)
        }
        Format::Ndjson => report.observations().iter().try_for_each(|o| {
            serde_json::to_writer(&mut *out, o)?;
            writeln!(out)
        }),
        Format::Csv => {
            let mut csv = csv::Writer::from_writer(out);
            csv.write_record(COLUMNS)?;
            for o in report.observations() {
                csv.write_record(line(o))?;
            }
            csv.flush()
        }
        Format::Table => {
            if report.is_empty() {
                return writeln!(
                    out,
                    "no drift recorded for {}: the service sent what the spec says",
                    report.origin()
                );
            }
            let mut table = comfy_table::Table::new();
            table.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
            table.set_header(COLUMNS.map(|c| c.replace('_', " ")));
            for o in report.observations() {
                table.add_row(line(o));
            }
            writeln!(out, "drift of {}", report.origin())?;
            writeln!(out, "{table}")?;
            writeln!(
                out,
                "`seozoom drift --patch` writes it as a patch of the spec, for `seozoom-codegen apply`"
            )
        }
    }
}
