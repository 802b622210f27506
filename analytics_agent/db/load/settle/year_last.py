"""Two-digit years DuckDB's sniffer reads first. Given ``26.04.21`` or ``31/12/21`` it picks ``%y.%m.%d``
(``%y/%m/%d``) whenever every value fits that reading, and stores 2026-04-21 and 2031-12-21: a German
``TT.MM.JJ`` or a British ``dd/mm/yy`` export loses its dates without a word. Spreadsheets write a
two-digit year last; one first is rare. So a column DuckDB read year-first whose every value also reads
with the year last is read that way (said, with the option that keeps DuckDB's reading); the order of
day and month is then the day/month check's (``text_dates.settle_sniffed``), as is the century.
Runs inside the load's transaction, in DuckDB's SQL.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

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
