#!/usr/bin/env python3
"""What users would otherwise use: Python's json.loads and orjson.loads on the same
generated bodies as the Rust benches.

Run the decode bench first (it writes the bodies), then this script:

    cargo bench -p seozoom-benches --bench decode
    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install orjson
    /tmp/venv/bin/python benches/compare.py

The bodies are read from `$CARGO_TARGET_DIR/bench-data` (default `target/bench-data`,
or `--data DIR`). Each loader is timed on each body (median of several rounds); the
table gives MB/s and, where the decode bench's criterion results are found next to
the data, the ratio of the seozoom typed decode to each loader. Both loaders build
dicts and lists only: no types, no quirks (string booleans, comma lists, integral
floats stay as sent).
"""

import argparse
import json
import os
import pathlib
import platform
import statistics
import time

try:
    import orjson
except ImportError:  # measured when installed; json alone otherwise
    orjson = None

SIZES = [100, 10_000, 100_000]


def time_loader(load, body, budget_s):
    """Median seconds per call, over rounds of a few calls each, within about budget_s."""
    load(body)  # warm up
    start = time.perf_counter()
    load(body)
    once = max(time.perf_counter() - start, 1e-7)
    per_round = max(1, int(0.05 / once))
    rounds = max(5, min(50, int(budget_s / (once * per_round))))
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(per_round):
            load(body)
        samples.append((time.perf_counter() - start) / per_round)
    return statistics.median(samples)


def seozoom_ns(target, rows):
    """The decode bench's median for the seozoom decoder, if it has run."""
    path = target / "criterion" / f"decode_{rows}" / "seozoom" / "new" / "estimates.json"
    try:
        return json.loads(path.read_text())["median"]["point_estimate"]
    except (OSError, KeyError, ValueError):
        return None


def main():
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", "target"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=pathlib.Path, default=target / "bench-data")
    parser.add_argument("--budget", type=float, default=3.0, help="seconds per measurement")
    args = parser.parse_args()
    target = args.data.parent

    loaders = [("json.loads", json.loads)]
    if orjson is not None:
        loaders.append(("orjson.loads", orjson.loads))
    print(f"Python {platform.python_version()}"
          + (f", orjson {orjson.__version__}" if orjson else ", orjson not installed"))
    print()
    print("| rows | body | loader | median | MB/s | seozoom typed is N x faster |")
    print("|---:|---:|---|---:|---:|---:|")
    for rows in SIZES:
        path = args.data / f"domain_keywords_{rows}.json"
        if not path.exists():
            raise SystemExit(f"{path} not found: run `cargo bench -p seozoom-benches --bench decode` first")
        body = path.read_bytes()
        ours = seozoom_ns(target, rows)
        for name, load in loaders:
            parsed = load(body)
            assert len(parsed["response"]) == rows
            seconds = time_loader(load, body, args.budget)
            ratio = f"{seconds * 1e9 / ours:.1f}" if ours else "n/a"
            if seconds >= 1e-3:
                shown = f"{seconds * 1e3:.2f} ms"
            else:
                shown = f"{seconds * 1e6:.1f} µs"
            print(f"| {rows} | {len(body) / 1e6:.2f} MB | {name} | {shown} "
                  f"| {len(body) / seconds / 1e6:.0f} | {ratio} |")


if __name__ == "__main__":
    main()
