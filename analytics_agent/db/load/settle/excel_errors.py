"""Excel's error values in an exported column of numbers: a formula that failed is saved as its error's
name (``#N/A``, ``#DIV/0!``), so a column of percents with one division by zero stays text, and a sum
over it is refused without a word on why. A text column whose every value is a number or such an error
becomes numbers, the errors missing (NULL), said in one line with the option that keeps the text.
Runs inside the load's transaction, in DuckDB's SQL.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.rows import first_row

ERRORS = (
    "#N/A",
    "#DIV/0!",
    "#VALUE!",
    "#REF!",
    "#NAME?",
    "#NUM!",
    "#NULL!",
    "#SPILL!",
    "#CALC!",
    "#GETTING_DATA",
)
"""What Excel (and LibreOffice, Google Sheets) write for a formula that failed."""
ERRORS_SQL = ", ".join(f"'{e}'" for e in ERRORS)
"""``ERRORS`` as a list of SQL strings."""


def error_columns(probe: Mapping[str, Sequence[str]]) -> list[str]:
    """The text columns whose first values hold an Excel error value: only these are counted. Pure."""
    return [name for name, values in probe.items() if any(v.strip() in ERRORS for v in values)]


def counted_errors(col: str) -> list[str]:
    """The aggregates of a column (``col`` quoted) that count its values, count its error values, and list
    those errors, each once. Pure."""
    error = f"trim({col}) IN ({ERRORS_SQL})"
    return [
        f"count({col})",
        f"count(*) FILTER (WHERE {error})",
        f"list(DISTINCT trim({col}) ORDER BY trim({col})) FILTER (WHERE {error})",
    ]


def settle_excel_errors(
    conn: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str]
) -> tuple[list[str], list[str]]:
    """Convert each of ``columns`` whose values are all numbers or Excel errors (some of each) to BIGINT or
    DOUBLE, the errors NULL. Returns the converted columns and one note for them."""
    if not columns:
        return [], []
    parts = []
    for col in map(quote_ident, columns):
        parts += [
            *counted_errors(col),
            f"count(TRY_CAST({col} AS DOUBLE))",
            # DuckDB's cast to BIGINT rounds 5.1 to 5: whole numbers are told by their digits
            f"count(*) FILTER (WHERE regexp_full_match({col}, '\\s*[+-]?[0-9]{{1,18}}\\s*')) = count(TRY_CAST({col} AS DOUBLE))",
            # a leading zero marks a code (``007``), kept as text as the load keeps codes
            f"count(*) FILTER (WHERE regexp_matches({col}, '^\\s*[+-]?0[0-9]'))",
        ]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {quote_ident(table)}"))
    converted, said = [], []
    for i, name in enumerate(columns):
        present, failed, seen, numbers, whole, coded = found[6 * i : 6 * i + 6]
        if not (failed and numbers) or failed + numbers != present or coded:
            continue
        kind = "BIGINT" if whole else "DOUBLE"
        col = quote_ident(name)
        conn.execute(
            f"ALTER TABLE {quote_ident(table)} ALTER {col} TYPE {kind} USING TRY_CAST({col} AS {kind})"
        )
        converted.append(name)
        said.append(f"{name} ({failed:,}: {', '.join(seen)})")
    if not converted:
        return [], []
    return converted, [errors_note(converted, said)]


def errors_note(converted: Sequence[str], said: Sequence[str]) -> str:
    """The line for the columns read past their error values (``said``: each with its count and errors,
    ``sales (2: #N/A)``); ``amount_errors`` says amounts in it too. Pure."""
    return (
        f"Excel error values stored as missing (NULL), the rest of each column as numbers: {'; '.join(said)}; "
        f"add --type {converted[0]}=VARCHAR (for each such column) to keep them as text"
    )
