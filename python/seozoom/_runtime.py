"""The hand-written, generic part of the package: results, the two client
bases, the estimate, the store's usage and the sandbox.

Nothing here names an operation: the generated `_generated` module gives the
clients their groups and methods, each of which calls `_call(group, action,
params, db, max_rows)`, the native module's one entry point.
"""

from __future__ import annotations

import datetime
import os
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Dict,
    Generic,
    List,
    Mapping,
    Optional,
    TypedDict,
    TypeVar,
    Union,
)

from . import _native

if TYPE_CHECKING:
    import pandas  # type: ignore[import-untyped, unused-ignore]

T = TypeVar("T")

#: The environment variable a client reads its key from when given none.
API_KEY_ENV = "SEOZOOM_API_KEY"


class Result(Generic[T]):
    """What a call returns: its rows and what they cost.

    - `rows`: the records (each a `TypedDict` keyed by the Rust field names),
      a list for most operations, a dict keyed by input for the operations
      answered per input;
    - `units_used`: units the service charged (0 from the cache);
    - `units_remaining`: the account's balance as last reported;
    - `from_cache`: the answer came from the store's cache, nothing was sent;
    - `no_data`: the service found nothing ("No data found!");
    - `raw_rows`: the rows the client could not type (what names the row was
      missing or null), as the service sent them: dicts with `index` (their
      place in the answer), `key` (for a map), `error` and `row`.

    Each row's dict also holds the members the spec does not know, under their
    wire names, with their JSON values.
    """

    __slots__ = ("rows", "units_used", "units_remaining", "from_cache", "no_data", "raw_rows", "_record")

    def __init__(
        self,
        rows: T,
        units_used: int,
        units_remaining: int,
        from_cache: bool,
        no_data: bool,
        record: Optional[str] = None,
        raw_rows: Optional[List[Dict[str, Any]]] = None,
    ) -> None:
        self.rows = rows
        self.units_used = units_used
        self.units_remaining = units_remaining
        self.from_cache = from_cache
        self.no_data = no_data
        self.raw_rows: List[Dict[str, Any]] = raw_rows or []
        self._record = record

    def __repr__(self) -> str:
        count = len(self.rows) if isinstance(self.rows, (list, dict)) else 1
        return (
            f"Result({count} rows, units_used={self.units_used}, "
            f"units_remaining={self.units_remaining}, from_cache={self.from_cache}, "
            f"no_data={self.no_data})"
        )

    def to_pandas(self) -> pandas.DataFrame:
        """The rows as a pandas DataFrame, one column per field (the same keys
        as the rows'), in spec order; a month-by-month series (the spec's
        `monthly_volume` fields) stays together, January to December. Rows
        keyed by input get an `input` column first.

        Needs pandas (`pip install pandas`), which the package does not
        depend on.
        """
        try:
            import pandas
        except ImportError:
            raise ImportError("Result.to_pandas() needs pandas: pip install pandas") from None
        from . import _generated

        records = _flatten(self.rows)
        columns = _columns(self._record, records, _generated)
        return pandas.DataFrame.from_records(records, columns=columns)


def _flatten(rows: Any) -> List[Dict[str, Any]]:
    """Rows as a list of flat dicts: a map keyed by input becomes rows with an
    `input` column."""
    if isinstance(rows, dict):
        flat: List[Dict[str, Any]] = []
        for key, value in rows.items():
            for item in value if isinstance(value, list) else [value]:
                flat.append({"input": key, **item})
        return flat
    return list(rows)


def _columns(record: Optional[str], rows: List[Dict[str, Any]], generated: Any) -> List[str]:
    """The columns in the record's key order, its monthly series together in
    calendar order (the spec lists them January first)."""
    typed = getattr(generated, record, None) if record else None
    if typed is not None:
        keys = list(typed.__annotations__)
    elif rows:
        keys = list(rows[0])
    else:
        keys = []
    if rows and "input" in rows[0]:
        keys = ["input", *[k for k in keys if k != "input"]]
    months = list(generated._MONTHLY.get(record, ())) if record else []
    if not months:
        return keys
    first = min(keys.index(m) for m in months if m in keys)
    rest = [k for k in keys if k not in months]
    before = [k for k in rest if keys.index(k) < first]
    after = [k for k in rest if keys.index(k) > first]
    return before + months + after


class Estimate(TypedDict):
    """The cost range of a call or job before it is sent."""

    min: int
    """The least it may cost."""
    max: Optional[int]
    """The most it may cost; `None` when unbounded (a paged job without a cap)."""
    unknown: bool
    """No figure exists: the spec prints no cost and nothing was learned."""
    basis: str
    """`spec` (the spec's figures) or `observed` (what the store's ledger learned)."""
    learned_per_row: Optional[int]
    """Units a row, as the ledger learned them, when it has."""


class OperationUsage(TypedDict):
    """What the store's ledger holds for one operation."""

    group: str
    action: str
    calls: int
    """Calls that reached the service."""
    cache_hits: int
    """Calls answered from the cache."""
    units_used: int
    units_saved: int
    """Units the cache hits saved."""
    rows: int


class Usage(TypedDict):
    """The store's ledger for the client's key, per operation."""

    operations: List[OperationUsage]
    units_remaining: Optional[int]
    """The balance the service last reported on the key."""


class DriftObservation(TypedDict):
    """One thing the service sent that the spec does not say, for one
    operation, summed over the calls that saw it."""

    origin: str
    group: str
    action: str
    record: str
    """The spec's record it was met in (empty for the envelope, a status, a charge)."""
    member: str
    """The member's wire name (`HTTP 418` for a status)."""
    kind: str
    """`unknown_member`, `missing`, `null`, `unexpected_type`, `unlisted_value`,
    `unnamed_status` or `charge`."""
    count: int
    rows: int
    """The rows of the answers it was met in."""
    first_ms: int
    last_ms: int
    types: List[str]
    """The JSON types its values had."""
    example: str
    """The first value met, as JSON text cut to 80 characters."""


class Drift(TypedDict):
    """The drift the store recorded for the client's key and origin."""

    origin: str
    observations: List[DriftObservation]


def default_store() -> str:
    """The store a client uses when given none: the command line's SQLite file
    (`$XDG_DATA_HOME/seozoom/store.sqlite3`), so that a notebook, a cron job
    running `seozoom` and the MCP server on one key share the cache, the
    ledger, budgets and rate limits. Raises `Refused` where the system knows no
    data directory for the user (pass `store=` then)."""
    return _native.default_store()


def decode(group: str, action: str, body: bytes) -> Result[Any]:
    """A body the service sent for an operation (a saved answer, say),
    decoded by the Rust decoders into a `Result`, as a call's would be.
    Raises `DecodeError` or `ServiceError` as a call would."""
    result: Result[Any] = _native.decode(group, action, body)
    return result


class ClientBase:
    """What both clients share: configuration, the estimate and the usage.

    Args:
        api_key: the API key; default `SEOZOOM_API_KEY`. It is kept by the
            native client only, and shown by no `repr`, `str` or exception.
        base_url: the service address (a sandbox's `url` in tests).
        db: the default database of every call.
        store: where the cache, ledger, budgets and shared rate limits live:
            `sqlite:PATH`, `redis://HOST:PORT/N`, `memory` or `none`, as the
            command line's `--store`; default `default_store()`.
        budget: units this client may spend (`500`), or the key's budget per
            UTC day or month across every process on the store (`"500/day"`,
            `"500/month"`).
        refresh: send every call even when the cache has a fresh answer.
        store_fallback: go on without the store if it fails.
        rate_window: seconds the spec's requests-per-minute figures apply to
            (default 60).
        timeout: seconds allowed for one attempt of a call (default 60).
    """

    _GROUPS: ClassVar[Mapping[str, Any]] = {}

    def __init__(
        self,
        api_key: Optional[str] = None,
        *,
        base_url: Optional[str] = None,
        db: Optional[str] = None,
        store: Optional[str] = None,
        budget: Union[int, str, None] = None,
        refresh: bool = False,
        store_fallback: bool = False,
        rate_window: Optional[float] = None,
        timeout: Optional[float] = None,
    ) -> None:
        if api_key is None:
            api_key = os.environ.get(API_KEY_ENV)
        self._core = _native.Core(
            api_key, base_url, db, store, budget, refresh, store_fallback, rate_window, timeout
        )
        for name, group in self._GROUPS.items():
            setattr(self, name, group(self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._core!r})"

    def _call(
        self,
        group: str,
        action: str,
        params: Dict[str, Any],
        db: Optional[str],
        max_rows: Optional[int],
    ) -> Any:
        return self._core.call(group, action, params, db, max_rows)

    def estimate(
        self,
        group: str,
        action: str,
        /,
        *,
        db: Optional[str] = None,
        max_rows: Optional[int] = None,
        **params: Any,
    ) -> Estimate:
        """The cost range of a call (or of its batched or paged job) before
        it is sent, from the spec's figures, or from what the store's ledger
        learned when the spec prints none. The parameters are those of the
        operation's method; invalid ones raise `Refused`.

        >>> client.estimate("keywords", "metrics", keyword=["a", "b"])  # doctest: +SKIP
        """
        estimate: Estimate = self._core.estimate(group, action, params, db, max_rows)
        return estimate

    def usage(self, since: Optional[datetime.date] = None) -> Usage:
        """What the store's ledger holds for the key, per operation, from
        `since` (a UTC day) on: calls, cache hits, units used and saved,
        across every process sharing the store (as `seozoom usage`)."""
        usage: Usage = self._core.usage(since)
        return usage

    def drift(self) -> Drift:
        """What the service at the client's base URL sent that the spec does
        not say, as the store recorded it for the key (every call through the
        store, by any process on it), per operation: the report `seozoom drift
        --format json` prints. Nothing is sent."""
        drift: Drift = self._core.drift(False)
        return drift

    def drift_patch(self) -> str:
        """The drift as a patch of the spec, in its own TOML format (as
        `seozoom drift --patch`), for `seozoom-codegen apply`."""
        patch: str = self._core.drift(True)
        return patch

    @property
    def store(self) -> str:
        """The store's URL, any password hidden."""
        store: str = self._core.store
        return store


class AsyncClientBase(ClientBase):
    """What the async client adds: every call returns an awaitable, and
    concurrent calls share the client's rate limits, budget and store.

    `estimate()` and `usage()` stay plain methods: they send nothing and
    only read the store, briefly.
    """

    def _call(
        self,
        group: str,
        action: str,
        params: Dict[str, Any],
        db: Optional[str],
        max_rows: Optional[int],
    ) -> Any:
        return self._core.call_async(group, action, params, db, max_rows)


class _Group:
    """A group of operations of a client (generated subclasses)."""

    __slots__ = ("_client",)

    def __init__(self, client: ClientBase) -> None:
        self._client = client

    def _call(
        self,
        group: str,
        action: str,
        params: Dict[str, Any],
        db: Optional[str],
        max_rows: Optional[int],
    ) -> Any:
        return self._client._call(group, action, params, db, max_rows)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self._client!r}>"


class Sandbox:
    """The offline stand-in of the service on a loopback port: every
    operation answered with deterministic data shaped by the spec, any key
    accepted, a balance of units charged as the service would.

    >>> with Sandbox() as sb:  # doctest: +SKIP
    ...     client = Client(base_url=sb.url, api_key="sandbox", store="memory")

    Args:
        strict: answer 429 over the spec's requests-per-minute figures.
        rate_window: seconds those figures apply to in strict mode (give the
            client the same `rate_window`).
        units: the starting balance.
        paged_rows: rows every paged query has.
        fail_on: `{parameter: value}` (wire names): every request carrying that
            value, or that list item, is answered HTTP 500.
        truncate_on: the same, answered with the body cut short.
        drift: answer as a service that moved on from its spec: some rows
            carry a member the spec does not know (`drift_metric`) or an enum
            value it does not list (`unlisted`), a metric null or a number as
            a string, and the first row of each answer leaves out what names
            it (so that `client.drift()` has something to report).
    """

    def __init__(
        self,
        *,
        strict: bool = False,
        rate_window: Optional[float] = None,
        units: Optional[int] = None,
        paged_rows: Optional[int] = None,
        fail_on: Optional[Dict[str, str]] = None,
        truncate_on: Optional[Dict[str, str]] = None,
        drift: bool = False,
    ) -> None:
        self._native = _native.Sandbox(
            strict, rate_window, units, paged_rows, fail_on, truncate_on, drift
        )

    @property
    def url(self) -> str:
        """`http://127.0.0.1:PORT`: the `base_url` to give a client."""
        return self._native.url

    @property
    def requests(self) -> int:
        """HTTP requests received so far."""
        return self._native.requests

    @property
    def rate_limited(self) -> int:
        """Requests answered 429 for going over a rate figure (strict mode)."""
        return self._native.rate_limited

    @property
    def units_remaining(self) -> int:
        """Units left on the sandbox's account."""
        return self._native.units_remaining

    def close(self) -> None:
        """Stop serving."""
        self._native.close()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Sandbox(url={self.url!r})"


__all__ = [
    "API_KEY_ENV",
    "AsyncClientBase",
    "ClientBase",
    "Estimate",
    "OperationUsage",
    "Result",
    "Sandbox",
    "Usage",
    "decode",
    "default_store",
]

