"""The official MCP Python SDK as a client of `seozoom --sandbox mcp`.

Usage: python_client.py SEOZOOM_BINARY PUBLISHED_SPEC_JSON

Starts the server over stdio with a distinctive fake key in SEOZOOM_API_KEY (the
sandbox takes any key, so the key travels as it would to the service), and:

  1. initializes and lists the tools: one per action of the published spec,
     named <group>_<action>, each with a description giving its cost, an input
     and an output schema, and the read-only/open-world annotations; `fields`
     lists the columns, and arguments naming a column the spec does not know
     are valid against the input schema (a validating client sends them);
  2. calls every operation's tool with valid arguments built from its input
     schema, and validates the structured content against its output schema
     with `jsonschema` (the SDK validates it too);
  3. sends bad input to a handful of tools: each answer is a tool error whose
     text names the parameter and the value;
  4. calls over the budget, in a second session started with --budget: refused,
     with the budget left named, and nothing spent;
  5. sends a 150-keyword list: a batched job of two requests, cut to the row
     cap, the rest fetched with `more`, all in input order;
  6. checks that the key appears in nothing received (every message, the
     server's stderr).

Exits non-zero on the first failed check.
"""

import asyncio
import json
import re
import sys
import tempfile

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

# Distinctive, so that any leak is found by a plain search.
KEY = "FAKE-KEY-mcp-python-7Q4Z-0042"
OWN_TOOLS = {"estimate", "usage", "more"}
ROW_CAP = 20  # the server's default --max-result-rows


class Received:
    """Every answer received, as JSON text, for the key check at the end."""

    def __init__(self):
        self.texts = []

    def keep(self, model):
        self.texts.append(model.model_dump_json(by_alias=True))
        return model


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def text_of(result):
    return "\n".join(block.text for block in result.content if block.type == "text")


def sample(name, schema):
    """A valid value for one property of an input schema."""
    if "default" in schema:
        return schema["default"]
    kind = schema.get("type")
    if kind == "array":
        return [sample(name, schema["items"])]
    if "enum" in schema:
        return schema["enum"][0]
    if kind == "integer":
        return schema.get("minimum", 1)
    if schema.get("format") == "date":
        return "2024-01-15"
    if "url" in name:
        return "https://example.it/pagina"
    if "domain" in name:
        return "example.it"
    return "scarpe running"


def valid_arguments(tool):
    schema = tool.input_schema
    return {
        name: sample(name, schema["properties"][name])
        for name in schema.get("required", [])
    }


def server(binary, errlog, *options):
    return StdioServerParameters(
        command=binary,
        args=["--sandbox", *options, "mcp"],
        # The SDK passes the server only the variables named here, so the store
        # is named too: without it the server would use the user's default store
        # and answer from what earlier runs cached, at 0 units.
        env={"SEOZOOM_API_KEY": KEY, "SEOZOOM_STORE": "none"},
    ), errlog


async def call(session, received, name, arguments):
    return received.keep(await session.call_tool(name, arguments))


async def expect_refused(session, received, name, arguments, pieces):
    result = await call(session, received, name, arguments)
    text = text_of(result)
    check(result.is_error, f"{name} {arguments}: not an error: {text[:300]}")
    for piece in pieces:
        check(piece in text, f"{name} {arguments}: {piece!r} not in {text!r}")
    print(f"  refused as expected: {name}: {text[:150]}")


async def main_session(binary, spec, received, errlog):
    params, log = server(binary, errlog)
    async with stdio_client(params, errlog=log) as (read, write):
        async with ClientSession(read, write) as session:
            received.keep(await session.initialize())

            # 1. The tools.
            listed = received.keep(await session.list_tools())
            tools = {tool.name: tool for tool in listed.tools}
            expected = {f"{a['group']}_{a['wire']}" for a in spec["actions"]}
            check(set(tools) == expected | OWN_TOOLS,
                  f"tools {sorted(tools)} != {sorted(expected | OWN_TOOLS)}")
            for name in expected:
                tool = tools[name]
                check(re.fullmatch(r"[a-z]+_[a-z]+", name), name)
                check("Cost:" in tool.description and "units" in tool.description,
                      f"{name}: no cost in {tool.description!r}")
                check(tool.annotations.read_only_hint is True, f"{name}: readOnlyHint")
                check(tool.annotations.open_world_hint is True, f"{name}: openWorldHint")
                check(tool.output_schema["type"] == "object", f"{name}: outputSchema")
                jsonschema.Draft202012Validator.check_schema(tool.input_schema)
                jsonschema.Draft202012Validator.check_schema(tool.output_schema)
                check("db" in tool.input_schema["properties"], f"{name}: no db")
                fields = tool.input_schema["properties"].get("fields")
                if fields:
                    # The columns listed, and a client that validates the
                    # arguments still lets through a member the spec does not
                    # know (an answer's rows may carry one).
                    columns = fields["items"]["anyOf"][0]["enum"]
                    check(fields.get("description") and columns, f"{name}: fields {fields}")
                    arguments = {**valid_arguments(tool), "fields": [columns[0], "drift_metric"]}
                    jsonschema.validate(arguments, tool.input_schema,
                                        cls=jsonschema.Draft202012Validator)
            print(f"1. {len(tools)} tools: one per action of the spec, and {sorted(OWN_TOOLS)}; "
                  "`fields` lists the columns and takes a member the spec does not know")

            # 2. Every operation with valid arguments.
            for name in sorted(expected):
                tool = tools[name]
                arguments = valid_arguments(tool)
                result = await call(session, received, name, arguments)
                check(not result.is_error, f"{name} {arguments}: {text_of(result)[:300]}")
                content = result.structured_content
                jsonschema.validate(content, tool.output_schema,
                                    cls=jsonschema.Draft202012Validator)
                # The text is a summary and the rows shown as a table (a
                # header, a line a row), not a copy of the structured content.
                text = text_of(result)
                shown = content["rows"]["returned"]
                check(text.startswith(f"{name}: ") and not text.lstrip().startswith("{"),
                      f"{name}: the text is not a summary: {text[:200]}")
                check(len(text.splitlines()) == 1 + (shown + 1 if shown else 0),
                      f"{name}: {shown} rows shown, the text: {text[:300]}")
                check(content["from_cache"] is False, f"{name}: from_cache")
                print(f"  {name} {arguments}: {content['ResultRows']} rows, "
                      f"{content['UnitsUsed']} units")
            print(f"2. every operation answered, structured content valid against its outputSchema")

            # 3. Bad input.
            await expect_refused(session, received, "keywords_metrics",
                                 {"keyword": ["scarpe", "a|b"]}, ["`keyword`", "a|b"])
            await expect_refused(session, received, "domains_keywords",
                                 {"domain": "example.it", "type": "best", "limit": 0},
                                 ["`limit`", "0", "minimum"])
            await expect_refused(session, received, "domains_keywords",
                                 {"domain": "example.it", "type": "bypage", "limit": 5},
                                 ["`page`", "bypage"])
            await expect_refused(session, received, "domains_keywords",
                                 {"domain": "example.it", "type": "best", "limit": "many"},
                                 ["`limit`", "many", "whole number"])
            await expect_refused(session, received, "keywords_metrics",
                                 {"keyword": ["scarpe"], "colour": "blue"},
                                 ["`colour`", "unknown parameter"])
            await expect_refused(session, received, "keywords_metrics",
                                 {"keyword": ["scarpe"], "db": "xx"}, ["`db`", "xx"])
            await expect_refused(session, received, "more",
                                 {"result": "r999", "start": 0}, ["`result`", "r999"])
            try:
                received.keep(await session.call_tool("no_such_tool", {}))
                check(False, "an unknown tool was answered")
            except MCPError as error:
                received.texts.append(str(error))
                check("no_such_tool" in str(error), str(error))
                print(f"  unknown tool: JSON-RPC error: {error}")
            print("3. bad input: tool errors naming the parameter and the value")

            # 5. A 150-keyword list: a batched job, cut to the row cap.
            keywords = [f"parola chiave {i}" for i in range(150)]
            estimate = await call(session, received, "estimate",
                                  {"tool": "keywords_metrics",
                                   "arguments": {"keyword": keywords}})
            check(not estimate.is_error, text_of(estimate))
            check(estimate.structured_content["requests"] == 2, estimate.structured_content)
            before = (await call(session, received, "usage", {})).structured_content
            result = await call(session, received, "keywords_metrics", {"keyword": keywords})
            check(not result.is_error, text_of(result))
            content = result.structured_content
            check(content["ResultRows"] == 150, content["ResultRows"])
            check(content["rows"] == {"start": 0, "returned": ROW_CAP, "total": 150},
                  content["rows"])
            more = content["more"]
            check(more and more["start"] == ROW_CAP, more)
            rows = list(content["response"])
            while more:
                rest = await call(session, received, "more",
                                  {"result": more["result"], "start": more["start"]})
                check(not rest.is_error, text_of(rest))
                jsonschema.validate(rest.structured_content, tools["more"].output_schema)
                rows += rest.structured_content["response"]
                more = rest.structured_content["more"]
            check([row["keyword"] for row in rows] == keywords,
                  "the rows are not the keywords in input order")
            after = (await call(session, received, "usage", {})).structured_content
            spent = after["units_used"] - before["units_used"]
            check(spent == content["UnitsUsed"] > 0, f"usage {spent} != {content['UnitsUsed']}")
            check(after["calls"] - before["calls"] == 2, f"calls {before} -> {after}")
            check(estimate.structured_content["min"] <= spent <= estimate.structured_content["max"],
                  f"{spent} outside the estimate {estimate.structured_content}")
            print(f"5. 150 keywords: 2 requests, {spent} units, {ROW_CAP} rows then 50 from `more`")


async def budget_session(binary, received, errlog):
    params, log = server(binary, errlog, "--budget", "50")
    async with stdio_client(params, errlog=log) as (read, write):
        async with ClientSession(read, write) as session:
            received.keep(await session.initialize())
            received.keep(await session.list_tools())
            arguments = {"domain": "example.it", "type": "best", "limit": 1000}
            estimate = await call(session, received, "estimate",
                                  {"tool": "domains_keywords", "arguments": arguments})
            check(estimate.structured_content["within_budget"] is False, estimate.structured_content)
            check(estimate.structured_content["budget_left"] == 50, estimate.structured_content)
            await expect_refused(session, received, "domains_keywords", arguments,
                                 ["budget", "50"])
            usage = (await call(session, received, "usage", {})).structured_content
            check(usage["units_used"] == 0 and usage["calls"] == 0, usage)
            check(usage["budget"] == 50 and usage["budget_left"] == 50, usage)
            # A call within the budget still goes.
            small = await call(session, received, "domains_keywords",
                               {"domain": "example.it", "type": "best", "limit": 2})
            check(not small.is_error, text_of(small))
            print("4. over the budget: refused before sending, the budget left named, nothing spent")


async def main():
    binary, spec_path = sys.argv[1], sys.argv[2]
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    received = Received()
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errlog:
        await main_session(binary, spec, received, errlog)
        await budget_session(binary, received, errlog)
        errlog.seek(0)
        stderr = errlog.read()
    # 6. The key.
    check(received.texts, "nothing received")
    for text in received.texts + [stderr]:
        check(KEY not in text, f"the key was received: {text[:300]}")
    print(f"6. the key is in none of the {len(received.texts)} answers nor the server's stderr")
    print("python SDK client: all checks passed")


asyncio.run(main())
