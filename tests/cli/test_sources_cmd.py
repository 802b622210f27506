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


def test_a_broken_sources_file_is_one_line_naming_the_file(sample_db, tmp_path):
    home = tmp_path / "conf"
    (home / "analytics-agent").mkdir(parents=True)
    (home / "analytics-agent" / "sources.toml").write_text('[trips]\ntype = "files"\n')
    result = run(["--db", str(sample_db), "tables"], tmp_path, XDG_CONFIG_HOME=str(home))
    assert result.returncode == 1
    assert "sources.toml: source trips: path is required" in result.stderr
    assert "Traceback" not in result.stderr
