//! The server's own tools: `estimate` (a call's cost range, nothing sent),
//! `usage` (the session's spending) and `more` (the rest of a cut result).

use rmcp::model::CallToolResult;
use seozoom::job::RunOptions;
use seozoom::operations::SERVICE;
use seozoom::{Error, Job, error::InvalidInput};
use serde_json::{Map, Value, json};

use super::args;
use super::envelope;
use super::failure::failure;
use super::held::{self, HeldResult};
use super::session::Session;
use super::shown::shown;
use super::spent::Spent;
use super::tool_names::{ARG_ARGUMENTS, ARG_COUNT, ARG_TOOL, ESTIMATE, HELD, MORE, RESUME};

/// `estimate`: the cost range of calling a tool with some arguments (a
/// batched or paged job whole), in the library's form (`min`, `max`,
/// `unknown`, `basis`, `learned`, `per_row`), with what the store's ledger
/// learned of the operation's charge when the spec leaves it open, and the
/// call's requests and the budget left.
pub async fn estimate(session: &Session, arguments: Option<&Map<String, Value>>) -> CallToolResult {
    let empty = Map::new();
    let arguments = arguments.unwrap_or(&empty);
    let refuse = |param: &str, value: &Value, problem: String| {
        failure(&Error::from(InvalidInput {
            operation: ESTIMATE.into(),
            param: param.into(),
            value: shown(value),
            problem,
        }))
    };
    if let Some((name, value)) = arguments
        .iter()
        .find(|(name, _)| *name != ARG_TOOL && *name != ARG_ARGUMENTS)
    {
        return refuse(
            name,
            value,
            format!("unknown parameter: this tool takes `{ARG_TOOL}`, `{ARG_ARGUMENTS}`"),
        );
    }
    let tool = arguments.get(ARG_TOOL).unwrap_or(&Value::Null);
    let Some(op) = tool
        .as_str()
        .and_then(|name| session.catalog.operation(name))
    else {
        let example = session
            .catalog
            .tools
            .first()
            .map(|t| format!(", such as `{}`", t.name))
            .unwrap_or_default();
        return refuse(
            ARG_TOOL,
            tool,
            format!("must be the name of an operation's tool{example} (see tools/list)"),
        );
    };
    let call_arguments = match arguments.get(ARG_ARGUMENTS) {
        None | Some(Value::Null) => None,
        Some(Value::Object(map)) => Some(map),
        Some(other) => return refuse(ARG_ARGUMENTS, other, "must be an object".into()),
    };
    let request = match args::request(op, call_arguments, &session.database) {
        Ok(request) => request,
        Err(invalid) => return failure(&Error::from(invalid)),
    };
    let options = match args::max_rows(op, call_arguments) {
        Ok(Some(max_rows)) => RunOptions::new().max_rows(max_rows),
        Ok(None) => RunOptions::new(),
        Err(invalid) => return failure(&Error::from(invalid)),
    };
    // The whole job's cost, as if the cache answered nothing: what a call
    // of the tool is held against the budget at most.
    let (job, estimate) = match session.client.plan(&request, &options).await {
        Ok(plan) => (plan.job, plan.whole),
        Err(error) => return failure(&error),
    };
    let requests = match job {
        Job::Pages {
            page_size,
            max_rows,
        } => {
            let size = usize::try_from(page_size.max(1)).unwrap_or(usize::MAX);
            max_rows.unwrap_or(usize::MAX).div_ceil(size)
        }
        _ => request.batches().len(),
    };
    let (budget, budget_left) = budget(session);
    // An unknown cost has no maximum, and no budget covers it: the client
    // refuses it when there is one.
    let within_budget = match (budget_left, estimate.max_units()) {
        (None, _) => true,
        (Some(left), Some(max)) => max <= left,
        (Some(_), None) => false,
    };
    // The library's estimate, as every face gives it, and this call's figures.
    let mut answer = serde_json::to_value(estimate).unwrap_or_default();
    if let Some(fields) = answer.as_object_mut() {
        fields.insert(ARG_TOOL.into(), tool.clone());
        fields.insert("requests".into(), json!(requests));
        fields.insert("budget".into(), json!(budget));
        fields.insert("budget_left".into(), json!(budget_left));
        fields.insert("within_budget".into(), json!(within_budget));
    }
    CallToolResult::structured(answer)
}

/// `usage`: what this MCP session has spent; the budget (the process's) and
/// what the process spent; what the store's ledger holds for the key (every
/// process and session on it); and this session's results held for `more`.
pub async fn usage(
    session: &Session,
    spent: &Spent,
    arguments: Option<&Map<String, Value>>,
) -> CallToolResult {
    if let Some((name, value)) = arguments.and_then(|a| a.iter().next()) {
        return failure(&Error::from(InvalidInput {
            operation: super::tool_names::USAGE.into(),
            param: name.clone(),
            value: shown(value),
            problem: "unknown parameter: this tool takes none".into(),
        }));
    }
    let client = &session.client;
    let units = client.units();
    let (budget, budget_left) = budget(session);
    // The key's whole ledger, from its first line.
    let (ledger, balance) = match (client.usage(0).await, client.last_balance().await) {
        (Ok(ledger), Ok(balance)) => (ledger, balance),
        (Err(error), _) | (_, Err(error)) => return failure(&error),
    };
    let sum = |field: fn(&seozoom::store::Usage) -> i64| ledger.iter().map(field).sum::<i64>();
    let last_balance = balance.map(|balance| {
        json!({
            "units_remaining": balance.units_remaining,
            "at": format!("{} UTC", seozoom::types::DateTime::utc(std::time::UNIX_EPOCH + std::time::Duration::from_millis(u64::try_from(balance.at_ms).unwrap_or(0)))),
        })
    });
    let own = spent.now();
    let held: Vec<Value> = session
        .held
        .list()
        .into_iter()
        .map(|(id, held)| held_line(&id, &held))
        .collect();
    // The top level is this MCP session's own; the process's (every session
    // it serves over HTTP, one client) and the key's are named so.
    CallToolResult::structured(json!({
        "units_used": own.units_used,
        "calls": own.calls,
        "cache_hits": own.cache_hits,
        "cached_items": own.cached_items,
        "units_remaining": units.remaining.or(balance.map(|b| b.units_remaining)),
        "budget": budget,
        "budget_left": budget_left,
        "process": {
            "units_used": units.used,
            "calls": units.calls,
        },
        "key": {
            "store": client.store().name(),
            "calls": sum(|u| u.calls),
            "cache_hits": sum(|u| u.cache_hits),
            "units_used": sum(|u| u.units_used),
            "units_saved": sum(|u| u.units_saved),
            "last_balance": last_balance,
        },
        "held": held,
    }))
}

/// A held result as `usage` and `more` list it.
fn held_line(id: &str, held: &HeldResult) -> Value {
    let mut line = json!({
        envelope::RESULT: id,
        envelope::TOOL: held.tool,
        "items": envelope::total(held.shape, &held.response),
        "units": held.units,
        "complete": held.complete,
    });
    // The handle, never the arguments it stands for: a list of a thousand
    // missing inputs would flood the context (a resource gives it).
    if let Some((_, missing)) = &held.resume {
        line["missing"] = json!(missing);
        line[RESUME] = json!({ RESUME: id });
    }
    line
}

/// The session's budget and the units of it not yet spent.
fn budget(session: &Session) -> (Option<i64>, Option<i64>) {
    let budget = session.client.budget();
    let used = session.client.units().used;
    (budget, budget.map(|budget| (budget - used).max(0)))
}

/// `more`: items of a held result; with no arguments, the list of what is
/// held.
pub fn more(session: &Session, arguments: Option<&Map<String, Value>>) -> CallToolResult {
    if arguments.is_none_or(Map::is_empty) {
        let held: Vec<Value> = session
            .held
            .list()
            .into_iter()
            .map(|(id, held)| held_line(&id, &held))
            .collect();
        return CallToolResult::structured(json!({ HELD: held }));
    }
    let (id, held, offset, limit) = match more_arguments(session, arguments) {
        Ok(read) => read,
        Err(invalid) => return failure(&Error::from(invalid)),
    };
    let total = envelope::total(held.shape, &held.response);
    let mut shown_items = envelope::window(held.shape, &held.response, offset, limit);
    if let Some(fields) = &held.fields {
        shown_items = super::fields::project(held.shape, shown_items, fields);
    }
    let returned = envelope::total(held.shape, &shown_items);
    let next = offset.saturating_add(returned);
    let mut content = Map::new();
    content.insert(envelope::RESULT.into(), json!(id));
    content.insert(envelope::TOOL.into(), json!(held.tool));
    content.insert(SERVICE.envelope_response.into(), shown_items);
    content.insert(
        envelope::ROWS.into(),
        envelope::rows(offset, returned, total),
    );
    content.insert(
        envelope::MORE.into(),
        envelope::more(Some(&id), next, total),
    );
    super::brief::result(&held.tool, held.shape, Value::Object(content), None)
}

/// The arguments of `more`: the held result's id and the result, the offset
/// and the limit.
fn more_arguments(
    session: &Session,
    arguments: Option<&Map<String, Value>>,
) -> Result<(String, HeldResult, usize, usize), InvalidInput> {
    let empty = Map::new();
    let arguments = arguments.unwrap_or(&empty);
    let refuse = |param: &str, value: &Value, problem: String| InvalidInput {
        operation: MORE.into(),
        param: param.into(),
        value: shown(value),
        problem,
    };
    let known = [envelope::RESULT, envelope::START, ARG_COUNT];
    if let Some((name, value)) = arguments
        .iter()
        .find(|(name, _)| !known.contains(&name.as_str()))
    {
        return Err(refuse(
            name,
            value,
            format!(
                "unknown parameter: this tool takes `{}`",
                known.join("`, `")
            ),
        ));
    }
    let id = arguments.get(envelope::RESULT).unwrap_or(&Value::Null);
    let Some((id, held)) = id
        .as_str()
        .and_then(|text| Some((text.to_owned(), session.held.get(text)?)))
    else {
        return Err(refuse(
            envelope::RESULT,
            id,
            format!(
                "no such held result: only the latest {} cut results are held; call the tool again",
                held::KEPT
            ),
        ));
    };
    // A whole number from `least` to `most`; `default` when not given.
    let count = |name: &str, least: usize, most: usize, default: Option<usize>| {
        let value = arguments.get(name).unwrap_or(&Value::Null);
        let number = value
            .as_u64()
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX));
        match (number, default) {
            (Some(n), _) if (least..=most).contains(&n) => Ok(n),
            (None, Some(default)) if value.is_null() => Ok(default),
            _ if most == usize::MAX => Err(refuse(
                name,
                value,
                format!("must be a whole number, at least {least}"),
            )),
            _ => Err(refuse(
                name,
                value,
                format!("must be a whole number from {least} to {most} (the session's row cap)"),
            )),
        }
    };
    let offset = count(envelope::START, 0, usize::MAX, Some(0))?;
    let limit = count(ARG_COUNT, 1, session.max_rows, Some(session.max_rows))?;
    Ok((id, held, offset, limit))
}
