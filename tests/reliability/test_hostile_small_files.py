"""Every small file the product reads (settings, sources, users, remembered tool modes, question files, a
run to compare with, a question file's ``load:``) is read without waiting on it, bounded in size and in
nesting (issue 38 round three, classes 2, 5 and 6, shapes the first pass did not try). Before: a FIFO
named ``sources.toml`` or ``config.toml`` hung every command, a FIFO as a question file, a users file or
a ``--compare`` run hung ``eval`` and ``users``, a link to ``/dev/zero`` ended in ``internal error
(MemoryError)``, and TOML or JSON nested 100,000 deep in ``sources.toml``, ``config.toml``, the users
file or ``tool_modes.json`` in ``internal error (RecursionError)``.

Each run is the real CLI in a child held to 2 GiB of address space, with a timeout only as a safety net
for a regression that hangs; the tests assert on what it printed."""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

SAFETY_S = 60
WORKTREE = str(Path(__file__).resolve().parents[2])  # the code under test, whatever the child's cwd
MODEL = ["--model", "m", "--base-url", "http://127.0.0.1:9/v1"]  # never reached: the file is refused first
QUESTIONS = "cases:\n  - {id: a, question: q, expect: [1]}\n"


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))


def _cli(tmp_path: Path, args: list[str]) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "PYTHONPATH": WORKTREE,
    }
    for key in ("ANALYTICS_AGENT_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "ANALYTICS_AGENT_DB"):
        env.pop(key, None)
    return subprocess.run(
        [sys.executable, "-m", "analytics_agent", "--db", str(tmp_path / "shop.duckdb"), *args],
        cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=SAFETY_S, preexec_fn=_cap,
    )  # fmt: skip


def _plant(path: Path, shape: str, deep: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if shape == "fifo":
        os.mkfifo(path)
    elif shape == "link to /dev/zero":
        path.symlink_to("/dev/zero")
    else:
        path.write_text(deep)


DEEP_TOML = "x = " + "[" * 100_000 + "]" * 100_000 + "\n"
DEEP_INLINE_TOML = "x = " + "{a = " * 100_000 + "1" + "}" * 100_000 + "\n"
DEEP_JSON = '{"users": ' + "[" * 100_000 + "]" * 100_000 + "}"

# where the file lies, the command that reads it, the nested text, and what the one line says
SURFACES = {
    "sources.toml": ("config/analytics-agent/sources.toml", ["tables"], DEEP_TOML, "sources left out"),
    "config.toml": ("config/analytics-agent/config.toml", ["tables"], DEEP_INLINE_TOML, "config.toml"),
    "users file": ("shop.users.json", ["users", "list"], DEEP_JSON, "the users file"),
    "tool modes": ("data/analytics-agent/tool_modes.json", ["modes", "list"], DEEP_JSON, "tool_modes.json"),
    "question file": ("q.yaml", ["eval", "q.yaml", *MODEL], None, "q.yaml"),
    "--compare run": (
        "run.json",
        ["eval", "ok.yaml", "--compare", "run.json", *MODEL],
        DEEP_JSON,
        "run.json",
    ),
}
SHAPES = ["fifo", "link to /dev/zero", "nested 100,000 deep"]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("surface", list(SURFACES))
def test_a_hostile_small_file_is_one_line(tmp_path: Path, surface: str, shape: str) -> None:
    where, args, deep, says = SURFACES[surface]
    if deep is None and shape.startswith("nested"):
        pytest.skip("deep YAML question files are held in test_hostile_question_files.py")
    duckdb.connect(str(tmp_path / "shop.duckdb")).execute("CREATE TABLE orders AS SELECT 1 AS id").close()
    (tmp_path / "ok.yaml").write_text(QUESTIONS)
    _plant(tmp_path / where, shape, deep or "")
    result = _cli(tmp_path, args)
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr, result.stderr[-1500:]
    lines = [line for line in result.stderr.splitlines() if says in line]
    assert len(lines) == 1, result.stderr[-1500:]
    reason = {"fifo": "a FIFO, not a regular file", "link to /dev/zero": "a device, not a regular file"}
    expected = reason.get(shape, "damaged" if surface == "users file" else "nest")
    assert expected in lines[0], lines[0]
    if args == ["tables"]:  # a broken settings file is a warning: the command still answers
        assert result.returncode == 0 and "orders" in result.stdout, result.stderr[-1500:]


def _special_data_file(folder: Path, shape: str) -> None:
    if shape == "fifo":
        os.mkfifo(folder / "d.csv")
    elif shape == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(folder / "d.csv"))  # left bound: the child must not wait on it either
    else:
        os.mkfifo(folder / "pipe")
        (folder / "d.csv").symlink_to(folder / "pipe")


@pytest.mark.parametrize("shape", ["fifo", "socket", "link to a fifo inside the folder"])
def test_a_question_files_load_of_a_special_file_is_one_line(tmp_path: Path, shape: str) -> None:
    """``load: [{path: d.csv}]`` with ``d.csv`` a FIFO held ``eval`` for ever (the loader's first read
    waits for a writer that never comes)."""
    duckdb.connect(str(tmp_path / "shop.duckdb")).close()
    _special_data_file(tmp_path, shape)
    (tmp_path / "q.yaml").write_text("load: [{path: d.csv, table: dd}]\n" + QUESTIONS)
    result = _cli(tmp_path, ["eval", "q.yaml", *MODEL])
    assert result.returncode == 1, result.stderr[-1500:]
    assert result.stderr.strip().splitlines() == [
        "error: q.yaml: load: 'd.csv' is not a regular file (a FIFO, device or socket); name a data file"
    ], result.stderr[-1500:]


@pytest.mark.parametrize(
    ("shape", "kind"), [("fifo", "a FIFO"), ("socket", "a socket"), ("link to /dev/zero", "a device")]
)
def test_load_of_a_special_file_says_what_it_is(tmp_path: Path, shape: str, kind: str) -> None:
    """``load x.csv`` with ``x.csv`` a FIFO said "no such file: x.csv" of a file that is there."""
    if shape == "link to /dev/zero":
        (tmp_path / "d.csv").symlink_to("/dev/zero")
    else:
        _special_data_file(tmp_path, shape)
    result = _cli(tmp_path, ["load", "d.csv", "--table", "dd"])
    assert result.returncode == 1, result.stderr[-1500:]
    assert result.stderr.strip().splitlines()[-1] == f"error: d.csv is {kind}, not a regular file"
