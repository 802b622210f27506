"""Dates DuckDB read with a year from 1000 to 1899 (``13/04/1863``, ``1017-02-01``): a register's birth
dates are such, and so are ids or codes shaped like dates. Read as dates only under a name that says dates
(``Birth date``, ``Datum``), and said; any other such column goes back to text as written, said with the
option that reads the dates. Years below 1000 are ``early_years``'. Runs inside the load's transaction."""

from __future__ import annotations

from collections.abc import Mapping

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.load.settle.date_years import EARLIEST, dates_named
from analytics_agent.db.rows import first_row


def settle_past_years(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    columns: Mapping[str, str],
    formats: Mapping[str, str],
    options: Mapping[str, str],
) -> tuple[list[str], list[str]]:
    """Each column of ``columns`` (name -> its type; its lowest year 1000-1899) kept as dates when its
    name says dates, else turned back to text; one note each. ``formats``, ``options``: the format each
    was read with and the option that reads it so (``early_years.written_formats``). Returns the notes
    and the columns turned back to text."""
    target = quote_ident(table)
    notes: list[str] = []
    kept: list[str] = []
    for name in columns:
        col, fmt = quote_ident(name), formats.get(name, "%Y-%m-%d")
        low, example = first_row(
            conn.execute(
                f"SELECT year(min({col})), strftime(min({col}), '{fmt}') FROM {target} WHERE isfinite({col})"
            )
        )
        if dates_named(name):
            notes.append(
                f"{name}: dates from the year {low}, before {EARLIEST} (like '{example}'), read as written: its "
                f"name says dates; add --type {name}=VARCHAR to keep them as text"
            )
            continue
        conn.execute(f"ALTER TABLE {target} ALTER {col} TYPE VARCHAR USING strftime({col}, '{fmt}')")
        kept.append(name)
        notes.append(
            f"{name} stayed text: its values read as dates would fall before {EARLIEST} (like '{example}', the "
            f"year {low}) and its name does not say dates, as ids shaped like dates do; add {options[name]} to "
            "read them as dates"
        )
    return notes, kept
