"""The `seozoom` command the wheel installs: the Rust binary's command line,
sandbox and MCP server, run from the extension by a console script.

It must be the same program as the workspace's binary (arguments, output and
exit codes), carry the package's one version, and start as the MCP registry's
`server.json` says a host starts it.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
import os
import pathlib
import re
import subprocess
import sysconfig
from typing import Any, Dict, List, Sequence

import pytest

import seozoom
from faces import WORKSPACE, cli_binary, env, mcp_sdk


def installed_command() -> pathlib.Path:
    """The console script pip put beside this interpreter."""
    command = pathlib.Path(sysconfig.get_path("scripts")) / "seozoom"
    assert command.exists(), f"the wheel installs no `seozoom` command in {command.parent}"
    return command


def run(program: pathlib.Path, args: Sequence[str], **extra: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(
        [str(program), *args],
        env=env(**extra),
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def workspace_version() -> str:
    cargo = (WORKSPACE / "Cargo.toml").read_text()
    found = re.search(r'^\[workspace\.package\][^\[]*?^version = "([^"]+)"', cargo, re.M | re.S)
    assert found, "the workspace's version"
    return found.group(1)


def test_one_version_in_the_command_the_package_and_its_metadata() -> None:
    printed = run(installed_command(), ["--version"])
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout.strip() == f"seozoom {workspace_version()}"
    assert seozoom.__version__ == importlib.metadata.version("seozoom") == workspace_version()


MAIN_JOB = ["--sandbox", "keywords", "metrics", "--keyword", "scarpe running", "--keyword", "mutuo casa"]


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["--format", "table", *MAIN_JOB], id="main-job-table"),
        pytest.param(["--format", "json", *MAIN_JOB], id="main-job-json"),
        pytest.param(["--format", "csv", "--sandbox", "domains", "keywords", "--domain", "example.it", "--type", "best", "--max-rows", "120"], id="paged-csv"),
        pytest.param(["--dry-run", "keywords", "metrics", "--keyword", "mutuo"], id="dry-run"),
        pytest.param(["--sandbox", "domains", "keywords", "--domain", "example.it", "--type", "best", "--page", "9"], id="refused-limit"),
        pytest.param(["keywords", "metrics"], id="usage-error"),
        pytest.param(["keywords", "metrics", "--help"], id="help"),
        pytest.param(["completions", "bash"], id="completions"),
    ],
)
def test_the_installed_command_is_the_rust_binary(args: List[str]) -> None:
    wheel = run(installed_command(), args, COLUMNS="120")
    binary = run(cli_binary(), args, COLUMNS="120")
    assert (wheel.returncode, wheel.stdout, wheel.stderr) == (binary.returncode, binary.stdout, binary.stderr)
    assert wheel.returncode in (0, 2), wheel.stderr


def server_json() -> Dict[str, Any]:
    document: Dict[str, Any] = json.loads((WORKSPACE / "server.json").read_text())
    return document


def test_server_json_describes_this_package() -> None:
    document = server_json()
    # What the MCP registry's format requires of it.
    assert re.fullmatch(r"[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+", document["name"])
    assert 1 <= len(document["description"]) <= 100
    (package,) = document["packages"]
    assert package["registryType"] == "pypi"
    assert package["identifier"] == importlib.metadata.metadata("seozoom")["Name"]
    assert document["version"] == package["version"] == seozoom.__version__
    assert package["transport"] == {"type": "stdio"}
    # PyPI ownership: the package's README names the server.
    readme = (WORKSPACE / "python" / "README.md").read_text()
    assert f"mcp-name: {document['name']}" in readme
    # Every argument and variable is one the command takes.
    help_text = run(installed_command(), ["mcp", "--help"]).stdout + run(installed_command(), ["--help"]).stdout
    for argument in package["packageArguments"]:
        if argument["type"] == "named":
            assert f"{argument['name']} <" in help_text, argument
        else:
            assert "value" in argument or "valueHint" in argument, argument
    for variable in package["environmentVariables"]:
        assert f"[env: {variable['name']}]" in help_text, variable


def test_a_host_starts_the_server_as_server_json_says(sandbox: seozoom.Sandbox) -> None:
    """What `uvx seozoom mcp` runs: the package's command with the
    positional arguments and the variables of server.json (the key of the
    sandbox, which stands for the service here), through the official MCP
    Python SDK: initialize, the tools, one call."""
    sdk = mcp_sdk()
    from mcp.client.stdio import stdio_client

    (package,) = server_json()["packages"]
    args = [a["value"] for a in package["packageArguments"] if a["type"] == "positional"]
    variables = {v["name"] for v in package["environmentVariables"]}
    assert variables >= {"SEOZOOM_API_KEY", "SEOZOOM_STORE"}

    async def session() -> Dict[str, Any]:
        params = sdk.StdioServerParameters(
            command=str(installed_command()),
            args=args,
            env=env(sandbox.url, SEOZOOM_STORE="memory"),
        )
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with sdk.ClientSession(read, write) as client:
                    init = await client.initialize()
                    tools = await client.list_tools()
                    result = await client.call_tool("keywords_metrics", {"keyword": ["mutuo casa"]})
                    return {"server": init.server_info, "tools": tools.tools, "result": result}

    answer = asyncio.run(session())
    assert answer["server"].version == seozoom.__version__
    names = {tool.name for tool in answer["tools"]}
    assert {"keywords_metrics", "estimate", "usage", "more"} <= names
    result = answer["result"]
    assert not result.is_error, result
    rows = result.structured_content["response"]
    assert [row["keyword"] for row in rows] == ["mutuo casa"]


def mcp_host_configs() -> List[Dict[str, Any]]:
    """Every `mcpServers` entry of the READMEs' JSON blocks."""
    configs: List[Dict[str, Any]] = []
    for readme in [WORKSPACE / "README.md", WORKSPACE / "cli" / "README.md"]:
        for block in re.findall(r"```json\n(.*?)```", readme.read_text(), re.S):
            if "mcpServers" in block:
                configs.extend(json.loads(block)["mcpServers"].values())
    return configs


def test_the_readmes_host_configurations_start_the_server() -> None:
    """The arguments each configuration hands the command parse as an MCP
    server's (`--help` after them prints the subcommand's help): after
    `uvx PACKAGE`, after `pipx run PACKAGE`, or as given to a path."""
    configs = mcp_host_configs()
    assert {c["command"] for c in configs} >= {"uvx", "/path/to/seozoom"}
    for config in configs:
        args = list(config["args"])
        if config["command"] == "uvx":
            assert args.pop(0) == "seozoom", config
        elif config["command"] == "pipx":
            assert args[:2] == ["run", "seozoom"], config
            args = args[2:]
        assert "SEOZOOM_API_KEY" in config["env"], config
        helped = run(installed_command(), [*args, "--help"])
        assert helped.returncode == 0, (config, helped.stderr)
        assert "Usage: seozoom mcp" in helped.stdout, config
