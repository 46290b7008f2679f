"""The package's edges: its version, refusals of every bad argument in one
form, and what `help()` shows."""

from __future__ import annotations

import importlib.metadata
import pathlib
import pydoc
import re
from typing import Any, Dict

import pytest

import seozoom

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_version_is_the_cargo_version_and_the_metadata() -> None:
    cargo = (ROOT / "Cargo.toml").read_text()
    workspace = re.search(r'^\[workspace\.package\][^\[]*?^version = "([^"]+)"', cargo, re.M | re.S)
    assert workspace, "the workspace's version"
    assert seozoom.__version__ == importlib.metadata.version("seozoom") == workspace.group(1)


@pytest.mark.parametrize(
    "kwargs,parameter",
    [
        ({"max_rows": -1}, "max_rows"),
        ({"max_rows": "5000"}, "max_rows"),
        ({"max_rows": 2**70}, "max_rows"),
        ({"max_rows": 0}, "max_rows"),
        ({"max_rows": True}, "max_rows"),
        ({"max_rows": 2.5}, "max_rows"),
    ],
)
def test_a_bad_call_argument_is_refused(
    client: seozoom.Client, sandbox: seozoom.Sandbox, kwargs: Dict[str, Any], parameter: str
) -> None:
    with pytest.raises(seozoom.Refused) as refused:
        client.domains.keywords("example.it", "best", 10, **kwargs)
    assert refused.value.parameter == parameter
    given = kwargs[parameter]
    assert refused.value.value == (given if isinstance(given, str) else repr(given))
    assert "at least 1" in refused.value.limit
    assert sandbox.requests == 0


@pytest.mark.parametrize(
    "kwargs,parameter",
    [
        ({"budget": -1}, "budget"),
        ({"budget": "5/week"}, "budget"),
        ({"budget": [5]}, "budget"),
        ({"timeout": -1}, "timeout"),
        ({"timeout": 0}, "timeout"),
        ({"timeout": "soon"}, "timeout"),
        ({"rate_window": float("nan")}, "rate_window"),
        ({"refresh": "yes"}, "refresh"),
        ({"store_fallback": 1}, "store_fallback"),
        ({"store": 5}, "store"),
        ({"base_url": b"http://127.0.0.1"}, "base_url"),
        ({"db": "us"}, "db"),
        ({"db": 3}, "db"),
    ],
)
def test_a_bad_client_argument_is_refused(sandbox: seozoom.Sandbox, kwargs: Dict[str, Any], parameter: str) -> None:
    arguments: Dict[str, Any] = {"base_url": sandbox.url, "api_key": "sandbox", "store": "memory", **kwargs}
    with pytest.raises(seozoom.Refused) as refused:
        seozoom.Client(**arguments)
    error = refused.value
    assert error.parameter == parameter
    given = kwargs[parameter]
    assert error.value == (given if isinstance(given, str) else repr(given))
    assert error.value in str(error)
    assert isinstance(error.limit, str) and error.limit and error.limit not in ("", str(error))


def test_refused_values_are_text_and_limits_hold_only_the_limit(sandbox: seozoom.Sandbox, tmp_path: pathlib.Path) -> None:
    # A store that cannot be opened (its directory is a file): a
    # configuration error.
    (tmp_path / "file").write_text("")
    url = f"sqlite:{tmp_path}/file/x.db"
    with pytest.raises(seozoom.Refused) as store:
        seozoom.Client(api_key="sandbox", base_url=sandbox.url, store=url)
    assert store.value.parameter == "store"
    assert store.value.value == url
    assert store.value.limit.startswith("a store that can be used")
    assert store.value.limit != str(store.value)
    # No key: no value at fault.
    with pytest.raises(seozoom.Refused) as key:
        seozoom.Client(api_key="", base_url=sandbox.url, store="memory")
    assert key.value.parameter == "api_key" and key.value.value is None
    assert "SEOZOOM_API_KEY" in key.value.limit
    # The budget: the most the call may cost, as text, and what is left.
    client = seozoom.Client(base_url=sandbox.url, api_key="sandbox", store="memory", budget=5)
    with pytest.raises(seozoom.OverBudget) as over:
        client.keywords.metrics(["a", "b"])
    assert over.value.value == str(over.value.cost) and over.value.cost and over.value.cost > 5
    assert over.value.units_left == 5 and over.value.limit.startswith("5 units left")
    # A parameter of the spec: its wire text.
    with pytest.raises(seozoom.Refused) as limit:
        client.domains.keywords("example.it", "best", 0)
    assert limit.value.value == "0"


def test_a_long_value_is_cut_in_the_message(client: seozoom.Client) -> None:
    long = [f"domain-number-{i}.example" for i in range(150)]
    with pytest.raises(seozoom.Refused) as refused:
        client.domains.keywords(long, "best", 10)  # type: ignore[arg-type]
    message = str(refused.value)
    assert "domain-number-149" not in message and "(150 items)" in message, message
    assert len(message) < 400
    assert len(refused.value.value or "") < 120


def test_help_shows_the_groups_and_the_constructor_arguments() -> None:
    for client in (seozoom.Client, seozoom.AsyncClient):
        text = pydoc.render_doc(client, renderer=pydoc.plaintext)
        for group in client._GROUPS:
            assert re.search(rf"\n \|  {group}\n \|      \S", text), f"{client.__name__}: group {group}"
            assert re.search(rf"{group}: \S", text), f"{client.__name__}: group {group} in the class text"
        for argument in ("api_key", "base_url", "db", "store", "budget", "refresh", "store_fallback", "rate_window", "timeout"):
            assert re.search(rf"\n \|      {argument}: \S", text), f"{client.__name__}: argument {argument}"


def test_a_bad_db_or_since_is_refused(client: seozoom.Client, sandbox: seozoom.Sandbox) -> None:
    with pytest.raises(seozoom.Refused) as db:
        client.keywords.metrics(["mutuo"], db=3)  # type: ignore[arg-type]
    assert db.value.parameter == "db" and db.value.value == "3"
    with pytest.raises(seozoom.Refused) as unknown:
        client.keywords.metrics(["mutuo"], db="us")  # type: ignore[arg-type]
    assert unknown.value.parameter == "db" and unknown.value.value == "us"
    with pytest.raises(seozoom.Refused) as since:
        client.usage(since="2026-01-01")  # type: ignore[arg-type]
    assert since.value.parameter == "since" and since.value.value == "2026-01-01"
    assert sandbox.requests == 0
