//! Records as `TypedDict`s, enums as `Literal` aliases, and which fields of
//! a record are its month-by-month series.

use super::names::{field_type, is_keyword, literal};
use super::text::docstring;
use crate::model::{Spec, ValueKind};

/// An alias per enum: `KeywordType = Literal["best", ...]`.
pub fn aliases(spec: &Spec) -> String {
    let mut out = String::from("\n");
    for e in &spec.enums {
        let values: Vec<String> = e.values.iter().map(|v| v.wire.clone()).collect();
        out.push_str(&format!("{} = {}\n", e.type_name, literal(&values)));
        let words: Vec<String> = e
            .values
            .iter()
            .map(|v| format!("`{}`: {}", v.wire, v.description))
            .collect();
        out.push_str(&docstring(&[&e.description, &words.join("\n")], ""));
    }
    out
}

/// A `TypedDict` per record (and one for a SERP's results), keyed by the
/// fields' Rust names, in spec order. Every key is always present: a field
/// that may be missing holds `None` (or an empty list).
pub fn typed_dicts(spec: &Spec) -> String {
    let mut out = String::from(
        "\n\nclass SerpResult(TypedDict):\n    \"\"\"One result of a search-results list.\"\"\"\n\n    position: int\n    \"\"\"Position in the results, from 1.\"\"\"\n    url: str\n    \"\"\"The result's URL.\"\"\"\n",
    );
    for r in &spec.records {
        let fields: Vec<(String, String, &str)> = r
            .fields
            .iter()
            .map(|f| {
                let ty = field_type(&f.ty, f.may_be_missing());
                (f.rust.clone(), ty, f.description.as_str())
            })
            .collect();
        out.push_str("\n\n");
        if fields.iter().any(|(name, _, _)| is_keyword(name)) {
            // A key that is a Python keyword cannot be a class attribute.
            let keys: Vec<String> = fields
                .iter()
                .map(|(name, ty, _)| format!("    {name:?}: {ty},\n"))
                .collect();
            out.push_str(&format!(
                "{} = TypedDict({:?}, {{\n{}}})\n",
                r.type_name,
                r.type_name,
                keys.concat()
            ));
            continue;
        }
        out.push_str(&format!("class {}(TypedDict):\n", r.type_name));
        out.push_str(&docstring(&[&r.description], "    "));
        out.push('\n');
        for (name, ty, description) in &fields {
            out.push_str(&format!("    {name}: {ty}\n"));
            out.push_str(&docstring(&[description], "    "));
        }
    }
    out
}

/// `_MONTHLY`: for each record with a month-by-month series (fields of the
/// `monthly_volume` kind), their keys in calendar order, as the spec lists
/// them. `Result.to_pandas()` keeps these columns together in that order.
pub fn monthly(spec: &Spec) -> String {
    let mut out = String::from("\n\n_MONTHLY: Dict[str, tuple[str, ...]] = {\n");
    for r in &spec.records {
        let months: Vec<String> = r
            .fields
            .iter()
            .filter(|f| {
                f.hint
                    .as_ref()
                    .is_some_and(|h| h.kind == ValueKind::MonthlyVolume)
            })
            .map(|f| format!("{:?}", f.rust))
            .collect();
        if !months.is_empty() {
            out.push_str(&format!(
                "    {:?}: ({},),\n",
                r.type_name,
                months.join(", ")
            ));
        }
    }
    out.push_str("}\n");
    out
}
