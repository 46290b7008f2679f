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


@pytest.fixture
def sandbox() -> Iterator[seozoom.Sandbox]:
    with seozoom.Sandbox() as sb:
        yield sb


@pytest.fixture
def client(sandbox: seozoom.Sandbox) -> seozoom.Client:
    return seozoom.Client(base_url=sandbox.url, api_key="sandbox", store="memory")
