//! `Core`: a Rust client held by a Python client, and its one generic entry
//! point, `call(group, action, params, db, max_rows)`, in a blocking and an
//! awaitable flavour; with the estimate and the store's usage beside it.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDateAccess, PyDict};
use seozoom::error::ErrorKind;
use seozoom::job::Row;
use seozoom::job::{RunOptions, Stop};
use seozoom::operation_table::Operation;
use seozoom::operations::RECORDS;
use seozoom::store::{Budget, BudgetWindow, Store};
use seozoom::types::ByKey;
use seozoom::{Client, Db};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::args;
use crate::errors;
use crate::job::{self, Failure, Missing};
use crate::params;
use crate::rows::{self, Rows};
use crate::typed::{self, Outcome, ResultType};
use crate::wait;

/// A Rust client. Its `repr` shows where it sends and stores, never the key.
#[pyclass(frozen, module = "seozoom._native")]
pub struct Core {
    client: Client,
    /// Fit every paged call's row cap to the budget (`fit_budget=`).
    fit_budget: bool,
}

/// `budget=`: `N` units for this client, or `"N/day"`, `"N/month"` for the
/// key's UTC window across every process on the store (as `--budget`).
fn budget(value: &Bound<'_, PyAny>) -> PyResult<(i64, Option<BudgetWindow>)> {
    let refused = |limit: &str| errors::refused("budget", Some(&errors::shown_value(value)), limit);
    const FORMS: &str = "a whole number of units (an int, at least 0), \"N/day\" or \"N/month\"";
    if value.is_instance_of::<PyBool>() {
        return Err(refused(FORMS));
    }
    if let Ok(units) = value.extract::<i64>() {
        return match units >= 0 {
            true => Ok((units, None)),
            false => Err(refused(FORMS)),
        };
    }
    let text: String = value.extract().map_err(|_| refused(FORMS))?;
    match text.parse::<Budget>() {
        Ok(Budget::Per(units, window)) => Ok((units, Some(window))),
        Ok(Budget::Client(units)) => Ok((units, None)),
        Err(fault) => Err(refused(&format!("{FORMS}: {fault}"))),
    }
}

#[pymethods]
impl Core {
    #[new]
    #[pyo3(signature = (api_key, base_url=None, db=None, store=None, budget=None, refresh=None, store_fallback=None, rate_window=None, timeout=None, max_wait=None, fit_budget=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        api_key: Option<&Bound<'_, PyAny>>,
        base_url: Option<&Bound<'_, PyAny>>,
        db: Option<&Bound<'_, PyAny>>,
        store: Option<&Bound<'_, PyAny>>,
        budget: Option<&Bound<'_, PyAny>>,
        refresh: Option<&Bound<'_, PyAny>>,
        store_fallback: Option<&Bound<'_, PyAny>>,
        rate_window: Option<&Bound<'_, PyAny>>,
        timeout: Option<&Bound<'_, PyAny>>,
        max_wait: Option<&Bound<'_, PyAny>>,
        fit_budget: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let api_key = args::text("api_key", api_key, true)?;
        let base_url = args::text("base_url", base_url, false)?;
        let db = args::text("db", db, false)?;
        let store = args::text("store", store, false)?;
        let rate_window = args::seconds("rate_window", rate_window, false)?;
        let timeout = args::seconds("timeout", timeout, true)?;
        let max_wait = args::seconds("max_wait", max_wait, false)?;
        let fit_budget = args::flag("fit_budget", fit_budget)?;
        let mut builder = Client::builder()
            .api_key(api_key.unwrap_or_default())
            .refresh(args::flag("refresh", refresh)?)
            .store_fallback(args::flag("store_fallback", store_fallback)?);
        if let Some(url) = base_url {
            builder = builder.base_url(url);
        }
        if let Some(db) = db {
            let parsed = db
                .parse::<Db>()
                .map_err(|e| errors::refused("db", Some(&db), &e.to_string()))?;
            builder = builder.db(parsed);
        }
        let url = match store {
            Some(url) => url,
            None => seozoom::store::default_url().map_err(|e| errors::from_error(&e))?,
        };
        builder = builder.store(Store::open(&url).map_err(|e| errors::from_error(&e))?);
        if let Some(value) = budget.filter(|v| !v.is_none()) {
            builder = match self::budget(value)? {
                (units, None) => builder.budget(units),
                (units, Some(window)) => builder.budget_per(units, window),
            };
        }
        if let Some(window) = rate_window {
            builder = builder.rate_window(window);
        }
        if let Some(timeout) = timeout {
            builder = builder.timeout(timeout);
        }
        if let Some(max_wait) = max_wait {
            builder = builder.max_wait(max_wait);
        }
        let client = builder.build().map_err(|e| errors::from_error(&e))?;
        Ok(Core { client, fit_budget })
    }

    fn __repr__(&self) -> String {
        format!(
            "Core(base_url={:?}, db={:?}, store={:?})",
            self.client.base_url(),
            self.client.default_database(),
            self.client.store().name()
        )
    }

    /// One call, blocking with the GIL released; a `Result`.
    #[pyo3(signature = (group, action, params, db=None, max_rows=None))]
    fn call(
        &self,
        py: Python<'_>,
        group: &str,
        action: &str,
        params: &Bound<'_, PyDict>,
        db: Option<&Bound<'_, PyAny>>,
        max_rows: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let op = params::operation(group, action)?;
        let max_rows = args::max_rows(op, max_rows)?;
        let db = args::text("db", db, false)?;
        let request = params::request(op, params, db.as_deref())?;
        let (client, fit) = (self.client.clone(), self.fit_budget);
        let waited = wait::block_on(py, true, move |stop| {
            job::run((client, request), (max_rows, fit), stop)
        })?;
        to_python(py, op, waited.value, waited.interrupted)
    }

    /// One call as an awaitable of a `Result`. The coroutine that awaits it
    /// calls this in its own body, so nothing is sent before it runs.
    ///
    /// The job runs as a task of its own: cancelling the awaitable gives the
    /// job's stop signal rather than dropping it, so no request goes out
    /// after the cancel, and one already on the wire is let finish and its
    /// answer kept in the store's cache.
    #[pyo3(signature = (group, action, params, db=None, max_rows=None))]
    fn call_async<'py>(
        &self,
        py: Python<'py>,
        group: &str,
        action: &str,
        params: &Bound<'py, PyDict>,
        db: Option<&Bound<'_, PyAny>>,
        max_rows: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let op = params::operation(group, action)?;
        let max_rows = args::max_rows(op, max_rows)?;
        let db = args::text("db", db, false)?;
        let request = params::request(op, params, db.as_deref())?;
        let (client, fit) = (self.client.clone(), self.fit_budget);
        pyo3_async_runtimes::tokio::future_into_py(py, async move {
            let stop = Stop::new();
            let on_cancel = wait::StopOnDrop::new(stop.clone());
            let job = tokio::spawn(job::run((client, request), (max_rows, fit), stop));
            let outcome = job.await;
            on_cancel.disarm();
            let outcome = outcome.map_err(|e| {
                pyo3::exceptions::PyRuntimeError::new_err(format!("the seozoom job failed: {e}"))
            })?;
            Python::attach(|py| to_python(py, op, outcome, None))
        })
    }

    /// The cost range of a call or job before it is sent: a dict of `min`,
    /// `max` (`None` when unbounded), `unknown`, `basis` and `learned_per_row`.
    #[pyo3(signature = (group, action, params, db=None, max_rows=None))]
    fn estimate(
        &self,
        py: Python<'_>,
        group: &str,
        action: &str,
        params: &Bound<'_, PyDict>,
        db: Option<&Bound<'_, PyAny>>,
        max_rows: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let op = params::operation(group, action)?;
        let max_rows = args::max_rows(op, max_rows)?;
        let db = args::text("db", db, false)?;
        let request = params::request(op, params, db.as_deref())?;
        // The runner's plan, and the whole job's cost as if the cache
        // answered nothing.
        let options = match max_rows {
            Some(rows) => RunOptions::new().max_rows(rows),
            None => RunOptions::new(),
        };
        let client = self.client.clone();
        let waited = wait::block_on(py, false, move |_| async move {
            client.plan(&request, &options).await.map(|plan| plan.whole)
        })?;
        let estimate = waited.value.map_err(|e| errors::from_error(&e))?;
        Ok(rows::plain(py, &estimate)?.unbind())
    }

    /// What the store's ledger holds for the key per operation, from `since`
    /// (a `datetime.date`, UTC) on: a list of dicts.
    #[pyo3(signature = (since=None))]
    fn usage(&self, py: Python<'_>, since: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let since_ms = match args::date("since", since)? {
            Some(day) => seozoom::types::Date::new(day.get_year(), day.get_month(), day.get_day())
                .map_or(0, |d| d.to_unix_days().saturating_mul(86_400_000)),
            None => 0,
        };
        let client = self.client.clone();
        let waited = wait::block_on(py, false, move |_| async move {
            let usage = client.usage(since_ms).await?;
            let balance = client.last_balance().await?;
            Ok::<_, seozoom::Error>((usage, balance))
        })?;
        let (usage, balance) = waited.value.map_err(|e| errors::from_error(&e))?;
        let report = PyDict::new(py);
        report.set_item("operations", rows::plain(py, &usage)?)?;
        report.set_item("units_remaining", balance.map(|b| b.units_remaining))?;
        Ok(report.into_any().unbind())
    }

    /// Units this client (and its clones) was charged, and the last balance.
    fn units(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(rows::plain(py, &self.client.units())?.unbind())
    }

    /// What the service at the client's base URL sent that the spec does not
    /// say, as the store recorded it for the key: the report `seozoom drift
    /// --format json` prints (`origin`, `observations`), and with `patch`
    /// its patch of the spec (TOML text).
    #[pyo3(signature = (patch=false))]
    fn drift(&self, py: Python<'_>, patch: bool) -> PyResult<Py<PyAny>> {
        let client = self.client.clone();
        let waited = wait::block_on(py, false, move |_| async move { client.drift().await })?;
        let report = waited.value.map_err(|e| errors::from_error(&e))?;
        if patch {
            return Ok(pyo3::types::PyString::new(py, &report.patch())
                .into_any()
                .unbind());
        }
        let text = serde_json::to_string(&report)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
    }

    /// The store's URL as it may be shown.
    #[getter]
    fn store(&self) -> String {
        self.client.store().name().to_owned()
    }
}

/// A body the service sent for an operation (saved earlier, say), decoded
/// by the Rust decoders into a `Result`, as a call's would be: for replaying
/// stored answers, and for measuring the decoding alone.
#[pyfunction]
pub fn decode(py: Python<'_>, group: &str, action: &str, body: &[u8]) -> PyResult<Py<PyAny>> {
    let op = params::operation(group, action)?;
    let outcome = py
        .detach(|| typed::for_operation(op, Decode { op, body }))
        .map_err(|e| errors::from_error(&e))?;
    result(py, op, outcome)
}

/// A body decoded as its operation's typed result.
struct Decode<'a> {
    op: &'static Operation,
    body: &'a [u8],
}

impl ResultType for Decode<'_> {
    type Output = Result<Outcome, seozoom::Error>;

    fn rows<R>(self) -> Self::Output
    where
        R: Row + DeserializeOwned + Serialize + Send + Sync + 'static,
    {
        let envelope = self.op.decode_rows::<R>(200, self.body)?;
        Ok(Outcome::from_envelope(envelope, Vec::len))
    }

    fn map<V>(self) -> Self::Output
    where
        V: DeserializeOwned + Serialize + Send + Sync + 'static,
    {
        let envelope = self.op.decode::<ByKey<V>>(200, self.body)?;
        Ok(Outcome::from_envelope(envelope, |_| 0))
    }

    fn one<T>(self) -> Self::Output
    where
        T: DeserializeOwned + Serialize + Send + Sync + 'static,
    {
        let envelope = self.op.decode::<T>(200, self.body)?;
        Ok(Outcome::from_envelope(envelope, |_| 0))
    }
}

/// The Python `Result` of an outcome, or the exception of a failure.
fn to_python(
    py: Python<'_>,
    op: &'static Operation,
    outcome: Result<Outcome, Failure>,
    interrupted: Option<PyErr>,
) -> PyResult<Py<PyAny>> {
    match outcome {
        Ok(outcome) => match interrupted {
            // Interrupted while the last request was answered: nothing lost.
            Some(signal) => Err(signal),
            None => result(py, op, outcome),
        },
        // Stopped by Ctrl-C before anything was received: the interrupt itself.
        Err(Failure::Error(error)) => match interrupted {
            Some(signal) if matches!(error.kind(), ErrorKind::Stopped) => Err(signal),
            _ => Err(errors::from_error(&error)),
        },
        Err(Failure::Stopped {
            received,
            missing,
            cause,
        }) => {
            let rows = received.rows;
            let used = received.figures.units_used;
            let (missing_text, missing) = missing_dict(py, &missing)?;
            let why = match &cause {
                Some(error) => error.to_string(),
                None => "interrupted (KeyboardInterrupt)".to_owned(),
            };
            let message = format!(
                "{}: the job stopped part-way ({rows} rows kept, {used} units used); missing {missing_text}: {why}",
                op.label()
            );
            let kept = result(py, op, received)?;
            let error = errors::raise(
                py,
                "Partial",
                &message,
                &[("result", kept), ("missing", missing)],
            );
            let cause = match cause {
                Some(error) => Some(errors::from_error(&error)),
                None => interrupted,
            };
            error.set_cause(py, cause);
            Err(error)
        }
    }
}

fn missing_dict(py: Python<'_>, missing: &Missing) -> PyResult<(String, Py<PyAny>)> {
    let dict = PyDict::new(py);
    let text = match missing {
        Missing::Inputs { param, values } => {
            dict.set_item(*param, values)?;
            format!("{} `{param}` values", values.len())
        }
        Missing::Rows { offset, rows } => {
            dict.set_item("offset", offset)?;
            dict.set_item("max_rows", rows)?;
            format!("{rows} rows from offset {offset}")
        }
    };
    Ok((text, dict.into_any().unbind()))
}

/// `seozoom._runtime.Result(rows, units_used, units_remaining, from_cache,
/// no_data, record, raw_rows, cached_items=, cached_requests=, extras=)`, `record`
/// naming the rows' `TypedDict`: the run's figures as the library counted
/// them.
fn result(py: Python<'_>, op: &'static Operation, outcome: Outcome) -> PyResult<Py<PyAny>> {
    let rows = outcome.body.to_python(&mut Rows::new(py), op)?;
    // Rare (rows the client could not type): as JSON, the rows as sent.
    let raw_rows = match outcome.raw_rows.is_empty() {
        true => pyo3::types::PyList::empty(py).into_any(),
        false => {
            let text = serde_json::to_string(&outcome.raw_rows)
                .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
            py.import("json")?.call_method1("loads", (text,))?
        }
    };
    // Rare too (members of the envelope the spec does not know): as JSON.
    let extras = match outcome.extras.is_empty() {
        true => PyDict::new(py).into_any(),
        false => {
            let members: serde_json::Map<String, serde_json::Value> = outcome
                .extras
                .iter()
                .map(|(name, value)| (name.to_owned(), value.clone()))
                .collect();
            let text = serde_json::to_string(&members)
                .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
            py.import("json")?.call_method1("loads", (text,))?
        }
    };
    let record = RECORDS
        .iter()
        .find(|r| r.name == op.response.payload)
        .map(|r| r.type_name);
    let figures = outcome.figures;
    let class = py.import("seozoom._runtime")?.getattr("Result")?;
    let counts = PyDict::new(py);
    counts.set_item("cached_items", figures.cached_items)?;
    counts.set_item("cached_requests", figures.cached_requests)?;
    counts.set_item("extras", extras)?;
    let made = class.call(
        (
            rows,
            figures.units_used,
            figures.units_remaining,
            figures.from_cache,
            figures.no_data,
            record,
            raw_rows,
        ),
        Some(&counts),
    )?;
    Ok(made.unbind())
}
