"""The ``seozoom`` command that the package installs (a console script).

It runs the command line's own code, compiled into the native module: the
same subcommands, sandbox and MCP server, output and exit codes as the Rust
binary ``seozoom``.
"""

import signal
import sys
from typing import List, NoReturn, Optional

from . import _native


def main(argv: Optional[List[str]] = None) -> NoReturn:
    """Runs ``seozoom`` with ``argv`` (default: the process's arguments) and exits with its code."""
    args = sys.argv[1:] if argv is None else argv
    # The command handles Ctrl-C itself (the first stops a job before its next
    # request, a second quits), as the binary does; Python's own handler would
    # turn the same signal into a KeyboardInterrupt once the command returned.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    # The program's name as the binary sees it, so help and errors read the same.
    sys.exit(_native.run_command_line(["seozoom", *args]))
