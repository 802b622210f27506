"""A spreadsheet export often ends with a totals row (``Total,,300``). Loaded as a row, it makes every sum
over the table count the rows twice, without a sign: the load names it. Runs inside the load's
transaction on the freshly written table (its ``rowid`` follows the file's order)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.rows import first_row

_TOTAL_LABEL = re.compile(
    r"(grand[ _-]?)?totals?|sum|summe|gesamt(summe)?|total g[ée]n[ée]ral|totaal|totale|suma|итого", re.I
)
"""What a spreadsheet writes in a totals row's label cell, in a few languages (a trailing colon aside)."""


def totals_row_note(
    conn: duckdb.DuckDBPyConnection, table: str, rows: int, text_columns: Sequence[str]
) -> list[str]:
    """One line when the table's last row is labelled as a total in a text column and holds, in some number
    column, the sum of the rows above it; else none."""
    if rows < 3 or not text_columns:
        return []
    # rowids of rows written in this transaction start high: the last row is the one with the largest
    t = quote_ident(table)  # a rowid lookup, not a sort: 2.4 against 7 ms at 1M rows
    labels = ", ".join(map(quote_ident, text_columns))  # the text cells first: a label is rare, and the
    found = conn.execute(  # whole row cost a 60-column table its every column of every row (3.7 ms)
        f"SELECT {labels}, rowid FROM {t} WHERE rowid = (SELECT max(rowid) FROM {t})"
    ).fetchone()
    if found is None:
        return []
    row = found[-1]
    label = next(
        (
            c
            for c, cell in zip(text_columns, found, strict=False)
            if isinstance(cell, str) and _TOTAL_LABEL.fullmatch(cell.strip(" :"))
        ),
        None,
    )
    if label is None:
        return []
    cursor = conn.execute(f"SELECT * FROM {t} WHERE rowid = {int(row)}")
    last = dict(zip([d[0] for d in cursor.description], first_row(cursor), strict=True))
    numbers = [c for c, v in last.items() if isinstance(v, int | float | Decimal) and not isinstance(v, bool)]
    if not numbers:
        return []
    sums = first_row(
        conn.execute(
            f"SELECT {', '.join(f'sum({quote_ident(c)})' for c in numbers)} FROM {t} WHERE rowid < {int(row)}"
        )
    )
    totals = [
        c for c, total in zip(numbers, sums, strict=True) if total is not None and _same(last[c], total)
    ]
    if not totals:
        return []
    return [
        f"the last row ({label} = {last[label]!r}) holds the sums of the rows above in "
        f"{', '.join(totals)}; it is loaded as a row, so a sum over the table counts them twice: remove that line from "
        "the file and load it again with --replace"
    ]


def _same(value: float | Decimal, total: float | Decimal) -> bool:
    """Equal, or equal to the cent (a spreadsheet rounds a total it shows)."""
    return abs(float(value) - float(total)) <= max(0.005, 1e-9 * abs(float(total)))
