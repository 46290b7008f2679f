"""`mypy --strict` on scripts that use the typed surface: a correct one
passes, and each mistake fails where it is."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from conftest import require

SCRIPTS = pathlib.Path(__file__).parent / "typing"


def mypy(script: str) -> subprocess.CompletedProcess[str]:
    try:
        import mypy  # noqa: F401
    except ImportError:
        require("mypy")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(SCRIPTS / script)],
        capture_output=True,
        text=True,
        cwd=SCRIPTS,
    )


def test_a_correct_script_passes() -> None:
    checked = mypy("good.py")
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.parametrize(
    "script,expected",
    [
        ("missing_argument.py", 'Missing positional argument "limit"'),
        ("wrong_literal.py", "Literal['bestest']"),
        ("misspelled_field.py", '"search_volumes"'),
        ("wrong_db.py", 'Argument "db" to "Client" has incompatible type "Literal[\'us\']"'),
        ("wrong_estimate.py", 'No overload variant of "estimate" of "Client" matches'),
    ],
)
def test_a_mistake_fails(script: str, expected: str) -> None:
    checked = mypy(script)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert expected in checked.stdout, checked.stdout
    assert checked.stdout.count("error:") == 1, checked.stdout


def test_the_package_itself_passes(tmp_path: pathlib.Path) -> None:
    """The installed package: its runtime, its generated surface and stubs."""
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "-p", "seozoom"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_generated_stub_is_true_to_the_module(tmp_path: pathlib.Path) -> None:
    """mypy's stubtest: every signature of `_generated.pyi` is the runtime's,
    `async def` where the runtime has a coroutine function. The `Literal`
    aliases are left out: stubtest cannot compare an alias with its value."""
    try:
        import mypy.stubtest  # noqa: F401
    except ImportError:
        require("mypy")
    import typing

    from seozoom import _generated

    aliases = [n for n in _generated.__all__ if typing.get_origin(getattr(_generated, n)) is typing.Literal]
    assert aliases, "the spec's enums are Literal aliases"
    allowlist = tmp_path / "allowlist.txt"
    allowlist.write_text("".join(f"seozoom._generated.{n}\n" for n in aliases))
    checked = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "seozoom._generated", "--allowlist", str(allowlist)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
