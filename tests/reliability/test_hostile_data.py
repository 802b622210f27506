"""Hostile data, files and disks, through the real command line: each test is one attack that got through
once (issue 17) and must not again."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from loopback import LoopbackServer

from analytics_agent.providers.scripted import ScriptedModel, Step

CLI = [sys.executable, "-m", "analytics_agent"]


def run(args: list[str], cwd: Path, *, timeout: float = 600.0) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*CLI, *args], cwd=cwd, env=dict(os.environ), capture_output=True, text=True, timeout=timeout
    )


def run_sql(db: Path, query: str, cwd: Path) -> subprocess.CompletedProcess:
    arguments = json.dumps({"query": query})
    return run(["--db", str(db), "--allow-sql", "tools", "call", "run_sql", arguments], cwd)


def test_run_sql_cannot_read_the_database_file_it_runs_on(sample_db, tmp_path):
    """The attack: name the database's own file (or its WAL) and read the raw bytes, dropped rows
    included. run_sql refuses the statement, and the sandbox under it could not read the file anyway
    (tests/db/test_sandbox.py)."""
    path = str(sample_db)
    for query in (
        "SELECT path FROM duckdb_databases()",
        f"SELECT content FROM read_blob('{path}')",
        f"SELECT content FROM read_text('{path}.wal')",
        f"SELECT * FROM read_duckdb('{path}')",
        f"SELECT * FROM '{path}'",
    ):
        result = run_sql(sample_db, query, tmp_path)
        assert result.returncode == 1, query
        assert result.stdout.startswith("Error: run_sql") and "DUCK" not in result.stdout


def test_aggregate_refuses_list_columns_in_metrics_and_groups_but_counts_them(sample_db, tmp_path):
    """Before: max/group_by on a Parquet list column hashed every item (16 s and 3 GB on a large file)."""
    parquet = tmp_path / "tagged.parquet"
    conn = duckdb.connect()
    conn.execute(
        f"COPY (SELECT i AS id, [i, i + 1, i + 2] AS tags FROM range(1000) t(i)) TO '{parquet}' (FORMAT parquet)"
    )
    conn.close()
    db = ["--db", str(sample_db)]
    assert run([*db, "load", str(parquet), "--table", "tagged"], tmp_path).returncode == 0
    for arguments in (
        {"table": "tagged", "metrics": [{"fn": "max", "column": "tags"}]},
        {"table": "tagged", "metrics": [{"fn": "count_distinct", "column": "tags"}]},
        {"table": "tagged", "group_by": ["tags"]},
    ):
        result = run([*db, "tools", "call", "aggregate", json.dumps(arguments)], tmp_path)
        assert result.returncode == 1
        assert (
            "tags is BIGINT[], a list/struct/map value" in result.stdout
            and "plain column of tagged: id" in result.stdout
        )
    counted = run(
        [
            *db,
            "tools",
            "call",
            "aggregate",
            '{"table": "tagged", "metrics": [{"fn": "count", "column": "tags"}]}',
        ],
        tmp_path,
    )
    assert json.loads(counted.stdout)["rows"] == [[1000]]


def test_a_huge_value_from_run_sql_is_cut_in_the_database_not_in_python(sample_db):
    """Before: SELECT range(0, 5000000) took 13 s and 900 MB in Python and showed 0 rows; 50,000,000 took
    67 s and 7 GB. Now Python sees 100 items and a count. In process, with a time limit no busy machine
    reaches (DuckDB itself builds the 5M list, which took longer than the default 15 s on a loaded one),
    and the memory Python allocates measured by tracemalloc."""
    import tracemalloc

    from analytics_agent.workspace.workspace import Workspace

    ws = Workspace.open(sample_db, allow_sql=True, timeout_s=600)
    try:
        tracemalloc.start()
        outcome = ws.executor.execute("run_sql", {"query": "SELECT range(0, 5000000) AS r"})
        _, python_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        ws.close()
    assert not outcome.is_error, outcome.text
    value = json.loads(outcome.text)["rows"][0][0]
    assert value[-1] == "… 4999900 more" and value[:3] == [0, 1, 2]
    assert python_peak < 50 * 2**20, python_peak  # 5M Python ints alone would be ~180 MB


def test_run_sql_accepts_a_trailing_comment_on_a_long_result(sample_db, tmp_path):
    result = run_sql(sample_db, "SELECT order_id FROM orders ORDER BY order_id -- all of them", tmp_path)
    assert result.returncode == 0, result.stdout
    assert json.loads(result.stdout)["row_count"] == 42000


def _ask(db: Path, cwd: Path, question: str = "How many orders?") -> subprocess.CompletedProcess:
    """``ask`` in a real process against a loopback model that answers with one line of text."""
    script = ScriptedModel([Step(text="There are 2 orders.")])
    server = LoopbackServer(lambda path, headers, body: script.respond("POST", path, headers, body))
    try:
        args = ["--db", str(db), "ask", question, "--base-url", server.url + "/v1", "--model", "m"]
        return run([*args, "--api-key", "k", "--no-stream"], cwd)
    finally:
        server.close()


def test_replacing_a_sample_table_with_other_columns_bricks_no_command(sample_db, tmp_path):
    """Before: tables, tools, ask and chat all failed, naming a bundled .sql file, until the table was dropped."""
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,x\n2,y\n")
    db = ["--db", str(sample_db)]
    loaded = run([*db, "load", str(other), "--table", "orders", "--replace"], tmp_path)
    assert loaded.returncode == 0
    assert "note: orders now lacks order_id, customer_id, city, day" in loaded.stderr
    assert "sales_summary" in loaded.stderr and "skipped from now on" in loaded.stderr

    # the load said it once; the table is the user's own now, so no command after it warns about the
    # bundled tools (before: "warning: table orders lacks ... so the bundled tools ..." on every command)
    tables = run([*db, "tables"], tmp_path)
    assert (
        tables.returncode == 0 and "orders            2" in tables.stdout and "bundled" not in tables.stderr
    )
    tools = run([*db, "tools", "list"], tmp_path)
    assert tools.returncode == 0 and "sales_summary" not in tools.stdout and "aggregate" in tools.stdout
    assert tools.stderr == ""
    assert run([*db, "schema", "orders"], tmp_path).returncode == 0
    asked = _ask(sample_db, tmp_path)
    assert asked.returncode == 0, asked.stderr
    # the answer, then the caveat that travels with an answer no tool backs (issue 25)
    assert asked.stdout.strip().splitlines()[0] == "There are 2 orders."


def test_a_sample_table_with_too_many_cities_skips_only_the_tools_that_list_them(sample_db, tmp_path):
    """Before: more than 200 cities in orders made every command fail on sales_summary's city enum."""
    csv = tmp_path / "orders.csv"
    conn = duckdb.connect()
    conn.execute(
        "COPY (SELECT 'A-' || i AS order_id, 'C-' || i AS customer_id, 'city ' || (i % 250) AS city, "
        "DATE '2026-01-01' + CAST(i % 30 AS INTEGER) AS day, 'delivered' AS status, 100 AS amount, "
        f"'web' AS channel FROM range(1000) t(i)) TO '{csv}' (HEADER)"
    )
    conn.close()
    db = ["--db", str(sample_db)]
    loaded = run([*db, "load", str(csv), "--table", "orders", "--replace"], tmp_path)
    assert loaded.returncode == 0 and "note:" not in loaded.stderr  # the columns still fit
    tools = run([*db, "tools", "list"], tmp_path)
    assert tools.returncode == 0
    assert "the bundled tool sales_summary lists the values of orders.city" in tools.stderr
    assert "sales_summary" not in tools.stdout and "revenue_trend" in tools.stdout
    trend = run(
        [*db, "tools", "call", "revenue_trend", '{"period": "2026-01-01..2026-01-31", "grain": "month"}'],
        tmp_path,
    )
    assert trend.returncode == 0 and json.loads(trend.stdout)["rows"][0][1:] == [1000, 100000]


def test_a_tools_folder_reads_regular_files_only_and_of_bounded_size(sample_db, tmp_path):
    """Before: a FIFO named *.sql hung every command; a symlink to /dev/zero ate 12 GB in 26 s."""
    tools = tmp_path / "tools"
    tools.mkdir()
    os.mkfifo(tools / "fifo.sql")
    (tools / "zero.sql").symlink_to("/dev/zero")
    (tools / "huge.sql").write_text("-- name: huge\n" + "-- padding\n" * 40_000)
    (tools / "folder.sql").mkdir()
    (tools / "good.sql").write_text(
        "-- name: order_count\n-- description: How many orders there are.\n-- tables: orders\n"
        "-- returns: object\nSELECT count(*) AS orders FROM orders\n"
    )
    result = run(["--db", str(sample_db), "--tools-dir", str(tools), "tools", "list"], tmp_path, timeout=600)
    assert result.returncode == 0 and "order_count" in result.stdout
    warnings = sorted(result.stderr.splitlines())
    assert len(warnings) == 4
    for name in ("fifo.sql", "folder.sql", "zero.sql"):
        assert any(f"{tools / name}: not a regular file" in w for w in warnings), name
    assert any(f"{tools / 'huge.sql'}: larger than 256 KiB" in w for w in warnings)


def _write_csv(path: Path, rows: int, *, bad_last_line: bool = False) -> None:
    """Rows of md5 text (DuckDB cannot compress them much), optionally ending in an unconvertible id."""
    conn = duckdb.connect()
    conn.execute(
        "COPY (SELECT i AS id, md5(i::VARCHAR) AS a, md5((i + 1)::VARCHAR) AS b "
        f"FROM range({rows}) t(i)) TO '{path}' (HEADER)"
    )
    conn.close()
    if bad_last_line:
        with path.open("a") as fh:
            fh.write("not-a-number,x,y\n")


def test_a_load_that_fails_late_gives_its_disk_space_back(sample_db, tmp_path):
    """Before: DuckDB had written the rows' blocks into the file before the bad last line failed the
    load, and kept the file that long (6 MB here, from 2.4 MB) until some later write."""
    csv = tmp_path / "late.csv"
    _write_csv(csv, 600_000, bad_last_line=True)
    before = sample_db.stat().st_size
    result = run(["--db", str(sample_db), "load", str(csv), "--table", "late"], tmp_path)
    assert result.returncode == 1 and "line 600002" in result.stderr
    assert sample_db.stat().st_size == before
    conn = duckdb.connect(str(sample_db), read_only=True)
    try:  # the file is whole: every table reads to the end
        assert conn.execute("SELECT count(*), sum(amount) FROM orders").fetchone()[0] == 42000
        assert conn.execute("SELECT count(*) FROM order_items").fetchone() == (73042,)
    finally:
        conn.close()


_FULL_DISK = """
import json, os, shutil, subprocess, sys
work, sample, csv = sys.argv[1:4]
disk = os.path.join(work, "disk")
os.makedirs(disk, exist_ok=True)
if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12m", "tmpfs", disk]).returncode:
    sys.exit(77)
db = os.path.join(disk, "db.duckdb")
shutil.copyfile(sample, db)
cli = [sys.executable, "-m", "analytics_agent", "--db", db]
out = {"before": os.path.getsize(db)}
load = subprocess.run([*cli, "load", csv, "--table", "big"], capture_output=True, text=True)
out.update(load=[load.returncode, load.stderr], after=os.path.getsize(db), free=shutil.disk_usage(disk).free)
drop = subprocess.run([*cli, "drop", "customers"], capture_output=True, text=True)
tables = subprocess.run([*cli, "tables"], capture_output=True, text=True)
out.update(drop=[drop.returncode, drop.stdout + drop.stderr], tables=[tables.returncode, tables.stdout])
print(json.dumps(out))
"""


def test_on_a_full_disk_a_failed_load_gives_the_space_back_and_drop_works(sample_db, tmp_path):
    """A real 12 MB tmpfs (in a private mount namespace) that the load fills. Before: the file grew to
    fill the disk, and drop then failed with an internal error."""
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare for a private tmpfs")
    csv = tmp_path / "big.csv"
    _write_csv(csv, 600_000)
    harness = subprocess.run(
        ["unshare", "--mount", "--map-root-user", sys.executable, "-c", _FULL_DISK, str(tmp_path), str(sample_db), str(csv)],
        capture_output=True, text=True, timeout=600, env=dict(os.environ),
    )  # fmt: skip
    if harness.returncode != 0:
        pytest.skip(f"no private tmpfs here ({harness.returncode}: {harness.stderr.strip()[:100]})")
    out = json.loads(harness.stdout)
    assert out["load"] == [
        1,
        "error: the disk is full; free some space and load again (the database is unchanged)\n",
    ]
    assert out["after"] == out["before"]
    assert out["free"] > 8 * 2**20  # the space is free for everything else on that disk
    assert out["drop"] == [0, "Dropped customers (8,000 rows).\n"]
    assert out["tables"][0] == 0 and "customers" not in out["tables"][1] and "orders" in out["tables"][1]


@pytest.mark.parametrize("after_s", [0.0, 0.5], ids=["as-it-writes", "a-moment-later"])
def test_ctrl_c_during_a_load_says_what_state_it_left(sample_db, tmp_path, after_s):
    """Before: "internal error (RuntimeError)", or exit 130 in silence although the load had committed.

    The Ctrl-C goes once the load has begun writing to the database (its sign of readiness), not at a
    fixed time after start: on a busy machine that fell inside Python's start-up, before any handler."""
    csv = tmp_path / "big.csv"
    _write_csv(csv, 1_500_000)
    size = sample_db.stat().st_size
    wal = sample_db.with_name(sample_db.name + ".wal")
    load = subprocess.Popen(
        [*CLI, "--db", str(sample_db), "load", str(csv), "--table", "big"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    for _ in range(60_000):  # a generous bound (about 10 min) so a stuck load ends; nothing asserts on it
        if load.poll() is not None or wal.exists() or sample_db.stat().st_size != size:
            break
        time.sleep(0.01)
    time.sleep(after_s)
    load.send_signal(signal.SIGINT)
    out, err = load.communicate(timeout=600)
    conn = duckdb.connect(str(sample_db), read_only=True)
    try:
        exists = conn.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'big'").fetchone()[0]
    finally:
        conn.close()
    if load.returncode == 0:  # finished before the signal: nothing to say
        assert exists and "Loaded 1,500,000 rows" in out
        return
    assert load.returncode == 130 and "Traceback" not in err and "internal error" not in err
    if exists:
        assert err == "interrupted after the load was committed; it is complete\n"
    else:
        assert err in (
            "interrupted: the load was rolled back; the database is unchanged\n",
            "interrupted before the load started; the database is unchanged\n",
        )


def test_a_corrupt_database_says_corrupt_and_how_to_recover(sample_db, tmp_path):
    """Before: DuckDB's "checksum ... in block" contains "lock", so it read "in use by another process"."""
    with sample_db.open("r+b") as fh:
        fh.seek(100)
        fh.write(b"\xff" * 4000)
    for command in (["tables"], ["drop", "orders"]):
        result = run(["--db", str(sample_db), *command], tmp_path)
        assert result.returncode == 1
        assert result.stderr.startswith(f"error: the database {sample_db} is corrupt (Corrupt database file")
        # "in use" would mean the writer took it for a lock and waited for it to be freed
        assert "restore it from a backup, or move it aside" in result.stderr and "in use" not in result.stderr


_RAW_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
TITLE = "\x1b]0;pwned\x07"  # retitles the window
LINK = "\x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\"  # a hidden hyperlink
CLEAR = "\x1b[2J"
C1_CSI = "\x9b31m"


def test_control_characters_from_csv_and_tool_files_never_reach_the_terminal(sample_db, tmp_path):
    """Before: the load summary, schema and tools list printed them raw (window title, OSC 8, clear)."""
    csv = tmp_path / "hostile.csv"
    csv.write_text(f'id,"{TITLE}name{CLEAR}",city\n1,"{LINK}",{C1_CSI}red\n2,b,c\n', encoding="utf-8")
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "t.sql").write_text(
        f"-- name: hostile\n-- description: Counts{TITLE} rows{CLEAR}.\n-- tables: orders\n"
        "-- returns: object\nSELECT count(*) AS n FROM orders\n",
        encoding="utf-8",
    )
    db = ["--db", str(sample_db)]
    outputs = [
        run([*db, "load", str(csv), "--table", "hostile"], tmp_path),
        run([*db, "schema", "hostile"], tmp_path),
        run([*db, "schema", "hostile", "--json"], tmp_path),
        run([*db, "tables"], tmp_path),
        run([*db, "--tools-dir", str(tools), "tools", "list"], tmp_path),
        run(
            [*db, "load", str(csv), "--table", "again", "--type", "city=INTEGER"], tmp_path
        ),  # error quotes a value
    ]
    for result in outputs:
        assert not _RAW_CONTROLS.search(result.stdout + result.stderr), result.args
    assert "\\x1b]0;pwned\\x07name\\x1b[2J" in outputs[0].stdout  # shown, escaped, not dropped
    assert "Counts\\x1b]0;pwned\\x07 rows\\x1b[2J." in outputs[4].stdout
    assert outputs[5].returncode == 1 and "\\x9b31mred" in outputs[5].stderr
    profile = json.loads(outputs[2].stdout)  # still JSON, and it decodes to the real values
    assert profile["columns"][1]["values"][0] == LINK and profile["columns"][2]["max"] == C1_CSI + "red"
