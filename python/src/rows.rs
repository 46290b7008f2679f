//! Typed results to Python objects: a `serde::Serializer` that builds them
//! straight from the Rust client's typed records, with no JSON value between.
//!
//! A record (a struct to serde) becomes a `dict` keyed by its fields' Rust
//! names, in spec order, keys made once per result; the value of each field
//! is read by the field's kind in the operation table, inverting the one
//! canonical wire form the records serialize to: boolean words
//! (`"true"`/`"false"`) and flags (1/0) as `bool`, comma lists as
//! `list[str]`, dates, times and date-times as `datetime` objects (one
//! object per distinct date of a result), a SERP as a list of
//! `{position, url}`. A record that has members the spec does not know
//! comes as a map (`seozoom::record::Writer`): its fields get the same keys
//! and values, and the members it does not know follow under their wire
//! names, as JSON values. Nothing names a record or a field.

use std::collections::HashMap;
use std::fmt::{self, Display, Write as _};
use std::rc::Rc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDate, PyDateTime, PyDict, PyList, PyString, PyTime};
use seozoom::operation_table::{FieldKind, Operation, RecordInfo, SERP_PAYLOAD as SERP, Shape};
use seozoom::operations::RECORDS;
use seozoom::types::{Date, DateTime, Time};
use serde::ser::{self, Serialize};

/// A record's keys, made once per result.
struct Layout<'py> {
    record: &'static RecordInfo,
    /// The Rust name of each field, in spec order.
    keys: Vec<Bound<'py, PyString>>,
}

/// Builds the Python objects of one result; it keeps the keys and dates it
/// made, so that 10,000 rows share one key object per field and one object
/// per date.
pub struct Rows<'py> {
    py: Python<'py>,
    layouts: HashMap<&'static str, Rc<Layout<'py>>>,
    /// The layout of the last record made: a result's rows are one record.
    last: Option<Rc<Layout<'py>>>,
    dates: HashMap<Date, Bound<'py, PyAny>>,
    position: Bound<'py, PyString>,
    url: Bound<'py, PyString>,
    /// Scratch text for a date written by its `Display`.
    text: String,
}

/// What a value is, as far as the operation table says.
#[derive(Clone, Copy)]
enum Expect {
    /// A list of the named payload.
    Rows(&'static str),
    /// A map from input to the named payload.
    ByKey(&'static str),
    /// One payload: a record, or a SERP.
    Payload(&'static str),
    /// A record's field of this kind.
    Field(FieldKind),
    /// Nothing known: JSON-like values as they are.
    Plain,
}

/// A Python error met while building, carried through serde.
#[derive(Debug)]
pub struct Failed(PyErr);

impl Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Display::fmt(&self.0, f)
    }
}

impl std::error::Error for Failed {}

impl ser::Error for Failed {
    fn custom<T: Display>(msg: T) -> Self {
        Failed(PyValueError::new_err(msg.to_string()))
    }
}

/// Conversions that cannot fail (numbers to Python).
impl From<std::convert::Infallible> for Failed {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

impl From<PyErr> for Failed {
    fn from(error: PyErr) -> Self {
        Failed(error)
    }
}

type Made<'py> = Result<Bound<'py, PyAny>, Failed>;

impl<'py> Rows<'py> {
    pub fn new(py: Python<'py>) -> Self {
        Rows {
            py,
            layouts: HashMap::new(),
            last: None,
            dates: HashMap::new(),
            position: PyString::intern(py, "position"),
            url: PyString::intern(py, "url"),
            text: String::new(),
        }
    }

    /// An operation's `response` as Python rows: a list for a list of
    /// records, one record (a list of one row, so that every result has
    /// rows) or a SERP (already a list of results); a dict for a map keyed
    /// by input. `None` is the empty result.
    pub fn result<T: Serialize + ?Sized>(
        &mut self,
        op: &Operation,
        response: Option<&T>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let payload = op.response.payload;
        let Some(response) = response else {
            return Ok(match op.response.shape {
                Shape::Map { .. } => PyDict::new(py).into_any(),
                _ => PyList::empty(py).into_any(),
            });
        };
        let expect = match op.response.shape {
            Shape::Array => Expect::Rows(payload),
            Shape::Map { .. } => Expect::ByKey(payload),
            _ => Expect::Payload(payload),
        };
        let made = response
            .serialize(Ser { rows: self, expect })
            .map_err(|Failed(e)| e)?;
        match expect {
            Expect::Payload(payload) if payload != SERP => Ok(PyList::new(py, [made])?.into_any()),
            _ => Ok(made),
        }
    }

    /// A value of the library's own (an estimate, usage lines, units) as
    /// Python objects, by its `Serialize`: structs as dicts of their field
    /// names, `None` for a missing value.
    pub fn plain<T: Serialize + ?Sized>(&mut self, value: &T) -> PyResult<Bound<'py, PyAny>> {
        value
            .serialize(Ser {
                rows: self,
                expect: Expect::Plain,
            })
            .map_err(|Failed(e)| e)
    }

    /// The layout of the record whose Rust type is `type_name`.
    fn layout(&mut self, type_name: &str) -> Option<Rc<Layout<'py>>> {
        if let Some(last) = self
            .last
            .as_ref()
            .filter(|l| l.record.type_name == type_name)
        {
            return Some(Rc::clone(last));
        }
        let record = RECORDS.iter().find(|r| r.type_name == type_name)?;
        let py = self.py;
        let layout = Rc::clone(self.layouts.entry(record.type_name).or_insert_with(|| {
            Rc::new(Layout {
                record,
                keys: record
                    .fields
                    .iter()
                    .map(|f| PyString::intern(py, f.rust))
                    .collect(),
            })
        }));
        self.last = Some(Rc::clone(&layout));
        Some(layout)
    }

    /// The layout of the record the spec calls `name`.
    fn layout_named(&mut self, name: &str) -> Option<Rc<Layout<'py>>> {
        let type_name = RECORDS.iter().find(|r| r.name == name)?.type_name;
        self.layout(type_name)
    }

    /// A date, made once per distinct day of the result.
    fn date(&mut self, date: Date) -> Made<'py> {
        if let Some(made) = self.dates.get(&date) {
            return Ok(made.clone());
        }
        let made = PyDate::new(self.py, date.year(), date.month(), date.day())?.into_any();
        self.dates.insert(date, made.clone());
        Ok(made)
    }

    /// Text as the value the expected kind says it is.
    fn text(&mut self, expect: Expect, text: &str) -> Made<'py> {
        let py = self.py;
        let as_text = || Ok(PyString::new(py, text).into_any());
        let Expect::Field(kind) = expect else {
            return as_text();
        };
        match kind {
            FieldKind::BoolWord => Ok(match text {
                "true" => PyBool::new(py, true).to_owned().into_any(),
                "false" => PyBool::new(py, false).to_owned().into_any(),
                _ => py.None().into_bound(py),
            }),
            FieldKind::CommaList { .. } => {
                let items = text.split(',').filter(|item| !item.is_empty());
                Ok(PyList::new(py, items)?.into_any())
            }
            FieldKind::Date => match text.parse::<Date>() {
                Ok(date) => self.date(date),
                Err(_) => as_text(),
            },
            FieldKind::DateTime => match text.parse::<DateTime>() {
                Ok(at) => {
                    let (d, t) = (at.date(), at.time());
                    let made = PyDateTime::new(
                        py,
                        d.year(),
                        d.month(),
                        d.day(),
                        t.hour(),
                        t.minute(),
                        t.second(),
                        0,
                        None,
                    )?;
                    Ok(made.into_any())
                }
                Err(_) => as_text(),
            },
            FieldKind::Time => match text.parse::<Time>() {
                Ok(t) => Ok(PyTime::new(py, t.hour(), t.minute(), t.second(), 0, None)?.into_any()),
                Err(_) => as_text(),
            },
            _ => as_text(),
        }
    }
}

/// Serializes one value as the Python object the table says it is.
struct Ser<'a, 'py> {
    rows: &'a mut Rows<'py>,
    expect: Expect,
}

impl<'py> Ser<'_, 'py> {
    fn int(self, value: i64) -> Made<'py> {
        let py = self.rows.py;
        Ok(match self.expect {
            Expect::Field(FieldKind::Flag) => PyBool::new(py, value == 1).to_owned().into_any(),
            _ => value.into_pyobject(py)?.into_any(),
        })
    }

    /// The expectation for the items of a list of this one.
    fn items(&self) -> Expect {
        match self.expect {
            Expect::Rows(payload) => Expect::Payload(payload),
            Expect::Field(FieldKind::List { record }) => Expect::Payload(record),
            _ => Expect::Plain,
        }
    }
}

/// A list being built.
pub struct Seq<'a, 'py> {
    rows: &'a mut Rows<'py>,
    items: Vec<Bound<'py, PyAny>>,
    expect: Expect,
}

/// A map being built: a dict, a SERP's results, or a record written as a
/// map (one with members the spec does not know).
pub struct Map<'a, 'py> {
    rows: &'a mut Rows<'py>,
    dict: Bound<'py, PyDict>,
    values: Expect,
    key: Option<Bound<'py, PyAny>>,
    /// A SERP's results by position, when the map is one.
    serp: Option<Vec<(u64, Bound<'py, PyAny>)>>,
    /// The record's layout, when the map is one, the wire name of the member
    /// whose value comes next, and the field expected next.
    record: Option<(Rc<Layout<'py>>, String, usize)>,
}

/// A record being built.
pub struct Record<'a, 'py> {
    rows: &'a mut Rows<'py>,
    dict: Bound<'py, PyDict>,
    layout: Option<Rc<Layout<'py>>>,
    /// The field expected next (fields serialize in spec order).
    next: usize,
}

macro_rules! ints {
    ($($method:ident: $ty:ty),*) => {$(
        fn $method(self, v: $ty) -> Made<'py> {
            self.int(i64::from(v))
        }
    )*};
}

impl<'a, 'py> ser::Serializer for Ser<'a, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Failed;
    type SerializeSeq = Seq<'a, 'py>;
    type SerializeTuple = Seq<'a, 'py>;
    type SerializeTupleStruct = Seq<'a, 'py>;
    type SerializeTupleVariant = Seq<'a, 'py>;
    type SerializeMap = Map<'a, 'py>;
    type SerializeStruct = Record<'a, 'py>;
    type SerializeStructVariant = Record<'a, 'py>;

    fn serialize_bool(self, v: bool) -> Made<'py> {
        Ok(PyBool::new(self.rows.py, v).to_owned().into_any())
    }

    ints!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
          serialize_u8: u8, serialize_u16: u16, serialize_u32: u32);

    fn serialize_u64(self, v: u64) -> Made<'py> {
        match i64::try_from(v) {
            Ok(v) => self.int(v),
            Err(_) => Ok(v.into_pyobject(self.rows.py)?.into_any()),
        }
    }

    fn serialize_f32(self, v: f32) -> Made<'py> {
        self.serialize_f64(f64::from(v))
    }

    fn serialize_f64(self, v: f64) -> Made<'py> {
        Ok(v.into_pyobject(self.rows.py)?.into_any())
    }

    fn serialize_char(self, v: char) -> Made<'py> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, v: &str) -> Made<'py> {
        self.rows.text(self.expect, v)
    }

    /// Dates and times write themselves with `Display`: into one buffer
    /// kept for the whole result.
    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Made<'py> {
        let mut text = std::mem::take(&mut self.rows.text);
        text.clear();
        let made = match write!(text, "{value}") {
            Ok(()) => self.rows.text(self.expect, &text),
            Err(_) => Err(ser::Error::custom("a value that cannot be written")),
        };
        self.rows.text = text;
        made
    }

    fn serialize_bytes(self, v: &[u8]) -> Made<'py> {
        Ok(PyBytes::new(self.rows.py, v).into_any())
    }

    fn serialize_none(self) -> Made<'py> {
        let py = self.rows.py;
        Ok(match self.expect {
            // A list field the service left out is an empty list.
            Expect::Field(FieldKind::CommaList { .. } | FieldKind::List { .. }) => {
                PyList::empty(py).into_any()
            }
            _ => py.None().into_bound(py),
        })
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Made<'py> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Made<'py> {
        Ok(self.rows.py.None().into_bound(self.rows.py))
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Made<'py> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Made<'py> {
        Ok(PyString::new(self.rows.py, variant).into_any())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Made<'py> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Made<'py> {
        let py = self.rows.py;
        let inner = value.serialize(Ser {
            rows: self.rows,
            expect: Expect::Plain,
        })?;
        let dict = PyDict::new(py);
        dict.set_item(variant, inner)?;
        Ok(dict.into_any())
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Seq<'a, 'py>, Failed> {
        let expect = self.items();
        Ok(Seq {
            rows: self.rows,
            items: Vec::with_capacity(len.unwrap_or(0)),
            expect,
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<Seq<'a, 'py>, Failed> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Seq<'a, 'py>, Failed> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        len: usize,
    ) -> Result<Seq<'a, 'py>, Failed> {
        self.serialize_seq(Some(len))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Map<'a, 'py>, Failed> {
        let is_serp = matches!(
            self.expect,
            Expect::Payload(SERP) | Expect::Field(FieldKind::Serp)
        );
        let values = match self.expect {
            Expect::ByKey(payload) => Expect::Payload(payload),
            _ => Expect::Plain,
        };
        let record = match self.expect {
            Expect::Payload(name) if name != SERP => self
                .rows
                .layout_named(name)
                .map(|layout| (layout, String::new(), 0)),
            _ => None,
        };
        Ok(Map {
            dict: PyDict::new(self.rows.py),
            rows: self.rows,
            values,
            key: None,
            serp: is_serp.then(Vec::new),
            record,
        })
    }

    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Record<'a, 'py>, Failed> {
        let layout = self.rows.layout(name);
        Ok(Record {
            dict: PyDict::new(self.rows.py),
            rows: self.rows,
            layout,
            next: 0,
        })
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Record<'a, 'py>, Failed> {
        Ok(Record {
            dict: PyDict::new(self.rows.py),
            rows: self.rows,
            layout: None,
            next: 0,
        })
    }
}

impl<'py> Seq<'_, 'py> {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failed> {
        let made = value.serialize(Ser {
            rows: self.rows,
            expect: self.expect,
        })?;
        self.items.push(made);
        Ok(())
    }

    fn finish(self) -> Made<'py> {
        Ok(PyList::new(self.rows.py, self.items)?.into_any())
    }
}

macro_rules! seq {
    ($($trait:ident :: $method:ident),*) => {$(
        impl<'py> ser::$trait for Seq<'_, 'py> {
            type Ok = Bound<'py, PyAny>;
            type Error = Failed;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failed> {
                self.push(value)
            }

            fn end(self) -> Made<'py> {
                self.finish()
            }
        }
    )*};
}

seq!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl<'py> ser::SerializeMap for Map<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Failed;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Failed> {
        if let Some((_, wire, _)) = &mut self.record {
            // A record's member names are text: kept to find its field.
            *wire = match serde_json::to_value(key) {
                Ok(serde_json::Value::String(name)) => name,
                _ => return Err(ser::Error::custom("a record member whose name is not text")),
            };
            return Ok(());
        }
        self.key = Some(key.serialize(Ser {
            rows: self.rows,
            expect: Expect::Plain,
        })?);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failed> {
        if let Some((layout, wire, next)) = &mut self.record {
            let fields = layout.record.fields;
            let index = match fields.get(*next) {
                Some(field) if field.wire == wire.as_str() => Some(*next),
                _ => fields.iter().position(|f| f.wire == wire.as_str()),
            };
            let (key, expect) = match index {
                Some(index) => {
                    *next = index + 1;
                    (
                        layout.keys[index].clone().into_any(),
                        Expect::Field(fields[index].kind),
                    )
                }
                // A member the spec does not know: under its wire name.
                None => (PyString::new(self.rows.py, wire).into_any(), Expect::Plain),
            };
            let value = value.serialize(Ser {
                rows: &mut *self.rows,
                expect,
            })?;
            self.dict.set_item(key, value)?;
            return Ok(());
        }
        let key = self
            .key
            .take()
            .ok_or_else(|| <Failed as ser::Error>::custom("a map value without its key"))?;
        let value = value.serialize(Ser {
            rows: self.rows,
            expect: self.values,
        })?;
        match &mut self.serp {
            // A SERP's keys are its positions: a key that is not one is not
            // a result.
            Some(results) => {
                if let Ok(position) = key.extract::<String>()?.parse::<u64>() {
                    results.push((position, value));
                }
            }
            None => self.dict.set_item(key, value)?,
        }
        Ok(())
    }

    fn end(self) -> Made<'py> {
        let Some(mut results) = self.serp else {
            return Ok(self.dict.into_any());
        };
        let py = self.rows.py;
        results.sort_by_key(|(position, _)| *position);
        let list = PyList::empty(py);
        for (position, url) in results {
            let result = PyDict::new(py);
            result.set_item(&self.rows.position, position)?;
            result.set_item(&self.rows.url, url)?;
            list.append(result)?;
        }
        Ok(list.into_any())
    }
}

impl<'py> Record<'_, 'py> {
    fn field<T: Serialize + ?Sized>(
        &mut self,
        wire: &'static str,
        value: &T,
    ) -> Result<(), Failed> {
        let Some(layout) = &self.layout else {
            let value = value.serialize(Ser {
                rows: self.rows,
                expect: Expect::Plain,
            })?;
            self.dict.set_item(wire, value)?;
            return Ok(());
        };
        let fields = layout.record.fields;
        // Fields come in spec order: the expected one is checked first, and
        // the others looked up only if it differs.
        let index = match fields.get(self.next) {
            Some(field) if field.wire == wire => Some(self.next),
            _ => fields.iter().position(|f| f.wire == wire),
        };
        let Some(index) = index else {
            // Not a field of the table's record: kept under its own name.
            let value = value.serialize(Ser {
                rows: self.rows,
                expect: Expect::Plain,
            })?;
            self.dict.set_item(wire, value)?;
            return Ok(());
        };
        self.next = index + 1;
        let value = value.serialize(Ser {
            rows: &mut *self.rows,
            expect: Expect::Field(fields[index].kind),
        })?;
        self.dict.set_item(&layout.keys[index], value)?;
        Ok(())
    }
}

impl<'py> ser::SerializeStruct for Record<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Failed;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Failed> {
        self.field(key, value)
    }

    fn end(self) -> Made<'py> {
        Ok(self.dict.into_any())
    }
}

impl<'py> ser::SerializeStructVariant for Record<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Failed;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Failed> {
        self.field(key, value)
    }

    fn end(self) -> Made<'py> {
        Ok(self.dict.into_any())
    }
}

/// A value of the library's own as Python objects ([`Rows::plain`]).
pub fn plain<'py, T: Serialize + ?Sized>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    Rows::new(py).plain(value)
}
