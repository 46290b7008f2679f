"""A loopback server of this test's own that drifts from the spec in ways the
built-in `--drift` sandbox does not (the envelope's figures, its `response`,
members it does not know, values of another type, a nested list sent as an
object): each call gives its rows as sent, its figures (`None` where the
answer did not say), its envelope's extras, and the same call again is
answered from the store, sending nothing."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, Iterator

import pytest

import seozoom


class Drifting:
    """Answers every request with one body, and counts the requests."""

    def __init__(self, body: str) -> None:
        self.requests = 0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
                owner.requests += 1
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._http = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._http.server_address[1]}"
        threading.Thread(target=self._http.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._http.shutdown()
        self._http.server_close()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    servers: list[Drifting] = []

    def start(body: str) -> tuple[Drifting, seozoom.Client]:
        server = Drifting(body)
        servers.append(server)
        store = f"sqlite:{tmp_path / f'store{len(servers)}.sqlite3'}"
        return server, seozoom.Client(base_url=server.url, api_key="test-key-17", store=store)

    yield start
    for server in servers:
        server.close()


def row(keyword: str, extra: str = "") -> str:
    return (
        f'{{"keyword":"{keyword}",{extra}"lang":"it","google_ext":".it","localcode":"",'
        '"search_volume":10,"search_intent":""}'
    )


ROWS = f"[{row('mutuo')},{row('casa')}]"
BY_KEY = f'{{"mutuo":{row("mutuo")},"casa":{row("casa")}}}'

ENVELOPES = [
    # (figures before `response`, response, keywords, units_used, units_remaining)
    ('"ResultRows":"2","UnitsUsed":20,"UnitsRemaining":900,', ROWS, ["mutuo", "casa"], 20, 900),
    ('"ResultRows":2,"UnitsUsed":"20","UnitsRemaining":900.0,', ROWS, ["mutuo", "casa"], 20, 900),
    ('"ResultRows":2,"UnitsUsed":20,', ROWS, ["mutuo", "casa"], 20, None),
    ('"ResultRows":2,"UnitsUsed":20,"UnitsRemaining":null,', ROWS, ["mutuo", "casa"], 20, None),
    ('"UnitsUsed":20,"UnitsRemaining":900,', ROWS, ["mutuo", "casa"], 20, 900),
    ('"ResultRows":0,"UnitsUsed":20,"UnitsRemaining":900,', "null", [], 20, 900),
    ('"ResultRows":2,"UnitsUsed":20,"UnitsRemaining":900,', BY_KEY, ["mutuo", "casa"], 20, 900),
]


@pytest.mark.parametrize("figures, response, keywords, used, remaining", ENVELOPES)
def test_a_drifting_envelope_gives_its_rows_and_is_bought_once(
    serve: Any, figures: str, response: str, keywords: list[str], used: int, remaining: Any
) -> None:
    server, client = serve(f'{{{figures}"response":{response}}}')
    first = client.keywords.metrics(["mutuo", "casa"])
    assert [r["keyword"] for r in first.rows] == keywords
    assert (first.units_used, first.units_remaining) == (used, remaining)
    second = client.keywords.metrics(["mutuo", "casa"])
    assert server.requests == 1, "sent again"
    assert second.from_cache and second.rows == first.rows
    assert [u["units_used"] for u in client.usage()["operations"]] == [used]


def test_members_of_the_envelope_are_given_on_the_result(serve: Any) -> None:
    server, client = serve(f'{{"ResultRows":1,"Warnings":["url 2 normalised"],"UnitsUsed":10,"UnitsRemaining":90,"response":[{row("mutuo")}]}}')
    result = client.keywords.metrics(["mutuo"])
    assert result.extras == {"Warnings": ["url 2 normalised"]}
    drift = client.drift()
    assert any(o["member"] == "Warnings" and o["kind"] == "unknown_member" for o in drift["observations"]), drift


def test_values_of_another_type_are_on_the_row_as_sent(serve: Any) -> None:
    body = (
        '{"ResultRows":2,"UnitsUsed":60,"UnitsRemaining":900,"response":['
        '{"domain":"example.it","competitor":[{"domain":"rivale.it","za":55.5,"1a3":"1.234","4a6":"14800"}]},'
        '{"domain":"other.it","competitor":{"domain":"odd.it","za":12}}]}'
    )
    server, client = serve(body)
    for _ in range(2):
        result = client.domains.competitors(["example.it", "other.it"], 1)
        competitor: Any = result.rows[0]["competitors"][0]
        assert (competitor["za"], competitor["positions_1_to_3"], competitor["positions_4_to_6"]) == (55.5, "1.234", 14800)
        assert result.rows[1]["competitors"] == {"domain": "odd.it", "za": 12}
    assert server.requests == 1


def test_a_paged_job_whose_counts_are_strings_gives_every_row(serve: Any) -> None:
    rows = ",".join(f'{{"keyword":"k{i}","position":{i},"search_volume":1,"url":"https://a.it/"}}' for i in range(3))
    server, client = serve(f'{{"ResultRows":"3","UnitsUsed":"30","UnitsRemaining":"900","response":[{rows}]}}')
    result = client.domains.keywords("example.it", "best", 10, max_rows=10)
    assert [r["keyword"] for r in result.rows] == ["k0", "k1", "k2"]
    assert result.units_used == 30
    client.domains.keywords("example.it", "best", 10, max_rows=10)
    assert server.requests == 1


def test_a_stored_answer_this_build_cannot_read_is_not_bought_again(serve: Any) -> None:
    server, client = serve('{"ResultRows":1,"UnitsUsed":10,"UnitsRemaining":90,"response":"mutuo: 1 keyword"}')
    with pytest.raises(seozoom.DecodeError):
        client.keywords.metrics(["mutuo"])
    with pytest.raises(seozoom.DecodeError) as again:
        client.keywords.metrics(["mutuo"])
    assert server.requests == 1
    assert "refresh=True" in str(again.value)
