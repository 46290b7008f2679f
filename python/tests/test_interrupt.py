"""Ctrl-C during a paged job: the job stops before its next request, and
`Partial` keeps the rows already paid for."""

from __future__ import annotations

import _thread
import threading
import time

import pytest

import seozoom


def test_a_keyboard_interrupt_leaves_partial_with_the_paid_rows() -> None:
    # 20 requests a 2-second window for this operation: 100 pages take ~10 s.
    with seozoom.Sandbox(paged_rows=1000) as sb:
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory", rate_window=2)
        timer = threading.Timer(1.0, _thread.interrupt_main)
        timer.start()
        with pytest.raises(seozoom.Partial) as stopped:
            client.domains.keywords("example.it", "best", 10, max_rows=1000)
        timer.cancel()
        partial = stopped.value
        assert isinstance(partial.__cause__, KeyboardInterrupt)
        rows = partial.result.rows
        assert 0 < len(rows) < 1000
        assert len(rows) % 10 == 0, "whole pages are kept"
        # Every page paid for is kept, and nothing more was sent.
        assert sb.requests == len(rows) // 10
        assert partial.result.units_used == 10 * len(rows)
        assert partial.missing == {"offset": len(rows), "max_rows": 1000 - len(rows)}
        sent = sb.requests
        time.sleep(0.5)
        assert sb.requests == sent


def test_a_keyboard_interrupt_stops_a_batched_job_waiting_for_the_rate_window() -> None:
    # 2,100 keywords are 21 requests of 100; the operation takes 20 a window
    # (2 s here), so the 21st waits for the window, and Ctrl-C comes then.
    keywords = [f"kw {i}" for i in range(2_100)]
    with seozoom.Sandbox() as sb:
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory", rate_window=2)
        timer = threading.Timer(1.0, _thread.interrupt_main)
        timer.start()
        with pytest.raises(seozoom.Partial) as stopped:
            client.keywords.metrics(keywords)
        timer.cancel()
        partial = stopped.value
        assert isinstance(partial.__cause__, KeyboardInterrupt)
        answered = {row["keyword"] for row in partial.result.rows}
        assert 0 < len(answered) < len(keywords)
        # Whole requests are kept, each paid for, and nothing more was sent.
        assert sb.requests * 100 == len(answered)
        assert partial.result.units_used == 10 * len(answered)
        missing = partial.missing["keyword"]
        assert sorted(missing) == sorted(set(keywords) - answered)
        sent = sb.requests
        time.sleep(0.5)
        assert sb.requests == sent
