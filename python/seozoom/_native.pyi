"""Type stubs of the native module (the Rust side of the package)."""

import datetime
from typing import Any, Awaitable, Dict, List, Optional, Union

def default_store() -> str: ...
def decode(group: str, action: str, body: bytes) -> Any: ...
def run_command_line(args: List[str]) -> int: ...

class Core:
    def __init__(
        self,
        api_key: Optional[str],
        base_url: Optional[str],
        db: Optional[str],
        store: Optional[str],
        budget: Union[int, str, None],
        refresh: bool,
        store_fallback: bool,
        rate_window: Optional[float],
        timeout: Optional[float],
        max_wait: Optional[float],
        fit_budget: bool,
    ) -> None: ...
    def call(
        self,
        group: str,
        action: str,
        params: Dict[str, Any],
        db: Optional[str] = None,
        max_rows: Optional[int] = None,
    ) -> Any: ...
    def call_async(
        self,
        group: str,
        action: str,
        params: Dict[str, Any],
        db: Optional[str] = None,
        max_rows: Optional[int] = None,
    ) -> Awaitable[Any]: ...
    def estimate(
        self,
        group: str,
        action: str,
        params: Dict[str, Any],
        db: Optional[str] = None,
        max_rows: Optional[int] = None,
    ) -> Any: ...
    def usage(self, since: Optional[datetime.date] = None) -> Any: ...
    def drift(self, patch: bool = False) -> Any: ...
    def units(self) -> Dict[str, Any]: ...
    @property
    def store(self) -> str: ...

class Sandbox:
    def __init__(
        self,
        strict: bool = False,
        rate_window: Optional[float] = None,
        units: Optional[int] = None,
        paged_rows: Optional[int] = None,
        fail_on: Optional[Dict[str, str]] = None,
        truncate_on: Optional[Dict[str, str]] = None,
        drift: bool = False,
    ) -> None: ...
    @property
    def url(self) -> str: ...
    @property
    def requests(self) -> int: ...
    @property
    def rate_limited(self) -> int: ...
    @property
    def units_remaining(self) -> int: ...
    def close(self) -> None: ...
