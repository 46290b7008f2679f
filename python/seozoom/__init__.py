"""A typed client for the SEOZoom API v2, on the Rust client's core.

Every operation is a method of its group, typed from the spec:

    import seozoom

    with seozoom.Sandbox() as sb:
        client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory")
        result = client.keywords.metrics(["scarpe running", "mutuo"], db="it")
        for row in result.rows:
            print(row["keyword"], row["search_volume"])

Limits and rules are checked before anything is sent (`Refused`), long lists
are batched, paged operations page (`max_rows=`), and the cache, the ledger,
budgets and rate limits live in the store the command line uses.
"""

from importlib.metadata import PackageNotFoundError as _NotInstalled
from importlib.metadata import version as _version

from . import _generated
from ._errors import (
    DecodeError,
    Error,
    OverBudget,
    Partial,
    Refused,
    ServiceError,
    TransportError,
)
from ._generated import *  # noqa: F403  (the spec's clients, groups, records and enums)
from ._runtime import (
    API_KEY_ENV,
    Drift,
    DriftObservation,
    Estimate,
    Learned,
    OperationUsage,
    PerRow,
    Result,
    Sandbox,
    Usage,
    decode,
    default_store,
)

try:
    #: The package's version, as installed: the Cargo version of the crates,
    #: which the build writes into the package's metadata (one source).
    __version__: str = _version("seozoom")
except _NotInstalled:  # pragma: no cover (imported from a source tree)
    __version__ = "0+unknown"

__all__ = [
    "__version__",
    "API_KEY_ENV",
    "DecodeError",
    "Drift",
    "DriftObservation",
    "Error",
    "Estimate",
    "Learned",
    "OperationUsage",
    "OverBudget",
    "Partial",
    "PerRow",
    "Refused",
    "Result",
    "Sandbox",
    "ServiceError",
    "TransportError",
    "Usage",
    "decode",
    "default_store",
]
__all__ += _generated.__all__
