"""Schemathesis hooks for the per-action documents (SCHEMATHESIS_HOOKS=schemathesis_hooks).

Two things a document says that schemathesis does not read on its own:

- The service sends its JSON labelled `text/html`; each document declares both
  media types, and this reads a `text/html` body as JSON so that its schema is
  checked.
- Rules between parameters (one parameter needed when another has a value) are not something a
  parameter's own schema can say; the operation's `x-seozoom-query` is its whole
  query as one JSON Schema, rules included as `if`/`then`. A positive case
  (one meant to be valid) that breaks it is dropped, so "schema-valid" means
  valid by the whole document. Negative cases are kept as generated.

And one thing about the sandbox's data rather than the document: a positive
case pages within the rows every paged query has (`map_case`), because an
offset past the last row is answered "No data found!" (HTTP 400), which
schemathesis would count as a valid request rejected.
"""

import jsonschema
import schemathesis


@schemathesis.deserializer("text/html")
def _json_labelled_html(_ctx, response):
    return response.json()


def _query_validator(operation):
    schema = operation.definition.raw.get("x-seozoom-query")
    return None if schema is None else jsonschema.Draft202012Validator(schema)


@schemathesis.hook
def filter_case(ctx, case):
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return True
    validator = _query_validator(ctx.operation)
    if validator is None:
        return True
    members = validator.schema.get("properties", {})
    query = {k: v for k, v in (case.query or {}).items() if k in members}
    return validator.is_valid(query)


# Every paged query of the sandbox has at least this many rows (its documented
# behaviour, client/src/sandbox/mod.rs), and an offset past the last row is the
# service's "No data found!" (HTTP 400): a valid request that matches nothing.
# Positive cases page within the rows that are there.
SANDBOX_PAGED_ROWS = 20


@schemathesis.hook
def map_case(ctx, case):
    if case.meta is None or not case.meta.generation.mode.is_positive or not case.query:
        return case
    for parameter in ctx.operation.definition.raw.get("parameters", []):
        name = parameter.get("name")
        value = case.query.get(name)
        if parameter.get("x-seozoom-role") == "offset" and isinstance(value, int):
            case.query[name] = value % SANDBOX_PAGED_ROWS
    return case
