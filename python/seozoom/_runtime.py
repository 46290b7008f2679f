"""The hand-written, generic part of the package: results, the two client
bases, the estimate, the store's usage and the sandbox.

Nothing here names an operation: the generated `_generated` module gives the
clients their groups and methods, each of which calls `_call(group, action,
params, db, max_rows)`, the native module's one entry point.
"""

from __future__ import annotations

import datetime
import inspect
import os
import typing
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Dict,
    Generic,
    List,
    Literal,
    Mapping,
    Optional,
    Tuple,
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
    """What a call returns: its rows and the exact figures of what it did.

    - `rows`: the records (each a `TypedDict` keyed by the Rust field names),
      a list for most operations, a dict keyed by input (in input order) for
      the operations answered per input;
    - `units_used`: units the service charged for this call's own requests
      (0 when nothing was sent);
    - `units_remaining`: the account's balance after the call, as the latest
      answer reported it; `None` when the service did not say (a "No data
      found!" answer reports no balance, nor does an answer without it);
    - `from_cache`: `True` exactly when nothing was sent: the store's cache
      answered the whole call;
    - `cached_items`: inputs of a batched job answered from the cache one by
      one (the others were sent);
    - `cached_requests`: requests answered whole from the cache (a call, a
      batch, a page);
    - `no_data`: the service found nothing ("No data found!"), the same
      whether the answer is fresh or from the cache;
    - `raw_rows`: the rows the client could not type (what names the row was
      missing or null), as the service sent them: dicts with `index` (their
      place in the answer), `key` (for a map), `error` and `row`;
    - `extras`: the members of the answer's envelope the spec does not know
      (a message from the service beside its figures), by wire name, as sent.

    Each row's dict also holds the members the spec does not know, under their
    wire names, with their JSON values; a field whose value did not fit its
    type holds that value as the service sent it.
    """

    __slots__ = (
        "rows",
        "units_used",
        "units_remaining",
        "from_cache",
        "cached_items",
        "cached_requests",
        "no_data",
        "raw_rows",
        "extras",
        "_record",
    )

    def __init__(
        self,
        rows: T,
        units_used: int,
        units_remaining: Optional[int],
        from_cache: bool,
        no_data: bool,
        record: Optional[str] = None,
        raw_rows: Optional[List[Dict[str, Any]]] = None,
        *,
        cached_items: int = 0,
        cached_requests: int = 0,
        extras: Optional[Dict[str, Any]] = None,
    ) -> None:
        self.rows = rows
        self.units_used = units_used
        self.units_remaining = units_remaining
        self.from_cache = from_cache
        self.cached_items = cached_items
        self.cached_requests = cached_requests
        self.no_data = no_data
        self.raw_rows: List[Dict[str, Any]] = raw_rows or []
        self.extras: Dict[str, Any] = extras or {}
        self._record = record

    def __repr__(self) -> str:
        count = len(self.rows) if isinstance(self.rows, (list, dict)) else 1
        return (
            f"Result({count} rows, units_used={self.units_used}, "
            f"units_remaining={self.units_remaining}, from_cache={self.from_cache}, "
            f"cached_items={self.cached_items}, cached_requests={self.cached_requests}, "
            f"no_data={self.no_data})"
        )

    def to_pandas(self) -> pandas.DataFrame:
        """The rows as a pandas DataFrame, one column per field (the same keys
        as the rows'), in spec order; a month-by-month series (the spec's
        `monthly_volume` fields) stays together, January to December. Rows
        keyed by input get an `input` column first.

        Each column has the dtype of its field's type, an empty result too:
        `int64` (`Int64` where a value may be missing), `float64`, `bool`
        (pandas' `boolean`, with `<NA>`, for an optional one), `datetime64`
        for dates, date-times and times of day (a time on 1970-01-01, as
        pandas has no time-of-day dtype: `.dt.time` gives it back); text as
        pandas keeps text; lists stay Python lists.

        Needs pandas (`pip install pandas`), which the package does not
        depend on.
        """
        try:
            import pandas
        except ImportError:
            raise ImportError("Result.to_pandas() needs pandas: pip install pandas") from None
        records = _flatten(self.rows)
        typed = _GENERATED.get(self._record) if self._record else None
        keyed = isinstance(self.rows, dict)
        columns = _columns(self._record, typed, records, keyed)
        frame = pandas.DataFrame.from_records(records, columns=columns)
        kinds = _kinds(typed) if typed is not None else {}
        if keyed:
            kinds = {"input": "text", **kinds}
        for column, kind in kinds.items():
            if column in frame.columns:
                frame[column] = _as_dtype(pandas, frame[column], kind)
        return frame


def _kinds(typed: Any) -> Dict[str, str]:
    """The kind of each field of a record's `TypedDict`, from its type hints
    (generated from the spec's record types): what its column's dtype is."""
    kinds = _KINDS.get(typed)
    if kinds is None:
        kinds = {name: _kind(hint) for name, hint in typing.get_type_hints(typed).items()}
        _KINDS[typed] = kinds
    return kinds


_KINDS: Dict[Any, Dict[str, str]] = {}


# The generated module's names (its records' `TypedDict`s and `_MONTHLY`),
# handed over by its last line: `_generated` imports this module, so this one
# reads them here rather than importing it back.
_GENERATED: Dict[str, Any] = {}


def _register(namespace: Dict[str, Any]) -> None:
    """Called once by the generated module, with its `globals()`."""
    _GENERATED.update(namespace)


def _kind(hint: Any) -> str:
    args = typing.get_args(hint)
    optional = typing.get_origin(hint) is Union and type(None) in args
    if optional:
        rest = [a for a in args if a is not type(None)]
        hint = rest[0] if len(rest) == 1 else Any
    if hint is bool:
        return "bool?" if optional else "bool"
    if hint is int:
        return "int?" if optional else "int"
    if hint is float:
        return "float"
    if hint in (datetime.date, datetime.datetime):
        return "datetime"
    if hint is datetime.time:
        return "time"
    if hint is str or typing.get_origin(hint) is Literal:
        return "text"
    return "object"


def _as_dtype(pandas: Any, column: Any, kind: str) -> Any:
    """A column in its kind's dtype; empty ones too."""
    if kind == "int":
        return column.astype("int64")
    if kind == "int?":
        return column.astype("Int64")
    if kind == "float":
        return column.astype("float64")
    if kind == "bool":
        return column.astype("bool")
    if kind == "bool?":
        return column.astype("boolean")
    if kind == "datetime":
        return pandas.to_datetime(column)
    if kind == "time":
        # On the epoch's day: a datetime64 must have a date, and 1970-01-01
        # is the one that `.dt.time` and the time since midnight both ignore.
        text = [None if t is None else "1970-01-01T" + t.isoformat() for t in column]
        return pandas.Series(pandas.to_datetime(text), index=column.index, name=column.name)
    if kind == "text" and len(column) == 0:
        # The dtype this pandas gives a column of text (`object`, or `str`).
        return column.astype(pandas.Series(["text"]).dtype)
    return column


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


def _columns(
    record: Optional[str], typed: Any, rows: List[Dict[str, Any]], keyed: bool
) -> List[str]:
    """The columns in the record's key order (after `input` for rows keyed by
    input), its monthly series together in calendar order (the spec lists
    them January first)."""
    if typed is not None:
        keys = list(typed.__annotations__)
    elif rows:
        keys = list(rows[0])
    else:
        keys = []
    if keyed:
        keys = ["input", *[k for k in keys if k != "input"]]
    monthly: Dict[str, Tuple[str, ...]] = _GENERATED.get("_MONTHLY", {})
    months = list(monthly.get(record, ())) if record else []
    if not months:
        return keys
    first = min(keys.index(m) for m in months if m in keys)
    rest = [k for k in keys if k not in months]
    before = [k for k in rest if keys.index(k) < first]
    after = [k for k in rest if keys.index(k) > first]
    return before + months + after


class Learned(TypedDict):
    """An operation's charge per row, as the store's ledger learned it."""

    per_row: int
    """Units a row, rounded up."""
    rows: int
    """The rows it was learned over."""


class PerRow(TypedDict):
    """What one row (or input item) costs, lowest and highest."""

    low: int
    high: int


class Estimate(TypedDict):
    """The cost range of a call or job before it is sent (the library's
    estimate, in the form every face gives it)."""

    min: int
    """The least it may cost."""
    max: Optional[int]
    """The most it may cost; `None` when unknown or unbounded (a paged job
    without a cap)."""
    unknown: bool
    """No figure exists: the spec prints no cost and nothing was learned."""
    basis: str
    """`spec` (the spec's figures) or `observed` (what the store's ledger learned)."""
    learned: Optional[Learned]
    """What the ledger learned of the operation's charge, when it has."""
    per_row: Optional[PerRow]
    """What a row costs, when the operation is charged by the row."""


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


DbT = TypeVar("DbT", bound=str)


class ClientBase(Generic[DbT]):
    """What both clients share: configuration, the estimate and the usage.
    `DbT` is the type of a database name (the spec's `Db` literal)."""

    _GROUPS: ClassVar[Mapping[str, Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # `help(seozoom.Client)` shows the constructor's arguments with the
        # class's own text (its groups), not only under `__init__`.
        super().__init_subclass__(**kwargs)
        arguments = ClientBase.__init__.__doc__
        if cls.__doc__ and arguments:
            cls.__doc__ = inspect.cleandoc(cls.__doc__) + "\n\n" + inspect.cleandoc(arguments)

    def __init__(
        self,
        api_key: Optional[str] = None,
        *,
        base_url: Optional[str] = None,
        db: Optional[DbT] = None,
        store: Optional[str] = None,
        budget: Union[int, str, None] = None,
        refresh: bool = False,
        store_fallback: bool = False,
        rate_window: Optional[float] = None,
        timeout: Optional[float] = None,
        max_wait: Optional[float] = None,
        fit_budget: bool = False,
    ) -> None:
        """Args:
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
            max_wait: the longest a call may spend waiting, all its waits
                together (rate-limit slots, Retry-After, 429 windows, backoffs;
                default 300), as `--max-wait`: a wait that would pass it is not
                begun, and the call stops (a job raises `Partial` with its rows).
            fit_budget: with a budget, a paged call's `max_rows` is cut to what
                the budget covers at worst instead of the call being refused,
                as `--fit-budget`.

        Raises:
            Refused: an argument is of the wrong type or out of range, or the
                store cannot be opened.
        """
        if api_key is None:
            api_key = os.environ.get(API_KEY_ENV)
        self._core = _native.Core(
            api_key,
            base_url,
            db,
            store,
            budget,
            refresh,
            store_fallback,
            rate_window,
            timeout,
            max_wait,
            fit_budget,
        )
        self._groups = {name: group(self) for name, group in self._GROUPS.items()}

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

    def _estimate(
        self,
        group: str,
        action: str,
        params: Dict[str, Any],
        db: Optional[str],
        max_rows: Optional[int],
    ) -> Estimate:
        # `estimate` itself is generated, its group and action typed from the spec.
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


class AsyncClientBase(ClientBase[DbT]):
    """What the async client adds: every method of its groups is a coroutine
    function, and concurrent calls share the client's rate limits, budget and
    store.

    `estimate()` and `usage()` stay plain methods: they send nothing and
    only read the store, briefly.
    """

    async def _call(
        self,
        group: str,
        action: str,
        params: Dict[str, Any],
        db: Optional[str],
        max_rows: Optional[int],
    ) -> Any:
        # Called in the body of the group's coroutine: nothing is sent until
        # it is awaited. Cancelling the await stops the job (see `call_async`).
        return await self._core.call_async(group, action, params, db, max_rows)


class _Group:
    """A group of operations of a client (generated subclasses)."""

    __slots__ = ("_client",)

    def __init__(self, client: ClientBase[Any]) -> None:
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
    "Learned",
    "OperationUsage",
    "PerRow",
    "Result",
    "Sandbox",
    "Usage",
    "decode",
    "default_store",
]

