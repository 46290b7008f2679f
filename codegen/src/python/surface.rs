//! The groups and their methods, and the two clients that carry them.
//!
//! Each method is one line of code: it hands its group, action, parameters
//! (by Rust name) and options to `_call`, the runtime's generic entry point.
//! Each group has two classes: one of plain methods, for `Client`, and one of
//! coroutine functions (`async def`, which await `_call` in their own body, so
//! that nothing is sent until the coroutine runs), for `AsyncClient`. Each
//! client has its groups as read-only properties, and an `estimate` whose
//! group and action the stub types as `Literal`s, an overload per group.

use super::names::{GROUP_ALIAS, ident, literal, param_type};
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
    args.push(format!("db: Optional[{}] = None", db_type(spec)));
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

fn group_doc(g: &Group, is_async: bool) -> String {
    let coroutines = match is_async {
        true => {
            "Every method is a coroutine function: a call sends nothing until it is awaited (or run as a task)."
        }
        false => "",
    };
    docstring(&[&g.description, coroutines], "    ")
}

fn actions_of<'s>(spec: &'s Spec, g: &'s Group) -> impl Iterator<Item = &'s Action> {
    spec.actions.iter().filter(move |a| a.group == g.wire)
}

/// The module's group classes and clients.
pub fn module(spec: &Spec) -> String {
    let mut out = String::new();
    for g in &spec.groups {
        for is_async in [false, true] {
            out.push_str(&group_class(spec, g, is_async, false));
        }
    }
    out.push_str(&clients(spec, false));
    out
}

/// One group's class: its methods, each a plain method or (`is_async`) a
/// coroutine function, whose body (`stub`: `...`) hands the call to `_call`.
fn group_class(spec: &Spec, g: &Group, is_async: bool, stub: bool) -> String {
    let prefix = if is_async { "Async" } else { "" };
    let base = if stub { "" } else { "(_Group)" };
    let mut out = format!("\n\nclass {prefix}{}{base}:\n", g.type_name);
    out.push_str(&group_doc(g, is_async));
    if !stub {
        out.push_str("\n    __slots__ = ()\n");
    }
    for a in actions_of(spec, g) {
        out.push('\n');
        out.push_str(&signature(spec, a, is_async));
        out.push_str(&method_doc(spec, a));
        if stub {
            out.push_str("        ...\n");
            continue;
        }
        // A coroutine awaits the call inside its own body: nothing is sent
        // until the coroutine runs.
        let await_ = if is_async { "await " } else { "" };
        let max_rows = if pages(a) { "max_rows" } else { "None" };
        out.push_str(&format!(
            "        return {await_}self._call({:?}, {:?}, {}, db, {max_rows})\n",
            a.group,
            a.wire,
            params_dict(a),
        ));
    }
    out
}

/// The stub's group classes (synchronous and `async`) and clients.
pub fn stub(spec: &Spec) -> String {
    let mut out = String::new();
    for g in &spec.groups {
        for is_async in [false, true] {
            out.push_str(&group_class(spec, g, is_async, true));
        }
    }
    out.push_str(&clients(spec, true));
    out
}

/// The Python type of the database: the spec's enum, else text.
fn db_type(spec: &Spec) -> String {
    match &spec.common.database.ty {
        ParamType::Enum { type_name, .. } => type_name.clone(),
        _ => "str".to_owned(),
    }
}

/// `GroupName`: the groups' names, which `estimate` takes.
pub fn group_alias(spec: &Spec) -> String {
    let names: Vec<String> = spec.groups.iter().map(|g| g.wire.clone()).collect();
    format!(
        "\n{GROUP_ALIAS} = {}\n{}",
        literal(&names),
        docstring(
            &["The name of a group of operations, as `estimate` takes it."],
            ""
        )
    )
}

const ESTIMATE_DOC: &str = "The cost range of a call (or of its batched or paged job) before it is sent, from the spec's figures, or from what the store's ledger learned when the spec prints none. The parameters are those of the operation's method, by the same names; invalid ones raise `Refused`. Nothing is sent.\n\n>>> client.estimate(\"keywords\", \"metrics\", keyword=[\"a\", \"b\"])  # doctest: +SKIP";

/// `estimate`: in the module, one method handing its arguments to the
/// runtime; in the stub, an overload per group, its actions a `Literal`, so
/// that a type checker refuses a misspelled group or action.
fn estimate(spec: &Spec, stub: bool) -> String {
    let db = db_type(spec);
    let rest = format!(
        "        /,\n        *,\n        db: Optional[{db}] = None,\n        max_rows: Optional[int] = None,\n        **params: Any,\n    ) -> Estimate:\n"
    );
    if !stub {
        return format!(
            "\n    def estimate(\n        self,\n        group: {GROUP_ALIAS},\n        action: str,\n{rest}{}        return self._estimate(group, action, params, db, max_rows)\n",
            docstring(&[ESTIMATE_DOC], "        ")
        );
    }
    let mut out = String::new();
    for g in &spec.groups {
        let actions: Vec<String> = actions_of(spec, g).map(|a| a.wire.clone()).collect();
        out.push_str(&format!(
            "\n    @overload\n    def estimate(\n        self,\n        group: Literal[{:?}],\n        action: {},\n{rest}{}        ...\n",
            g.wire,
            literal(&actions),
            docstring(&[ESTIMATE_DOC], "        ")
        ));
    }
    out
}

fn clients(spec: &Spec, stub: bool) -> String {
    let mut out = String::new();
    let db = db_type(spec);
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
            "A client of the SEOZoom API v2 for asyncio: every method of its groups is a coroutine function, which sends nothing until it is awaited.",
        ),
    ] {
        out.push_str(&format!("\n\nclass {name}({base}[{db}]):\n"));
        let groups: Vec<String> = spec
            .groups
            .iter()
            .map(|g| format!("    {}: {}", g.rust, g.description.trim()))
            .collect();
        out.push_str(&docstring(
            &[
                what,
                "The operations are reached through their group: `client.keywords.metrics(...)`.",
                &format!("Groups:\n{}", groups.join("\n")),
            ],
            "    ",
        ));
        if !stub {
            let groups: Vec<String> = spec
                .groups
                .iter()
                .map(|g| format!("        {:?}: {prefix}{},\n", g.rust, g.type_name))
                .collect();
            out.push_str(&format!("\n    _GROUPS = {{\n{}    }}\n", groups.concat()));
        }
        // Each group a read-only property, so that `help()` and editors
        // list them with their descriptions.
        for g in &spec.groups {
            out.push_str(&format!(
                "\n    @property\n    def {}(self) -> {prefix}{}:\n{}",
                g.rust,
                g.type_name,
                docstring(&[&g.description], "        ")
            ));
            match stub {
                true => out.push_str("        ...\n"),
                false => out.push_str(&format!(
                    "        return self._groups[{:?}]  # type: ignore[no-any-return]\n",
                    g.rust
                )),
            }
        }
        out.push_str(&estimate(spec, stub));
    }
    out
}
