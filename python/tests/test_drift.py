"""A service that drifted from its spec (`Sandbox(drift=True)`), seen from
Python: rows keep the members the spec does not know, a row that cannot be
typed is kept raw, and `client.drift()` reports what the store recorded."""

from __future__ import annotations

import seozoom


def test_unknown_members_raw_rows_and_the_drift_report() -> None:
    with seozoom.Sandbox(drift=True) as sb:
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory")
        assert client.drift()["observations"] == []
        result = client.keywords.metrics(["mutuo", "prestito", "tasso"])
        # The first row left out what names it: kept raw, with its index.
        assert len(result.raw_rows) == 1, result.raw_rows
        raw = result.raw_rows[0]
        assert raw["index"] == 0
        assert "keyword" in raw["error"]
        assert isinstance(raw["row"], dict)
        # The typed rows: the even one (the third sent) keeps the unknown member.
        rows = result.rows
        assert len(rows) == 2
        assert "drift_metric" not in rows[0]
        assert isinstance(rows[1]["drift_metric"], float)

        report = client.drift()
        assert report["origin"] == sb.url.rstrip("/")
        seen = {(o["member"], o["kind"]) for o in report["observations"]}
        assert ("drift_metric", "unknown_member") in seen, seen
        assert ("keyword", "missing") in seen, seen
        unknown = next(o for o in report["observations"] if o["member"] == "drift_metric")
        assert (unknown["group"], unknown["action"]) == ("keywords", "metrics")
        assert (unknown["count"], unknown["rows"]) == (2, 3)
        assert unknown["types"] == ["number"]
        assert len(unknown["example"]) <= 80

        patch = client.drift_patch()
        assert 'wire = "drift_metric"' in patch
        assert 'source = "observed"' in patch
        assert "sandbox" not in patch, "the key is in no report"
