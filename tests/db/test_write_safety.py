"""The write transaction of a load or a drop: committed whole, and written into the database file at
COMMIT rather than into the write-ahead log first (the writer closes right after)."""

from __future__ import annotations

import duckdb
import pytest

from analytics_agent.db.write_safety import WriteState, transaction


def _wal(path) -> int:
    wal = path.with_name(path.name + ".wal")
    return wal.stat().st_size if wal.exists() else 0


def test_the_commit_checkpoints_and_leaves_the_setting_as_it_was(tmp_path):
    path = tmp_path / "x.duckdb"
    with duckdb.connect(str(path)) as conn:
        before = conn.execute("SELECT current_setting('checkpoint_threshold')").fetchone()
        state = WriteState()
        conn.execute("CREATE TABLE before AS SELECT 1 AS i")  # a plain commit writes the log
        assert _wal(path) > 0
        with transaction(conn, state):
            conn.execute("CREATE TABLE t AS SELECT range AS i FROM range(1000)")
        assert state.committed
        assert _wal(path) == 0  # the table went into the file itself: no log left to copy at close
        assert conn.execute("SELECT current_setting('checkpoint_threshold')").fetchone() == before
        assert conn.execute("SELECT sum(i) FROM t").fetchone() == (499500,)
    with duckdb.connect(str(path), read_only=True) as conn:
        assert conn.execute("SELECT count(*) FROM t").fetchone() == (1000,)


def test_a_failed_write_is_rolled_back_and_the_setting_untouched(tmp_path):
    path = tmp_path / "x.duckdb"
    with duckdb.connect(str(path)) as conn:
        before = conn.execute("SELECT current_setting('checkpoint_threshold')").fetchone()
        with pytest.raises(duckdb.Error), transaction(conn, WriteState()):
            conn.execute("CREATE TABLE t AS SELECT 1 AS i")
            conn.execute("SELECT * FROM missing")
        assert conn.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 't'").fetchone() == (0,)
        assert conn.execute("SELECT current_setting('checkpoint_threshold')").fetchone() == before
