"""The command line and Python on one store: what one paid for, the other
finds in the cache, and `seozoom usage` counts both."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess

import pytest

import seozoom

from faces import cli_binary as cli


def test_a_call_the_cli_paid_for_is_a_cache_hit_from_python(
    sandbox: seozoom.Sandbox, tmp_path: pathlib.Path
) -> None:
    store = f"sqlite:{tmp_path / 'store.sqlite3'}"
    env = {**os.environ, "SEOZOOM_API_KEY": "sandbox", "SEOZOOM_BASE_URL": sandbox.url}
    env.pop("SEOZOOM_STORE", None)
    ran = subprocess.run(
        [str(cli()), "--store", store, "--format", "json", "keywords", "metrics", "--keyword", "mutuo"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert ran.returncode == 0, ran.stderr
    printed = json.loads(ran.stdout)
    assert sandbox.requests == 1

    client = seozoom.Client(base_url=sandbox.url, api_key="sandbox", store=store)
    result = client.keywords.metrics(["mutuo"])
    assert result.from_cache and result.units_used == 0
    assert sandbox.requests == 1
    assert result.rows[0]["keyword"] == "mutuo"
    assert printed, "the command line printed its result"

    # What the Python process's store has not written yet is written when
    # asked (or within a second, or when the client goes).
    ours = client.usage()["operations"]
    assert [(u["calls"], u["cache_hits"]) for u in ours if u["action"] == "metrics"] == [(1, 1)]
    usage = subprocess.run(
        [str(cli()), "--store", store, "usage"], env=env, capture_output=True, text=True
    )
    assert usage.returncode == 0, usage.stderr
    line = next(l for l in usage.stdout.splitlines() if "keywords" in l and "metrics" in l)
    # One call (the command line's) and one cache hit (Python's).
    numbers = [int(word.replace(",", "")) for word in line.split() if word.replace(",", "").isdigit()]
    assert numbers[:2] == [1, 1], usage.stdout


def test_the_default_store_is_the_cli_s(monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert seozoom.default_store() == f"sqlite:{tmp_path / 'seozoom' / 'store.sqlite3'}"
    with seozoom.Sandbox() as sb:
        client = seozoom.Client(base_url=sb.url, api_key="sandbox")
        assert client.store == seozoom.default_store()
        client.keywords.metrics(["mutuo"])
    assert (tmp_path / "seozoom" / "store.sqlite3").exists()
