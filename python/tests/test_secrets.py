"""The API key is in no repr, str, exception or traceback."""

from __future__ import annotations

import traceback

import pytest

import seozoom

KEY = "sk-live-0123456789abcdef"


def texts(error: BaseException) -> str:
    return "".join(traceback.format_exception(type(error), error, error.__traceback__)) + repr(error)


def test_the_key_is_in_no_repr_or_exception(sandbox: seozoom.Sandbox) -> None:
    client = seozoom.Client(base_url=sandbox.url, api_key=KEY, store="memory")
    shown = [repr(client), str(client), repr(client.keywords), repr(client._core)]
    result = client.keywords.metrics(["mutuo"])
    shown.append(repr(result))
    for call in [
        lambda: client.domains.keywords("example.it", "bypage", 10),
        lambda: seozoom.Client(base_url=sandbox.url + f"?api_key={KEY}", api_key=KEY),
        lambda: seozoom.Client(base_url=f"http://example.com/{KEY}", api_key=KEY),
        lambda: seozoom.Client(base_url=sandbox.url + "/nowhere", api_key=KEY, store="memory").keywords.metrics(["a"]),
        lambda: seozoom.Client(base_url="http://127.0.0.1:9", api_key=KEY, store="memory", timeout=1).keywords.metrics(["a"]),
        lambda: seozoom.Client(
            base_url=sandbox.url, api_key=KEY, store=f"redis://:{KEY}@127.0.0.1:9/0"
        ).keywords.metrics(["a"]),
    ]:
        with pytest.raises(seozoom.Error) as raised:
            call()
        shown.append(texts(raised.value))
        shown.extend(str(getattr(raised.value, a, "")) for a in ("value", "limit", "message"))
    for text in shown:
        assert KEY not in text, text
    async_client = seozoom.AsyncClient(base_url=sandbox.url, api_key=KEY, store="memory")
    assert KEY not in repr(async_client)
