"""The records a ``--skip-bad-rows`` load sets aside (DuckDB's reject tables, kept as ``<table>_rejects``),
and the data lines DuckDB's own reading finds in a file (what a load that stored none says it missed).
Runs inside the load's transaction."""

# no ``from __future__ import annotations``: typing compiles a NamedTuple's annotations written as strings
# one by one when the class is made
import uuid
from pathlib import Path
from typing import Any, NamedTuple

import duckdb

from analytics_agent.db.catalog import quote_ident, table_names
from analytics_agent.db.rows import first_row


class Rejects(NamedTuple):  # not a dataclass: a tenth of the import cost (0.07 against 0.5 ms)
    """Where DuckDB puts the records a ``--skip-bad-rows`` load sets aside (temporary tables)."""

    errors: str
    scans: str

    @classmethod
    def fresh(cls) -> "Rejects":
        tag = uuid.uuid4().hex[:12]
        return cls(f"_rejects_{tag}", f"_reject_scans_{tag}")

    def keep(self, conn: duckdb.DuckDBPyConnection, table: str, labels: dict[str, str]) -> list[int]:
        """Copy the set-aside records to ``<table>_rejects`` (replacing an older one) and return their
        line numbers; with none, an older ``<table>_rejects`` is dropped."""
        target = quote_ident(f"{table}_rejects")
        if f"{table}_rejects" in table_names(conn):
            conn.execute(f"DROP TABLE {target}")
        count = first_row(conn.execute(f"SELECT count(*) FROM {quote_ident(self.errors)}"))[0]
        if count:
            conn.execute(
                f"CREATE TABLE {target} AS SELECT coalesce(MAP(?::VARCHAR[], ?::VARCHAR[])[s.file_path], "
                "s.file_path) AS file, "
                "e.line, e.column_name AS column, e.error_type AS problem, e.csv_line AS text "
                f"FROM {quote_ident(self.errors)} e JOIN {quote_ident(self.scans)} s USING (scan_id, file_id) "
                "ORDER BY file, line",
                [list(labels), list(labels.values())],
            )
        # one record can hold several errors: count records, not errors
        lines = conn.execute(f"SELECT DISTINCT line FROM {quote_ident(self.errors)} ORDER BY line").fetchall()
        conn.execute(f"DROP TABLE IF EXISTS {quote_ident(self.errors)}")
        conn.execute(f"DROP TABLE IF EXISTS {quote_ident(self.scans)}")
        return [int(r[0]) for r in lines]


def data_lines(conn: duckdb.DuckDBPyConnection, path: Path, options: Any) -> int:
    """The rows DuckDB's own detection reads from the file (all text, bad lines ignored)."""
    from analytics_agent.db.load.options import duckdb_path

    named = "".join(
        f", {k} = ?" for k, v in (("encoding", options.encoding), ("comment", options.comment)) if v
    )
    params: list[Any] = [duckdb_path(path), *(v for v in (options.encoding, options.comment) if v)]
    try:
        row = first_row(
            conn.cursor().execute(
                f"SELECT count(*) FROM read_csv(?, all_varchar = true, ignore_errors = true{named})", params
            )
        )
    except duckdb.Error:
        return 0
    return int(row[0])


def plural_lines(n: int) -> str:
    return f"{n:,} line" + ("" if n == 1 else "s")
