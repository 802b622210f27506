"""run_sql's parse-tree check where it is the only guard: with a files source linked in place, the sandbox
lets DuckDB read the source's folder (and the database's own file), so only the check stands between a
model's free SQL and those files. Each attempt must be refused by the check itself, by its own message,
not by some later error that happens to mention nothing."""

from __future__ import annotations

import json

import duckdb
import pytest

from analytics_agent.db.linked.spec import parse_source
from analytics_agent.tools.run_sql import _TABLE_FUNCTIONS
from analytics_agent.workspace.workspace import Workspace

SECRET = "planted-secret"


@pytest.fixture
def linked(sample_db, tmp_path):
    """The sample database with a glob of Parquet files linked in place (the sandbox then allows their
    folder), and a private file planted in that folder."""
    folder = tmp_path / "lake"
    folder.mkdir()
    with duckdb.connect() as conn:
        conn.execute(
            f"COPY (SELECT range AS trip_id, range * 1.5 AS fare FROM range(10)) TO '{folder}/trips-1.parquet'"
        )
        conn.execute(f"COPY (SELECT '{SECRET}' AS s) TO '{folder}/private.parquet'")
    (folder / "private.csv").write_text(f"s\n{SECRET}\n")
    source = parse_source("trips", {"type": "files", "path": str(folder / "trips-*.parquet")})
    ws = Workspace.open(sample_db, sources=[source], allow_sql=True)
    yield ws, folder
    ws.close()


def _run_sql(ws: Workspace, query: str):
    return ws.executor.execute("run_sql", json.dumps({"query": query}))


def _refused_by_the_check(outcome, name: str) -> bool:
    return outcome.is_error and (
        f"run_sql may not call {name}()" in outcome.text or "run_sql reads tables, not files" in outcome.text
    )


def test_the_sandbox_alone_would_let_these_reads_through(linked, sample_db):
    """The premise: on the same sandboxed connection, without run_sql's check, the files are readable. If
    the sandbox one day refuses them itself, this fails and says so: the tests below then no longer test
    the check alone."""
    ws, folder = linked
    cursor = ws.cursor()
    planted = cursor.execute(f"SELECT s FROM read_parquet('{folder}/private.parquet')").fetchall()
    assert planted == [(SECRET,)], "the sandbox now refuses the source folder by itself"
    own = cursor.execute(f"SELECT size FROM read_blob('{sample_db}')").fetchone()
    assert own is not None and own[0] > 0, "the sandbox now refuses the database's own file by itself"


@pytest.mark.parametrize(
    ("name", "template"),
    [
        ("read_blob", "SELECT content FROM read_blob('{db}')"),
        ("read_text", "SELECT content FROM read_text('{db}')"),
        ("read_duckdb", "SELECT * FROM read_duckdb('{db}', table_name => 'orders')"),
        ("", "SELECT * FROM '{db}'"),
        ("read_parquet", "SELECT s FROM read_parquet('{folder}/private.parquet')"),
        ("read_csv", "SELECT * FROM read_csv('{folder}/private.csv')"),
        ("read_csv_auto", "SELECT * FROM (SELECT 1) JOIN read_csv_auto('{folder}/private.csv') ON true"),
        ("glob", "WITH f AS (SELECT * FROM glob('{folder}/*')) SELECT * FROM f"),
        ("", "SELECT * FROM '{folder}/private.parquet'"),
        ("", "SELECT * FROM trips UNION ALL SELECT * FROM '{folder}/private.csv'"),
    ],
)
def test_the_databases_own_file_and_a_planted_file_are_refused_by_the_check(
    linked, sample_db, name, template
):
    ws, folder = linked
    outcome = _run_sql(ws, template.format(db=sample_db, folder=folder))
    assert _refused_by_the_check(outcome, name), outcome.text
    assert SECRET not in outcome.text


def _table_functions(ws: Workspace) -> list[str]:
    rows = (
        ws.cursor()
        .execute(
            "SELECT DISTINCT function_name FROM duckdb_functions() WHERE function_type = 'table' ORDER BY 1"
        )
        .fetchall()
    )
    return [r[0] for r in rows]


def test_every_table_function_duckdb_has_is_refused_unless_it_only_generates_rows(linked):
    """Enumerated from this DuckDB, so a new version's new reader is covered without editing this test."""
    ws, _ = linked
    names = _table_functions(ws)
    readers = {"read_csv", "read_parquet", "read_json", "read_text", "read_blob", "glob", "parquet_metadata"}
    assert readers <= set(names)  # the enumeration sees the file readers at all
    unrefused = []
    for name in names:
        if name.lower() in _TABLE_FUNCTIONS:
            continue
        outcome = _run_sql(ws, f"SELECT * FROM \"{name}\"('x')")
        if not _refused_by_the_check(outcome, name):
            unrefused.append((name, outcome.text[:120]))
    assert unrefused == []


def test_the_allowed_table_functions_read_nothing_outside(linked):
    """What the check lets through is DuckDB's own row generators and catalog views."""
    ws, _ = linked
    names = set(_table_functions(ws))
    assert set(_TABLE_FUNCTIONS) <= names  # no stale name in the list of allowed ones
    assert not {n for n in _TABLE_FUNCTIONS if n.startswith(("read_", "parquet_", "glob"))}
    rows = json.loads(_run_sql(ws, "SELECT count(*) FROM range(3) JOIN duckdb_tables() ON true").text)["rows"]
    assert rows[0][0] > 0
