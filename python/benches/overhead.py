"""Import time of `seozoom`, and the per-call overhead over the sandbox
against `requests` (BENCHMARKS.md, "Python package").

A small call (`keywords metrics`, one keyword: one short row) is made many
times over loopback by a `requests.Session` + `.json()` and by a
`seozoom.Client` with no store (so every call is sent and validated, priced,
rate-limited and decoded); the difference per call is the client's overhead.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
import urllib.parse
from typing import Callable, List

import seozoom

CALLS = 300


def per_call(label: str, call: Callable[[], object]) -> float:
    for _ in range(20):
        call()
    rounds: List[float] = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(CALLS):
            call()
        rounds.append((time.perf_counter() - started) / CALLS)
    median = statistics.median(rounds)
    print(f"{label:<40} {median * 1e6:8.0f} µs a call (median of 5 rounds of {CALLS})")
    return median


def import_time() -> None:
    def run(code: str) -> float:
        samples = []
        for _ in range(15):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            samples.append(time.perf_counter() - started)
        return statistics.median(samples)

    bare = run("pass")
    ours = run("import seozoom")
    req = run("import requests")
    print(f"interpreter start alone: {bare * 1000:.0f} ms")
    print(f"import seozoom:  +{(ours - bare) * 1000:.0f} ms")
    print(f"import requests: +{(req - bare) * 1000:.0f} ms")


def main() -> None:
    import requests

    import_time()
    with seozoom.Sandbox(units=10**12) as sb:
        query = urllib.parse.urlencode(
            {"api_key": "sandbox", "db": "it", "action": "metrics", "keyword": "mutuo"}
        )
        url = f"{sb.url}/api/v2/keywords/?{query}"
        session = requests.Session()
        plain = per_call("requests.Session.get + .json()", lambda: session.get(url).json())
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="none", rate_window=0.001)
        ours = per_call("seozoom.Client (store none)", lambda: client.keywords.metrics(["mutuo"]))
        cached = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory")
        hit = per_call("seozoom.Client, a cache hit (memory)", lambda: cached.keywords.metrics(["mutuo"]))
        print(f"  overhead over requests: {(ours - plain) * 1e6:+.0f} µs a call ({ours / plain:.2f}x)")
        print(f"  a cache hit: {hit * 1e6:.0f} µs")


if __name__ == "__main__":
    main()
