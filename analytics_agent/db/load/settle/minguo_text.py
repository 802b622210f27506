"""Dates of the Republic of China (Minguo) calendar that DuckDB leaves as text: written in words
(``民國113年1月5日``, ``113年01月05日``), or with a leap day DuckDB refuses in the year 113 AD (``113/02/29``
is 2024-02-29, and 113 AD had no 29 February). A text column whose every value is such a date, with a
three-digit year (100-200) or ``民國`` before it, is stored as DATE (TIMESTAMP when a time follows), the year
plus 1911, and said. Those DuckDB read as dates are ``early_years``'. Runs inside the load's transaction,
in DuckDB's SQL."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.settle.early_years import ROC_LAST, ROC_OFFSET, minguo_note
from analytics_agent.db.rows import first_row

_SHAPE = (
    r"^\s*(?:民國|民国)?\s*(\d{2,3})\s*(?:[/.-]|年)\s*(\d{1,2})\s*(?:[/.-]|月)\s*(\d{1,2})\s*日?"
    r"(?:\s*(\d{1,2}:\d{2}(?::\d{2})?))?\s*$"
)
"""A Minguo date, in RE2 and Python alike: the year, month, day and the time after it, if any."""


def may_be_minguo(values: Sequence[str]) -> bool:
    """Whether a column's first values may be Minguo dates: each starts with ``民`` or with a three-digit
    year and its separator (a plain test; the regex decides). Pure."""
    return bool(values) and all(v.lstrip()[:1] == "民" or _year_first(v.lstrip()) for v in values)


def _year_first(text: str) -> bool:
    return len(text) >= 8 and text[:3].isdigit() and text[3] in "/.-年"


def minguo_columns(probe: Mapping[str, Sequence[str]]) -> list[str]:
    """The text columns whose first values are all Minguo dates by their shape. Pure."""
    return [c for c, v in probe.items() if may_be_minguo(v) and all(re.match(_SHAPE, x) for x in v)]


def settle_minguo_text(
    conn: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str]
) -> tuple[list[str], list[str]]:
    """Store each of ``columns`` whose every value reads as a Minguo date (years 1-200, one of three digits
    or each after ``民國``) as DATE or TIMESTAMP. Returns those columns and one note for them."""
    if not columns:
        return [], []
    target, parts = quote_ident(table), []
    for col in map(quote_ident, columns):
        year = f"regexp_extract({col}, '{_SHAPE}', 1)::INTEGER"
        parts += [
            f"count({col})",
            f"count({_read(col, 'TIMESTAMP')})",
            f"min({year}), max({year})",
            f"count(*) FILTER (WHERE {col} LIKE '%民%')",
            f"count(*) FILTER (WHERE regexp_extract({col}, '{_SHAPE}', 4) <> '')",
            f"min({col})",
        ]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {target}"))
    read: list[tuple[str, str]] = []
    for i, name in enumerate(columns):
        present, fits, low, high, named, timed, example = found[7 * i : 7 * i + 7]
        if not present or fits != present or not (low >= 1 and high <= ROC_LAST):
            continue
        if high < 100 and named != present:  # two digits alone: the spreadsheet century's, not this
            continue
        kind = "TIMESTAMP" if timed else "DATE"
        col = quote_ident(name)
        conn.execute(f"ALTER TABLE {target} ALTER {col} TYPE {kind} USING {_read(col, kind)}")
        read.append((name, str(example)))
    return [n for n, _ in read], minguo_note(read, stored=True)


def _read(col: str, kind: str) -> str:
    """The value as the Gregorian date (or timestamp) it writes; NULL when it does not read."""
    y, m, d, t = (f"regexp_extract({col}, '{_SHAPE}', {g})" for g in (1, 2, 3, 4))
    day = f"printf('%04d-%02d-%02d', TRY_CAST({y} AS INTEGER) + {ROC_OFFSET}, TRY_CAST({m} AS INTEGER), TRY_CAST({d} AS INTEGER))"
    if kind == "DATE":
        return f"TRY_CAST(CASE WHEN {y} <> '' THEN {day} END AS DATE)"
    return f"TRY_CAST(CASE WHEN {y} <> '' THEN {day} || ' ' || coalesce(nullif({t}, ''), '00:00') END AS TIMESTAMP)"
