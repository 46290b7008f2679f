"""Every action through a Python client from openapi-python-client, called with
its generated `sync()` against the sandbox, for .ci/publish-checks.

  python_actions.py ACTIONS_DIR WORK_DIR BASE_URL

For each per-action document in ACTIONS_DIR: generate a client into WORK_DIR
(`openapi-python-client generate`, as a user would), import its one endpoint,
and check that

- each required parameter is a required argument, each optional one has a
  default;
- a call with the example query, through `sync()`, decodes into the action's
  own envelope model, with nothing in `additional_properties` of any model that
  declares properties, and writes back the body it read (`to_dict()`);
- on the wire, a list is one `|`-joined value and `db` is there;
- a query past a limit (an integer over its maximum, a list over its maximum
  count) is refused by the published query schema, is sent anyway by the
  generated client (which checks no limit, as spec/other-languages.md says), and its
  refusal decodes into the error model;
- the "no match" answer decodes into the error model too.

Lists reach the wire joined only with the one setting of spec/other-languages.md, the
`join_lists` request hook: openapi-python-client ignores `style`.
"""

import enum
import importlib
import inspect
import json
import pkgutil
import subprocess
import sys
import typing
import urllib.parse
from datetime import date

import httpx

from actions import load

SEPARATOR = "|"
# The sandbox answers an input starting with `zzz` with "no match" (its documented
# behaviour, client/src/sandbox/mod.rs).
UNKNOWN_INPUT = "zzz-nothing-matches"


def join_lists(request: httpx.Request) -> None:
    """The setting spec/other-languages.md shows: send a list as one `|`-joined value, not as repeated keys."""
    pairs = {}
    for name, value in request.url.params.multi_items():
        pairs.setdefault(name, []).append(value)
    request.url = request.url.copy_with(params={k: SEPARATOR.join(v) for k, v in pairs.items()})


def generate(action, work):
    package = "seozoom_" + action.operation_id
    run = subprocess.run(
        ["openapi-python-client", "generate", "--path", action.path, "--meta", "none",
         "--output-path", f"{work}/{package}", "--overwrite"],
        capture_output=True, text=True,
    )
    if run.returncode != 0 or "Warning" in run.stdout + run.stderr:
        sys.exit(f"{action}: openapi-python-client:\n{run.stdout}{run.stderr}")
    return package


def endpoint(package):
    api = importlib.import_module(package + ".api")
    found = []
    for info in pkgutil.walk_packages(api.__path__, api.__name__ + "."):
        module = importlib.import_module(info.name)
        if hasattr(module, "sync"):
            found.append(module)
    if len(found) != 1:
        sys.exit(f"{package}: expected one endpoint module, found {[m.__name__ for m in found]}")
    return found[0]


def python_name(signature, wire):
    """The argument for query parameter `wire`: its name, with `_` after a
    Python word (`type_`), or `_query` after a name the generator keeps for
    itself (`url_query`)."""
    wire = wire.replace("-", "_")
    names = [n for n in signature.parameters if n.rstrip("_") == wire or n == wire + "_query"]
    if len(names) != 1:
        sys.exit(f"no argument for parameter `{wire}` in {signature}")
    return names[0]


def check_signature(action, sync):
    signature = inspect.signature(sync)
    for p in action.params:
        arg = signature.parameters[python_name(signature, p["name"])]
        has_default = arg.default is not inspect.Parameter.empty
        if p["required"] and "const" not in p["schema"] and has_default:
            sys.exit(f"{action}: required `{p['name']}` has a default in sync{signature}")
        if not p["required"] and not has_default:
            sys.exit(f"{action}: optional `{p['name']}` is a required argument in sync{signature}")
    return signature


def python_value(hint, value):
    """`value` (JSON) as the type the generated function takes."""
    options = typing.get_args(hint) or (hint,)
    for option in options:
        if inspect.isclass(option) and issubclass(option, enum.Enum):
            return option(value)
        if option is date:
            return date.fromisoformat(value)
    return value


def arguments(action, sync, query):
    signature = inspect.signature(sync)
    hints = typing.get_type_hints(sync)
    kwargs = {}
    for wire, value in query.items():
        name = python_name(signature, wire)
        kwargs[name] = python_value(hints[name], value)
    return kwargs


def no_extra_members(action, model, where="response"):
    """Nothing in `additional_properties` of a model that declares properties."""
    declared = [a.name for a in getattr(type(model), "__attrs_attrs__", ())]
    if declared and declared != ["additional_properties"]:
        extra = getattr(model, "additional_properties", {})
        if extra:
            sys.exit(f"{action}: {type(model).__name__} at {where} left {sorted(extra)} undecoded")
        for name in declared:
            no_extra_members(action, getattr(model, name), f"{where}.{name}")
    elif isinstance(model, list):
        for i, item in enumerate(model):
            no_extra_members(action, item, f"{where}[{i}]")
    elif declared:  # a map: its entries are its additional properties
        for key, item in model.additional_properties.items():
            no_extra_members(action, item, f"{where}[{key!r}]")


class Wire:
    """What the client sent and received last."""

    def __init__(self):
        self.query = None
        self.body = None

    def request(self, request):
        self.query = dict(urllib.parse.parse_qsl(request.url.query.decode(), keep_blank_values=True))

    def response(self, response):
        response.read()
        self.body = json.loads(response.content)


def check(action, work, base_url):
    package = generate(action, work)
    module = endpoint(package)
    models = importlib.import_module(package + ".models")
    check_signature(action, module.sync)

    wire = Wire()
    client_module = importlib.import_module(package + ".client")
    client = client_module.Client(
        base_url=base_url,
        httpx_args={
            "params": {"api_key": "sandbox"},
            "event_hooks": {"request": [join_lists, wire.request], "response": [wire.response]},
        },
    )

    def call(query):
        return module.sync(client=client, **arguments(action, module.sync, query))

    query = action.example_query()
    answer = call(query)
    model = getattr(models, action.model)
    if type(answer) is not model:
        sys.exit(f"{action}: sync() gave {type(answer).__name__}, not {action.model}: {answer}")
    no_extra_members(action, answer)
    if answer.to_dict() != wire.body:
        sys.exit(f"{action}: {action.model} does not write back the body it read")
    for name, value in query.items():
        sent = wire.query.get(name)
        expected = SEPARATOR.join(value) if isinstance(value, list) else str(value)
        if sent != expected:
            sys.exit(f"{action}: `{name}` went out as {sent!r}, not {expected!r}")
    fixed, value = action.fixed()
    if wire.query.get(fixed) != value:
        sys.exit(f"{action}: `{fixed}` went out as {wire.query.get(fixed)!r}")

    error_model = getattr(models, action.error_model)
    refused = 0
    for what, bad in action.over_limits():
        if action.query_validator.is_valid(bad):
            sys.exit(f"{action}: the query schema takes {what}")
        answer = call(bad)
        if type(answer) is not error_model or answer.status != 400:
            sys.exit(f"{action}: {what}: expected a 400 {action.error_model}, got {answer!r}")
        refused += 1

    inputs = [p for p in action.params if p.get("x-seozoom-role") == "input"]
    for p in inputs:
        unknown = [UNKNOWN_INPUT] if isinstance(query[p["name"]], list) else UNKNOWN_INPUT
        answer = call(dict(query, **{p["name"]: unknown}))
        no_data = action.op["responses"]["400"]["content"]["application/json"]["examples"]["no_data"]
        if type(answer) is not error_model or answer.message != no_data["value"]["message"]:
            sys.exit(f"{action}: no match: expected {no_data['value']}, got {answer!r}")
    return refused


def main(actions_dir, work, base_url):
    sys.path.insert(0, work)
    actions = load(actions_dir)
    refused = 0
    for action in actions:
        refused += check(action, work, base_url)
        print(f"{action}: sync() -> {action.model}")
    if refused == 0:
        sys.exit("no document states a limit: nothing was checked past one")
    print(
        f"openapi-python-client: {len(actions)} actions called through sync(), each decoded into its own "
        f"model; {refused} over-limit queries refused by the query schemas, sent by the clients and "
        "answered 400 (decoded as the error model)"
    )


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
