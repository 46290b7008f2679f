"""The sandbox from Python: a context manager, and strict mode."""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request

import seozoom


def per_minute(method: object) -> int:
    found = re.search(r"and (\d+) requests per minute", getattr(method, "__doc__", "") or "")
    assert found, "the docstring gives the rate figure"
    return int(found.group(1))


def test_strict_mode_answers_429_over_the_figure_and_the_client_stays_under_it() -> None:
    figure = per_minute(seozoom.Client._GROUPS["keywords"].metrics)
    with seozoom.Sandbox(strict=True) as sb:
        query = urllib.parse.urlencode({"api_key": "raw", "db": "it", "action": "metrics", "keyword": "a"})
        statuses = []
        for _ in range(figure + 1):
            try:
                with urllib.request.urlopen(f"{sb.url}/api/v2/keywords/?{query}") as answer:
                    statuses.append(answer.status)
            except urllib.error.HTTPError as error:
                statuses.append(error.code)
        assert statuses == [200] * figure + [429]
        assert sb.rate_limited == 1
        # A client on another key holds the figure itself: nothing refused.
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory")
        for i in range(3):
            client.keywords.metrics([f"keyword {i}"])
        assert sb.rate_limited == 1


def test_the_sandbox_stops_when_its_block_ends() -> None:
    with seozoom.Sandbox() as sb:
        url = sb.url
        assert url.startswith("http://127.0.0.1:")
    client = seozoom.Client(base_url=url, api_key="sandbox", store="memory", timeout=2)
    try:
        client.keywords.metrics(["a"])
    except seozoom.TransportError:
        pass
    else:
        raise AssertionError("the sandbox still answered after its block")


def test_the_starting_balance_is_set_and_spent_from() -> None:
    with seozoom.Sandbox(units=10**12) as sb:
        assert sb.units_remaining == 10**12
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory")
        answer = client.keywords.metrics(["a", "b"])
        assert answer.units_used > 0
        assert sb.units_remaining == 10**12 - answer.units_used
    with seozoom.Sandbox(units=0) as sb:
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory")
        try:
            client.keywords.metrics(["a"])
        except seozoom.Error as error:
            assert "units" in str(error).lower(), error
        else:
            raise AssertionError("a sandbox with no units answered")
    try:
        seozoom.Sandbox(units=-5)
    except ValueError as error:
        assert "units = -5" in str(error) and "at least 0" in str(error), error
    else:
        raise AssertionError("a negative starting balance was taken")


def test_a_list_sent_as_repeated_keys_is_refused_and_the_client_joins_lists() -> None:
    with seozoom.Sandbox() as sb:
        query = "api_key=raw&db=it&action=metrics&keyword=a&keyword=b"
        try:
            urllib.request.urlopen(f"{sb.url}/api/v2/keywords/?{query}")
        except urllib.error.HTTPError as error:
            assert error.code == 400
            message = error.read().decode()
            assert "keyword=a|b" in message, message
        else:
            raise AssertionError("repeated list keys were answered")
        # The client sends one `|`-joined value: both keywords are answered.
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory")
        rows = client.keywords.metrics(["a", "b"]).rows
        assert sorted(row["keyword"] for row in rows) == ["a", "b"]
