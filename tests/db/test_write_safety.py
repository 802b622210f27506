"""The write transaction of a load or a drop: committed whole, and, when the connection closes right
after, written into the database file at COMMIT rather than into the write-ahead log first."""

from __future__ import annotations

import duckdb
import pytest

from analytics_agent.db.write_safety import WriteState, transaction


def _wal(path) -> int:
    wal = path.with_name(path.name + ".wal")
    return wal.stat().st_size if wal.exists() else 0


@pytest.mark.parametrize("closing", [False, True])
def test_a_closing_commit_checkpoints_and_leaves_the_setting_as_it_was(tmp_path, closing):
    path = tmp_path / "x.duckdb"
    with duckdb.connect(str(path)) as conn:
        before = conn.execute("SELECT current_setting('checkpoint_threshold')").fetchone()
        state = WriteState()
        with transaction(conn, state, closing=closing):
            conn.execute("CREATE TABLE t AS SELECT range AS i FROM range(1000)")
        assert state.committed
        # a closing commit wrote the table into the file itself: no log left to copy at close
        assert (_wal(path) == 0) is closing
        assert conn.execute("SELECT current_setting('checkpoint_threshold')").fetchone() == before
        assert conn.execute("SELECT sum(i) FROM t").fetchone() == (499500,)
    with duckdb.connect(str(path), read_only=True) as conn:
        assert conn.execute("SELECT count(*) FROM t").fetchone() == (1000,)


def test_a_failed_write_is_rolled_back_and_the_setting_untouched(tmp_path):
    path = tmp_path / "x.duckdb"
    with duckdb.connect(str(path)) as conn:
        before = conn.execute("SELECT current_setting('checkpoint_threshold')").fetchone()
        with pytest.raises(duckdb.Error), transaction(conn, WriteState(), closing=True):
            conn.execute("CREATE TABLE t AS SELECT 1 AS i")
            conn.execute("SELECT * FROM missing")
        assert conn.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 't'").fetchone() == (0,)
        assert conn.execute("SELECT current_setting('checkpoint_threshold')").fetchone() == before
