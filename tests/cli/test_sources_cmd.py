"""``sources`` as a user runs it: a real process, a real Parquet folder, a real database file."""

from __future__ import annotations

import os
import subprocess
import sys

import duckdb


def run(args, cwd, **env):
    return subprocess.run(
        [sys.executable, "-m", "analytics_agent", *args],
        cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def test_add_list_ask_the_tools_then_remove(sample_db, tmp_path):
    duckdb.sql(
        f"COPY (SELECT i % 5 AS shop, i AS amount FROM range(100) t(i)) TO '{tmp_path}/sales' "
        "(FORMAT parquet, PARTITION_BY (shop))"
    )
    added = run(["sources", "add", "sales", "--type", "files", "--path", "sales/"], tmp_path)
    assert added.returncode == 0, added.stderr
    assert "sales (2 columns)" in added.stdout and "Saved source sales" in added.stdout

    listed = run(["sources", "list"], tmp_path / "..")  # the path was saved absolute
    assert f"{tmp_path}/sales" in listed.stdout

    called = run(
        ["--db", str(sample_db), "tools", "call", "aggregate",
         '{"table": "sales", "metrics": [{"fn": "sum", "column": "amount"}]}'],
        tmp_path,
    )  # fmt: skip
    assert called.returncode == 0, called.stderr
    assert '"rows":[[4950]]' in called.stdout

    without = run(["--db", str(sample_db), "--no-sources", "tables"], tmp_path)
    assert "sales" not in without.stdout and "orders" in without.stdout

    assert run(["sources", "remove", "sales"], tmp_path).returncode == 0
    assert "No sources yet" in run(["sources", "list"], tmp_path).stdout


def test_a_source_that_cannot_be_read_is_not_saved(tmp_path):
    result = run(["sources", "add", "gone", "--type", "files", "--path", "nowhere/*.parquet"], tmp_path)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "source gone: no file matches" in result.stderr
    assert "No sources yet" in run(["sources", "list"], tmp_path).stdout


def test_a_broken_sources_file_is_one_warning_naming_the_file_and_the_rest_works(sample_db, tmp_path):
    home = tmp_path / "conf"
    (home / "analytics-agent").mkdir(parents=True)
    (home / "analytics-agent" / "sources.toml").write_text('[trips]\ntype = "files"\n')
    result = run(["--db", str(sample_db), "tables"], tmp_path, XDG_CONFIG_HOME=str(home))
    assert result.returncode == 0, result.stderr
    assert "orders" in result.stdout
    [line] = result.stderr.splitlines()
    assert line.startswith("warning: ") and "sources.toml: source trips: path is required" in line
    assert "--no-sources" in line


def _parquet_source(tmp_path, *extra):
    duckdb.sql(
        f"COPY (SELECT i AS amount FROM range(10) t(i)) TO '{tmp_path}/sales.parquet' (FORMAT parquet)"
    )
    added = run(["sources", "add", "sales", "--type", "files", "--path", "sales.parquet", *extra], tmp_path)
    assert added.returncode == 0, added.stderr
    return added


def test_a_source_that_fails_is_skipped_with_one_warning_and_the_rest_works(sample_db, tmp_path):
    _parquet_source(tmp_path)
    (tmp_path / "sales.parquet").unlink()  # the files moved away (as a server stops)
    result = run(["--db", str(sample_db), "tables"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "orders" in result.stdout and "sales" not in result.stdout
    [line] = result.stderr.splitlines()
    assert line.startswith("warning: source sales skipped: ") and "--no-sources" in line
    called = run(
        [
            "--db",
            str(sample_db),
            "tools",
            "call",
            "aggregate",
            '{"table": "orders", "metrics": [{"fn": "count"}]}',
        ],
        tmp_path,
    )
    assert called.returncode == 0 and '"rows":[[42000]]' in called.stdout

    # --no-sources and -v after the command, like the other global options
    quiet = run(["tables", "--db", str(sample_db), "--no-sources", "-v"], tmp_path)
    assert quiet.returncode == 0, quiet.stderr
    assert "sales" not in quiet.stderr and "orders" in quiet.stdout


def test_a_source_added_with_db_belongs_to_that_database_only(sample_db, tmp_path):
    other = tmp_path / "other.duckdb"
    duckdb.connect(str(other)).execute("CREATE TABLE things AS SELECT 1 AS x").close()
    added = _parquet_source(tmp_path, "--db", str(sample_db))
    assert f"used with {sample_db} only" in added.stdout
    mine = run(["--db", str(sample_db), "tables"], tmp_path)
    theirs = run(["--db", str(other), "tables"], tmp_path)
    assert "sales" in mine.stdout and "sales" not in theirs.stdout and "things" in theirs.stdout
    listed = run(["sources", "list"], tmp_path)
    assert str(sample_db) in listed.stdout


def test_removing_a_source_that_does_not_exist_is_an_error(tmp_path):
    _parquet_source(tmp_path)
    result = run(["sources", "remove", "sale"], tmp_path)
    assert result.returncode == 1
    assert "no source 'sale'" in result.stderr and "sales" in result.stderr and "Removed" not in result.stdout


def test_sources_add_is_small_pieces_with_one_job_each():
    """Review leftover of issue 25: ``add`` was 80 lines; its options are named aliases, its body two calls."""
    import ast
    import inspect

    from analytics_agent.cli import sources_cmd

    tree = ast.parse(inspect.getsource(sources_cmd))
    lengths = {f.name: f.end_lineno - f.lineno + 1 for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
    assert max(lengths.values()) <= 60, lengths
    assert lengths["add"] <= 30, lengths["add"]


def test_tables_marks_linked_tables_and_semantic_init_leaves_them_out(sample_db, tmp_path):
    import json

    import yaml

    duckdb.sql(f"COPY (SELECT i % 5 AS shop, i AS amount FROM range(100) t(i)) TO '{tmp_path}/sales.parquet'")
    assert (
        run(["sources", "add", "sales", "--type", "files", "--path", "sales.parquet"], tmp_path).returncode
        == 0
    )
    shown = run(["--db", str(sample_db), "tables"], tmp_path).stdout
    assert shown.splitlines()[0].split() == ["table", "rows", "columns", "source"]
    marks = {line.split()[0]: line.split()[3:] for line in shown.splitlines()[2:]}
    assert marks["sales"] == ["linked:", "sales"] and marks["orders"] == []
    listed = json.loads(run(["--db", str(sample_db), "tables", "--json"], tmp_path).stdout)
    assert {t["name"]: t["source"] for t in listed}["sales"] == "sales"

    own = tmp_path / "own.duckdb"
    with duckdb.connect(str(own)) as conn:
        conn.execute("CREATE TABLE visits AS SELECT 'north' AS region, 3 AS amount")
    made = run(["--db", str(own), "semantic", "init"], tmp_path)
    assert made.returncode == 0, made.stderr
    written = yaml.safe_load((tmp_path / "own.semantic.yaml").read_text(encoding="utf-8"))
    assert set(written["tables"]) == {"visits"}  # the linked table is not written as if it were local
    with duckdb.connect(str(own), read_only=True) as conn:
        stored = {r[0] for r in conn.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    assert "sales" not in stored


def test_a_database_file_named_linked_gets_one_line_not_an_internal_error(tmp_path):
    """DuckDB names a database after its file: ``linked.duckdb`` is the catalog the sources' own views need,
    and every command with a source failed with an internal error (BinderException)."""
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    (tmp_path / "y.csv").write_text("c,d\n3,4\n")
    assert run(["--db", "linked.duckdb", "load", "x.csv"], tmp_path).returncode == 0
    refused = run(
        ["--db", "linked.duckdb", "sources", "add", "ys", "--type", "files", "--path", "y.csv"], tmp_path
    )
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1, refused.stderr
    assert "cannot have linked sources" in refused.stderr and "linked_data.duckdb" in refused.stderr
    assert "No sources yet" in run(["sources", "list"], tmp_path).stdout
    # a source for every database reaches this one too: each command says why, in one line
    assert run(["sources", "add", "ys", "--type", "files", "--path", "y.csv"], tmp_path).returncode == 0
    tables = run(["--db", "linked.duckdb", "tables"], tmp_path)
    assert tables.returncode == 1 and "internal error" not in tables.stderr, tables.stderr
    assert tables.stderr.startswith("error: a database file named linked.duckdb cannot have linked sources")
