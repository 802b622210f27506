"""The footer checks read a table's last rows once: the totals check takes the row above the note lines
(or the last row) from what ``note_rows`` read, and asks DuckDB only when that row was not among them.
Real DuckDB tables; the sums are the rows written here; the statements are counted on the connection."""

from __future__ import annotations

import duckdb

from analytics_agent.db.load.settle.totals import find_footer

ROWS = [("East", 120, 3), ("West", 340, 4), ("North", 55, 1), ("South", 410, 9)]


class _Counting:
    """The connection, with the text of every statement it ran."""

    def __init__(self, conn: duckdb.DuckDBPyConnection) -> None:
        self.conn, self.sql = conn, []

    def execute(self, sql, *args):
        self.sql.append(sql)
        return self.conn.execute(sql, *args)


def _table(notes: int) -> tuple[_Counting, int]:
    conn = duckdb.connect()
    conn.execute("CREATE TABLE t (region VARCHAR, sales BIGINT, units BIGINT)")
    conn.executemany("INSERT INTO t VALUES (?, ?, ?)", ROWS)
    conn.execute("INSERT INTO t VALUES ('Total', ?, ?)", [sum(r[1] for r in ROWS), sum(r[2] for r in ROWS)])
    for i in range(notes):
        conn.execute("INSERT INTO t VALUES (?, NULL, NULL)", [f"Note {i}: preliminary"])
    return _Counting(conn), len(ROWS) + 1 + notes


def test_the_totals_row_above_a_note_line_is_taken_from_the_rows_already_read():
    conn, rows = _table(notes=1)
    found, notes = find_footer(conn, "t", rows, ["region"])  # type: ignore[arg-type]
    assert found is not None and (found.label, found.text, found.sums) == (
        "region",
        "Total",
        ["sales", "units"],
    )
    assert found.row == len(ROWS) and notes.rows == [len(ROWS) + 1]
    # one read of the last rows; no lookup of the last row before the notes, no read of the whole row
    assert sum("max(rowid)" in sql for sql in conn.sql) == 1
    assert not any(sql.startswith("SELECT * FROM") for sql in conn.sql)


def test_a_totals_row_as_the_last_row_is_taken_from_the_rows_already_read():
    conn, rows = _table(notes=0)
    found, notes = find_footer(conn, "t", rows, ["region"])  # type: ignore[arg-type]
    assert found is not None and (found.row, found.sums) == (len(ROWS), ["sales", "units"])
    assert notes.rows == [] and sum("max(rowid)" in sql for sql in conn.sql) == 1


def test_a_totals_row_above_more_note_lines_than_were_read_is_still_found():
    conn, rows = _table(notes=5)  # note_rows reads the last five rows: all notes, the totals row not
    found, notes = find_footer(conn, "t", rows, ["region"])  # type: ignore[arg-type]
    assert found is not None and (found.row, found.sums) == (len(ROWS), ["sales", "units"])
    assert notes.rows == list(range(rows - 1, rows - 6, -1))
