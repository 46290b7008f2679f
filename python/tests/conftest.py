"""Shared fixtures: a sandbox on loopback, and a client on it with a store
of its own (nothing from the user's default store leaks into a test)."""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Callable, Iterator, Optional

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


class When:
    """Runs `action` on a thread `after` seconds once the sandbox has had
    `requests` requests, and keeps the time it ran (`at`, `time.monotonic`)."""

    def __init__(self, sb: seozoom.Sandbox, requests: int, after: float, action: Callable[[], object]) -> None:
        self.at: Optional[float] = None
        self._done = threading.Event()

        def watch() -> None:
            deadline = time.monotonic() + 60
            while sb.requests < requests and time.monotonic() < deadline and not self._done.is_set():
                time.sleep(0.005)
            if self._done.wait(after):
                return
            self.at = time.monotonic()
            action()

        self._thread = threading.Thread(target=watch, daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        self._done.set()
        self._thread.join()


def sigint() -> None:
    """A real Ctrl-C: SIGINT to this process."""
    os.kill(os.getpid(), signal.SIGINT)
