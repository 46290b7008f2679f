"""A result's figures are exact: `from_cache` only when nothing was sent,
`cached_items` and `cached_requests` as the runner counts them,
`units_remaining` `None` when the service did not say, `no_data` the same
fresh or cached, and rows keyed by input in input order."""

from __future__ import annotations

import seozoom


def test_from_cache_is_true_only_when_nothing_was_sent(client: seozoom.Client, sandbox: seozoom.Sandbox) -> None:
    first = client.keywords.metrics(["mutuo"])
    assert not first.from_cache and first.cached_items == 0 and first.cached_requests == 0
    mixed = client.keywords.metrics(["mutuo", "brand new kw"])
    assert sandbox.requests == 2
    assert not mixed.from_cache, "one keyword was sent"
    assert mixed.cached_items == 1 and mixed.units_used == 10
    assert [row["keyword"] for row in mixed.rows] == ["mutuo", "brand new kw"]
    again = client.keywords.metrics(["mutuo", "brand new kw"])
    assert sandbox.requests == 2
    assert again.from_cache and again.units_used == 0
    assert again.cached_items + again.cached_requests > 0


def test_units_remaining_is_none_when_the_service_did_not_say(sandbox: seozoom.Sandbox) -> None:
    client = seozoom.Client(base_url=sandbox.url, api_key="sandbox", store="memory")
    nothing = client.keywords.metrics(["zzz nothing"])
    assert nothing.no_data and nothing.rows == []
    assert nothing.units_remaining is None, "a no-data answer reports no balance"
    said = client.keywords.metrics(["mutuo"])
    assert said.units_remaining == sandbox.units_remaining


def test_no_data_is_the_same_fresh_or_cached(client: seozoom.Client, sandbox: seozoom.Sandbox) -> None:
    fresh = client.keywords.metrics(["zzz one"])
    assert fresh.no_data and not fresh.from_cache
    # A batch that found one keyword and not the other: the cache answers
    # the other alone, and says it found nothing, as the service did.
    client.keywords.metrics(["zzz two", "mutuo"])
    sent = sandbox.requests
    cached = client.keywords.metrics(["zzz two"])
    assert cached.from_cache and sandbox.requests == sent
    assert cached.no_data and cached.rows == []


def test_rows_keyed_by_input_keep_the_input_order(client: seozoom.Client) -> None:
    group = next(g for g in seozoom.Client._GROUPS if hasattr(getattr(client, g), "serp"))
    inputs = ["zeta", "alpha", "mid", "beta"]
    serps = getattr(client, group).serp(inputs)
    assert list(serps.rows) == inputs
    again = getattr(client, group).serp(inputs)
    assert again.from_cache and list(again.rows) == inputs
