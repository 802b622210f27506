"""What a load tells the user beyond row counts: records set aside by ``--skip-bad-rows`` (kept in a
``<table>_rejects`` table), text columns that are numbers or dates but for a few odd values, and names
that had to change. Runs inside the load's transaction; the SQL is DuckDB's, no Python pass over rows."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

import duckdb

from analytics_agent.db.catalog import quote_ident, table_names
from analytics_agent.db.rows import first_row

SAMPLE_ROWS = 20_000  # DuckDB sniffs types from about this many; odd values past it fail the load instead
_MOSTLY = 0.9
_NUMBER_WITH_SEPARATORS = re.compile(r"^[+-]?\d{1,3}([,.' ]\d{3})+([.,]\d+)?$")


@dataclass(frozen=True)
class Rejects:
    """Where DuckDB puts the records a ``--skip-bad-rows`` load sets aside (temporary tables)."""

    errors: str
    scans: str

    @classmethod
    def fresh(cls) -> Rejects:
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
        lines = conn.execute(f"SELECT line FROM {quote_ident(self.errors)} ORDER BY line").fetchall()
        conn.execute(f"DROP TABLE IF EXISTS {quote_ident(self.errors)}")
        conn.execute(f"DROP TABLE IF EXISTS {quote_ident(self.scans)}")
        return [int(r[0]) for r in lines]


def odd_value_notes(conn: duckdb.DuckDBPyConnection, table: str, text_columns: Sequence[str]) -> list[str]:
    """One line per text column whose values are numbers or dates except for a few: which values, and
    the option that reads them."""
    if not text_columns:
        return []
    selects = []
    for name in text_columns:
        col = quote_ident(name)
        selects += [f"count({col})", f"count(TRY_CAST({col} AS DOUBLE))", f"count(TRY_CAST({col} AS DATE))"]
    wanted = ", ".join(quote_ident(name) for name in text_columns)
    counts = first_row(
        conn.execute(
            f"SELECT {', '.join(selects)} FROM (SELECT {wanted} FROM {quote_ident(table)} LIMIT {SAMPLE_ROWS})"
        )
    )
    notes = []
    for i, name in enumerate(text_columns):
        present, numbers, dates = counts[3 * i : 3 * i + 3]
        fitting = max(numbers, dates)
        if present and _MOSTLY * present <= fitting < present:
            notes.append(_odd_note(conn, table, name, "DOUBLE" if numbers >= dates else "DATE"))
    return notes


def _odd_note(conn: duckdb.DuckDBPyConnection, table: str, name: str, kind: str) -> str:
    col = quote_ident(name)
    total, odd = first_row(
        conn.execute(
            f"WITH odd AS (SELECT {col} AS v, count(*) AS n FROM {quote_ident(table)} WHERE {col} IS NOT NULL "
            f"AND TRY_CAST({col} AS {kind}) IS NULL GROUP BY 1) SELECT sum(n), list(v ORDER BY n DESC, v)[1:3] FROM odd"
        )
    )
    values = "value" if total == 1 else "values"
    return f"{name} stayed text because of {total:,} {values} like {', '.join(map(repr, odd))}; {odd_value_fix(odd)}"


def odd_value_fix(odd: Sequence[str]) -> str:
    """The option that reads such values. Pure."""
    if all(_NUMBER_WITH_SEPARATORS.match(v) for v in odd):
        separator = next((c for c in odd[0] if c in ",.' "), ",")
        return f"add --thousands {separator!r} if {separator!r} separates thousands"
    if all(len(v) <= 12 for v in odd):
        flags = " ".join(f"--null {v!r}" for v in odd)
        return f"add {flags} if {'they mean' if len(odd) > 1 else 'it means'} missing"
    return "fix them, or keep the column as text"
