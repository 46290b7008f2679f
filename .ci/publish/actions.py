"""The per-action OpenAPI documents (spec/published/actions/), read generically
for .ci/publish-checks: nothing here names an action or a parameter.

Each document has one path with one GET. Its parameters carry an `example`
(two values for a list), `x-seozoom-role`, and the operation's
`x-seozoom-query` is its whole query as one JSON Schema, rules included.
"""

import glob
import json
import os

import jsonschema


class Action:
    """One per-action document."""

    def __init__(self, path):
        self.path = path
        self.doc = json.load(open(path))
        ((self.url_path, item),) = self.doc["paths"].items()
        self.op = item["get"]
        self.operation_id = self.op["operationId"]
        self.group = self.op["tags"][0]
        self.params = self.op["parameters"]
        self.query_schema = self.op["x-seozoom-query"]
        self.query_validator = jsonschema.Draft202012Validator(self.query_schema)
        ok = self.op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        self.model = ok.rsplit("/", 1)[1]
        err = self.op["responses"]["400"]["content"]["application/json"]["schema"]["$ref"]
        self.error_model = err.rsplit("/", 1)[1]

    def __repr__(self):
        return self.operation_id

    def fixed(self):
        """The parameter whose schema is `const` (the action), as (name, value)."""
        (p,) = [p for p in self.params if "const" in p["schema"]]
        return p["name"], p["schema"]["const"]

    def param(self, name):
        return next(p for p in self.params if p["name"] == name)

    def example_query(self):
        """A valid query: every required parameter and the database (every
        parameter with an enum of its own that is not required) at its example.
        Fails when the rules refuse it."""
        fixed, _ = self.fixed()
        query = {}
        for p in self.params:
            if p["name"] == fixed:
                continue
            if p["required"] or "enum" in p["schema"]:
                query[p["name"]] = p["example"]
        errors = [e.message for e in self.query_validator.iter_errors(query)]
        if errors:
            raise SystemExit(f"{self}: the examples make no valid query: {errors}")
        return query

    def over_limits(self):
        """Queries one step past a limit, each refused by the query schema:
        (what, query). An integer one over its maximum; a list one value longer
        than its maximum count."""
        base = self.example_query()
        for p in self.params:
            schema = p["schema"]
            if "maximum" in schema:
                query = dict(base, **{p["name"]: schema["maximum"] + 1})
                # A parameter that a rule requires comes with the value that asks for it.
                query = self._with_rule_for(query, p["name"])
                yield f"{p['name']}={schema['maximum'] + 1}", query
            if "maxItems" in schema:
                n = schema["maxItems"] + 1
                values = [f"{p['example'][0]} {i}" for i in range(n)]
                yield f"{n} values of {p['name']}", dict(base, **{p["name"]: values})

    def _with_rule_for(self, query, name):
        for rule in self.query_schema.get("x-seozoom-rules", []):
            if rule["require"] == name and "equal_to" not in rule:
                query = dict(query, **{rule["if_param"]: rule["if_value"]})
        return query


def load(directory):
    paths = sorted(glob.glob(os.path.join(directory, "*.openapi.json")))
    if not paths:
        raise SystemExit(f"no per-action documents in {directory}")
    return [Action(p) for p in paths]
