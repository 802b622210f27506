"""An Excel pivot table in its outline or compact layout writes each group's label once, on the group's
first row, and leaves the cell blank below it down to the group's subtotal row (``North`` … ``North
Total``), unless "repeat item labels" is on. Loaded as it is, the blanks were NULL: a sum by region kept
each group's first row alone, without a word. In a table whose totals row the load found with its subtotal
rows (``totals.find_totals``: their sums checked), the blank cells of the label's column are filled with
the label above when every blank sits inside a group that starts with its label and ends with that
label's subtotal row; said in one line with the option that keeps them empty. No other column is
filled, and nothing when one blank falls outside such a group. Runs inside the load's transaction."""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.load.settle.total_labels import is_total_label

KEEP = "--keep-blank-labels"


def fill_group_labels(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    label: str,
    subtotals: Sequence[int],
    total_row: int,
    *,
    headers: Sequence[int] = (),
) -> list[str]:
    """Fill the blank cells of ``label`` (the totals rows' label column) inside the groups its
    ``subtotals`` rows (rowids) close above ``total_row``, and say it; nothing when a blank is outside
    such a group. ``headers``: rows naming a group with every other cell empty (QuickBooks'): that layout
    is not a pivot's, and its rows' labels mark them for ``aggregate`` (filled rows would share them)."""
    if not subtotals or headers:
        return []
    groups = _groups(conn, table, label, subtotals, total_row)
    if groups is None:
        return []
    bounds, blanks, example = groups
    params = [v for bound in bounds for v in bound]
    values = ", ".join("(?, ?, ?)" for _ in bounds)
    col = quote_ident(label)
    conn.execute(
        f"UPDATE {quote_ident(table)} SET {col} = b.v FROM (VALUES {values}) AS b(lo, hi, v) "
        f"WHERE {quote_ident(table)}.rowid > b.lo AND {quote_ident(table)}.rowid < b.hi AND {col} IS NULL",
        params,
    )
    cells = "cell" if blanks == 1 else "cells"
    first, closing = example
    return [
        f"{label}: {blanks:,} empty {cells} below a group's label filled with it, as a pivot table writes "
        f"each group's label once, on its first row ({first!r} down to its {closing!r} row); add {KEEP} "
        "to keep them empty (NULL)"
    ]


def _groups(
    conn: duckdb.DuckDBPyConnection, table: str, label: str, subtotals: Sequence[int], total_row: int
) -> tuple[list[tuple[int, int, str]], int, tuple[str, str]] | None:
    """Each group's first rowid, its subtotal row's rowid and its label; the blanks in them; a group's
    label and its subtotal's (for the note). None when there are no blanks, or one is not inside a group
    whose first row holds its label, with no other label in it, closed by that label's subtotal row."""
    col, t = quote_ident(label), quote_ident(table)
    subs = ", ".join(str(int(r)) for r in subtotals)
    rows = conn.execute(
        f"WITH r AS (SELECT rowid AS id, {col} AS v, rowid IN ({subs}) AS sub FROM {t} WHERE rowid < {int(total_row)}), "
        "g AS (SELECT *, coalesce(sum(sub::INT) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS grp FROM r) "
        "SELECT min(id) FILTER (WHERE NOT sub), arg_min(v, id) FILTER (WHERE NOT sub), "
        "count(*) FILTER (WHERE v IS NULL AND NOT sub), count(DISTINCT v) FILTER (WHERE NOT sub), "
        "max(id) FILTER (WHERE sub), any_value(v) FILTER (WHERE sub) FROM g GROUP BY grp ORDER BY grp"
    ).fetchall()
    bounds: list[tuple[int, int, str]] = []
    blanks = 0
    example: tuple[str, str] | None = None
    for first_id, first, empty, labels, closing_id, closing in rows:
        if not empty:
            continue
        if closing_id is None or first is None or labels != 1 or not _closes(str(closing), str(first)):
            return None
        bounds.append((int(first_id), int(closing_id), str(first)))
        blanks += int(empty)
        example = example or (str(first).strip(), str(closing).strip())
    return (bounds, blanks, example) if bounds and example else None


def _closes(closing: str, first: str) -> bool:
    """Whether a subtotal row's label closes the group ``first`` names: that label with a subtotal's word
    before or after it (``North Total``, ``Total North``, ``Nord Ergebnis``, ``北區小計``). Pure."""
    whole, name = closing.strip(), first.strip()
    if not name or whole == name:
        return False
    if whole.startswith(name):
        rest = whole[len(name) :]
    elif whole.endswith(name):
        rest = whole[: -len(name)]
    else:
        return False
    rest = rest.strip(" :-()")
    return bool(rest) and is_total_label(rest)
