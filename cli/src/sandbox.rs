//! The built-in sandbox ([`seozoom::sandbox::Sandbox`]): started for one call with
//! `--sandbox`, or served on its own with `seozoom sandbox [--port N]`.

use seozoom::sandbox::Sandbox;

use crate::{EXIT_FAILED, EXIT_OK};

/// The key the sandbox accepts; it is not a secret.
pub const API_KEY: &str = Sandbox::API_KEY;

/// Start a sandbox on an ephemeral loopback port, for one call. It stops when
/// dropped.
pub async fn start() -> std::io::Result<Sandbox> {
    Sandbox::start().await
}

/// Serve a sandbox until the process is ended: its base URL on stdout (one line,
/// for scripts), how to use it on stderr. The exit code.
pub async fn serve(port: Option<u16>) -> u8 {
    let sandbox = match Sandbox::start_on(port.unwrap_or(0)).await {
        Ok(sandbox) => sandbox,
        Err(error) => {
            let port = port.map_or_else(|| "an ephemeral port".to_owned(), |p| format!("port {p}"));
            eprintln!("error: cannot start the sandbox on 127.0.0.1, {port}: {error}");
            return EXIT_FAILED;
        }
    };
    let base_url = sandbox.base_url();
    println!("{base_url}");
    eprintln!(
        "sandbox: serving the {} on {base_url} with {} units; any non-empty key works (`{}`). Stop with Ctrl-C.",
        seozoom::operations::SERVICE.title,
        Sandbox::STARTING_UNITS,
        API_KEY,
    );
    eprintln!(
        "try: seozoom --base-url {base_url} --api-key {API_KEY} domains metrics --domain example.it"
    );
    sandbox.serve_forever().await;
    EXIT_OK
}
