"""A blocking call lets go of the GIL while it waits: other Python threads
run meanwhile."""

from __future__ import annotations

import threading
import time

import seozoom


def test_other_threads_run_while_a_call_waits() -> None:
    with seozoom.Sandbox(paged_rows=300) as sb:
        # 30 pages under a 20-a-second figure: the job waits about a second
        # for its rate limit.
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory", rate_window=1)
        ticks = 0
        done = threading.Event()

        def count() -> None:
            nonlocal ticks
            while not done.is_set():
                ticks += 1
                time.sleep(0.001)

        counter = threading.Thread(target=count)
        counter.start()
        try:
            before = ticks
            started = time.perf_counter()
            result = client.domains.keywords("example.it", "best", 10, max_rows=300)
            waited = time.perf_counter() - started
            during = ticks - before
        finally:
            done.set()
            counter.join()
        assert len(result.rows) == 300
        # A thread that held the GIL for the whole wait would leave the
        # counter where it was; it ticks about once a millisecond.
        assert waited > 0.5, waited
        assert during > 100, (during, waited)
