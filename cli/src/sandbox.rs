//! The built-in sandbox ([`seozoom::sandbox::Sandbox`]): started for one call with
//! `--sandbox`, or served on its own with `seozoom sandbox [--port N] [--strict]
//! [--units N] [--drift]`.

use std::time::Duration;

use seozoom::sandbox::Sandbox;

use crate::exit;

/// The key the sandbox accepts; it is not a secret.
pub const API_KEY: &str = Sandbox::API_KEY;

/// How often a strict sandbox looks for new 429 answers to report.
const REPORT_EVERY: Duration = Duration::from_millis(200);

/// Start a sandbox on an ephemeral loopback port, for one call. It stops when
/// dropped.
pub async fn start() -> std::io::Result<Sandbox> {
    Sandbox::start().await
}

/// Serve a sandbox until the process is ended: its base URL on stdout (one line,
/// for scripts), how to use it on stderr. With `strict`, the requests-per-minute
/// figures are enforced over that window, and each request answered 429 is
/// reported on stderr. `units`: the balance the account starts with (else
/// the sandbox's default); `drift`: answers that drift from the spec. The
/// exit code.
pub async fn serve(
    port: Option<u16>,
    strict: Option<Duration>,
    units: Option<i64>,
    drift: bool,
) -> u8 {
    let mut builder = Sandbox::builder().port(port.unwrap_or(0));
    if drift {
        builder = builder.drift();
    }
    if let Some(window) = strict {
        builder = builder.rate_window(window);
    }
    if let Some(units) = units {
        builder = builder.units(units);
    }
    let sandbox = match builder.start().await {
        Ok(sandbox) => sandbox,
        Err(error) => {
            let port = port.map_or_else(|| "an ephemeral port".to_owned(), |p| format!("port {p}"));
            eprintln!("error: cannot start the sandbox on 127.0.0.1, {port}: {error}");
            return exit::FAILED;
        }
    };
    let base_url = sandbox.base_url();
    println!("{base_url}");
    if drift {
        eprintln!(
            "sandbox: its answers drift from the spec (--drift): see them with `seozoom --base-url {base_url} --api-key {API_KEY} drift`"
        );
    }
    eprintln!(
        "sandbox: serving the {} on {base_url} with {} units; any non-empty key works (`{}`). Stop with Ctrl-C.",
        seozoom::operations::SERVICE.title,
        sandbox.units_remaining(),
        API_KEY,
    );
    let Some(window) = strict else {
        eprintln!(
            "try: seozoom --base-url {base_url} --api-key {API_KEY} domains metrics --domain example.it"
        );
        sandbox.serve_forever().await;
        return exit::OK;
    };
    let secs = window.as_secs_f64();
    eprintln!(
        "sandbox: strict: each operation's requests-per-minute figure holds per key in any {secs} s window; a request over it is answered 429"
    );
    eprintln!(
        "try: seozoom --base-url {base_url} --api-key {API_KEY} --rate-window {secs} domains metrics --domain example.it"
    );
    let serving = std::pin::pin!(sandbox.serve_forever());
    let reporting = std::pin::pin!(report_refusals(&sandbox));
    futures_util::future::select(serving, reporting).await;
    exit::OK
}

/// Say on stderr how many requests were answered 429, whenever that grows,
/// until the process is ended: a script under test should never see such a
/// line. The requests received are counted the same way, so that a test can
/// read from the log how many a client sent (after a cancel, say).
async fn report_refusals(sandbox: &Sandbox) {
    let (mut reported, mut received) = (0, 0);
    loop {
        tokio::time::sleep(REPORT_EVERY).await;
        let requests = sandbox.requests();
        if requests > received {
            eprintln!("sandbox: {requests} request(s) received so far");
            received = requests;
        }
        let refused = sandbox.rate_limited();
        if refused > reported {
            eprintln!("sandbox: {refused} request(s) refused with 429 so far (over the figure)");
            reported = refused;
        }
    }
}
