"""Decimal numbers padded with spaces (``1005.70 ``, ``   12.00``: an Alipay record pads every cell, a
fixed-width report saved as CSV pads its columns): DuckDB's reader keeps such a column text, and a sum
over it is refused. A column whose every value is a number with a decimal point, some padded, is stored
as DOUBLE and said in one line with the option that keeps the text. Whole numbers stay as they are (a
padded ``0042`` or ``12`` may be a code: the odd-value check names the ``--type`` that reads them). Runs
inside the load's transaction, in DuckDB's SQL."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.rows import first_row

_PADDED = r"\s*[+-]?[0-9]+\.[0-9]+\s*"


def padded_columns(probe: Mapping[str, Sequence[str]]) -> list[str]:
    """The columns whose first values are all decimal numbers and some padded with spaces. Pure."""
    return [
        name
        for name, values in probe.items()
        if values
        and any(v[:1].isspace() or v[-1:].isspace() for v in values)
        and all(re.fullmatch(_PADDED, v) for v in values)
    ]


def settle_padded_numbers(
    conn: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str]
) -> tuple[list[str], list[str]]:
    """The columns of ``columns`` stored as DOUBLE (every value in the table a decimal number, some padded),
    and one note for them."""
    if not columns:
        return [], []
    parts = []
    for col in map(quote_ident, columns):
        parts += [
            f"count({col}) = count(*) FILTER (WHERE regexp_full_match({col}, '{_PADDED}'))",
            f"min({col}) FILTER (WHERE {col} <> trim({col}))",
        ]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {quote_ident(table)}"))
    done, examples = [], []
    for i, name in enumerate(columns):
        every, padded = found[2 * i : 2 * i + 2]
        if not every or padded is None:
            continue
        col = quote_ident(name)
        conn.execute(f"ALTER TABLE {quote_ident(table)} ALTER {col} TYPE DOUBLE USING trim({col})::DOUBLE")
        done.append(name)
        examples.append(padded)
    if not done:
        return [], []
    each = " (for each such column)" if len(done) > 1 else ""
    return done, [
        f"{', '.join(done)}: numbers padded with spaces, like {examples[0]!r}, stored as DOUBLE; add --type "
        f"{done[0]}=VARCHAR{each} to keep them as text"
    ]
