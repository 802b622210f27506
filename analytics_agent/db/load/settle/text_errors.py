"""Excel's error values in text columns: a lookup's ``#N/A`` where it found no match, a ``#REF!`` of a
deleted sheet. Missing, as in a column of numbers (``excel_errors``), and said; a column read past them is
typed as DuckDB would have typed it without them (ISO dates, numbers: ``retype``) or read as yes/no flags
(``yes_no``), and the date checks after it read its first values without them. A column of errors alone
is kept and said. Runs inside the load's transaction, in DuckDB's SQL."""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.settle.excel_errors import ERRORS, ERRORS_SQL, counted_errors, error_columns
from analytics_agent.db.load.settle.retype import retype_column
from analytics_agent.db.load.settle.yes_no import settle_yes_no
from analytics_agent.db.rows import first_row


def read_past_errors(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    columns: Sequence[str],
    probe: dict[str, list[str]],
    decimal: str | None,
) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """``settle_text_errors`` on the columns whose first values (``probe``) hold an error, then each
    column it read typed again or read as flags. Returns the columns so typed, the notes and the first
    values (less the errors of the columns read)."""
    read, notes = settle_text_errors(conn, table, error_columns({c: probe[c] for c in columns if c in probe}))
    probe = probe | {c: [v for v in probe[c] if v.strip() not in ERRORS] for c in read}
    typed = [c for c in read if retype_column(conn, table, c, decimal=decimal)]
    flagged, flag_notes = settle_yes_no(conn, table, {c: probe[c] for c in read if c not in typed})
    return typed + flagged, notes + flag_notes, probe


def settle_text_errors(
    conn: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str]
) -> tuple[list[str], list[str]]:
    """Excel's error values in text columns (``error_columns``: a lookup's ``#N/A`` where it found no
    match) set missing (NULL), as they are in a column of numbers; one note for the columns so read, and
    one for each column of errors alone, kept: a formula that failed on every row is no missing value but
    a broken column, which NULLs would hide. Returns the columns read so, and the notes."""
    if not columns:
        return [], []
    parts = [part for col in map(quote_ident, columns) for part in counted_errors(col)]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {quote_ident(table)}"))
    read, said, notes = [], [], []
    for i, name in enumerate(columns):
        present, failed, seen = found[3 * i : 3 * i + 3]
        if not failed:
            continue
        if failed == present:
            notes.append(
                f"{name}: every value is an Excel error value ({', '.join(seen)}): kept as text, as the "
                "formula that filled the column failed on every row"
            )
            continue
        col = quote_ident(name)
        conn.execute(f"UPDATE {quote_ident(table)} SET {col} = NULL WHERE trim({col}) IN ({ERRORS_SQL})")
        read.append(name)
        said.append(f"{name} ({failed:,}: {', '.join(seen)})")
    if read:
        notes.insert(
            0,
            f"Excel error values in text columns stored as missing (NULL): {'; '.join(said)}; add --type "
            f"{read[0]}=VARCHAR (for each such column) to keep them as text",
        )
    return read, notes
