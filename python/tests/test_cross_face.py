"""The same jobs through the command line, the MCP server and Python, against
one sandbox: each face gives the same rows, the same units, the same
`from_cache` and the same inputs or rows missing, since all three run a job
through the library's one runner (`Client::run`). A face that disagrees
fails the job's test, naming the face and the fact.

A job is one entry of `JOBS`: its operation and inputs, the options every
face gets alike, what goes in the cache first, and when the face stops it.
Add a case by adding an entry.
"""

from __future__ import annotations

import _thread
import pathlib
import tempfile
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence

import pytest

import seozoom

from faces import interrupted_cli, json_out, mcp_calls, missing_count, run_cli, wait_until


@dataclass
class Job:
    """A job, as every face is given it."""

    name: str
    #: `group action` (wire names).
    operation: str
    #: The parameters by wire name (a list for a list parameter).
    params: Dict[str, Any]
    #: The same call in Python, on a client.
    python: Callable[[seozoom.Client], seozoom.Result[Any]]
    #: Global options, the same for the command line and the MCP server.
    options: List[str] = field(default_factory=list)
    #: The same options as `seozoom.Client` arguments.
    python_options: Dict[str, Any] = field(default_factory=dict)
    #: A row cap (a paged job).
    max_rows: Optional[int] = None
    #: Inputs of the list parameter put in the cache (a store of the face's
    #: own) before the face runs the job.
    cached: Sequence[str] = ()
    #: The face stops the job once it has sent this many requests (Ctrl-C,
    #: an MCP cancel, KeyboardInterrupt).
    stop_after: Optional[int] = None
    #: Each row's key field (wire name), which the rows are compared by.
    key: str = "keyword"
    #: How many inputs the list names once values that are one input by the
    #: spec's rule for the parameter (case, spaces, `www.`) count once;
    #: `None`: every value is an input of its own.
    distinct: Optional[int] = None


@dataclass
class Facts:
    """What a face's answer says."""

    #: The rows' keys, in order (none when refused).
    rows: List[str]
    units: int
    from_cache: Optional[bool]
    #: Inputs or rows missing, as the face says (None when it says none).
    missing: Optional[int]
    refused: bool = False


def keywords(prefix: str, n: int) -> List[str]:
    return [f"{prefix} {i}" for i in range(n)]


HALF = keywords("half", 200)
MANY = keywords("many", 2_100)
# The same inputs spelled apart (compared by exact text, they would be asked,
# charged and matched back differently). Each new input is given first
# as the command line's list file keeps it (a line is trimmed), so that every
# face sends the same text.
SAME_KEYWORDS = [
    "Mutuo Casa", "prestito auto", " mutuo casa ", "CONTO DEPOSITO",
    "Prestito Auto", "scarpe running", "MUTUO CASA", " Scarpe Running ",
]
SAME_DOMAINS = ["www.example.it", "nuovo.it", "Example.it", " WWW.NUOVO.IT/ ", "example.it/"]

JOBS = [
    Job(
        name="a batched job half in the cache",
        operation="keywords metrics",
        params={"keyword": HALF},
        python=lambda c: c.keywords.metrics(HALF),
        cached=HALF[:100],
    ),
    Job(
        name="a paged job with the most rows set",
        operation="domains keywords",
        params={"domain": "faces.it", "type": "best", "limit": 10},
        python=lambda c: c.domains.keywords("faces.it", "best", 10, max_rows=25),
        max_rows=25,
    ),
    Job(
        name="a job stopped after 20 requests",
        operation="keywords metrics",
        params={"keyword": MANY},
        python=lambda c: c.keywords.metrics(MANY),
        # 20 requests a window of 30 s: the 21st waits, and the job is stopped then.
        options=["--rate-window", "30"],
        python_options={"rate_window": 30},
        stop_after=20,
    ),
    Job(
        name="a job over its budget",
        operation="keywords metrics",
        params={"keyword": HALF},
        python=lambda c: c.keywords.metrics(HALF),
        options=["--budget", "100"],
        python_options={"budget": 100},
    ),
    Job(
        name="a wait longer than the most time to wait",
        operation="keywords metrics",
        params={"keyword": MANY},
        python=lambda c: c.keywords.metrics(MANY),
        options=["--rate-window", "30", "--max-wait", "1"],
        python_options={"rate_window": 30, "max_wait": 1},
    ),
    Job(
        name="keywords differing in case and spaces, half in the cache",
        operation="keywords metrics",
        params={"keyword": SAME_KEYWORDS},
        python=lambda c: c.keywords.metrics(SAME_KEYWORDS),
        cached=["mutuo casa", "conto deposito"],
        distinct=4,
    ),
    Job(
        name="domains differing in www, case and a slash, half in the cache",
        operation="domains metrics",
        params={"domain": SAME_DOMAINS},
        python=lambda c: c.domains.metrics(SAME_DOMAINS),
        cached=["example.it"],
        key="domain",
        distinct=2,
    ),
]


def warm(job: Job, sb: seozoom.Sandbox, store: str) -> None:
    """Put `job.cached` in the face's store, as a client of the same key does."""
    if job.cached:
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store=store)
        group, action = job.operation.split()
        getattr(getattr(client, group), action)(list(job.cached))
        client.usage()  # the store has written what the client holds


def stopped_when(job: Job, sb: seozoom.Sandbox) -> Optional[Callable[[], bool]]:
    if job.stop_after is None:
        return None
    start = sb.requests
    return lambda: sb.requests - start >= job.stop_after  # type: ignore[operator]


def keys(rows: Any, key: str) -> List[str]:
    return [row[key] for row in rows]


def by_cli(job: Job, sb: seozoom.Sandbox, tmp: pathlib.Path) -> Facts:
    store = f"sqlite:{tmp / 'cli.sqlite3'}"
    warm(job, sb, store)
    group, action = job.operation.split()
    args = [*job.options, "--store", store, "--format", "json", group, action]
    for name, value in job.params.items():
        if isinstance(value, list):
            listed = tmp / f"{name}.txt"
            listed.write_text("\n".join(value))
            args += [f"--{name}-file", str(listed)]
        else:
            args += [f"--{name}", str(value)]
    if job.max_rows is not None:
        args += ["--max-rows", str(job.max_rows)]
    when = stopped_when(job, sb)
    ran = interrupted_cli(args, sb.url, when) if when else run_cli(args, sb.url)
    if ran.returncode == 2:
        return Facts([], 0, None, None, refused=True)
    assert ran.returncode in (0, 1), ran.stderr
    printed = json_out(ran)
    cached = ": answered from the cache" in ran.stderr  # not "partly answered"
    stopped = ran.returncode == 1
    return Facts(
        rows=keys(printed["response"], job.key),
        units=printed["UnitsUsed"],
        from_cache=None if stopped else cached,
        missing=missing_count(ran.stderr) if stopped else None,
    )


def by_mcp(job: Job, sb: seozoom.Sandbox, tmp: pathlib.Path) -> Facts:
    store = f"sqlite:{tmp / 'mcp.sqlite3'}"
    warm(job, sb, store)
    arguments = dict(job.params)
    if job.max_rows is not None:
        arguments["max_rows"] = job.max_rows
    tool = job.operation.replace(" ", "_")
    [answer] = mcp_calls([*job.options, "--store", store], [(tool, arguments)], sb.url, stopped_when(job, sb))
    if answer.error is not None and not answer.content:
        assert "Nothing was sent" in answer.error, answer.error
        return Facts([], 0, None, None, refused=True)
    if answer.error is not None:
        # Stopped part-way: its rows, held for `more`; a cancelled call's
        # answer (what it says is missing) does not reach the client.
        said = None if answer.error == "cancelled" else missing_count(answer.error)
        return Facts(keys(answer.content["response"], job.key), answer.content["UnitsUsed"], None, said)
    content = answer.content
    return Facts(keys(content["response"], job.key), content["UnitsUsed"], content["from_cache"], None)


def by_python(job: Job, sb: seozoom.Sandbox, tmp: pathlib.Path) -> Facts:
    store = f"sqlite:{tmp / 'python.sqlite3'}"
    warm(job, sb, store)
    client = seozoom.Client(base_url=sb.url, api_key="sandbox", store=store, **job.python_options)
    when = stopped_when(job, sb)
    watcher = None
    if when is not None:
        watcher = threading.Thread(target=lambda: (wait_until(when), _thread.interrupt_main()))
        watcher.start()
    try:
        result = job.python(client)
    except seozoom.OverBudget:
        return Facts([], 0, None, None, refused=True)
    except seozoom.Partial as partial:
        received = partial.result
        missing = partial.missing
        said = missing.get("max_rows") if "offset" in missing else len(next(iter(missing.values())))
        return Facts(keys(received.rows, job.key), received.units_used, None, said)
    finally:
        if watcher is not None:
            watcher.join()
    return Facts(keys(result.rows, job.key), result.units_used, result.from_cache, None)


FACES: Dict[str, Callable[[Job, seozoom.Sandbox, pathlib.Path], Facts]] = {
    "command line": by_cli,
    "MCP server": by_mcp,
    "Python": by_python,
}


@pytest.mark.parametrize("job", JOBS, ids=[job.name for job in JOBS])
def test_every_face_gives_the_same_result(job: Job) -> None:
    seen: Dict[str, Facts] = {}
    sent: Dict[str, int] = {}
    with seozoom.Sandbox(paged_rows=1_000) as sb:
        for face, run in FACES.items():
            with tempfile.TemporaryDirectory() as tmp:
                before = sb.requests
                cached_first = len(job.cached) > 0
                seen[face] = run(job, sb, pathlib.Path(tmp))
                # What the warm-up sent is not the face's.
                sent[face] = sb.requests - before - int(cached_first)
    first = next(iter(seen.values()))
    for face, facts in seen.items():
        for fact in ("rows", "units", "from_cache", "refused"):
            assert getattr(facts, fact) == getattr(first, fact), (
                f"{job.name}: the {face} says {fact} = {getattr(facts, fact)!r}, "
                f"the command line {getattr(first, fact)!r}"
            )
        assert sent[face] == sent["command line"], f"{job.name}: requests {sent}"
    # What each face says is missing is what it did not get.
    inputs = job.params.get(job.key)
    for face, facts in seen.items():
        if facts.missing is None or facts.refused:
            continue
        expected = (
            len(set(inputs) - set(facts.rows)) if isinstance(inputs, list)
            else (job.max_rows or 0) - len(facts.rows)
        )
        assert facts.missing == expected, f"{job.name}: the {face} says {facts.missing} missing"
    # And the job did what it is about.
    facts = first
    if job.stop_after is not None or "max-wait" in " ".join(job.options):
        assert 0 < len(facts.rows) < len(job.params["keyword"]), facts
        assert facts.missing is not None
    if job.cached:
        asked = job.distinct if job.distinct is not None else len(inputs)
        assert facts.from_cache is False and len(facts.rows) == asked, facts
        assert sent["command line"] == 1, sent
    if job.distinct is not None:
        # One row per input as the rule counts them, none twice.
        assert len(set(facts.rows)) == job.distinct, facts
    if "--budget" in job.options:
        assert facts.refused and sent["command line"] == 0
    if job.max_rows is not None:
        assert len(facts.rows) == job.max_rows
