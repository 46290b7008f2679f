"""`Result.to_pandas()`: each column in the dtype of its field's type, from
the record types the spec gives, an empty result too."""

from __future__ import annotations

import datetime
import typing
from typing import Any, Dict

import pytest

import seozoom

pandas = pytest.importorskip("pandas")


def expected_dtype(hint: Any) -> str:
    """The dtype a field's type hint stands for (by dtype kind)."""
    args = typing.get_args(hint)
    optional = type(None) in args
    if optional:
        hint = next(a for a in args if a is not type(None))
    if hint is bool:
        return "boolean" if optional else "bool"
    if hint is int:
        return "Int64" if optional else "int64"
    if hint is float:
        return "float64"
    if hint in (datetime.date, datetime.datetime):
        return "datetime64"
    if hint is datetime.time:
        return "datetime64"
    return "object-or-text"


def assert_dtypes(frame: Any, record: Any) -> None:
    hints: Dict[str, Any] = typing.get_type_hints(record)
    for column, hint in hints.items():
        dtype = frame[column].dtype
        want = expected_dtype(hint)
        if want == "datetime64":
            assert str(dtype).startswith(want), (column, dtype)
        elif want == "object-or-text":
            assert str(dtype) in ("object", "str", "string"), (column, dtype)
        else:
            assert str(dtype) == want, (column, dtype)


def test_dates_times_and_optional_booleans_have_their_dtypes(client: seozoom.Client) -> None:
    projects = client.projects.list().to_pandas()
    assert len(projects) > 0
    assert_dtypes(projects, seozoom.Project)
    assert str(projects["project_last_update"].dtype).startswith("datetime64")
    assert str(projects["project_last_update_time"].dtype).startswith("datetime64")
    first = client.projects.list().rows[0]
    time = projects["project_last_update_time"][0]
    assert time.date() == datetime.date(1970, 1, 1)
    assert projects["project_last_update_time"].dt.time[0] == first["project_last_update_time"]
    metrics = client.keywords.metrics(["mutuo", "scarpe running"]).to_pandas()
    assert str(metrics["has_ai_overview"].dtype) == "boolean"
    assert_dtypes(metrics, seozoom.KeywordMetrics)


def test_an_empty_result_has_the_schema_columns_and_dtypes(client: seozoom.Client) -> None:
    result = client.keywords.metrics(["zzz nothing"])
    assert result.rows == [] and result.no_data
    frame = result.to_pandas()
    assert len(frame) == 0
    assert list(frame.columns)[:1] == ["keyword"]
    assert set(frame.columns) == set(typing.get_type_hints(seozoom.KeywordMetrics))
    assert_dtypes(frame, seozoom.KeywordMetrics)
