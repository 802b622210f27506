"""Two-digit years DuckDB's sniffer reads first. Given ``26.04.21`` or ``31/12/21`` it picks ``%y.%m.%d``
(``%y/%m/%d``) whenever every value fits that reading, and stores 2026-04-21 and 2031-12-21: a German
``TT.MM.JJ`` or a British ``dd/mm/yy`` export loses its dates without a word. Spreadsheets write a
two-digit year last; one first is rare. So a column DuckDB read year-first whose every value also reads
with the year last is read that way (said, with the option that keeps DuckDB's reading); the order of
day and month is then the day/month check's (``sniffed_dates.settle_sniffed``), as is the century.
The same goes for timestamps, which DuckDB's own cast reads without a format: ``15/03/24 14:05`` is
0015-03-24 to it. A timestamp column whose every year is below 100 is such a misreading (no export means
year 15): it goes back to text, its three date fields in their order, for the text-date check to read
(``text_dates``, with two-digit-year formats and the spreadsheet century).
Runs inside the load's transaction, in DuckDB's SQL.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.rows import first_row

_YEAR_FIRST = re.compile(r"%y([./-])%m\1%d")


def read_year_last(
    conn: duckdb.DuckDBPyConnection, table: str, formats: Mapping[str, str]
) -> tuple[dict[str, str], list[str]]:
    """The sniffed day/month formats (column -> format), with each year-first column whose values all
    read year-last rewritten (day-first if every value fits that, else month-first), and one note each."""
    year_first = [(name, fmt) for name, fmt in formats.items() if _YEAR_FIRST.fullmatch(fmt)]
    if not year_first:
        return dict(formats), []
    parts = []
    for name, fmt in year_first:
        col, sep = quote_ident(name), fmt[2]
        text = f"strftime({col}, '{fmt}')"
        parts += [
            f"count({col})",
            f"count(try_strptime({text}, '%d{sep}%m{sep}%y'))",
            f"count(try_strptime({text}, '%m{sep}%d{sep}%y'))",
        ]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {quote_ident(table)}"))
    result, notes = dict(formats), []
    for i, (name, fmt) in enumerate(year_first):
        present, day_first, month_first = found[3 * i : 3 * i + 3]
        if not present or present not in (day_first, month_first):
            continue
        sep = fmt[2]
        wanted = f"%d{sep}%m{sep}%y" if day_first == present else f"%m{sep}%d{sep}%y"
        col = quote_ident(name)
        conn.execute(
            f"UPDATE {quote_ident(table)} SET {col} = try_strptime(strftime({col}, '{fmt}'), '{wanted}')::DATE"
        )
        result[name] = wanted
        notes.append(
            f"{name}: two-digit years read last ({wanted}), as spreadsheets write them, not first as DuckDB "
            f"guessed ({fmt}); add --date-format {name}={fmt} if the year comes first"
        )
    return result, notes


def unread_short_years(conn: duckdb.DuckDBPyConnection, table: str, stamps: Sequence[str]) -> list[str]:
    """The TIMESTAMP columns of ``stamps`` (read by DuckDB's cast, without a format) whose every year is
    1-99, turned back to text (``15/03/24 14:05:00``, the fields in the file's order); the others stay."""
    if not stamps:
        return []
    parts = [
        f"count({c}), count(*) FILTER (WHERE year({c}) BETWEEN 1 AND 99)" for c in map(quote_ident, stamps)
    ]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {quote_ident(table)}"))
    misread = [name for i, name in enumerate(stamps) if found[2 * i] and found[2 * i] == found[2 * i + 1]]
    for name in misread:
        col = quote_ident(name)
        text = (
            f"lpad(year({col})::VARCHAR, 2, '0') || '/' || strftime({col}, '%m/%d %H:%M') || "
            f"CASE WHEN second({col}) <> 0 THEN strftime({col}, ':%S') ELSE '' END"
        )
        conn.execute(f"ALTER TABLE {quote_ident(table)} ALTER {col} TYPE VARCHAR USING {text}")
    return misread
