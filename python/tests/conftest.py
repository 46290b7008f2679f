"""Shared fixtures: a sandbox on loopback, and a client on it with a store
of its own (nothing from the user's default store leaks into a test)."""

from __future__ import annotations

import os
from typing import Iterator

import pytest

import seozoom


def require(what: str) -> None:
    """Skip for a missing tool, except under CI=true, where it fails."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is missing, and CI=true: this test cannot be skipped")
    pytest.skip(f"{what} is missing")


@pytest.fixture(autouse=True)
def data_home(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No test opens the user's own store: a client without `store=` opens
    the default SQLite file under the data directory, here a scratch one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def sandbox() -> Iterator[seozoom.Sandbox]:
    with seozoom.Sandbox() as sb:
        yield sb


@pytest.fixture
def client(sandbox: seozoom.Sandbox) -> seozoom.Client:
    return seozoom.Client(base_url=sandbox.url, api_key="sandbox", store="memory")
