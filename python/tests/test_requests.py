"""What reaches the wire: refusals send nothing, long lists are batched, a
list is `|`-joined, and the same call twice is sent once."""

from __future__ import annotations

import http.server
import threading
import urllib.parse
import urllib.request
from typing import Iterator, List

import pytest

import seozoom


class Recorder:
    """A loopback server in front of the sandbox: it records each query it
    forwards, so a test sees exactly what the client sent."""

    def __init__(self, upstream: str) -> None:
        self.queries: List[dict[str, list[str]]] = []
        self.upstream = upstream
        recorder = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
                recorder.queries.append(urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query))
                status, body = recorder.forward(self.path)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def forward(self, path: str) -> tuple[int, bytes]:
        """The upstream's answer to `path`: status and body."""
        try:
            with urllib.request.urlopen(self.upstream + path) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def recorder(sandbox: seozoom.Sandbox) -> Iterator[Recorder]:
    recorder = Recorder(sandbox.url)
    yield recorder
    recorder.close()


def test_150_keywords_are_a_job_of_two_requests(
    client: seozoom.Client, sandbox: seozoom.Sandbox
) -> None:
    keywords = [f"keyword {i}" for i in range(150)]
    result = client.keywords.metrics(keywords)
    assert sandbox.requests == 2
    assert [row["keyword"] for row in result.rows] == keywords


@pytest.mark.parametrize(
    "kwargs,parameter",
    [
        ({"keyword_type": "bypage", "limit": 10, "page": 9}, "page"),
        ({"keyword_type": "best", "limit": 0}, "limit"),
        ({"keyword_type": "bypage", "limit": 10}, "page"),
    ],
)
def test_refusals_send_nothing_and_name_the_parameter(
    client: seozoom.Client, sandbox: seozoom.Sandbox, kwargs: dict, parameter: str
) -> None:
    with pytest.raises(seozoom.Refused) as refused:
        client.domains.keywords("example.it", **kwargs)
    assert refused.value.parameter == parameter
    assert f"`{parameter}`" in str(refused.value)
    assert refused.value.limit
    assert sandbox.requests == 0


def test_a_wrong_type_is_refused_before_sending(
    client: seozoom.Client, sandbox: seozoom.Sandbox
) -> None:
    with pytest.raises(seozoom.Refused) as refused:
        client.domains.keywords("example.it", "best", True)  # type: ignore[arg-type]
    assert refused.value.parameter == "limit"
    assert sandbox.requests == 0


def test_a_list_reaches_the_wire_pipe_joined_and_the_same_call_is_sent_once(
    recorder: Recorder,
) -> None:
    client = seozoom.Client(base_url=recorder.url, api_key="sandbox", store="memory")
    first = client.keywords.metrics(["scarpe running", "mutuo"])
    second = client.keywords.metrics(["scarpe running", "mutuo"])
    assert len(recorder.queries) == 1
    assert recorder.queries[0]["keyword"] == ["scarpe running|mutuo"]
    assert not first.from_cache and first.units_used > 0
    assert second.from_cache and second.units_used == 0
    assert second.rows == first.rows


def test_max_rows_pages_and_the_estimate_covers_the_job(
    client: seozoom.Client, sandbox: seozoom.Sandbox
) -> None:
    estimate = client.estimate(
        "domains", "keywords", domain="example.it", keyword_type="best", limit=10, max_rows=25
    )
    result = client.domains.keywords("example.it", "best", 10, max_rows=25)
    assert len(result.rows) <= 25 and sandbox.requests == 3
    assert estimate["max"] is not None and estimate["min"] <= result.units_used <= estimate["max"]


def test_a_budget_refuses_a_job_that_does_not_fit(sandbox: seozoom.Sandbox) -> None:
    client = seozoom.Client(base_url=sandbox.url, api_key="sandbox", store="memory", budget=5)
    with pytest.raises(seozoom.OverBudget) as over:
        client.keywords.metrics(["a", "b"])
    assert isinstance(over.value, seozoom.Refused) and over.value.units_left == 5
    assert sandbox.requests == 0
    with pytest.raises(seozoom.Refused) as bad:
        seozoom.Client(base_url=sandbox.url, api_key="sandbox", budget="5/week")
    assert bad.value.parameter == "budget"


def test_a_budget_per_day_counts_the_store(sandbox: seozoom.Sandbox, tmp_path) -> None:
    store = f"sqlite:{tmp_path / 'store.sqlite3'}"
    client = seozoom.Client(base_url=sandbox.url, api_key="sandbox", store=store, budget="30/day")
    client.keywords.metrics(["a", "b"])
    usage = client.usage()
    assert sum(op["units_used"] for op in usage["operations"]) == 20
    with pytest.raises(seozoom.OverBudget):
        client.keywords.metrics(["c", "d"])


def test_a_service_error_has_its_status(sandbox: seozoom.Sandbox) -> None:
    # The sandbox answers an unknown action as the service does: an error.
    client = seozoom.Client(base_url=sandbox.url + "/nowhere", api_key="sandbox", store="memory")
    with pytest.raises(seozoom.ServiceError) as error:
        client.keywords.metrics(["a"])
    assert error.value.status >= 400


def test_a_transport_error(sandbox: seozoom.Sandbox) -> None:
    url = sandbox.url
    sandbox.close()
    client = seozoom.Client(base_url=url, api_key="sandbox", store="memory", timeout=2)
    with pytest.raises(seozoom.TransportError):
        client.keywords.metrics(["a"])


def test_to_pandas_has_the_monthly_volumes_in_calendar_order(client: seozoom.Client) -> None:
    pandas = pytest.importorskip("pandas")
    frame = client.keywords.metrics(["mutuo", "pasta"]).to_pandas()
    assert isinstance(frame, pandas.DataFrame) and len(frame) == 2
    months = [c for c in frame.columns if c in seozoom._generated._MONTHLY["KeywordMetrics"]]
    assert months == ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    start = list(frame.columns).index("jan")
    assert list(frame.columns)[start : start + 12] == months
    assert frame["keyword"].tolist() == ["mutuo", "pasta"]


def test_a_batched_job_that_fails_part_way_is_partial_with_the_rows_paid_for() -> None:
    keywords = [f"keyword {i}" for i in range(150)]
    keywords[120] = "boom"
    with seozoom.Sandbox(fail_on={"keyword": "boom"}) as sb:
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory")
        with pytest.raises(seozoom.Partial) as stopped:
            client.keywords.metrics(keywords)
    partial = stopped.value
    assert [row["keyword"] for row in partial.result.rows] == keywords[:100]
    assert partial.result.units_used == 10 * 100
    assert partial.missing == {"keyword": keywords[100:]}
    assert isinstance(partial.__cause__, seozoom.ServiceError)
    assert partial.__cause__.status == 500


def test_a_body_cut_short_is_a_decode_error_naming_the_operation() -> None:
    with seozoom.Sandbox(truncate_on={"keyword": "cut"}) as sb:
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory")
        with pytest.raises(seozoom.DecodeError) as error:
            client.keywords.metrics(["cut"])
    assert error.value.operation == "keywords metrics"
    assert error.value.field
