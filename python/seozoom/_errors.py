"""The package's exceptions: one hierarchy under `seozoom.Error`.

The native module raises them with their attributes filled in from the Rust
client's error. No text in them holds the API key: the client removes it
from everything it took from outside before an error leaves it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional, Union

if TYPE_CHECKING:
    from ._runtime import Result


class Error(Exception):
    """Anything that went wrong with a call."""


class Refused(Error):
    """Refused before sending: nothing was sent and nothing charged.

    - `parameter`: what was refused: a parameter by its Python name, or an
      argument of the client or the call (`max_rows`, `budget`, `db`,
      `store`, `base_url`, `api_key`, `timeout`, `rate_window`, ...);
    - `value`: the value refused, always as text (`str`): a `str` as given, a
      number written out, any other Python value as its `repr`; cut to its
      first 80 characters, with its length (or item count) said, when longer;
      `None` only when no value is at fault (no API key, say). The API key is
      never shown;
    - `limit`: the limit or rule the value breaks, as text, with where the
      limit comes from (the spec's provenance) when it is the spec's.

    The message says all three.
    """

    def __init__(self, text: str, *, parameter: str, value: Optional[str], limit: str) -> None:
        super().__init__(text)
        self.parameter = parameter
        self.value = value
        self.limit = limit


class OverBudget(Refused):
    """Refused before sending: the call's (or job's) maximum cost does not fit
    what is left of the budget. `parameter` is `budget`, `value` that maximum
    as text (`None` when the spec states no cost), `limit` what is left, as
    text; `cost` and `units_left` are the same two as numbers."""

    def __init__(
        self,
        text: str,
        *,
        parameter: str,
        value: Optional[str],
        limit: str,
        cost: Optional[int],
        units_left: int,
    ) -> None:
        super().__init__(text, parameter=parameter, value=value, limit=limit)
        self.cost = cost
        self.units_left = units_left


class ServiceError(Error):
    """The service answered with an error: `status` is the HTTP status and
    `message` the service's own message, when it gave one."""

    def __init__(self, text: str, *, status: int, message: Optional[str]) -> None:
        super().__init__(text)
        self.status = status
        self.message = message


class TransportError(Error):
    """The request did not complete (connection refused or reset, timeout)."""

    def __init__(self, text: str, *, timeout: bool) -> None:
        super().__init__(text)
        self.timeout = timeout


class DecodeError(Error):
    """The service's answer is not the documented shape: `operation` and
    `field` (a path such as `response[3].KD`) say where."""

    def __init__(self, text: str, *, operation: Optional[str], field: str) -> None:
        super().__init__(text)
        self.operation = operation
        self.field = field


class Partial(Error):
    """A job that stopped part-way, after some of its requests were answered
    and charged.

    `result` is a `Result` holding the rows received and the units they cost;
    `missing` says what was not received: for a batched job, the input
    parameter and its values without an answer (`{"keyword": [...]}`); for a
    paged job, where the rest starts (`{"offset": N, "max_rows": M}`). The
    error that stopped the job (or the `KeyboardInterrupt`) is `__cause__`.
    """

    def __init__(
        self,
        text: str,
        *,
        result: Result[Any],
        missing: Dict[str, Union[int, list[str]]],
    ) -> None:
        super().__init__(text)
        self.result = result
        self.missing = missing
