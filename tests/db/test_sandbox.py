"""The tool connection cannot touch files, the network or its own settings, and cannot write."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import duckdb
import pytest

from analytics_agent.db.connect import open_sandbox


@pytest.fixture
def sandbox(sample_db, tmp_path):
    (tmp_path / "secret.csv").write_text("a,b\n1,2\n")
    conn = open_sandbox(sample_db)
    yield conn.cursor()
    conn.close()


ESCAPES = [
    "SELECT * FROM read_csv('{tmp}/secret.csv')",
    "SELECT * FROM '{tmp}/secret.csv'",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM glob('{tmp}/*')",
    "ATTACH '{tmp}/other.duckdb' AS other",
    "COPY orders TO '{tmp}/leak.csv'",
    "EXPORT DATABASE '{tmp}/dump'",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SELECT * FROM read_csv('https://example.com/x.csv')",
    "SET enable_external_access = true",
    "SET lock_configuration = false",
    "SET memory_limit = '100GB'",
    "RESET enable_external_access",
    "CREATE TABLE stolen AS SELECT 1",
    "INSERT INTO orders SELECT * FROM orders LIMIT 1",
    "DELETE FROM orders",
    "DROP TABLE orders",
    "UPDATE orders SET amount = 0",
]


@pytest.mark.parametrize("statement", ESCAPES)
def test_a_tool_connection_refuses_every_way_out(sandbox, tmp_path, statement):
    with pytest.raises(duckdb.Error):
        sandbox.execute(statement.format(tmp=tmp_path)).fetchall()
    assert not (tmp_path / "leak.csv").exists() and not (tmp_path / "dump").exists()
    assert not (tmp_path / "other.duckdb").exists()


def test_the_data_is_intact_after_every_attempt(sandbox, tmp_path):
    before = sandbox.execute("SELECT count(*), sum(amount) FROM orders").fetchone()
    for statement in ESCAPES:
        with contextlib.suppress(duckdb.Error):
            sandbox.execute(statement.format(tmp=tmp_path)).fetchall()
    assert sandbox.execute("SELECT count(*), sum(amount) FROM orders").fetchone() == before


def test_cursors_inherit_the_locked_configuration(sample_db):
    conn = open_sandbox(sample_db, memory_limit="256MB")
    try:
        settings = dict(
            conn.cursor()
            .execute(
                "SELECT name, value FROM duckdb_settings() WHERE name IN "
                "('enable_external_access', 'lock_configuration', 'access_mode')"
            )
            .fetchall()
        )
        assert settings == {
            "enable_external_access": "false",
            "lock_configuration": "true",
            "access_mode": "read_only",
        }
        limit = conn.cursor().execute("SELECT current_setting('memory_limit')").fetchone()[0]
        assert limit.startswith("244") or limit.startswith("256")  # DuckDB shows MiB
    finally:
        conn.close()


def test_read_only_alone_would_not_be_enough(sample_db, tmp_path):
    """Why the sandbox sets more than read_only: without it a query reads local files."""
    (tmp_path / "secret.csv").write_text("a\n42\n")
    conn = duckdb.connect(str(sample_db), read_only=True)
    try:
        assert conn.execute(f"SELECT a FROM read_csv('{tmp_path}/secret.csv')").fetchone() == (42,)
    finally:
        conn.close()


# --- The sandbox reads no file at all, its own included -------------------------------------------------

TOKEN = "planted-7f3a9c"


@pytest.fixture
def db_with_dropped_secret(tmp_path):
    """A database whose file still holds the bytes of a dropped table (DuckDB does not wipe them)."""
    path = tmp_path / "own.duckdb"
    conn = duckdb.connect(str(path))
    conn.execute(f"CREATE TABLE secret AS SELECT '{TOKEN}' || md5(i::VARCHAR) AS s FROM range(500) t(i)")
    conn.execute("CHECKPOINT")
    conn.execute("CREATE TABLE kept AS SELECT i AS a FROM range(300000) t(i)")  # after it in the file
    conn.execute("CHECKPOINT")
    conn.execute("DROP TABLE secret")
    conn.execute("CHECKPOINT")
    conn.close()
    assert TOKEN.encode() in path.read_bytes()  # freed blocks keep their bytes
    return path


_FILLERS = {"VARCHAR": "'x'", "BOOLEAN": "false", "BIGINT": "1", "UBIGINT": "1", "INTEGER": "1", "ANY": "1"}


def _table_functions() -> dict[str, list[str]]:
    """Every table function whose first parameter can be a path, with the extra arguments (after the
    path) of its shortest signature: ``parquet_bloom_probe(path, column, value)`` needs two more."""
    conn = duckdb.connect()
    try:
        rows = conn.execute(
            "SELECT function_name, parameter_types FROM duckdb_functions() WHERE function_type = 'table' "
            "AND parameter_types[1] IN ('VARCHAR', 'ANY[]', 'VARIANT', 'ANY') ORDER BY 1"
        ).fetchall()
    finally:
        conn.close()
    calls: dict[str, list[str]] = {}
    for name, types in sorted(rows, key=lambda r: len(r[1])):
        calls.setdefault(name, [_FILLERS.get(t, "NULL") for t in types[1:4]])
    return calls


def _call(name: str, extra: list[str], target: str | list[str]) -> Iterator[str]:
    """The calls to try, the target as a literal (``query_table`` scans a file only for a literal)."""
    path = [target] if isinstance(target, str) else target
    literal = ", ".join("'" + p.replace("'", "''") + "'" for p in path)
    literal = literal if isinstance(target, str) else f"[{literal}]"
    for arguments in ([], extra):  # read_csv(path) binds; parquet_bloom_probe needs its extras
        yield f"SELECT * FROM {name}({', '.join([literal, *arguments])}) LIMIT 5000"


def _reads_file_contents(rows: list[tuple]) -> bool:
    text = repr(rows)
    return TOKEN in text or "DUCK" in text


def test_the_attack_is_real_without_the_sandbox(db_with_dropped_secret):
    """Why the test below means something: a plain read-only connection hands out the file's bytes."""
    conn = duckdb.connect(
        str(db_with_dropped_secret), read_only=True, config={"enable_external_access": False}
    )
    try:
        path = conn.execute("SELECT path FROM duckdb_databases() WHERE path IS NOT NULL").fetchone()[0]
        blob = conn.execute("SELECT content FROM read_blob(?)", [path]).fetchone()[0]
        assert TOKEN.encode() in blob
    finally:
        conn.close()


def test_every_file_reading_table_function_is_refused_on_the_own_file_and_its_wal(db_with_dropped_secret):
    calls = _table_functions()
    readers = [n for n in calls if n.startswith(("read_", "parquet_", "sniff_")) or n == "glob"]
    assert {"read_blob", "read_text", "read_csv", "read_json", "read_parquet", "read_duckdb", "glob"} <= set(
        readers
    ), readers
    conn = open_sandbox(db_with_dropped_secret)
    try:
        own = str(db_with_dropped_secret)
        for name in readers:
            for target in (own, own + ".wal", own + ".tmp/x"):
                errors = []
                for query in _call(name, calls[name], target):
                    try:
                        conn.execute(query).fetchall()
                    except duckdb.Error as exc:
                        errors.append(exc)
                assert any(isinstance(e, duckdb.PermissionException) for e in errors), (name, errors)
    finally:
        conn.close()


def test_no_table_function_returns_any_byte_of_the_own_file(db_with_dropped_secret):
    """Every table function taking a path-like first argument, called with the database's own path
    (as text and as a list): none returns the file's magic or a token from the dropped table."""
    conn = open_sandbox(db_with_dropped_secret)
    own = str(db_with_dropped_secret)
    leaked = []
    try:
        for name, extra in _table_functions().items():
            for argument in (own, [own]):
                for query in _call(name, extra, argument):
                    try:
                        rows = conn.execute(query).fetchall()
                    except duckdb.Error:
                        continue
                    if _reads_file_contents(rows):
                        leaked.append(name)
        assert leaked == []
        for statement in (f"SELECT * FROM '{own}'", f"ATTACH '{own}' AS again (READ_ONLY)"):
            with pytest.raises(duckdb.PermissionException):
                conn.execute(statement).fetchall()
        assert conn.execute("SELECT count(*) FROM kept").fetchone() == (300000,)  # the tables still work
    finally:
        conn.close()


def test_a_query_larger_than_memory_fails_without_writing_temp_files(sample_db):
    """The same query spills to ``<db>.tmp/`` and succeeds on a connection that may write temp files."""
    conn = open_sandbox(sample_db, memory_limit="60MB")
    before = set(sample_db.parent.iterdir())
    try:
        with pytest.raises(duckdb.OutOfMemoryException):
            conn.execute(
                "SELECT count(*) FROM (SELECT i, i::VARCHAR || repeat('x', 50) AS s FROM range(3000000) t(i) "
                "ORDER BY s DESC)"
            ).fetchall()
    finally:
        conn.close()
    assert set(sample_db.parent.iterdir()) == before


def test_a_second_sandbox_on_the_same_file_is_closed_too(sample_db):
    first = open_sandbox(sample_db)
    second = open_sandbox(sample_db)  # shares the first one's locked DuckDB instance
    try:
        for conn in (first, second, second.cursor()):
            with pytest.raises(duckdb.PermissionException):
                conn.execute("SELECT * FROM read_blob(?)", [str(sample_db)]).fetchall()
    finally:
        second.close()
        first.close()
