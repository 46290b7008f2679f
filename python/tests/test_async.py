"""The async client: the same calls, concurrently, under one rate limit."""

from __future__ import annotations

import asyncio
import re
import time

import seozoom


def test_concurrent_calls_share_one_rate_limit() -> None:
    doc = seozoom.Client._GROUPS["keywords"].metrics.__doc__ or ""
    per_window = int(re.search(r"and (\d+) requests per minute", doc).group(1))  # type: ignore[union-attr]
    calls = per_window + per_window // 2
    with seozoom.Sandbox(rate_window=2) as sb:
        client = seozoom.AsyncClient(base_url=sb.url, api_key="sandbox", store="memory", rate_window=2)

        async def main() -> list[seozoom.Result[list[seozoom.KeywordMetrics]]]:
            return await asyncio.gather(*(client.keywords.metrics([f"kw {i}"]) for i in range(calls)))

        results = asyncio.run(main())
        assert [r.rows[0]["keyword"] for r in results] == [f"kw {i}" for i in range(calls)]
        # More calls than one window allows: the client held them back, so
        # the strict sandbox refused none.
        assert sb.requests == calls
        assert sb.rate_limited == 0


def test_the_async_client_raises_the_same_errors() -> None:
    with seozoom.Sandbox() as sb:
        client = seozoom.AsyncClient(base_url=sb.url, api_key="sandbox", store="memory")

        async def main() -> None:
            try:
                await client.domains.keywords("example.it", "best", 0)
            except seozoom.Refused as refused:
                assert refused.parameter == "limit"
            else:
                raise AssertionError("not refused")

        asyncio.run(main())
        assert sb.requests == 0


def test_a_cancelled_paged_job_sends_no_further_page() -> None:
    # 20 requests a 3-second window for this operation: the 21st page waits
    # for the window, and the cancel comes then.
    with seozoom.Sandbox(paged_rows=1000, rate_window=3) as sb:
        client = seozoom.AsyncClient(base_url=sb.url, api_key="sandbox", store="memory", rate_window=3)

        async def main() -> None:
            job = asyncio.ensure_future(client.domains.keywords("example.it", "best", 10, max_rows=1000))
            while sb.requests < 20:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.2)
            job.cancel()
            try:
                await job
            except asyncio.CancelledError:
                pass
            else:
                raise AssertionError("the job ended before it was cancelled")

        asyncio.run(main())
        assert sb.requests == 20
        time.sleep(3.5)
        assert sb.requests == 20, "the cancelled job went on sending"
