//! The command's one entry point: parse the arguments, start the runtime,
//! run the subcommand, and give back its exit code.

use std::ffi::OsString;
use std::io::Write as _;

use crate::cli::Command;
use crate::{cli, completions, drift, exit, logging, sandbox, usage};

/// Runs the command line `args` (the program's name first, as
/// [`std::env::args_os`] gives it) and returns the exit code: `0` success, `1`
/// failed, `2` refused before anything was sent (see the crate's docs).
///
/// The `seozoom` binary is this function; so is the Python package's `seozoom`
/// command, which hands it the interpreter's arguments. Help, version and
/// usage errors end the process from here, as they do in the binary.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let code = run_command(args);
    // A host process (Python) does not flush Rust's buffered standard output
    // when it exits; the binary would have, so flush it here for both.
    let _ = std::io::stdout().flush();
    code
}

fn run_command<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    logging::init();
    let command = match cli::parse(args) {
        Ok(Command::Print(print)) => return completions::print(print),
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
            return exit::FAILED;
        }
    };
    match command {
        Command::Call(invocation) => runtime.block_on(crate::run::operation(invocation)),
        Command::Sandbox {
            port,
            strict,
            units,
            drift,
        } => runtime.block_on(sandbox::serve(port, strict, units, drift)),
        Command::Mcp(options) => match runtime.block_on(seozoom_mcp::serve(options)) {
            seozoom_mcp::Ended::Normally => exit::OK,
            seozoom_mcp::Ended::Refused => exit::REFUSED,
            seozoom_mcp::Ended::Failed => exit::FAILED,
        },
        Command::Usage(usage) => runtime.block_on(usage::report(usage)),
        Command::Drift(drift) => runtime.block_on(drift::report(drift)),
        Command::Print(print) => completions::print(print),
    }
}
