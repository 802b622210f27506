"""A second header line of labels under the header (a census table's ``Geography,Geographic Area
Name,Estimate!!Median household income…`` under ``GEO_ID,NAME,B19013_001E``; a Qualtrics export's
question texts; a line of units, ``USD,%``). DuckDB reads it as the first record: loaded as a row, it kept
every column text (the numbers below it too) without a word. A first row of words in every named column,
above columns of numbers or dates, is no record: it is left out and said, each label kept in the profile
beside its column (``--keep-label-rows`` loads it). Runs inside the load's transaction on the freshly
written table."""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.load.settle.stat_symbols import LETTERS, may_mark
from analytics_agent.db.rows import first_row

_MOST_LABEL_ROWS = 2
"""A census table has one line of labels, a Qualtrics export two (question texts, then import ids)."""
_MOSTLY = 0.9
"""The share of a column's other values that must be numbers or dates (a census margin column also holds
``**``, its own marks)."""


def drop_label_rows(
    conn: duckdb.DuckDBPyConnection, table: str, stored: Sequence[str], types: dict[str, str]
) -> list[dict[str, str]]:
    """Delete the rows of labels at the table's top (``find_label_rows``) and return each one's labels."""
    ids, labels = find_label_rows(conn, table, stored, types)
    if ids:
        conn.execute(f"DELETE FROM {quote_ident(table)} WHERE rowid IN ({', '.join(map(str, ids))})")
    return labels


def find_label_rows(
    conn: duckdb.DuckDBPyConnection, table: str, stored: Sequence[str], types: dict[str, str]
) -> tuple[list[int], list[dict[str, str]]]:
    """The rowids of the rows of labels at the table's top and each one's labels (stored column -> the
    label); none when the first rows are data. Asked only of a table whose every column is text
    (``types``): a label keeps every column it stands in text."""
    if len(stored) < 2 or any(types.get(s) != "VARCHAR" for s in stored):
        return [], []
    t, cols = quote_ident(table), ", ".join(map(quote_ident, stored))
    first = conn.execute(
        f"SELECT rowid, {cols} FROM {t} ORDER BY rowid LIMIT {_MOST_LABEL_ROWS + 1}"
    ).fetchall()
    labels: list[dict[str, str]] = []
    for row in first[:_MOST_LABEL_ROWS]:
        cells = dict(zip(stored, row[1:], strict=True))
        if not _words(cells):
            break
        labels.append({c: str(v).strip() for c, v in cells.items() if v is not None})
    if not labels or len(first) <= len(labels):
        return [], []
    last = int(first[len(labels) - 1][0])
    if not _numbers_below(conn, table, stored, last):
        return [], []
    return [int(r[0]) for r in first[: len(labels)]], labels


def _words(cells: dict[str, object]) -> bool:
    """Whether a row reads as labels: two or more cells, each holding a letter (so none a number), all
    different, none a statistics office's mark (the ONS's ``[x]``, ``93.1 [p]``: a first row of data whose
    every number is marked). Pure."""
    shown = [str(v).strip() for v in cells.values() if v is not None and str(v).strip()]
    return (
        len(shown) >= 2
        and len(set(shown)) == len(shown)
        and all(any(ch.isalpha() for ch in v) for v in shown)
        and not any(may_mark(v) and v not in LETTERS for v in shown)
    )


def _numbers_below(conn: duckdb.DuckDBPyConnection, table: str, stored: Sequence[str], last: int) -> bool:
    """Whether two or more columns hold numbers or dates in nearly every row below the labels (``last``:
    the last label row's rowid): the labels then are what kept them text."""
    parts = []
    for col in map(quote_ident, stored):
        parts += [
            f"count({col})",
            f"count(coalesce(TRY_CAST({col} AS DOUBLE)::VARCHAR, TRY_CAST({col} AS DATE)::VARCHAR))",
        ]
    counts = first_row(
        conn.execute(f"SELECT {', '.join(parts)} FROM {quote_ident(table)} WHERE rowid > {last}")
    )
    typed = sum(
        1
        for present, fits in zip(counts[::2], counts[1::2], strict=True)
        if present and fits >= _MOSTLY * present
    )
    return typed >= 2


def label_rows_note(
    labels: Sequence[dict[str, str]], originals: dict[str, str], *, kept: bool = False
) -> list[str]:
    """The note of ``drop_label_rows``' rows (``originals``: stored column -> the header's name), or of
    those ``--keep-label-rows`` loaded (``kept``). Pure."""
    if not labels:
        return []
    shown = [f"{originals.get(c, c)}: {v!r}" for c, v in list(labels[0].items())[:2]]
    one = len(labels) == 1
    lines = "the line under the header holds" if one else f"the {len(labels)} lines under the header hold"
    it, row = ("it", "a row") if one else ("them", "rows")
    what = f"{lines} a label for each column ({'; '.join(shown)}, …), not data"
    if kept:
        return [
            f"{what}: loaded as {row} (--keep-label-rows), keeping every column as text; leave out "
            f"--keep-label-rows to load without {it}"
        ]
    return [
        f"{what}: not loaded as {row}, each label kept in the profile beside its column; add "
        f"--keep-label-rows to load {it} as {row}"
    ]
