"""A database of the user's own that a load creates: made by the load's own connection (one open, in the
format every supported DuckDB reads), and removed again when that first load fails, unless another process
created and filled it meanwhile."""

from __future__ import annotations

from pathlib import Path

import duckdb

from analytics_agent.db.load.options import LoadOptions
from analytics_agent.db.load.run import load_files
from tests.db.test_storage_version import READABLE_BY_1_X, _header_version


def test_a_new_database_of_ones_own_is_made_by_the_load_s_own_connection(tmp_path: Path, monkeypatch) -> None:
    # built apart first (as the sample database is) it cost a small load a tenth of its CPU: one open only
    opened: list[str] = []
    real = duckdb.connect

    def counted(database: str = ":memory:", *args, **kwargs):  # type: ignore[no-untyped-def]
        opened.append(Path(str(database)).name)
        return real(database, *args, **kwargs)

    monkeypatch.setattr(duckdb, "connect", counted)
    csv = tmp_path / "t.csv"
    csv.write_text("a,b\n1,x\n2,y\n")
    summary = load_files(tmp_path / "own.duckdb", [str(csv)], LoadOptions())
    assert [n for n in opened if n.endswith(".duckdb")] == ["own.duckdb"] and summary.created_database
    assert _header_version(tmp_path / "own.duckdb") == READABLE_BY_1_X


def test_a_failed_first_load_keeps_a_database_another_process_filled_meanwhile(
    tmp_path: Path, monkeypatch
) -> None:
    # the file was missing when this load looked, and another load created and filled it before this one
    # got the lock: this load's failure must not delete it
    from analytics_agent.db.load import run
    from analytics_agent.errors import LoadError

    db = tmp_path / "shared.duckdb"
    with duckdb.connect(str(db)) as conn:
        conn.execute("CREATE TABLE theirs AS SELECT 1 AS x")
    monkeypatch.setattr(run, "is_new_database", lambda path, sample_data: True)
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n")  # a header only: refused
    try:
        load_files(db, [str(bad)], LoadOptions())
    except LoadError:
        pass
    else:
        raise AssertionError("a header-only file must be refused")
    with duckdb.connect(str(db), read_only=True) as conn:
        assert conn.execute("SELECT x FROM theirs").fetchall() == [(1,)]


def test_a_database_that_cannot_be_created_is_said_in_one_line_with_what_to_do(tmp_path: Path) -> None:
    from analytics_agent.errors import DatabaseError

    csv = tmp_path / "t.csv"
    csv.write_text("a\n1\n")
    try:
        load_files(
            Path("/proc/new.duckdb"), [str(csv)], LoadOptions()
        )  # /proc takes no new file, even from root
    except DatabaseError as exc:
        message = str(exc)
    else:
        raise AssertionError("a database in /proc cannot be created")
    assert "\n" not in message and message.startswith("cannot create the database /proc/new.duckdb")
    assert "choose another place with --db" in message and "IO Error" not in message
