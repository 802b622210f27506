"""A database someone sent whose views select without end, or whose tables hold huge strings, must not
hold any command: counts and profiles are bounded (issue 24).

Before: a view over ``range(1e13)`` made ``load``, ``describe_table`` and ``semantic init`` count it
without end (relationship inference and the starter file profiled every view); 60 MB strings went whole
into a table's profile (min, max, values) until DuckDB ran out of memory ("describe_table failed
unexpectedly"); a forged stored profile of many megabytes was read and shaped as it was. The runs are in
child processes held to a memory cap with a safety timeout; the tests assert on what they printed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from bounded_run import GIB

SAFETY_S = 180  # a broken build counts 1e13 rows (hours); a fixed one answers in seconds


def cli(db: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    def cap() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (3 * GIB, 3 * GIB))

    env = {**os.environ, "HOME": str(cwd), "XDG_DATA_HOME": str(cwd / "data")}
    return subprocess.run(
        [sys.executable, "-m", "analytics_agent", "--db", str(db), *args],
        cwd=cwd, env=env, preexec_fn=cap, capture_output=True, text=True, timeout=SAFETY_S,
    )  # fmt: skip


@pytest.fixture
def endless_view(tmp_path: Path) -> Path:
    path = tmp_path / "sent.duckdb"
    conn = duckdb.connect(str(path))
    conn.execute("CREATE TABLE orders AS SELECT range AS id, range % 7 AS shop FROM range(1000)")
    conn.execute("CREATE VIEW endless AS SELECT range AS id FROM range(10000000000000)")
    conn.close()
    return path


def test_a_view_over_an_endless_range_holds_up_no_command(endless_view, tmp_path):
    described = cli(endless_view, "tools", "call", "describe_table", '{"table": "orders"}', cwd=tmp_path)
    assert described.returncode == 0, described.stderr[-800:]
    assert json.loads(described.stdout)["rows"] == 1000
    csv = tmp_path / "shops.csv"
    csv.write_text("shop,name\n" + "".join(f"{i},shop {i}\n" for i in range(7)))
    loaded = cli(endless_view, "load", str(csv), "--table", "shops", cwd=tmp_path)
    assert loaded.returncode == 0, loaded.stderr[-800:]
    assert "Loaded 7 rows" in loaded.stdout
    init = cli(endless_view, "semantic", "init", cwd=tmp_path)
    assert init.returncode == 0, init.stderr[-800:]
    written = endless_view.with_name("sent.semantic.yaml").read_text()
    assert "orders:" in written and "endless" not in written


def test_the_endless_view_itself_is_stopped_by_the_time_limit(endless_view, tmp_path):
    view = cli(endless_view, "tools", "call", "describe_table", '{"table": "endless"}', cwd=tmp_path)
    assert view.returncode == 1
    assert view.stdout.startswith("Error: describe_table took longer than 15 s and was stopped")


@pytest.fixture
def huge_strings(tmp_path: Path) -> Path:
    path = tmp_path / "strings.duckdb"
    conn = duckdb.connect(str(path))
    conn.execute("SET memory_limit = '2GB'")
    conn.execute(
        "CREATE TABLE notes AS SELECT i AS id, repeat(chr((65 + i)::INTEGER), 60000000) AS body, "
        "['a', 'b'][i % 2 + 1] AS kind FROM range(4) t(i)"
    )
    conn.close()
    return path


def test_describe_table_on_60_mb_strings_answers_with_a_small_profile(huge_strings, tmp_path):
    result = cli(huge_strings, "tools", "call", "describe_table", '{"table": "notes"}', cwd=tmp_path)
    assert result.returncode == 0, (result.stdout + result.stderr)[-800:]
    assert len(result.stdout) < 2000  # the profile names the column; no 60 MB value comes back
    columns = {c["name"]: c for c in json.loads(result.stdout)["columns"]}
    assert set(columns["body"]) == {"name", "type", "nulls"}  # free text: no min, max or values
    assert columns["kind"]["values"] == ["a", "b"] and columns["id"]["max"] == 3


def test_a_forged_stored_profile_of_many_megabytes_is_not_trusted(tmp_path):
    path = tmp_path / "forged.duckdb"
    conn = duckdb.connect(str(path))
    conn.execute("CREATE TABLE sales AS SELECT range AS id FROM range(5)")
    conn.execute("CREATE SCHEMA _agent")
    conn.execute(
        "CREATE TABLE _agent.profiles (table_name VARCHAR PRIMARY KEY, profile VARCHAR, updated_at TIMESTAMP)"
    )
    forged = {"table": "sales", "rows": 999, "columns": [{"name": "id", "type": "BIGINT", "nulls": 0,
              "values": ["x" * 1000] * 20000}]}  # fmt: skip
    conn.execute("INSERT INTO _agent.profiles VALUES ('sales', ?, now())", [json.dumps(forged)])
    conn.close()
    result = cli(path, "tools", "call", "describe_table", '{"table": "sales"}', cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-800:]
    assert json.loads(result.stdout)["rows"] == 5  # computed from the table, not the 20 MB forgery


@pytest.mark.parametrize(
    "profile",
    [
        '{"rows": 999, "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"rows": 999, "columns": [' + '{"a": ' * 100_000 + "1" + "}" * 100_000 + "]}",
        '{"rows": 999, "x": ' + "[" * 70 + "]" * 70 + "}",
    ],
    ids=["array", "object", "just past the bound"],
)
@pytest.mark.parametrize("command", ["tables", "describe_table"])
def test_a_forged_stored_profile_nested_deep_is_computed_again(tmp_path, profile, command):
    """A profile nested 100,000 deep in a database someone sent made ``tables`` (and every command that
    reads profiles) end in ``internal error (RecursionError)``."""
    path = tmp_path / "forged.duckdb"
    conn = duckdb.connect(str(path))
    conn.execute("CREATE TABLE sales AS SELECT range AS id FROM range(5)")
    conn.execute("CREATE SCHEMA _agent")
    conn.execute(
        "CREATE TABLE _agent.profiles (table_name VARCHAR PRIMARY KEY, profile VARCHAR, updated_at TIMESTAMP)"
    )
    conn.execute("INSERT INTO _agent.profiles VALUES ('sales', ?, now())", [profile])
    conn.close()
    if command == "tables":
        result = cli(path, "tables", cwd=tmp_path)
        assert result.returncode == 0, result.stderr[-800:]
        assert [line.split()[:2] for line in result.stdout.splitlines() if line.startswith("sales")] == [
            ["sales", "5"]
        ]
    else:
        result = cli(path, "tools", "call", "describe_table", '{"table": "sales"}', cwd=tmp_path)
        assert result.returncode == 0, result.stderr[-800:]
        assert json.loads(result.stdout)["rows"] == 5


def test_a_macro_shadowing_a_builtin_function_is_refused_not_used(tmp_path):
    """Before: ``CREATE MACRO sum(x) AS 42`` in a database someone sent made aggregate's sum 42 on every
    row, a wrong number without a sign."""
    path = tmp_path / "macro.duckdb"
    conn = duckdb.connect(str(path))
    conn.execute("CREATE TABLE sales AS SELECT range AS id, range * 2 AS amount FROM range(10)")
    conn.execute("CREATE MACRO sum(x) AS 42")
    conn.execute("CREATE MACRO margin(x) AS x * 0.1")  # a macro of its own name is the owner's business
    conn.close()
    args = '{"table": "sales", "metrics": [{"fn": "sum", "column": "amount"}]}'
    result = cli(path, "tools", "call", "aggregate", args, cwd=tmp_path)
    assert result.returncode == 1 and "42" not in result.stdout
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: the database {path} defines sum as its own macro")
    assert "DROP MACRO sum" in line


def test_a_macro_of_its_own_name_is_the_owners_business_and_the_database_opens(tmp_path):
    path = tmp_path / "own_macro.duckdb"
    conn = duckdb.connect(str(path))
    conn.execute("CREATE TABLE sales AS SELECT range AS id, range * 2 AS amount FROM range(10)")
    conn.execute("CREATE MACRO margin(x) AS x * 0.1")
    conn.close()
    args = '{"table": "sales", "metrics": [{"fn": "sum", "column": "amount", "as": "total"}]}'
    result = cli(path, "tools", "call", "aggregate", args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-800:]
    assert json.loads(result.stdout)["rows"] == [[90]]
