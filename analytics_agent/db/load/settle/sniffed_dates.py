"""The day/month dates DuckDB's sniffer read itself (one format for the whole file): which reading
stands and why, the other one taken when the rest of the file says it (``day_month.file_reading``), a
refusal when nothing does and the values depend on it, and two-digit years put in the spreadsheet
century. Runs inside the load's transaction, in DuckDB's SQL."""

from __future__ import annotations

from collections.abc import Mapping

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.settle.date_formats import PIVOT, PIVOT_SAID
from analytics_agent.db.load.settle.day_month import Clues, file_reading, first_of, refusal, swapped
from analytics_agent.db.rows import first_row


class Sniffed:
    """The day/month dates DuckDB read (one format for the file): per column, the values only its reading
    fits, those the other reading would change, and those a two-digit year put in 2030-2068."""

    __slots__ = ("counts",)

    def __init__(self, counts: dict[str, tuple[int, int, int]]) -> None:
        self.counts = counts

    def decided(self, formats: Mapping[str, str]) -> dict[str, str]:
        return {c: first_of(formats[c]) for c, (deciding, _, _) in self.counts.items() if deciding}


def sniffed_counts(conn: duckdb.DuckDBPyConnection, table: str, formats: Mapping[str, str]) -> Sniffed:
    if not formats:
        return Sniffed({})
    parts = []
    for name, fmt in formats.items():
        col = quote_ident(name)
        late = (
            f"count(*) FILTER (WHERE year({col}) BETWEEN 20{PIVOT} AND 2068)"
            if "%y" in fmt
            # DuckDB reads one format for the file: '03.03.24' under the %d.%m.%Y of '02.03.2024' in
            # another column is the year 24, not 2024
            else f"count(*) FILTER (WHERE year({col}) < 100)"
        )
        parts += [
            f"count(*) FILTER (WHERE day({col}) > 12)",
            f"count(*) FILTER (WHERE day({col}) <> month({col}))",
            late,
        ]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {quote_ident(table)}"))
    return Sniffed({name: tuple(found[3 * i : 3 * i + 3]) for i, name in enumerate(formats)})


def settle_sniffed(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    formats: Mapping[str, str],
    sniffed: Sniffed,
    clues: Clues,
) -> list[str]:
    """Say which reading of DuckDB's day/month dates stands, and why; swap day and month when the rest of
    the file says the other reading, refuse when nothing does and the values depend on it; put two-digit
    years in the spreadsheet century."""
    notes = []
    target = quote_ident(table)
    deciding = {c: d for c, (d, _, _) in sniffed.counts.items() if d}
    for name, fmt in formats.items():
        decide, changing, late = sniffed.counts[name]
        first, col = first_of(fmt), quote_ident(name)
        short = None
        if late and "%Y" in fmt:
            short = _short_years(conn, target, name, fmt, late)
            fmt, late = fmt.replace("%Y", "%y"), 0
        if deciding:
            other = next(iter(deciding))
            why = (
                f"{decide:,} {'value only fits' if decide == 1 else 'values only fit'} that reading"
                if decide
                else f"as {other}'s dates, which only fit that reading"
            )
            notes.append(f"{name}: dates read {first}-first ({fmt}); {why}")
        elif changing:
            wanted, reason = file_reading(clues, name, fmt)
            if wanted is None:
                example = first_row(
                    conn.execute(
                        f"SELECT strftime(any_value({col}), '{fmt}') FROM {target} WHERE day({col}) <> month({col})"
                    )
                )[0]
                raise refusal(name, fmt, example)
            if wanted != first:
                conn.execute(f"UPDATE {target} SET {col} = make_date(year({col}), day({col}), month({col}))")
                fmt, first = swapped(fmt), wanted
            notes.append(
                f"{name}: dates read {first}-first ({fmt}) {reason}; every value fits {swapped(fmt)} too: if "
                f"that is meant, load again with --date-format {name}={swapped(fmt)}"
            )
        if short:
            notes.append(short)
        if late:
            conn.execute(
                f"UPDATE {target} SET {col} = {col} - INTERVAL 100 YEAR WHERE year({col}) BETWEEN 20{PIVOT} AND 2068"
            )
            notes.append(
                f"{name}: {PIVOT_SAID} ({late:,} moved back a century); add --type {name}=VARCHAR to keep the text"
            )
    return notes


def _short_years(conn: duckdb.DuckDBPyConnection, target: str, name: str, fmt: str, count: int) -> str:
    """Two-digit years DuckDB read with the file's four-digit format (as the years 0-99) put in the
    spreadsheet century, and said."""
    col, short = quote_ident(name), fmt.replace("%Y", "%y")
    example = first_row(
        conn.execute(f"SELECT strftime(min({col}), '{short}') FROM {target} WHERE year({col}) < 100")
    )[0]
    conn.execute(
        f"UPDATE {target} SET {col} = {col} + to_years(CASE WHEN year({col}) < {PIVOT} THEN 2000 ELSE 1900 END) "
        f"WHERE year({col}) < 100"
    )
    values = "value has" if count == 1 else "values have"
    return (
        f"{name}: {count:,} {values} a two-digit year ('{example}'), which DuckDB read as the year itself "
        f"under the file's {fmt}: {PIVOT_SAID}; add --type {name}=VARCHAR to keep the text"
    )
