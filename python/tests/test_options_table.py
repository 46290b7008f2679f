"""The table of options x faces in cli/README.md ("Every option in every
face") holds: every global option of the command line (and `--max-rows`,
an option of the paged operations, and `--confirm-over`, of `mcp`) has a row, every cell says `honoured` or `refused`, and each cell is what the
face does, measured on the real binary, the real MCP server (through the
official MCP Python SDK) and this package. A new option without a row, a row
without a probe here, or a cell that says what a face does not do, fails.
"""

from __future__ import annotations

import pathlib
import re
import subprocess
import tempfile
from typing import Callable, Dict, List, Tuple, Union

import pytest

import seozoom

from faces import WORKSPACE, cli_binary, json_out, mcp_calls, mcp_refuses, run_cli

README = WORKSPACE / "cli" / "README.md"
FACES = ("cli", "mcp", "python")

#: 2,100 keywords: 21 requests, one more than `keywords metrics` takes a window.
KEYWORDS = [f"opt {i}" for i in range(2_100)]


def table() -> Dict[str, Dict[str, str]]:
    """The table's rows: option -> face -> the cell's text."""
    text = README.read_text(encoding="utf-8")
    after = text.split("<!-- options-table -->", 1)[1].lstrip("\n").splitlines()
    rows: Dict[str, Dict[str, str]] = {}
    for line in after[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        option = re.match(r"`(--[a-z-]+)", cells[0])
        assert option, f"no option in {cells[0]!r}"
        rows[option.group(1)] = dict(zip(FACES, cells[1:]))
    return rows


def claim(cell: str) -> str:
    word = cell.split(":", 1)[0]
    assert word in ("honoured", "refused"), f"a cell says honoured or refused: {cell!r}"
    return word


def command_line_options() -> set:
    """The global options `seozoom --help` lists, `--max-rows` (an option
    of the paged operations) and `--confirm-over` (an option of `mcp`)."""
    help_text = subprocess.run([str(cli_binary()), "--help"], capture_output=True, text=True).stdout
    section = help_text.split("Global options:", 1)[1]
    options = set(re.findall(r"^\s+(?:-\w, )?(--[a-z-]+)", section, re.MULTILINE))
    paged = subprocess.run(
        [str(cli_binary()), "domains", "keywords", "--help"], capture_output=True, text=True
    ).stdout
    assert "--max-rows" in paged
    mcp = subprocess.run([str(cli_binary()), "mcp", "--help"], capture_output=True, text=True).stdout
    assert "--confirm-over" in mcp
    return options | {"--max-rows", "--confirm-over"}


def test_every_option_has_a_row_and_every_cell_a_word() -> None:
    rows = table()
    assert set(rows) == command_line_options()
    for option, cells in rows.items():
        assert set(cells) == set(FACES), option
        for cell in cells.values():
            claim(cell)


# --- measuring a face: "honoured", "refused", or "ignored" (taken, no effect);
# a refusal comes with the face's error, which must hold every text the cell
# quotes ("...") and every exception it names (`TypeError`).

#: What a probe measured: the word, or a refusal and its error.
Probed = Union[str, Tuple[str, str]]


def quoted(cell: str) -> List[str]:
    """The texts a cell quotes as the face's error, and the exceptions it names."""
    return re.findall(r'"([^"]+)"', cell) + re.findall(r"`(\w+Error)`", cell)


def keywords_metrics(*options: str, keywords: List[str] = ["mutuo"]) -> List[str]:
    args = [*options, "--format", "json", "keywords", "metrics"]
    for keyword in keywords:
        args += ["--keyword", keyword]
    return args


def cli_probes(sb: seozoom.Sandbox, tmp: pathlib.Path) -> Dict[str, Callable[[], Probed]]:
    url = sb.url
    kw_file = tmp / "keywords.txt"
    kw_file.write_text("\n".join(KEYWORDS))
    many = ["--format", "json", "keywords", "metrics", "--keyword-file", str(kw_file)]

    def ok(ran: subprocess.CompletedProcess) -> bool:
        return ran.returncode == 0

    def api_key() -> str:
        without = run_cli(keywords_metrics(), url, SEOZOOM_API_KEY="")
        with_key = run_cli(keywords_metrics("--api-key", "K"), url, SEOZOOM_API_KEY="")
        return "honoured" if without.returncode == 2 and ok(with_key) else "ignored"

    def base_url() -> str:
        before = sb.requests
        ran = run_cli(keywords_metrics("--base-url", url))
        return "honoured" if ok(ran) and sb.requests == before + 1 else "ignored"

    def db() -> str:
        ran = run_cli(keywords_metrics("--db", "fr"), url)
        return "honoured" if json_out(ran)["response"][0]["lang"] == "fr" else "ignored"

    def fmt() -> str:
        ran = run_cli(["--format", "csv", "keywords", "metrics", "--keyword", "a"], url)
        return "honoured" if ran.stdout.startswith("keyword,") else "ignored"

    def columns() -> str:
        ran = run_cli(keywords_metrics("--columns", "keyword,KD"), url)
        return "honoured" if set(json_out(ran)["response"][0]) == {"keyword", "KD"} else "ignored"

    def sandbox() -> str:
        ran = run_cli(keywords_metrics("--sandbox"), SEOZOOM_API_KEY="")
        return "honoured" if ok(ran) and json_out(ran)["ResultRows"] == 1 else "ignored"

    def budget() -> str:
        ran = run_cli(keywords_metrics("--budget", "5"), url)
        return "honoured" if ran.returncode == 2 and "budget" in ran.stderr else "ignored"

    def store() -> str:
        path = tmp / "cli-store.sqlite3"
        ran = run_cli(keywords_metrics("--store", f"sqlite:{path}"), url)
        return "honoured" if ok(ran) and path.exists() else "ignored"

    def refresh() -> str:
        path = f"sqlite:{tmp / 'cli-refresh.sqlite3'}"
        before = sb.requests
        run_cli(keywords_metrics("--store", path), url)
        run_cli(keywords_metrics("--store", path, "--refresh"), url)
        return "honoured" if sb.requests == before + 2 else "ignored"

    def store_fallback() -> str:
        bad = "redis://127.0.0.1:1/0"
        fails = run_cli(keywords_metrics("--store", bad), url)
        goes = run_cli(keywords_metrics("--store", bad, "--store-fallback"), url)
        return "honoured" if not ok(fails) and ok(goes) else "ignored"

    def dry_run() -> str:
        before = sb.requests
        ran = run_cli(keywords_metrics("--dry-run"), url)
        return "honoured" if ok(ran) and "GET " in ran.stdout and sb.requests == before else "ignored"

    def rate_window() -> str:
        ran = run_cli(["--rate-window", "1", "--max-wait", "5", *many], url)
        return "honoured" if ok(ran) else "ignored"

    def max_wait() -> str:
        ran = run_cli(["--rate-window", "30", "--max-wait", "1", *many], url)
        return "honoured" if ran.returncode == 1 and "stopped waiting" in ran.stderr else "ignored"

    def fit_budget() -> str:
        paged = ["--format", "json", "domains", "keywords", "--domain", "fit.it", "--type", "best",
                 "--limit", "10", "--max-rows", "1000"]
        ran = run_cli(["--budget", "100", "--fit-budget", *paged], url)
        fitted = ok(ran) and 0 < json_out(ran)["ResultRows"] < 1000 and "--fit-budget" in ran.stderr
        return "honoured" if fitted else "ignored"

    def max_rows() -> str:
        ran = run_cli(["--format", "json", "domains", "keywords", "--domain", "rows.it",
                       "--type", "best", "--limit", "10", "--max-rows", "25"], url)
        return "honoured" if json_out(ran)["ResultRows"] == 25 else "ignored"

    def confirm_over() -> Probed:
        ran = run_cli(["--confirm-over", "5", "keywords", "metrics", "--keyword", "a"], url)
        return ("refused", ran.stderr) if ran.returncode == 2 else "ignored"

    return {
        "--api-key": api_key, "--base-url": base_url, "--db": db, "--format": fmt,
        "--columns": columns, "--sandbox": sandbox, "--budget": budget, "--store": store,
        "--refresh": refresh, "--store-fallback": store_fallback, "--dry-run": dry_run,
        "--rate-window": rate_window, "--max-wait": max_wait, "--fit-budget": fit_budget,
        "--max-rows": max_rows, "--confirm-over": confirm_over,
    }


def mcp_probes(sb: seozoom.Sandbox, tmp: pathlib.Path) -> Dict[str, Callable[[], Probed]]:
    url = sb.url
    one = ("keywords_metrics", {"keyword": ["mutuo"]})
    many = ("keywords_metrics", {"keyword": KEYWORDS})

    def refused(*options: str) -> Probed:
        error = mcp_refuses(options, url)
        return ("refused", error) if error is not None else "ignored"

    def api_key() -> str:
        without = subprocess.run([str(cli_binary()), "--base-url", url, "mcp"], capture_output=True,
                                 text=True, env={"PATH": "/usr/bin:/bin", "SEOZOOM_STORE": "none"},
                                 stdin=subprocess.DEVNULL)
        [answer] = mcp_calls(["--api-key", "K"], [one], url)
        return "honoured" if without.returncode == 2 and answer.error is None else "ignored"

    def base_url() -> str:
        before = sb.requests
        [answer] = mcp_calls(["--base-url", url], [one])
        return "honoured" if answer.error is None and sb.requests == before + 1 else "ignored"

    def db() -> str:
        [answer] = mcp_calls(["--db", "fr"], [one], url)
        return "honoured" if answer.content["response"][0]["lang"] == "fr" else "ignored"

    def output_option(*options: str) -> Callable[[], Probed]:
        return lambda: refused(*options)

    def sandbox() -> str:
        [answer] = mcp_calls(["--sandbox"], [one])
        return "honoured" if answer.error is None and answer.content["ResultRows"] == 1 else "ignored"

    def budget() -> str:
        before = sb.requests
        [answer] = mcp_calls(["--budget", "5"], [one], url)
        refused_call = answer.error is not None and "budget" in answer.error
        return "honoured" if refused_call and sb.requests == before else "ignored"

    def store() -> str:
        path = tmp / "mcp-store.sqlite3"
        [answer] = mcp_calls(["--store", f"sqlite:{path}"], [one], url)
        return "honoured" if answer.error is None and path.exists() else "ignored"

    def refresh() -> str:
        path = f"sqlite:{tmp / 'mcp-refresh.sqlite3'}"
        before = sb.requests
        mcp_calls(["--store", path], [one], url)
        mcp_calls(["--store", path, "--refresh"], [one], url)
        return "honoured" if sb.requests == before + 2 else "ignored"

    def store_fallback() -> str:
        bad = "redis://127.0.0.1:1/0"
        [fails] = mcp_calls(["--store", bad], [one], url)
        [goes] = mcp_calls(["--store", bad, "--store-fallback"], [one], url)
        return "honoured" if fails.error is not None and goes.error is None else "ignored"

    def rate_window() -> str:
        [answer] = mcp_calls(["--rate-window", "1", "--max-wait", "5"], [many], url)
        return "honoured" if answer.error is None else "ignored"

    def max_wait() -> str:
        [answer] = mcp_calls(["--rate-window", "30", "--max-wait", "1"], [many], url)
        return "honoured" if answer.error and "stopped waiting" in answer.error else "ignored"

    def fit_budget() -> str:
        paged = ("domains_keywords", {"domain": "fit.it", "type": "best", "limit": 10, "max_rows": 1000})
        [answer] = mcp_calls(["--budget", "100", "--fit-budget"], [paged], url)
        fitted = answer.error is None and 0 < answer.content["ResultRows"] < 1000
        return "honoured" if fitted else "ignored"

    def max_rows() -> Probed:
        return refused("--max-rows", "5")

    def confirm_over() -> str:
        before = sb.requests
        [answer] = mcp_calls([], [one], url, own=["--confirm-over", "0"])
        asked = answer.error is not None and "Not sent" in answer.error and "--confirm-over 0" in answer.error
        return "honoured" if asked and sb.requests == before else "ignored"

    return {
        "--api-key": api_key, "--base-url": base_url, "--db": db,
        "--format": output_option("--format", "json"),
        "--columns": output_option("--columns", "keyword"), "--sandbox": sandbox,
        "--budget": budget, "--store": store, "--refresh": refresh,
        "--store-fallback": store_fallback, "--dry-run": output_option("--dry-run"),
        "--rate-window": rate_window, "--max-wait": max_wait, "--fit-budget": fit_budget,
        "--max-rows": max_rows, "--confirm-over": confirm_over,
    }


def python_probes(sb: seozoom.Sandbox, tmp: pathlib.Path) -> Dict[str, Callable[[], Probed]]:
    url = sb.url

    def client(**options: object) -> seozoom.Client:
        settings: Dict[str, object] = {"base_url": url, "api_key": "sandbox", "store": "memory"}
        settings.update(options)
        return seozoom.Client(**settings)  # type: ignore[arg-type]

    def refused_argument(name: str, value: object) -> Callable[[], Probed]:
        def probe() -> Probed:
            try:
                client(**{name: value})
            except TypeError as error:
                return ("refused", f"TypeError: {error}") if name in str(error) else "ignored"
            return "ignored"
        return probe

    def api_key() -> str:
        try:
            seozoom.Client(base_url=url, api_key="", store="memory")
        except seozoom.Refused:
            return "honoured" if client(api_key="K").keywords.metrics(["a"]).rows else "ignored"
        return "ignored"

    def base_url() -> str:
        before = sb.requests
        client().keywords.metrics(["a"])
        return "honoured" if sb.requests == before + 1 else "ignored"

    def db() -> str:
        rows = client(db="fr").keywords.metrics(["a"]).rows
        return "honoured" if rows[0]["language"] == "fr" else "ignored"

    def budget() -> str:
        try:
            client(budget=5).keywords.metrics(["a"])
        except seozoom.OverBudget:
            return "honoured"
        return "ignored"

    def store() -> str:
        path = tmp / "python-store.sqlite3"
        client(store=f"sqlite:{path}").keywords.metrics(["a"])
        return "honoured" if path.exists() else "ignored"

    def refresh() -> str:
        path = f"sqlite:{tmp / 'python-refresh.sqlite3'}"
        before = sb.requests
        client(store=path).keywords.metrics(["a"])
        client(store=path, refresh=True).keywords.metrics(["a"])
        return "honoured" if sb.requests == before + 2 else "ignored"

    def store_fallback() -> str:
        bad = "redis://127.0.0.1:1/0"
        try:
            client(store=bad).keywords.metrics(["a"])
            return "ignored"
        except seozoom.Error:
            pass
        return "honoured" if client(store=bad, store_fallback=True).keywords.metrics(["a"]).rows else "ignored"

    def rate_window() -> str:
        result = client(rate_window=1, max_wait=5).keywords.metrics(KEYWORDS)
        return "honoured" if len(result.rows) == len(KEYWORDS) else "ignored"

    def max_wait() -> str:
        try:
            client(rate_window=30, max_wait=1).keywords.metrics(KEYWORDS)
        except seozoom.Partial as partial:
            return "honoured" if "stopped waiting" in str(partial) else "ignored"
        return "ignored"

    def fit_budget() -> str:
        result = client(budget=100, fit_budget=True).domains.keywords("fit.it", "best", 10, max_rows=1000)
        return "honoured" if 0 < len(result.rows) < 1000 else "ignored"

    def max_rows() -> str:
        result = client().domains.keywords("rows.it", "best", 10, max_rows=25)
        return "honoured" if len(result.rows) == 25 else "ignored"

    return {
        "--api-key": api_key, "--base-url": base_url, "--db": db,
        "--format": refused_argument("format", "json"),
        "--columns": refused_argument("columns", ["keyword"]),
        "--sandbox": refused_argument("sandbox", True), "--budget": budget, "--store": store,
        "--refresh": refresh, "--store-fallback": store_fallback,
        "--dry-run": refused_argument("dry_run", True), "--rate-window": rate_window,
        "--max-wait": max_wait, "--fit-budget": fit_budget, "--max-rows": max_rows,
        "--confirm-over": refused_argument("confirm_over", 100),
    }


PROBES = {"cli": cli_probes, "mcp": mcp_probes, "python": python_probes}


@pytest.mark.parametrize("face", FACES)
def test_each_cell_is_what_the_face_does(face: str) -> None:
    rows = table()
    with seozoom.Sandbox(paged_rows=1_000) as sb, tempfile.TemporaryDirectory() as tmp:
        probes = PROBES[face](sb, pathlib.Path(tmp))
        wrong = []
        for option, cells in sorted(rows.items()):
            assert option in probes, f"{face}: no probe for {option}: add one here"
            said, probed = claim(cells[face]), probes[option]()
            did, error = probed if isinstance(probed, tuple) else (probed, None)
            if said != did:
                wrong.append(f"{option}: the table says {said!r}, the {face} face is {did!r}")
            elif error is not None:
                for text in quoted(cells[face]):
                    if text not in error:
                        wrong.append(f"{option}: the {face} face's refusal does not say {text!r}: {error!r}")
        assert not wrong, "\n".join(wrong)
