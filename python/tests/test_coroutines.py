"""The async client's methods are coroutine functions: a call sends nothing
until it is awaited, and works wherever asyncio takes a coroutine."""

from __future__ import annotations

import asyncio
import gc
import inspect
import sys
import time
import warnings
from typing import Any, Iterator

import pytest

import seozoom
from test_requests import Recorder


@pytest.fixture
def aclient(sandbox: seozoom.Sandbox) -> seozoom.AsyncClient:
    return seozoom.AsyncClient(base_url=sandbox.url, api_key="sandbox", store="memory")


def test_every_method_of_every_async_group_is_a_coroutine_function(aclient: seozoom.AsyncClient) -> None:
    methods = [
        getattr(getattr(aclient, group), name)
        for group, cls in seozoom.AsyncClient._GROUPS.items()
        for name in vars(cls)
        if not name.startswith("_")
    ]
    assert methods
    for method in methods:
        assert inspect.iscoroutinefunction(method), method


def test_a_call_never_awaited_is_never_sent(aclient: seozoom.AsyncClient, sandbox: seozoom.Sandbox) -> None:
    async def main() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # "never awaited"
            aclient.keywords.metrics(["never awaited"])
            gc.collect()
        await asyncio.sleep(0.3)

    asyncio.run(main())
    assert sandbox.requests == 0
    assert aclient._core.units()["used"] == 0


def test_asyncio_run_takes_a_call_directly(aclient: seozoom.AsyncClient, sandbox: seozoom.Sandbox) -> None:
    result = asyncio.run(aclient.keywords.metrics(["mutuo"]))
    assert result.rows[0]["keyword"] == "mutuo" and sandbox.requests == 1


def test_create_task_gather_and_wait_for_take_calls(
    aclient: seozoom.AsyncClient, sandbox: seozoom.Sandbox
) -> None:
    async def main() -> list[str]:
        task = asyncio.create_task(aclient.keywords.metrics(["a"]))
        gathered = await asyncio.gather(aclient.keywords.metrics(["b"]), aclient.keywords.metrics(["c"]))
        waited = await asyncio.wait_for(aclient.keywords.metrics(["d"]), timeout=30)
        results = [await task, *gathered, waited]
        return [r.rows[0]["keyword"] for r in results]

    assert asyncio.run(main()) == ["a", "b", "c", "d"]
    assert sandbox.requests == 4


@pytest.mark.skipif(sys.version_info < (3, 11), reason="asyncio.TaskGroup is Python 3.11+")
def test_a_task_group_takes_calls(aclient: seozoom.AsyncClient) -> None:
    async def main() -> list[str]:
        async with asyncio.TaskGroup() as group:  # type: ignore[attr-defined, unused-ignore]
            tasks = [group.create_task(aclient.keywords.metrics([k])) for k in ("x", "y")]
        return [t.result().rows[0]["keyword"] for t in tasks]

    assert asyncio.run(main()) == ["x", "y"]


class SlowRecorder(Recorder):
    """A Recorder whose forwarding takes `delay` seconds: a request stays in
    flight that long."""

    def __init__(self, upstream: str, delay: float) -> None:
        super().__init__(upstream)
        self.delay = delay

    def forward(self, path: str) -> tuple[int, bytes]:
        time.sleep(self.delay)
        return super().forward(path)


@pytest.fixture
def slow(sandbox: seozoom.Sandbox) -> Iterator[SlowRecorder]:
    recorder = SlowRecorder(sandbox.url, delay=1.0)
    yield recorder
    recorder.close()


def test_a_cancelled_call_lets_its_request_in_flight_finish_into_the_cache(
    slow: SlowRecorder, sandbox: seozoom.Sandbox
) -> None:
    client = seozoom.AsyncClient(base_url=slow.url, api_key="sandbox", store="memory")

    async def main() -> Any:
        task = asyncio.create_task(client.keywords.metrics(["in flight"]))
        await asyncio.sleep(0.3)
        assert len(slow.queries) == 1, "the request is on its way"
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # The cancel is at once; the request goes on without the task.
        assert time.monotonic() - started < 0.5
        await asyncio.sleep(1.5)
        return await client.keywords.metrics(["in flight"])

    again = asyncio.run(main())
    # The answer paid for was kept: the same call finds it in the cache.
    assert sandbox.requests == 1
    assert again.from_cache and again.units_used == 0
    assert again.rows[0]["keyword"] == "in flight"


@pytest.mark.parametrize("how", ["cancel", "wait_for"])
def test_a_cancelled_job_sends_nothing_more(how: str) -> None:
    # 21 requests of 100 keywords; the operation takes 20 a 4-second window,
    # so the 21st waits for the window: the cancel comes then.
    keywords = [f"kw {i}" for i in range(2_100)]
    with seozoom.Sandbox(rate_window=4) as sb:
        client = seozoom.AsyncClient(base_url=sb.url, api_key="sandbox", store="memory", rate_window=4)

        async def main() -> None:
            call = client.keywords.metrics(keywords)
            if how == "wait_for":
                started = time.monotonic()
                with pytest.raises(asyncio.TimeoutError):
                    await asyncio.wait_for(call, timeout=2.5)
                assert time.monotonic() - started < 3.0, "the timeout's cancel was at once"
                return
            task = asyncio.create_task(call)
            while sb.requests < 20:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.2)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

        asyncio.run(main())
        sent = sb.requests
        assert 0 < sent <= 20
        time.sleep(4.5)
        assert sb.requests == sent, "the cancelled job went on sending"
