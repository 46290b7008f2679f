//! Waiting for the Rust client: the calling thread lets go of the GIL while
//! a job runs on the shared tokio runtime, and comes back every few
//! milliseconds to let Python handle its signals.
//!
//! Ctrl-C (`KeyboardInterrupt`) during a call, whatever its kind (one call, a
//! batched or a paged job), gives its stop signal ([`Stop`]), which the
//! library's runner obeys: every wait ends at once (a rate-limit slot, a
//! backoff, a `Retry-After`), no other request is sent, the request in flight
//! is answered and kept, and the job ends with what it has. A second Ctrl-C
//! drops the job at once. Waits that send nothing (the store, the sandbox)
//! are simply dropped.

use std::future::Future;
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use seozoom::job::Stop;

/// How often a waiting thread checks for signals.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// The runtime every client of the process runs on (the async client's too).
pub fn runtime() -> &'static tokio::runtime::Runtime {
    pyo3_async_runtimes::tokio::get_runtime()
}

/// What a wait came to: the job's end, and the signal that stopped it
/// between requests, if one did.
pub struct Waited<T> {
    pub value: T,
    pub interrupted: Option<PyErr>,
}

/// Run `job` to its end without holding the GIL. With `stoppable`, a signal
/// asks the job to stop (see the module's docs) and the wait goes on until it
/// has; otherwise the job is dropped and the signal's exception returned.
pub fn block_on<T, F>(
    py: Python<'_>,
    stoppable: bool,
    job: impl FnOnce(Stop) -> F,
) -> PyResult<Waited<T>>
where
    T: Send + 'static,
    F: Future<Output = T> + Send + 'static,
{
    let stop = Stop::new();
    let (tx, rx) = channel();
    // The receiver crosses into `detach`, which needs it `Sync`.
    let rx = Mutex::new(rx);
    let task = runtime().spawn({
        let future = job(stop.clone());
        async move {
            let _ = tx.send(future.await);
        }
    });
    let mut interrupted = None;
    loop {
        match py.detach(|| {
            let rx = rx.lock().unwrap_or_else(PoisonError::into_inner);
            rx.recv_timeout(SIGNAL_CHECK)
        }) {
            Ok(value) => return Ok(Waited { value, interrupted }),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(signal) = py.check_signals() {
                    if !stoppable || interrupted.is_some() {
                        task.abort();
                        return Err(signal);
                    }
                    stop.stop();
                    interrupted = Some(signal);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "the seozoom job ended without a result",
                ));
            }
        }
    }
}

/// Gives a job's stop signal when dropped, unless disarmed first: held by
/// the awaitable of an async call, which asyncio drops when the awaiting task
/// is cancelled, so that a cancel stops the job rather than dropping it.
pub struct StopOnDrop(Option<Stop>);

impl StopOnDrop {
    pub fn new(stop: Stop) -> Self {
        StopOnDrop(Some(stop))
    }

    /// The job has ended: nothing to stop.
    pub fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        if let Some(stop) = self.0.take() {
            stop.stop();
        }
    }
}
