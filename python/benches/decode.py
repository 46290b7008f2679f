"""Decoding 10,000 `domains keywords` rows into Python objects (BENCHMARKS.md,
"Python package").

One body of 10,000 rows is fetched once from a sandbox, then decoded
repeatedly by:

- `json.loads`: raw JSON (strings stay strings: the baseline of the target);
- `seozoom.decode`: the Rust decoders, then typed Python rows (dicts keyed by
  the Rust field names, `bool`, `list[str]`, `datetime.date`, `int`);

and fetched and decoded end to end, over loopback from the same sandbox, by
`requests` + `.json()` and by a `seozoom.Client` call (no store, so every call
is sent). Run with a release build: `maturin build --release -m
python/Cargo.toml` and `pip install target/wheels/seozoom-*.whl requests`.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
import urllib.parse
import urllib.request
from typing import Callable, List

import seozoom

ROWS = 10_000
ROUNDS = 15


def timed(label: str, work: Callable[[], object], rounds: int = ROUNDS) -> float:
    work()  # warm up
    samples: List[float] = []
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        samples.append(time.perf_counter() - started)
    median = statistics.median(samples)
    print(f"{label:<44} median {median * 1000:8.1f} ms  (min {min(samples) * 1000:.1f}, {rounds} rounds)")
    return median


def main() -> None:
    import requests

    with seozoom.Sandbox(paged_rows=ROWS, units=10**12) as sb:
        query = urllib.parse.urlencode(
            {"api_key": "sandbox", "db": "it", "action": "keywords", "domain": "example.it",
             "type": "best", "offset": 0, "limit": ROWS}
        )
        url = f"{sb.url}/api/v2/domains/?{query}"
        body = urllib.request.urlopen(url).read()
        rows = json.loads(body)["response"]
        assert len(rows) == ROWS, len(rows)
        typed = seozoom.decode("domains", "keywords", body)
        assert len(typed.rows) == ROWS
        print(f"body: {len(body) / 1e6:.1f} MB, {ROWS} rows; Python {sys.version.split()[0]}")

        loads = timed("json.loads (raw strings)", lambda: json.loads(body))
        ours = timed("seozoom.decode (typed rows)", lambda: seozoom.decode("domains", "keywords", body))
        print(f"  ratio seozoom.decode / json.loads: {ours / loads:.2f}x (target <= 1.5x)")

        session = requests.Session()
        fetched = timed("requests.get + .json() over loopback", lambda: session.get(url).json())
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="none", rate_window=0.001)
        called = timed(
            "seozoom.Client call over loopback (typed)",
            lambda: client.domains.keywords("example.it", "best", ROWS),
        )
        print(f"  ratio seozoom call / requests+json: {called / fetched:.2f}x")


if __name__ == "__main__":
    main()
