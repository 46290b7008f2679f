"""`seozoom.decode`: a body the service sent, decoded by the Rust decoders
into the `Result` a call gives for it."""

from __future__ import annotations

import urllib.parse
import urllib.request

import pytest

import seozoom


def body(sb: seozoom.Sandbox, group: str, query: dict[str, object]) -> bytes:
    url = f"{sb.url}/api/v2/{group}/?" + urllib.parse.urlencode({"api_key": "sandbox", **query})
    with urllib.request.urlopen(url) as answer:
        raw: bytes = answer.read()
    return raw


def test_a_decoded_body_gives_the_rows_and_units_of_the_call(sandbox: seozoom.Sandbox) -> None:
    query = {"db": "it", "action": "keywords", "domain": "example.it", "type": "best", "offset": 0, "limit": 50}
    decoded = seozoom.decode("domains", "keywords", body(sandbox, "domains", query))
    client = seozoom.Client(base_url=sandbox.url, api_key="sandbox", store="none")
    called = client.domains.keywords("example.it", "best", 50)
    assert len(decoded.rows) == 50
    assert decoded.rows == called.rows
    assert decoded.units_used == called.units_used > 0
    assert not decoded.from_cache and not decoded.no_data


def test_a_body_of_another_shape_is_a_decode_error() -> None:
    broken = b'{"response": "mutuo", "ResultRows": 1, "UnitsUsed": 1, "UnitsRemaining": 9}'
    with pytest.raises(seozoom.DecodeError):
        seozoom.decode("domains", "keywords", broken)


def test_unknown_members_are_in_the_rows_and_untyped_rows_are_kept_raw() -> None:
    body = (
        b'{"ResultRows": 3, "UnitsUsed": 30, "UnitsRemaining": 9, "response": ['
        b'{"keyword": "a", "search_volume": "12", "KD": null, "brand_new_metric": 7.5, "search_intent": "informational"},'
        b'{"search_volume": 3},'
        b'{"keyword": "c", "search_intent": "informational,commercial"}]}'
    )
    decoded = seozoom.decode("keywords", "metrics", body)
    assert [row["keyword"] for row in decoded.rows] == ["a", "c"]
    first = decoded.rows[0]
    assert first["search_volume"] == 12, "a number sent as a string is read"
    assert first["keyword_difficulty"] is None
    assert first["brand_new_metric"] == 7.5, "kept under its wire name"  # type: ignore[typeddict-item]
    assert decoded.rows[1]["search_intent"] == ["informational", "commercial"]
    assert len(decoded.raw_rows) == 1
    raw = decoded.raw_rows[0]
    assert raw["index"] == 1 and raw["row"] == {"search_volume": 3}
    assert "keyword" in raw["error"]
