"""The three faces of the client driven alike, for the tests that compare
them: the `seozoom` command line (the workspace's binary), its MCP server
(through the official MCP Python SDK, over stdio) and this package.

Each face's answer is read into the same few facts: the rows, the units its
own requests were charged, whether it came from the cache, and, for a job
that stopped part-way, how many inputs or rows are missing and why.
"""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import re
import signal
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence

from conftest import require

WORKSPACE = pathlib.Path(__file__).resolve().parents[2]
KEY = "sandbox"


def cli_binary() -> pathlib.Path:
    """The `seozoom` binary: `SEOZOOM_CLI`, else the workspace's debug build
    (built here when missing)."""
    given = os.environ.get("SEOZOOM_CLI")
    if given:
        return pathlib.Path(given)
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", WORKSPACE / "target"))
    binary = target / "debug" / "seozoom"
    if not binary.exists():
        try:
            subprocess.run(["cargo", "build", "-p", "seozoom-cli"], cwd=WORKSPACE, check=True)
        except FileNotFoundError:
            require("cargo (to build the seozoom command line)")
    return binary


def env(base_url: Optional[str] = None, **extra: str) -> Dict[str, str]:
    """The environment of a run of the binary: the key, the base URL when
    given, no store unless one is named, none of the user's variables."""
    out = {k: v for k, v in os.environ.items() if not k.startswith("SEOZOOM_")}
    out["SEOZOOM_API_KEY"] = KEY
    out["SEOZOOM_STORE"] = "none"
    if base_url:
        out["SEOZOOM_BASE_URL"] = base_url
    out.update(extra)
    return out


def run_cli(args: Sequence[str], base_url: Optional[str] = None, **extra: str) -> subprocess.CompletedProcess:
    """The command line, run to its end."""
    return subprocess.run(
        [str(cli_binary()), *args],
        env=env(base_url, **extra),
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def interrupted_cli(args: Sequence[str], base_url: str, when: Callable[[], bool]) -> subprocess.CompletedProcess:
    """The command line, sent Ctrl-C (SIGINT) once `when()` holds."""
    process = subprocess.Popen(
        [str(cli_binary()), *args],
        env=env(base_url),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    wait_until(when)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def wait_until(condition: Callable[[], bool], seconds: float = 30) -> None:
    """Wait for `condition`, then a little more (the job is in its wait)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the job never got there"
        time.sleep(0.02)
    time.sleep(0.3)


def mcp_sdk() -> Any:
    try:
        import mcp  # noqa: F401
    except ImportError:
        require("the MCP Python SDK (python/tests/requirements.txt)")
    import mcp

    return mcp


@dataclass
class ToolAnswer:
    """A tool's answer: its structured content, or its error text."""

    error: Optional[str] = None
    content: Dict[str, Any] = field(default_factory=dict)


async def _mcp_calls(
    options: Sequence[str],
    base_url: Optional[str],
    calls: Sequence[tuple],
    cancel_when: Optional[Callable[[], bool]] = None,
    own: Sequence[str] = (),
) -> List[ToolAnswer]:
    """Start `seozoom OPTIONS mcp OWN`, make `calls` ((tool, arguments), ...)
    one after the other; the last one is cancelled once `cancel_when()`
    holds, when given. Answers in order; a cancelled call's answer is the
    result it left held for `more` (its rows), as `content`."""
    sdk = mcp_sdk()
    from mcp.client.stdio import stdio_client

    params = sdk.StdioServerParameters(
        command=str(cli_binary()),
        args=[*options, "mcp", "--max-result-rows", "100000", *own],
        env=env(base_url),
    )
    answers: List[ToolAnswer] = []
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with sdk.ClientSession(read, write) as session:
                await session.initialize()
                for index, (tool, arguments) in enumerate(calls):
                    last = index == len(calls) - 1
                    if cancel_when is not None and last:
                        answers.append(await _cancelled(session, tool, arguments, cancel_when))
                        continue
                    result = await session.call_tool(tool, arguments)
                    answers.append(await _answer(session, tool, result))
    return answers


async def _answer(session: Any, tool: str, result: Any) -> ToolAnswer:
    """A tool's answer; for a job that stopped part-way, with the rows it
    paid for, fetched from `more`."""
    if not result.is_error:
        return ToolAnswer(content=result.structured_content)
    text = "\n".join(b.text for b in result.content if b.type == "text")
    answer = ToolAnswer(error=text)
    if "held as result" in text:
        answer.content = await _held(session, tool)
    return answer


async def _held(session: Any, tool: str) -> Dict[str, Any]:
    """The rows of the latest result of `tool` held because its job stopped
    part-way, and the units it was charged; empty when none is held."""
    for _ in range(200):
        held = (await session.call_tool("more", {})).structured_content["held"]
        stopped = [h for h in held if h["tool"] == tool and not h["complete"]]
        if stopped:
            break
        await asyncio.sleep(0.05)
    else:
        return {}
    rows = await session.call_tool("more", {"result": stopped[-1]["result"], "start": 0, "count": 100000})
    content = dict(rows.structured_content)
    content["UnitsUsed"] = stopped[-1]["units"]
    return content


async def _cancelled(session: Any, tool: str, arguments: Dict[str, Any], when: Callable[[], bool]) -> ToolAnswer:
    """Call `tool`, cancel it once `when()` holds (the SDK sends
    `notifications/cancelled`), then fetch the rows it paid for with `more`."""
    task = asyncio.ensure_future(session.call_tool(tool, arguments))
    while not when():
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.3)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    # The server has answered the cancel by holding the rows paid for.
    return ToolAnswer(error="cancelled", content=await _held(session, tool))


def mcp_calls(
    options: Sequence[str],
    calls: Sequence[tuple],
    base_url: Optional[str] = None,
    cancel_when: Optional[Callable[[], bool]] = None,
    own: Sequence[str] = (),
) -> List[ToolAnswer]:
    """[`_mcp_calls`], run to its end; `own` are options of `mcp` itself."""
    return asyncio.run(_mcp_calls(options, base_url, calls, cancel_when, own))


def mcp_refuses(options: Sequence[str], base_url: Optional[str] = None) -> Optional[str]:
    """The usage error `seozoom OPTIONS mcp` exits 2 with, or `None` when the
    server starts (it serves until stdin closes, at once here)."""
    ran = subprocess.run(
        [str(cli_binary()), *options, "mcp"],
        env=env(base_url),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    if ran.returncode == 2:
        return ran.stderr
    assert ran.returncode == 0, ran.stderr
    return None


def missing_count(text: str) -> Optional[int]:
    """How many inputs or rows a stopped job's message says are missing."""
    found = re.search(r"(\d+) `\w+` values?", text) or re.search(r"up to (\d+) rows?", text)
    return int(found.group(1)) if found else None


def json_out(ran: subprocess.CompletedProcess) -> Dict[str, Any]:
    out: Dict[str, Any] = json.loads(ran.stdout)
    return out
