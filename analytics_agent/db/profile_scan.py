"""A table's profile computed from its rows: counts, nulls, min/max, and the distinct values of its
low-cardinality text columns, in as few scans as a big table allows. Storing and reading profiles is
``catalog``'s; this module only reads the table."""

from __future__ import annotations

from typing import Any

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.rows import first_row

MAX_DISTINCT_VALUES = 50
MAX_PROFILE_TEXT = 200
"""A text column keeps no min or max longer than this, and lists no values when one of them is longer (free
text, not labels), so a profile stays small whatever a table holds (describe_table on 60 MB strings took
308 s)."""
SMALL_TABLE_ROWS = 20_000
"""Up to this many rows a profile lists a column's values by sorting the whole column's list (see
``_distinct_values``); past it, by a GROUP BY of each column, which holds only the distinct values."""
SAMPLE_ROWS = 100_000
"""Rows a sample of a big table holds, for checks that need no exact count (``sample_clause``)."""
GAUGE_ROWS = 20_000
"""Rows of the sample that picks the columns whose values are listed (``_gauged``): a column of at most
a hundred values shows them in any such sample (300k x 64 voter file: 0.07 -> 0.016 s, the same profile)."""
_TEXT_TYPES = ("VARCHAR",)
_CUT = MAX_PROFILE_TEXT + 1  # a text value read this long was longer than a label
_ORDERABLE = frozenset(
    {f"{u}{n}INT" for u in ("", "U") for n in ("TINY", "SMALL", "BIG", "HUGE")}
    | {"INTEGER", "UINTEGER", "FLOAT", "DOUBLE", "BIGNUM", "DATE", "INTERVAL", "VARCHAR", "BOOLEAN", "UUID"}
)
"""Types whose min/max mean something to a reader (not lists, structs, maps or blobs), with ``DECIMAL(…)``
and ``TIME…`` (``_orderable``)."""


def _orderable(kind: str) -> bool:
    """Whether a column of type ``kind`` gets a min and a max in the profile. Plain tests, not the regex
    they stood for (``^(…|DECIMAL.*|TIME.*)$``), whose compile cost every load 0.2 ms. Pure."""
    kind = kind.removesuffix("\n")  # as the regex's ``$`` took it
    return kind in _ORDERABLE or (kind.startswith(("DECIMAL", "TIME")) and "\n" not in kind)


def scan_profile(
    cur: duckdb.DuckDBPyConnection, table: str, types: dict[str, str], *, rows: int | None = None
) -> dict[str, Any]:
    """One scan for counts, nulls, min/max and approximate distinct counts of every column, plus one scan
    for the distinct values of the low-cardinality text columns. (SUMMARIZE also computes averages and
    quantiles nobody reads here, at about three times the cost.) ``types``: the table's columns and types;
    ``rows``: its row count, when the caller knows it. A big table's text columns are gauged on a sample
    first (``_gauged``), and the columns with few short values take their min and max from their sorted
    values: a text min/max over every row is the scan's dearest part."""
    text = [name for name, kind in types.items() if kind in _TEXT_TYPES]
    sampled = rows is not None and rows > SAMPLE_ROWS
    gauged = _gauged(cur, table, text, rows) if rows is not None and sampled else {}
    listed = {name for name, (distinct, longest) in gauged.items() if _label_like(distinct, longest)}
    selects = ["count(*)"]
    for name, kind in types.items():
        col = quote_ident(name)
        selects.append(f"count({col})")
        if name in listed:
            continue
        if kind in _TEXT_TYPES:
            # Cut in SQL, so a 60 MB value is never copied whole into Python; the least (greatest) value's
            # prefix is the least (greatest) prefix, so cutting the result, not each row, gives the same
            # answer at a third of the cost (a cut per row copied every value: 0.4 s of CPU on 1M rows).
            selects += [f"left(min({col}), {_CUT})", f"left(max({col}), {_CUT})"]
            selects += [] if sampled else [f"approx_count_distinct({col})", f"max(strlen({col}))"]
        elif _orderable(kind):
            selects += [f"min({col})", f"max({col})"]
    stats = iter(first_row(cur.execute(f"SELECT {', '.join(selects)} FROM {quote_ident(table)}")))
    row_count = next(stats)
    columns = []
    labels: dict[str, dict[str, Any]] = {}  # low-cardinality text columns: their values are listed
    for name, kind in types.items():
        column: dict[str, Any] = {"name": name, "type": kind, "nulls": row_count - next(stats)}
        columns.append(column)
        if name in listed:
            labels[name] = column
        elif _orderable(kind):
            low, high = next(stats), next(stats)
            distinct, longest = (
                (next(stats), next(stats)) if kind in _TEXT_TYPES and not sampled else (0, None)
            )
            _min_max(column, low, high, longest)
            if kind in _TEXT_TYPES and not sampled and _label_like(distinct, longest):
                labels[name] = column
    for name, values in _distinct_values(cur, table, list(labels), row_count).items():
        if name in listed and values:
            _min_max(labels[name], values[0], values[-1])
        # a value longer than a label past a big table's sample: free text after all, no values listed
        if len(values) <= MAX_DISTINCT_VALUES and all(len(v) <= MAX_PROFILE_TEXT for v in values):
            labels[name]["values"] = values
    return {"table": table, "rows": row_count, "columns": columns}


def _label_like(distinct: int, longest: int | None) -> bool:
    """Few distinct values, none longer than a label: the values are worth listing."""
    return distinct <= MAX_DISTINCT_VALUES * 2 and (longest or 0) <= MAX_PROFILE_TEXT


def _min_max(column: dict[str, Any], low: Any, high: Any, longest: int | None = None) -> None:
    """Keep a column's min and max; a text one only if no value is longer than a label (``longest``,
    when counted over every row) or, not counted, if neither was cut (a cut value is a wrong one)."""
    if low is None:
        return
    if (
        isinstance(low, str)
        and (longest if longest is not None else max(len(low), len(high))) > MAX_PROFILE_TEXT
    ):
        return
    column["min"], column["max"] = low, high


def _gauged(
    cur: duckdb.DuckDBPyConnection, table: str, text: list[str], rows: int
) -> dict[str, tuple[int, int | None]]:
    """Each text column's approximate distinct count and longest value over a sample of a big table
    (whole vectors, fixed seed): they only pick the columns whose values ``_distinct_values`` then
    lists, exactly, over the whole table. A column with few values has as few in any sample, so none is
    missed; one with more in the table, or a longer value past the sample, lists none. Over every row the
    count cost a 1M-row load a quarter of its checks (20 ms for each column of unique codes)."""
    if not text:
        return {}
    parts = [f"approx_count_distinct({c}), max(strlen({c}))" for c in map(quote_ident, text)]
    found = first_row(
        cur.execute(f"SELECT {', '.join(parts)} FROM {quote_ident(table)}{sample_clause(rows, GAUGE_ROWS)}")
    )
    return {name: (found[2 * i], found[2 * i + 1]) for i, name in enumerate(text)}


def sample_clause(rows: int, size: int = SAMPLE_ROWS) -> str:
    """``USING SAMPLE`` of about ``size`` rows of a table of ``rows`` (whole vectors, fixed seed: reads a
    tenth of a 1M-row table, and the same tenth each time); empty for a table that is no bigger."""
    return f" USING SAMPLE {100 * size / rows:.4f} PERCENT (system, 11)" if rows > size else ""


def _distinct_values(
    cur: duckdb.DuckDBPyConnection, table: str, columns: list[str], rows: int
) -> dict[str, list[str]]:
    """Each column's distinct non-null values in order, in one query (a query per column cost more than its
    scan on a small table); the approximate count picked the columns, so each list stays short. A small
    table's values are sorted as a list (half the CPU of DuckDB's ordered DISTINCT aggregate: 1.9 -> 0.9 ms
    for three columns of 366 rows). A big table's are a GROUP BY per column joined by UNION ALL: the lists
    of ``list(DISTINCT c ORDER BY c)``, whose planning alone cost about a millisecond per column (54 columns
    of 300,000 rows: 0.19 -> 0.07 s of CPU). A big table's values may be longer than a label (its columns
    were gauged on a sample): each list is cut to one character past a label's length, in SQL."""
    if not columns:
        return {}
    quoted = list(map(quote_ident, columns))
    if rows <= SMALL_TABLE_ROWS:
        lists = ", ".join(f"list_sort(list_distinct(list({c})))" for c in quoted)  # drops NULLs
        row = first_row(cur.execute(f"SELECT {lists} FROM {quote_ident(table)}"))
        return {name: list(values or []) for name, values in zip(columns, row, strict=True)}
    groups = " UNION ALL ".join(
        f"SELECT {i} AS k, {c} AS v FROM {quote_ident(table)} WHERE {c} IS NOT NULL GROUP BY {c}"
        for i, c in enumerate(quoted)
    )
    lists = f"SELECT k, [left(v, {_CUT}) for v in list(v ORDER BY v)] FROM ({groups}) GROUP BY k"
    found = dict(cur.execute(lists).fetchall())
    return {name: list(found.get(i) or []) for i, name in enumerate(columns)}
