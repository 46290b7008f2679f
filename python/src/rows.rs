//! Decoded rows to Python objects, typed by the records' fields.
//!
//! The Rust client decodes a body through the operation's typed records and
//! hands it back as JSON with the API's field names (`execute_json`), each
//! value written in its one canonical wire form: integral floats already
//! integers, bad values already refused (`DecodeError`). Here each record
//! becomes a `dict` keyed by the fields' Rust names, in spec order, and each
//! value its Python type by the field's kind, inverting that canonical form:
//! boolean words (`"true"`/`"false"`) and flags (1/0) as `bool`, comma lists
//! (joined by `,`, no empty items) as `list[str]`, dates, times and
//! date-times as `datetime` objects, a SERP as a list of `{position, url}`.
//! Nothing names a record or a field.

use std::collections::HashMap;
use std::rc::Rc;

use pyo3::prelude::*;
use pyo3::types::{PyDate, PyDateTime, PyDict, PyList, PyString, PyTime};
use seozoom::operation_table::{FieldKind, Operation, RecordInfo, Shape};
use seozoom::operations::RECORDS;
use seozoom::types::{Date, DateTime, Time};
use serde_json::Value;

use seozoom::operation_table::SERP_PAYLOAD as SERP;

/// A record's keys, made once per result.
struct Layout<'py> {
    /// The Rust name of each field, in spec order.
    keys: Vec<Bound<'py, PyString>>,
    /// Field indices in the order of their wire names (the order a JSON
    /// object without `preserve_order` iterates in).
    by_wire: Vec<usize>,
}

/// Converts the rows of one result; it keeps the keys and dates it made, so
/// that 10,000 rows share one key object per field and one object per date.
pub struct Rows<'py> {
    py: Python<'py>,
    /// Per record: its fields' keys, and the order of its fields when the
    /// JSON object lists them sorted by wire name.
    keys: HashMap<&'static str, Rc<Layout<'py>>>,
    dates: HashMap<Date, Bound<'py, PyAny>>,
    last_record: Option<&'static RecordInfo>,
    position: Bound<'py, PyString>,
    url: Bound<'py, PyString>,
}

impl<'py> Rows<'py> {
    pub fn new(py: Python<'py>) -> Self {
        Rows {
            py,
            keys: HashMap::new(),
            dates: HashMap::new(),
            last_record: None,
            position: PyString::intern(py, "position"),
            url: PyString::intern(py, "url"),
        }
    }

    /// An operation's `response` as Python: a list of rows for an array or
    /// one object (empty for none), a dict for a map keyed by input.
    pub fn response(&mut self, op: &Operation, response: Value) -> PyResult<Bound<'py, PyAny>> {
        let payload = op.response.payload;
        match (op.response.shape, response) {
            (_, Value::Null) if matches!(op.response.shape, Shape::Map { .. }) => {
                Ok(PyDict::new(self.py).into_any())
            }
            (_, Value::Null) => Ok(PyList::empty(self.py).into_any()),
            (Shape::Map { .. }, Value::Object(map)) => {
                let dict = PyDict::new(self.py);
                for (key, value) in map {
                    dict.set_item(key, self.payload(payload, value)?)?;
                }
                Ok(dict.into_any())
            }
            (Shape::Array, Value::Array(items)) => {
                let rows = items
                    .into_iter()
                    .map(|item| self.payload(payload, item))
                    .collect::<PyResult<Vec<_>>>()?;
                Ok(PyList::new(self.py, rows)?.into_any())
            }
            // One SERP is already a list of results.
            (_, value) if payload == SERP => self.serp(value),
            // One record: a list of one row, so that every result has rows.
            (_, value) => {
                let row = self.payload(payload, value)?;
                Ok(PyList::new(self.py, [row])?.into_any())
            }
        }
    }

    /// Rows of a paged job (each already one record).
    pub fn list(&mut self, op: &Operation, rows: Vec<Value>) -> PyResult<Bound<'py, PyAny>> {
        let payload = op.response.payload;
        let rows = rows
            .into_iter()
            .map(|row| self.payload(payload, row))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyList::new(self.py, rows)?.into_any())
    }

    fn payload(&mut self, payload: &str, value: Value) -> PyResult<Bound<'py, PyAny>> {
        if payload == SERP {
            return self.serp(value);
        }
        match self.record_info(payload) {
            Some(record) => self.record(record, value),
            None => self.plain(value),
        }
    }

    /// The record a payload names (the last one asked, kept: a result's rows
    /// are all one record).
    fn record_info(&mut self, payload: &str) -> Option<&'static RecordInfo> {
        if let Some(last) = self.last_record.filter(|r| r.name == payload) {
            return Some(last);
        }
        let found = RECORDS.iter().find(|r| r.name == payload);
        self.last_record = found;
        found
    }

    /// A record as a dict keyed by its fields' Rust names, in spec order.
    fn record(&mut self, record: &'static RecordInfo, value: Value) -> PyResult<Bound<'py, PyAny>> {
        let Value::Object(map) = value else {
            return self.plain(value);
        };
        let py = self.py;
        let layout = Rc::clone(self.keys.entry(record.name).or_insert_with(|| {
            let mut by_wire: Vec<usize> = (0..record.fields.len()).collect();
            by_wire.sort_by_key(|&i| record.fields[i].wire);
            Rc::new(Layout {
                keys: record
                    .fields
                    .iter()
                    .map(|f| PyString::intern(py, f.rust))
                    .collect(),
                by_wire,
            })
        }));
        let fields = record.fields;
        let mut slots: Vec<Value> = vec![Value::Null; fields.len()];
        // The object iterates sorted by wire name: each key is checked
        // against the field expected there, and looked up only if it differs.
        let mut expected = layout.by_wire.iter();
        for (wire, value) in map {
            let index = match expected.next() {
                Some(&i) if fields[i].wire == wire => Some(i),
                _ => fields.iter().position(|f| f.wire == wire),
            };
            if let Some(index) = index {
                slots[index] = value;
            }
        }
        let dict = PyDict::new(py);
        for ((field, key), value) in fields.iter().zip(&layout.keys).zip(slots) {
            dict.set_item(key, self.field(field.kind, value)?)?;
        }
        Ok(dict.into_any())
    }

    fn field(&mut self, kind: FieldKind, value: Value) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        match (kind, value) {
            (FieldKind::Flag, Value::Number(n)) => {
                Ok(pyo3::types::PyBool::new(py, n.as_i64() == Some(1))
                    .to_owned()
                    .into_any())
            }
            (FieldKind::BoolWord, Value::String(text)) => match text.as_str() {
                "true" => Ok(pyo3::types::PyBool::new(py, true).to_owned().into_any()),
                "false" => Ok(pyo3::types::PyBool::new(py, false).to_owned().into_any()),
                _ => Ok(py.None().into_bound(py)),
            },
            (FieldKind::CommaList { .. }, Value::String(text)) => {
                let items: Vec<&str> = text.split(',').filter(|item| !item.is_empty()).collect();
                Ok(PyList::new(py, items)?.into_any())
            }
            (FieldKind::CommaList { .. }, Value::Null) => Ok(PyList::empty(py).into_any()),
            (FieldKind::List { .. }, Value::Null) => Ok(PyList::empty(py).into_any()),
            (FieldKind::Date, Value::String(text)) => match text.parse::<Date>() {
                Ok(date) => self.date(date),
                Err(_) => Ok(PyString::new(py, &text).into_any()),
            },
            (FieldKind::DateTime, Value::String(text)) => match text.parse::<DateTime>() {
                Ok(at) => {
                    let (d, t) = (at.date(), at.time());
                    Ok(PyDateTime::new(
                        py,
                        d.year(),
                        d.month(),
                        d.day(),
                        t.hour(),
                        t.minute(),
                        t.second(),
                        0,
                        None,
                    )?
                    .into_any())
                }
                Err(_) => Ok(PyString::new(py, &text).into_any()),
            },
            (FieldKind::Time, Value::String(text)) => match text.parse::<Time>() {
                Ok(t) => Ok(PyTime::new(py, t.hour(), t.minute(), t.second(), 0, None)?.into_any()),
                Err(_) => Ok(PyString::new(py, &text).into_any()),
            },
            (_, Value::Null) => Ok(py.None().into_bound(py)),
            (FieldKind::Serp, value) => self.serp(value),
            (FieldKind::List { record }, Value::Array(items)) => {
                let rows = items
                    .into_iter()
                    .map(|item| self.payload(record, item))
                    .collect::<PyResult<Vec<_>>>()?;
                Ok(PyList::new(py, rows)?.into_any())
            }
            (_, value) => self.plain(value),
        }
    }

    /// A date, made once per distinct day of the result.
    fn date(&mut self, date: Date) -> PyResult<Bound<'py, PyAny>> {
        if let Some(made) = self.dates.get(&date) {
            return Ok(made.clone());
        }
        let made = PyDate::new(self.py, date.year(), date.month(), date.day())?.into_any();
        self.dates.insert(date, made.clone());
        Ok(made)
    }

    /// A SERP (`{"1": url, ...}` as the client re-encodes it) as a list of
    /// `{position, url}` in position order.
    fn serp(&mut self, value: Value) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let Value::Object(map) = value else {
            return self.plain(value);
        };
        let mut results: Vec<(u64, String)> = map
            .into_iter()
            .filter_map(|(position, url)| match url {
                Value::String(url) => Some((position.parse().ok()?, url)),
                _ => None,
            })
            .collect();
        results.sort_by_key(|(position, _)| *position);
        let list = PyList::empty(py);
        for (position, url) in results {
            let result = PyDict::new(py);
            result.set_item(&self.position, position)?;
            result.set_item(&self.url, url)?;
            list.append(result)?;
        }
        Ok(list.into_any())
    }

    /// JSON as Python: what needs no field's kind.
    fn plain(&mut self, value: Value) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        Ok(match value {
            Value::Null => py.None().into_bound(py),
            Value::Bool(b) => pyo3::types::PyBool::new(py, b).to_owned().into_any(),
            Value::Number(n) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => i.into_pyobject(py)?.into_any(),
                (None, Some(u)) => u.into_pyobject(py)?.into_any(),
                _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
            },
            Value::String(s) => PyString::new(py, &s).into_any(),
            Value::Array(items) => {
                let items = items
                    .into_iter()
                    .map(|item| self.plain(item))
                    .collect::<PyResult<Vec<_>>>()?;
                PyList::new(py, items)?.into_any()
            }
            Value::Object(map) => {
                let dict = PyDict::new(py);
                for (key, value) in map {
                    dict.set_item(key, self.plain(value)?)?;
                }
                dict.into_any()
            }
        })
    }
}
