//! `Sandbox`: the offline stand-in of the service on a loopback port, for
//! tests and notebooks with no key. It serves until closed (the Python
//! context manager closes it on exit).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use seozoom::sandbox::{Fault, FaultPlan};

use crate::wait;

/// A running sandbox server.
#[pyclass(frozen, module = "seozoom._native")]
pub struct Sandbox {
    running: Mutex<Option<seozoom::sandbox::Sandbox>>,
    url: String,
}

impl Sandbox {
    fn with<T>(&self, f: impl FnOnce(&seozoom::sandbox::Sandbox) -> T) -> Option<T> {
        let running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.as_ref().map(f)
    }
}

#[pymethods]
impl Sandbox {
    /// Start a sandbox. `strict`: answer 429 over the spec's requests-per-minute
    /// figures, as the service would; `rate_window` (seconds) shortens the
    /// minute they apply to (strict mode), `units` sets the starting balance,
    /// `paged_rows` how many rows every paged query has. `fail_on` and
    /// `truncate_on` (wire name to value) answer every request carrying that
    /// value (or list item) with HTTP 500, or with its body cut short.
    /// `drift`: answers that drift from the spec
    /// (`seozoom::sandbox::SandboxBuilder::drift`).
    #[new]
    #[pyo3(signature = (strict=false, rate_window=None, units=None, paged_rows=None, fail_on=None, truncate_on=None, drift=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        strict: bool,
        rate_window: Option<f64>,
        units: Option<i64>,
        paged_rows: Option<u64>,
        fail_on: Option<HashMap<String, String>>,
        truncate_on: Option<HashMap<String, String>>,
        drift: bool,
    ) -> PyResult<Self> {
        let mut builder = seozoom::sandbox::Sandbox::builder();
        if drift {
            builder = builder.drift();
        }
        if fail_on.is_some() || truncate_on.is_some() {
            let mut plan = FaultPlan::none();
            for (faults, fault) in [
                (fail_on, Fault::ServerError),
                (truncate_on, Fault::Truncated),
            ] {
                for (param, value) in faults.into_iter().flatten() {
                    plan = plan.on(&param, &value, fault);
                }
            }
            builder = builder.faults(plan);
        }
        if strict {
            builder = builder.strict();
        }
        if let Some(window) = rate_window {
            builder =
                builder.rate_window(Duration::try_from_secs_f64(window).unwrap_or(Duration::ZERO));
        }
        if let Some(units) = units {
            // As `seozoom sandbox --units`: a balance is never negative.
            if units < 0 {
                return Err(PyValueError::new_err(format!(
                    "units = {units}: the starting balance must be at least 0"
                )));
            }
            builder = builder.units(units);
        }
        if let Some(rows) = paged_rows {
            builder = builder.paged_rows(rows);
        }
        let started = wait::block_on(py, false, move |_| builder.start())?.value;
        let running =
            started.map_err(|e| PyOSError::new_err(format!("cannot start the sandbox: {e}")))?;
        Ok(Sandbox {
            url: running.base_url(),
            running: Mutex::new(Some(running)),
        })
    }

    /// `http://127.0.0.1:PORT`: the `base_url` to give a client.
    #[getter]
    fn url(&self) -> String {
        self.url.clone()
    }

    /// HTTP requests received so far.
    #[getter]
    fn requests(&self) -> u64 {
        self.with(|s| s.requests()).unwrap_or(0)
    }

    /// Requests answered 429 for going over a rate figure (strict mode).
    #[getter]
    fn rate_limited(&self) -> u64 {
        self.with(|s| s.rate_limited()).unwrap_or(0)
    }

    /// Units left on the sandbox's account.
    #[getter]
    fn units_remaining(&self) -> i64 {
        self.with(|s| s.units_remaining()).unwrap_or(0)
    }

    /// Stop serving (idempotent).
    fn close(&self) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.take();
    }

    fn __repr__(&self) -> String {
        format!("Sandbox(url={:?})", self.url)
    }
}
