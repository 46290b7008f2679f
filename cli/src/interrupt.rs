//! Ctrl-C during a call: the first stops the job as the library's stop does
//! (every wait ends, nothing more is sent, a request on the wire is let
//! finish, and the rows paid for are printed with what is missing); a second
//! ends the process at once.

use seozoom::job::Stop;

/// Exit code of a process ended by a second Ctrl-C (128 + SIGINT).
const INTERRUPTED: i32 = 130;

/// A stop given by the first Ctrl-C from now on.
pub fn stop_on_ctrl_c() -> Stop {
    let stop = Stop::new();
    let given = stop.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_err() {
            return;
        }
        eprintln!("interrupted: no request is sent after this one (Ctrl-C again to quit at once)");
        given.stop();
        if tokio::signal::ctrl_c().await.is_ok() {
            std::process::exit(INTERRUPTED);
        }
    });
    stop
}
