"""Ctrl-C (a real SIGINT) during a job: every wait ends at once (the wait
for the client's rate window, a `Retry-After`), nothing more is sent, and
`Partial` keeps the rows already paid for.

Each test sends SIGINT shortly after the job has used up the operation's
figure of 20 requests a window (3 s here), while its next request waits:
the job must end within half a second of it, not when the wait would."""

from __future__ import annotations

import asyncio
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

import seozoom
from conftest import When, sigint

WINDOW = 3.0


def no_request_after(sb: seozoom.Sandbox, seconds: float) -> None:
    sent = sb.requests
    time.sleep(seconds)
    assert sb.requests == sent, "a request went out after Ctrl-C"


def prompt(ctrl_c: When) -> None:
    ended = time.monotonic()
    ctrl_c.cancel()
    assert ctrl_c.at is not None, "the job ended before Ctrl-C"
    assert ended - ctrl_c.at < 0.5, f"ended {ended - ctrl_c.at:.2f} s after Ctrl-C: the wait went on"


def test_ctrl_c_while_a_paged_job_waits_for_the_rate_window() -> None:
    with seozoom.Sandbox(paged_rows=1000, rate_window=WINDOW) as sb:
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory", rate_window=WINDOW)
        ctrl_c = When(sb, 20, 0.3, sigint)
        with pytest.raises(seozoom.Partial) as stopped:
            client.domains.keywords("example.it", "best", 10, max_rows=1000)
        prompt(ctrl_c)
        partial = stopped.value
        assert isinstance(partial.__cause__, KeyboardInterrupt)
        rows = partial.result.rows
        assert len(rows) == 200, "the 20 pages of the window, each paid for"
        assert sb.requests == 20 and sb.rate_limited == 0
        assert partial.result.units_used == 10 * len(rows)
        assert partial.missing == {"offset": 200, "max_rows": 800}
        no_request_after(sb, WINDOW)


def fill_window(sb: seozoom.Sandbox, group: str, query: dict[str, object], requests: int) -> None:
    """Another process on the same key sends `requests` of the operation's 20
    a window, straight to the sandbox: the client does not know of them."""
    url = f"{sb.url}/api/v2/{group}/?" + urllib.parse.urlencode({"api_key": "sandbox", "db": "it", **query})
    for _ in range(requests):
        urllib.request.urlopen(url).close()


def test_ctrl_c_while_a_paged_job_waits_for_retry_after() -> None:
    # Another process took 15 of the key's 20 requests of the window, which
    # the client does not know of: its 6th page is answered 429 with Retry-After, and
    # waits.
    with seozoom.Sandbox(paged_rows=1000, rate_window=WINDOW) as sb:
        query = {"action": "keywords", "domain": "other.it", "type": "best", "limit": 10}
        fill_window(sb, "domains", query, 15)
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory", rate_window=WINDOW)
        ctrl_c = When(sb, 21, 0.3, sigint)
        with pytest.raises(seozoom.Partial) as stopped:
            client.domains.keywords("example.it", "best", 10, max_rows=1000)
        prompt(ctrl_c)
        assert sb.rate_limited == 1, "the 6th page was answered 429"
        assert len(stopped.value.result.rows) == 50
        assert sb.requests == 21
        no_request_after(sb, WINDOW)


def test_ctrl_c_while_one_call_waits_for_retry_after() -> None:
    with seozoom.Sandbox(rate_window=WINDOW) as sb:
        fill_window(sb, "projects", {"action": "list"}, 20)
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory", rate_window=WINDOW)
        ctrl_c = When(sb, 21, 0.3, sigint)
        with pytest.raises(KeyboardInterrupt):
            client.projects.list()
        prompt(ctrl_c)
        assert sb.rate_limited == 1 and sb.requests == 21, "the call's one request, answered 429"
        no_request_after(sb, WINDOW)


def test_ctrl_c_stops_a_batched_job_waiting_for_the_rate_window() -> None:
    # 2,100 keywords are 21 requests of 100; the 21st waits for the window.
    keywords = [f"kw {i}" for i in range(2_100)]
    with seozoom.Sandbox(rate_window=WINDOW) as sb:
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory", rate_window=WINDOW)
        ctrl_c = When(sb, 20, 0.3, sigint)
        with pytest.raises(seozoom.Partial) as stopped:
            client.keywords.metrics(keywords)
        prompt(ctrl_c)
        partial = stopped.value
        assert isinstance(partial.__cause__, KeyboardInterrupt)
        answered = {row["keyword"] for row in partial.result.rows}
        assert len(answered) == 2_000
        # Whole requests are kept, each paid for, and nothing more was sent.
        assert sb.requests == 20
        assert partial.result.units_used == 10 * len(answered)
        missing = partial.missing["keyword"]
        assert isinstance(missing, list)
        assert sorted(missing) == sorted(set(keywords) - answered)
        no_request_after(sb, WINDOW)


def test_ctrl_c_under_asyncio_run_stops_the_job() -> None:
    with seozoom.Sandbox(paged_rows=1000, rate_window=WINDOW) as sb:
        client = seozoom.AsyncClient(base_url=sb.url, api_key="sandbox", store="memory", rate_window=WINDOW)
        ctrl_c = When(sb, 20, 0.3, sigint)
        with pytest.raises(KeyboardInterrupt):
            asyncio.run(client.domains.keywords("example.it", "best", 10, max_rows=1000))
        prompt(ctrl_c)
        assert sb.requests == 20
        no_request_after(sb, WINDOW)
