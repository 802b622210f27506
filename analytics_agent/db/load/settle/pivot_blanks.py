"""Excel's pivot table writes ``(blank)`` for a row field's empty value: a sale with no region is grouped
under a row labelled ``(blank)``, closed by a ``(blank) Total`` subtotal. It means missing, as an empty
cell does; loaded as text, a question per region counted a region called ``(blank)``. Read as missing in
the row-label columns of a table whose totals rows say it is a pivot table's (its subtotal rows, its
``Grand Total``), and said with the option that keeps the text. Runs inside the load's transaction."""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.rows import first_row

BLANKS = (
    "(blank)",
    "(Leer)",
    "(vide)",
    "(en blanco)",
    "(vuoto)",
    "(leeg)",
    "(vazio)",
    "(em branco)",
    "(puste)",
    "(prázdné)",
    "(tom)",
    "(tyhjä)",
    "(пусто)",
    "(空白)",
)
"""What Excel's pivot table writes for an empty row label, in its display languages."""
_BLANKS_SQL = ", ".join("'" + b.replace("'", "''") + "'" for b in BLANKS)


def row_labels(types: dict[str, str], label: str) -> list[str]:
    """The pivot table's row-label columns: the text columns it starts with (``types``: every column's
    type, in the table's order), when the totals rows' label column (``label``) is one of them. Pure."""
    leading = []
    for name, kind in types.items():
        if kind != "VARCHAR":
            break
        leading.append(name)
    return leading if label in leading else []


def read_pivot_blanks(
    conn: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str], *, exact: bool
) -> list[str]:
    """Set the ``(blank)`` row labels of ``columns`` to NULL and say it in one line; nothing when none is
    there, or when the load's missing values are ``exact`` (``--null ''``: only those it names)."""
    if not columns or exact:
        return []
    t = quote_ident(table)
    parts = [f"count(*) FILTER (WHERE trim({quote_ident(c)}) IN ({_BLANKS_SQL}))" for c in columns]
    counts = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {t}"))
    found = [(c, int(n)) for c, n in zip(columns, counts, strict=True) if n]
    if not found:
        return []
    seen = first_row(
        conn.execute(
            f"SELECT trim({quote_ident(found[0][0])}) FROM {t} "
            f"WHERE trim({quote_ident(found[0][0])}) IN ({_BLANKS_SQL}) LIMIT 1"
        )
    )[0]
    for column, _ in found:
        col = quote_ident(column)
        conn.execute(f"UPDATE {t} SET {col} = NULL WHERE trim({col}) IN ({_BLANKS_SQL})")
    count = sum(n for _, n in found)
    values = "value" if count == 1 else "values"
    return [
        f"{', '.join(c for c, _ in found)}: {count:,} {values} {seen!r} (an Excel pivot table's row label "
        "for an empty field) read as missing (NULL); add --null '' to keep them as text"
    ]
