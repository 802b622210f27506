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
from analytics_agent.db.load.settle.text_dates import may_mark
from analytics_agent.db.rows import first_row

_SHAPE = (
    r"^\s*(?:民國|民国)?\s*(\d{2,3})\s*(?:[/.-]|年)\s*(\d{1,2})\s*(?:[/.-]|月)\s*(\d{1,2})\s*日?"
    r"(?:\s*(\d{1,2}:\d{2}(?::\d{2})?)(?: ([AP]M))?)?\s*$"
)
"""A Minguo date, in RE2 and Python alike: the year, month, day, the time after it, if any, and its
``AM``/``PM`` (``下午`` and the other marks written so by ``day_halves``)."""


def may_be_minguo(values: Sequence[str]) -> bool:
    """Whether a column's first values may be Minguo dates: each starts with ``民`` or with a three-digit
    year and its separator (a plain test; the regex decides). Pure."""
    return bool(values) and all(v.lstrip()[:1] == "民" or _year_first(v.lstrip()) for v in values)


def _year_first(text: str) -> bool:
    return len(text) >= 8 and text[:3].isdigit() and text[3] in "/.-年"


def minguo_columns(probe: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """The text columns whose first values are all Minguo dates by their shape, with the morning and
    afternoon marks of their times (``上午``, ``下午``; none mostly). Pure."""
    found: dict[str, list[str]] = {}
    for column, values in probe.items():
        if not may_be_minguo(values):
            continue
        marks: list[str] = []
        if may_mark(values[0]):  # the plain test before ``day_halves``' regexes
            from analytics_agent.db.load.settle.day_halves import day_halves, with_am_pm

            if marks := day_halves(values):
                values = [with_am_pm(v) for v in values]
        if all(re.match(_SHAPE, v) for v in values):
            found[column] = marks
    return found


def settle_minguo_text(
    conn: duckdb.DuckDBPyConnection, table: str, columns: Mapping[str, Sequence[str]]
) -> tuple[list[str], list[str]]:
    """Store each of ``columns`` whose every value reads as a Minguo date (years 1-200, one of three digits
    or each after ``民國``) as DATE or TIMESTAMP; ``columns``: name -> the marks of its 12-hour times.
    Returns those columns and their notes."""
    if not columns:
        return [], []
    target, parts = quote_ident(table), []
    for name, marks in columns.items():
        col, value = quote_ident(name), _value(name, marks)
        year = f"regexp_extract({value}, '{_SHAPE}', 1)::INTEGER"
        parts += [
            f"count({col})",
            f"count({_read(value, 'TIMESTAMP')})",
            f"min({year}), max({year})",
            f"count(*) FILTER (WHERE {col} LIKE '%民%')",
            f"count(*) FILTER (WHERE regexp_extract({value}, '{_SHAPE}', 4) <> '')",
            # the latest time of day shows what a mark does (23:12:54); a value that does not read, why
            f"arg_max({col}, {_read(value, 'TIMESTAMP')}::TIME)" if marks else f"min({col})",
            f"any_value({col}) FILTER (WHERE {_read(value, 'TIMESTAMP')} IS NULL)",
        ]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {target}"))
    read: list[tuple[str, str]] = []
    notes: list[str] = []
    for i, (name, marks) in enumerate(columns.items()):
        present, fits, low, high, named, timed, example, unread = found[8 * i : 8 * i + 8]
        if marks and present and fits != present:  # a 12-hour reading would be a guess: said, not stored
            from analytics_agent.db.load.settle.day_halves import unread_note

            notes.append(unread_note(name, [str(unread)], marks))
            continue
        if not present or fits != present or not (low >= 1 and high <= ROC_LAST):
            continue
        if high < 100 and named != present:  # two digits alone: the spreadsheet century's, not this
            continue
        kind = "TIMESTAMP" if timed else "DATE"
        col = quote_ident(name)
        conn.execute(f"ALTER TABLE {target} ALTER {col} TYPE {kind} USING {_read(_value(name, marks), kind)}")
        read.append((name, str(example)))
    said = next((_halves_said(columns[n], example) for n, example in read if columns[n]), "")
    return [n for n, _ in read], minguo_note(read, stored=True, said=said) + notes


def _value(name: str, marks: Sequence[str]) -> str:
    """SQL: the column's text, its morning or afternoon mark written as ``AM``/``PM`` after the time."""
    if not marks:
        return quote_ident(name)
    from analytics_agent.db.load.settle.day_halves import am_pm_sql

    return am_pm_sql(quote_ident(name))


def _halves_said(marks: Sequence[str], example: str) -> str:
    """The note's words for a column's marks: ``上午/下午 read as AM/PM, '113/08/16 下午 11:12:54' as
    23:12:54``. Pure."""
    from analytics_agent.db.load.settle.day_halves import clock, halves_said

    return f"{halves_said(marks)}, {example!r} as {clock(example)}"


def _read(col: str, kind: str) -> str:
    """The value (SQL: the column's text, ``_value``) as the Gregorian date (or timestamp) it writes;
    NULL when it does not read (a 12-hour time's hour not 1 to 12)."""
    y, m, d, t, half = (f"regexp_extract({col}, '{_SHAPE}', {g})" for g in (1, 2, 3, 4, 5))
    day = f"printf('%04d-%02d-%02d', TRY_CAST({y} AS INTEGER) + {ROC_OFFSET}, TRY_CAST({m} AS INTEGER), TRY_CAST({d} AS INTEGER))"
    if kind == "DATE":
        return f"TRY_CAST(CASE WHEN {y} <> '' THEN {day} END AS DATE)"
    twelve = (
        f"TRY_STRPTIME({day} || ' ' || {t} || ' ' || {half}, ['%Y-%m-%d %I:%M:%S %p', '%Y-%m-%d %I:%M %p'])"
    )
    return (
        f"CASE WHEN {y} = '' THEN NULL WHEN {half} <> '' THEN {twelve} "
        f"ELSE TRY_CAST({day} || ' ' || coalesce(nullif({t}, ''), '00:00') AS TIMESTAMP) END"
    )
