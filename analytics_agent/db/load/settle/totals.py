"""A spreadsheet export often ends with a totals row (``Total,,300``), sometimes after subtotal rows
(``North Total,,120``). Loaded as rows, they make every sum over the table count the rows twice, without
a sign: the load names them, and ``--drop-totals`` leaves them out. Runs inside the load's transaction on
the freshly written table (its ``rowid`` follows the file's order).

A last row is a total only when a text cell is labelled as one and every number in it is an aggregate of
the rows above (a sum, to the cent, of at least two non-zero values; or their count or average): a brand
called "Total" with its own numbers is data.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import duckdb

from analytics_agent.db.catalog import column_types, quote_ident
from analytics_agent.db.rows import first_row

TOTAL_LABEL = (
    r"(?i)(grand[ _-]?)?totals?|sum|summe|gesamt(summe)?|total g[ée]n[ée]ral|totaal|totale|suma|итого"
)
"""What a spreadsheet writes in a totals row's label cell, in a few languages (a trailing colon aside)."""
_SUB = r"sub[ _-]?totals?|zwischensumme|sous[ -]total"
_SUBTOTAL = (
    rf"(?i)^\s*({_SUB}|.+\s(total|totals|summe|gesamt|{_SUB})|(total|summe|gesamt|{_SUB})\s.+)\s*:?\s*$"
)
"""A subtotal row's label: ``Subtotal``, ``North Total``, ``Total North``, ``Zwischensumme Nord``."""
_NUMBER_TYPES = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "DOUBLE", "FLOAT", "REAL")


def is_total_label(value: str) -> bool:
    """A totals row's label (``Total``, ``Summe:``). Pure."""
    return re.fullmatch(TOTAL_LABEL, value.strip(" :")) is not None


class Totals:
    """A footer totals row. (A plain class: a NamedTuple costs every load's import more.)"""

    __slots__ = ("example", "label", "row", "subtotals", "sums", "text")

    def __init__(
        self, label: str, text: str, row: int, sums: list[str], subtotals: list[int], example: str
    ) -> None:
        self.label, self.text, self.row = label, text, row
        """The column holding the label, the label, and the row's rowid."""
        self.sums, self.subtotals, self.example = sums, subtotals, example
        """The columns the row sums; the rowids of subtotal rows above it (their sums add up to the total
        too), and one subtotal row's label."""


def find_totals(
    conn: duckdb.DuckDBPyConnection, table: str, rows: int, text_columns: Sequence[str]
) -> Totals | None:
    """The table's footer totals row (and the subtotal rows it counts), or None."""
    if rows < 3 or not text_columns:
        return None
    # rowids of rows written in this transaction start high: the last row is the one with the largest
    t = quote_ident(table)  # a rowid lookup, not a sort: 2.4 against 7 ms at 1M rows
    labels = ", ".join(map(quote_ident, text_columns))  # the text cells first: a label is rare, and the
    found = conn.execute(  # whole row cost a 60-column table its every column of every row (3.7 ms)
        f"SELECT {labels}, rowid FROM {t} WHERE rowid = (SELECT max(rowid) FROM {t})"
    ).fetchone()
    if found is None:
        return None
    row = int(found[-1])
    label = next(
        (
            c
            for c, cell in zip(text_columns, found, strict=False)
            if isinstance(cell, str) and is_total_label(cell)
        ),
        None,
    )
    if label is None:
        return None
    cursor = conn.execute(f"SELECT * FROM {t} WHERE rowid = {row}")
    last = dict(zip([d[0] for d in cursor.description], first_row(cursor), strict=True))
    numbers = [c for c, v in last.items() if isinstance(v, int | float | Decimal) and not isinstance(v, bool)]
    if not numbers:
        return None
    col = quote_ident(label)
    sub = f"coalesce(regexp_full_match({col}, '{_SUBTOTAL}'), false)"
    subtotals = [
        int(r[0]) for r in conn.execute(f"SELECT rowid FROM {t} WHERE rowid < {row} AND {sub}").fetchall()
    ]
    if subtotals:  # the rows the subtotals sum, and the subtotals themselves, each add up to the total
        sums = _aggregated(conn, table, last, numbers, f"rowid < {row} AND NOT {sub}")
        if sums and sums == _aggregated(
            conn, table, last, sums, f"rowid < {row} AND {sub}", counts=False, least=1
        ):
            return Totals(
                label, last[label], row, sums, subtotals, _label_at(conn, table, label, subtotals[0])
            )
    sums = _aggregated(conn, table, last, numbers, f"rowid < {row}")
    return Totals(label, last[label], row, sums, [], "") if sums else None


def _aggregated(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    last: dict[str, Any],
    numbers: list[str],
    where: str,
    *,
    counts: bool = True,
    least: int = 2,
) -> list[str]:
    """The columns whose value in ``last`` is the sum of the rows ``where`` selects, when every number of
    ``numbers`` is their sum, count or average (``counts``); else none."""
    parts = []
    for c in map(quote_ident, numbers):
        parts += [f"sum({c})", f"count({c}) FILTER (WHERE {c} <> 0)", f"count({c})", f"avg({c})"]
    found = first_row(
        conn.execute(f"SELECT count(*), {', '.join(parts)} FROM {quote_ident(table)} WHERE {where}")
    )
    above, stats = found[0], found[1:]
    sums = []
    for i, name in enumerate(numbers):
        total, nonzero, present, mean = stats[4 * i : 4 * i + 4]
        value = last[name]
        if total is not None and nonzero >= least and _same(value, total):
            sums.append(name)
        elif not counts or not (value in (present, above) or (mean is not None and _same(value, mean))):
            return []
    return sums


def _label_at(conn: duckdb.DuckDBPyConnection, table: str, column: str, row: int) -> str:
    return str(
        first_row(
            conn.execute(f"SELECT {quote_ident(column)} FROM {quote_ident(table)} WHERE rowid = {row}")
        )[0]
    )


def totals_row_note(
    conn: duckdb.DuckDBPyConnection, table: str, rows: int, text_columns: Sequence[str]
) -> tuple[list[str], dict[str, Any] | None]:
    """One line when the table ends with a totals row (``find_totals``), and what the profile keeps of
    it (``totals_marker``); else neither."""
    found = find_totals(conn, table, rows, text_columns)
    if found is None:
        return [], None
    note = (
        f"the last row ({found.label} = {found.text!r}) holds the sums of the rows above in "
        f"{', '.join(found.sums)}{_subtotals(found)}; loaded as rows, a sum over the table counts them "
        "twice: add --drop-totals to load without them"
    )
    return [note], totals_marker(conn, table, found)


def totals_marker(conn: duckdb.DuckDBPyConnection, table: str, found: Totals) -> dict[str, Any]:
    """The kept totals rows as the stored profile says them: the label's column, the labels of the totals
    row and its subtotal rows, and the columns they sum. A query tool reads it to refuse an answer that
    would count them twice (``tools/aggregate/totals_rows``)."""
    labels = {found.text}
    if found.subtotals:
        ids = ", ".join(map(str, found.subtotals))
        col = quote_ident(found.label)
        labels |= {
            str(r[0])
            for r in conn.execute(
                f"SELECT DISTINCT {col} FROM {quote_ident(table)} WHERE rowid IN ({ids}) AND {col} IS NOT NULL"
            ).fetchall()
        }
    return {
        "column": found.label,
        "labels": sorted(labels),
        "rows": 1 + len(found.subtotals),
        "sums": list(found.sums),
    }


def drop_totals(
    conn: duckdb.DuckDBPyConnection, table: str, rows: int, text_columns: Sequence[str], fixed: Sequence[str]
) -> tuple[int, str, list[str], str]:
    """``--drop-totals``: delete the footer totals row and its subtotal rows. Returns the rows deleted, the
    note (empty: none found), the label column when it became a number column (it was text only for
    the label), and the label column ("" when none was found)."""
    found = find_totals(conn, table, rows, text_columns)
    if found is None:
        return 0, "", [], ""
    t = quote_ident(table)
    gone = [found.row, *found.subtotals]
    conn.execute(f"DELETE FROM {t} WHERE rowid IN ({', '.join(map(str, gone))})")
    retyped = [] if found.label in fixed else _retype(conn, table, found.label)
    rows_said = "row" if len(gone) == 1 else "rows"
    note = (
        f"--drop-totals: dropped the last row ({found.label} = {found.text!r}), the sums of the rows above in "
        f"{', '.join(found.sums)}{_subtotals(found)} ({len(gone)} {rows_said}); leave out --drop-totals to keep them"
    )
    return len(gone), note, retyped, found.label


def _retype(conn: duckdb.DuckDBPyConnection, table: str, column: str) -> list[str]:
    """The label's column as DuckDB would have typed it without the totals rows: BIGINT or DOUBLE when
    every value left is one (with no leading zero: a code keeps its text)."""
    col, t = quote_ident(column), quote_ident(table)
    if column_types(conn, table).get(column) in _NUMBER_TYPES:
        return []
    whole, number, present, padded = first_row(
        conn.execute(
            f"SELECT count(TRY_CAST({col} AS BIGINT)), count(TRY_CAST({col} AS DOUBLE)), count({col}), "
            f"count(*) FILTER (WHERE regexp_matches({col}, '^\\s*[+-]?0[0-9]')) FROM {t}"
        )
    )
    if not present or padded or number < present:
        return []
    kind = "BIGINT" if whole == present else "DOUBLE"
    # TRY_CAST: DuckDB rewrites the deleted rows too (the label is still there), within this transaction
    conn.execute(f"ALTER TABLE {t} ALTER {col} TYPE {kind} USING TRY_CAST({col} AS {kind})")
    return [column]


def _subtotals(found: Totals) -> str:
    if not found.subtotals:
        return ""
    count = len(found.subtotals)
    return f", with {count} subtotal row{'s' if count > 1 else ''} such as {found.example!r} above it"


def _same(value: float | Decimal, total: float | Decimal) -> bool:
    """Equal, or equal to the cent (a spreadsheet rounds a total it shows)."""
    return abs(float(value) - float(total)) <= max(0.005, 1e-9 * abs(float(total)))


NO_TOTALS = (
    "--drop-totals: the file ends with no totals row (a labelled row of the sums above); nothing dropped"
)
