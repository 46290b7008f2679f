"""A paged job's `units_used` is what its own requests reported, even while
other calls on the same client are charged at the same time."""

from __future__ import annotations

import asyncio

import seozoom


def test_a_paged_job_counts_only_its_own_requests() -> None:
    with seozoom.Sandbox(paged_rows=200) as sb:
        # The job alone, on a client of its own: what its pages cost.
        alone = seozoom.Client(base_url=sb.url, api_key="sandbox", store="none", rate_window=0.01)
        by_itself = alone.domains.keywords("example.it", "best", 10, max_rows=200)
        assert len(by_itself.rows) == 200 and by_itself.units_used > 0

        # The same job (20 pages one after another) while other calls on
        # the same client are answered and charged in between.
        client = seozoom.AsyncClient(base_url=sb.url, api_key="sandbox", store="none", rate_window=0.01)

        async def main() -> tuple[seozoom.Result[list[seozoom.DomainKeyword]], list[int]]:
            job = asyncio.ensure_future(client.domains.keywords("example.it", "best", 10, max_rows=200))
            others = []
            while not job.done():
                others.append((await client.keywords.metrics([f"kw {len(others)}"])).units_used)
            return await job, others

        paged, others = asyncio.run(main())
        assert len(paged.rows) == 200
        assert others and all(units > 0 for units in others), others
        # The client's ledger counted both; the job's result only its pages.
        assert client._core.units()["used"] == paged.units_used + sum(others)
        assert paged.units_used == by_itself.units_used
