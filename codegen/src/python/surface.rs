//! The groups and their methods, and the two clients that carry them.
//!
//! Each method is one line of code: it hands its group, action, parameters
//! (by Rust name) and options to `_call`, the runtime's generic entry point.
//! The module has one class per group; the async client's group classes are
//! the same code (the runtime returns an awaitable), which only the stub
//! tells apart.

use super::names::{ident, param_type};
use super::text::docstring;
use crate::emit::builders::{param_doc, units_text};
use crate::model::{Action, Group, Param, ParamType, Payload, Role, Shape, Spec};

/// The type of `Result.rows` for an action.
fn rows_type(a: &Action) -> String {
    let payload = match &a.response.payload {
        Payload::Record { type_name, .. } => type_name.clone(),
        Payload::Serp => "List[SerpResult]".to_owned(),
    };
    match (&a.response.shape, &a.response.payload) {
        (Shape::Map { .. }, _) => format!("Dict[str, {payload}]"),
        // One SERP is already a list of results.
        (Shape::Single, Payload::Serp) => payload,
        // One record is a list of one row, so every record result is rows.
        (Shape::Single | Shape::Array, _) => format!("List[{payload}]"),
    }
}

/// The parameters a caller gives: required ones first, in spec order.
fn caller_params(a: &Action) -> (Vec<&Param>, Vec<&Param>) {
    let given = a.params.iter().filter(|p| !p.implicit);
    let (required, optional): (Vec<&Param>, Vec<&Param>) = given.partition(|p| p.required);
    (required, optional)
}

/// Whether the action pages (an `offset` and a `page_size` parameter).
fn pages(a: &Action) -> bool {
    let has = |role| a.params.iter().any(|p| p.role == Some(role));
    has(Role::Offset) && has(Role::PageSize)
}

fn signature(spec: &Spec, a: &Action, is_async: bool) -> String {
    let (required, optional) = caller_params(a);
    let mut args = vec!["self".to_owned()];
    for p in &required {
        args.push(format!("{}: {}", ident(&p.rust), param_type(p)));
    }
    args.push("*".to_owned());
    for p in &optional {
        args.push(format!(
            "{}: Optional[{}] = None",
            ident(&p.rust),
            param_type(p)
        ));
    }
    let db = match &spec.common.database.ty {
        ParamType::Enum { type_name, .. } => type_name.clone(),
        _ => "str".to_owned(),
    };
    args.push(format!("db: Optional[{db}] = None"));
    if pages(a) {
        args.push("max_rows: Optional[int] = None".to_owned());
    }
    let def = if is_async { "async def" } else { "def" };
    format!(
        "    {def} {}(\n{}    ) -> Result[{}]:\n",
        a.rust,
        args.iter()
            .map(|arg| format!("        {arg},\n"))
            .collect::<String>(),
        rows_type(a)
    )
}

fn method_doc(spec: &Spec, a: &Action) -> String {
    let (required, optional) = caller_params(a);
    let mut args: Vec<String> = required
        .iter()
        .chain(&optional)
        .map(|p| {
            let default = match (&p.default, p.required) {
                (Some(d), false) => format!(" Default: {d}."),
                _ => String::new(),
            };
            format!("    {}: {}{default}", ident(&p.rust), param_doc(p))
        })
        .collect();
    let database = &spec.common.database;
    args.push(format!(
        "    db: {} Default: the client's `db`.",
        database.description
    ));
    if pages(a) {
        args.push(
            "    max_rows: Page through the rows, `limit` rows a request, until this many \
             have come or a page comes back short. The whole job's cost is checked \
             against the budget before the first request."
                .to_owned(),
        );
    }
    let batch = a
        .params
        .iter()
        .find(|p| p.list && p.role == Some(Role::Input) && p.max_items.is_some())
        .map(|p| {
            format!(
                "A longer `{}` list is sent as a batched job: repeats dropped, split into the \
                 fewest requests, the rows merged back in input order.",
                ident(&p.rust)
            )
        })
        .unwrap_or_default();
    let args = format!("Args:\n{}", args.join("\n"));
    let returns = format!("Returns:\n    {}", a.response.description);
    docstring(
        &[
            &a.description,
            &args,
            &units_text(a),
            &batch,
            &returns,
            "Raises:\n    Refused: a parameter breaks a limit or rule of the spec (nothing is sent).\n    OverBudget: the call's maximum cost does not fit the budget.\n    ServiceError, TransportError, DecodeError: the call failed.\n    Partial: a job stopped part-way; it keeps the rows paid for.",
        ],
        "        ",
    )
}

/// `{"rust_name": python_name, ...}`: what the method hands the runtime,
/// which finds each parameter by its Rust name.
fn params_dict(a: &Action) -> String {
    let (required, optional) = caller_params(a);
    let items: Vec<String> = required
        .iter()
        .chain(&optional)
        .map(|p| format!("{:?}: {}", p.rust, ident(&p.rust)))
        .collect();
    format!("{{{}}}", items.join(", "))
}

fn group_doc(g: &Group) -> String {
    docstring(&[&g.description], "    ")
}

fn actions_of<'s>(spec: &'s Spec, g: &'s Group) -> impl Iterator<Item = &'s Action> {
    spec.actions.iter().filter(move |a| a.group == g.wire)
}

/// The module's group classes and clients.
pub fn module(spec: &Spec) -> String {
    let mut out = String::new();
    for g in &spec.groups {
        out.push_str(&format!("\n\nclass {}(_Group):\n", g.type_name));
        out.push_str(&group_doc(g));
        out.push_str("\n    __slots__ = ()\n");
        for a in actions_of(spec, g) {
            out.push('\n');
            out.push_str(&signature(spec, a, false));
            out.push_str(&method_doc(spec, a));
            let max_rows = if pages(a) { "max_rows" } else { "None" };
            out.push_str(&format!(
                "        return self._call({:?}, {:?}, {}, db, {max_rows})\n",
                a.group,
                a.wire,
                params_dict(a),
            ));
        }
        out.push_str(&format!(
            "\n\nclass Async{0}({0}):\n{1}\n    __slots__ = ()\n",
            g.type_name,
            docstring(
                &[&format!(
                    "{} Every method returns an awaitable.",
                    g.description.trim()
                )],
                "    "
            )
        ));
    }
    out.push_str(&clients(spec, false));
    out
}

/// The stub's group classes (synchronous and `async`) and clients.
pub fn stub(spec: &Spec) -> String {
    let mut out = String::new();
    for g in &spec.groups {
        for is_async in [false, true] {
            let prefix = if is_async { "Async" } else { "" };
            out.push_str(&format!("\n\nclass {prefix}{}:\n", g.type_name));
            out.push_str(&group_doc(g));
            for a in actions_of(spec, g) {
                out.push('\n');
                out.push_str(&signature(spec, a, is_async));
                out.push_str(&method_doc(spec, a));
                out.push_str("        ...\n");
            }
        }
    }
    out.push_str(&clients(spec, true));
    out
}

fn clients(spec: &Spec, stub: bool) -> String {
    let mut out = String::new();
    for (name, base, prefix, what) in [
        (
            "Client",
            "ClientBase",
            "",
            "A client of the SEOZoom API v2: every call blocks (releasing the GIL) until its result is in.",
        ),
        (
            "AsyncClient",
            "AsyncClientBase",
            "Async",
            "A client of the SEOZoom API v2 for asyncio: every call returns an awaitable.",
        ),
    ] {
        out.push_str(&format!("\n\nclass {name}({base}):\n"));
        out.push_str(&docstring(
            &[
                what,
                "The operations are reached through their group: `client.keywords.metrics(...)`.",
            ],
            "    ",
        ));
        out.push('\n');
        for g in &spec.groups {
            if stub {
                out.push_str(&format!("    {}: {prefix}{}\n", g.rust, g.type_name));
                out.push_str(&docstring(&[&g.description], "    "));
            }
        }
        if !stub {
            let groups: Vec<String> = spec
                .groups
                .iter()
                .map(|g| format!("        {:?}: {prefix}{},\n", g.rust, g.type_name))
                .collect();
            out.push_str(&format!("    _GROUPS = {{\n{}    }}\n", groups.concat()));
        }
    }
    out
}
