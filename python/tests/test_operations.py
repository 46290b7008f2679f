"""Every operation of the spec, called against the sandbox through its typed
method, each row checked against its TypedDict."""

from __future__ import annotations

import datetime
import inspect
import typing
from typing import Any, Dict, List, Tuple

import pytest

import seozoom
from seozoom import _generated

# A value per parameter type; the sandbox answers any input. The types come
# from the generated signatures, so an action added to the spec is called too.
SAMPLES: Dict[str, Any] = {
    "str": "example.it",
    "int": 10,
    "datetime.date": datetime.date.today() - datetime.timedelta(days=3),
}


def methods() -> List[Tuple[str, str]]:
    found = []
    for group_attr, group_class in seozoom.Client._GROUPS.items():
        for name, member in vars(group_class).items():
            if callable(member) and not name.startswith("_"):
                found.append((group_attr, name))
    return sorted(found)


def sample(annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return typing.get_args(annotation)[0]
    if origin is not None and origin.__name__ == "Sequence":
        return [sample(typing.get_args(annotation)[0]), "mutuo"]
    name = getattr(annotation, "__qualname__", str(annotation))
    if annotation is datetime.date:
        name = "datetime.date"
    return SAMPLES[name]


def matches(value: Any, expected: Any) -> bool:
    """Whether a value is of a (TypedDict field's) type."""
    origin = typing.get_origin(expected)
    args = typing.get_args(expected)
    if origin is typing.Union:
        return any(matches(value, arg) for arg in args)
    if origin is typing.Literal:
        return value in args
    if origin in (list, List):
        return isinstance(value, list) and all(matches(v, args[0]) for v in value)
    if origin in (dict, Dict):
        return isinstance(value, dict) and all(
            matches(k, args[0]) and matches(v, args[1]) for k, v in value.items()
        )
    if expected is type(None):
        return value is None
    if typing.is_typeddict(expected):
        return row_matches(value, expected)
    if expected is float:
        return isinstance(value, float)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if expected is datetime.date:
        return type(value) is datetime.date
    return isinstance(value, expected)


def row_matches(row: Any, typed: Any) -> bool:
    hints = typing.get_type_hints(typed)
    assert isinstance(row, dict), row
    assert list(row) == list(hints), (typed.__name__, list(row), list(hints))
    for key, expected in hints.items():
        assert matches(row[key], expected), (typed.__name__, key, row[key], expected)
    return True


def call(client: seozoom.Client, group: str, method: str) -> Tuple[Any, Dict[str, Any]]:
    """A method called with a sample of each required parameter: its result
    and its type hints."""
    bound = getattr(getattr(client, group), method)
    hints = typing.get_type_hints(bound, vars(_generated))
    kwargs = {}
    for name, parameter in inspect.signature(bound).parameters.items():
        if parameter.default is inspect.Parameter.empty:
            kwargs[name] = sample(hints[name])
    if group == "domains" and method == "keywords":
        kwargs["keyword_type"] = "best"
    return bound(**kwargs), hints


@pytest.mark.parametrize("group,method", methods())
def test_every_operation_answers_rows_of_its_typed_dict(
    client: seozoom.Client, group: str, method: str
) -> None:
    result, hints = call(client, group, method)
    assert isinstance(result, seozoom.Result)
    assert result.units_used >= 0 and not result.from_cache
    assert matches(result.rows, hints["return"].__args__[0]), result.rows
    assert result.rows, f"{group} {method}: the sandbox answered no rows"


def test_a_serp_is_a_list_of_position_and_url(client: seozoom.Client) -> None:
    group = next(g for g in seozoom.Client._GROUPS if hasattr(getattr(client, g), "serp"))
    serps = getattr(client, group).serp(["mutuo"]).rows
    results = serps["mutuo"]
    assert results and [r["position"] for r in results] == list(range(1, len(results) + 1))
    assert all(set(r) == {"position", "url"} and r["url"].startswith("http") for r in results)


def test_a_map_keeps_the_order_of_its_inputs(client: seozoom.Client) -> None:
    """A map keyed by input comes back in input order (it came back sorted)."""
    group = next(g for g in seozoom.Client._GROUPS if hasattr(getattr(client, g), "serp"))
    serps = getattr(client, group).serp(["zeta uno", "alpha due", "mid tre"]).rows
    assert list(serps) == ["zeta uno", "alpha due", "mid tre"], list(serps)


def values(rows: Any) -> List[Any]:
    """Every value in rows, nested ones too."""
    found: List[Any] = []
    for item in rows.values() if isinstance(rows, dict) else rows:
        found.append(item)
        if isinstance(item, (dict, list)):
            found.extend(values(item))
    return found


def test_the_rows_hold_each_typed_kind_the_records_declare(client: seozoom.Client) -> None:
    # The row checks above pass on whatever the rows hold; this one makes
    # sure that across the operations the typed values are really there:
    # booleans, lists of text, dates and SERP results, not text.
    seen = set()
    for group, method in methods():
        result, _ = call(client, group, method)
        for value in values(result.rows):
            if isinstance(value, dict) and set(value) == {"position", "url"}:
                seen.add("serp result")
            elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                seen.add("list of str")
            else:
                seen.add(type(value).__name__)
    assert {"bool", "date", "int", "float", "str", "list of str", "serp result"} <= seen, seen
