"""Dates stored with a year below 1000. Taiwanese exports (banks, telecoms, the tax office) write years of
the Republic of China (Minguo) calendar, which counts from 1912: ``113/01/05`` is 2024-01-05. DuckDB reads
``113`` under ``%Y`` as the year 113 AD, and the load stored every record 1911 years early without a word.
A column whose every year is 1-200 with one of three digits is such a calendar's (the year plus 1911);
any other year below 1000 is no reading the load can vouch for (a typo ``0202`` among ``2024``, a year of
antiquity): that column goes back to text, said with the option that reads the dates as written. Two-digit
years alone are the spreadsheet century's (``year_last``, ``sniffed_dates``), read before this.
Runs inside the load's transaction, in DuckDB's SQL."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

import duckdb

from analytics_agent.db.catalog import own_table_types, quote_ident
from analytics_agent.db.rows import first_row

ROC_OFFSET = 1911
"""The Republic of China's year 1 is 1912."""
ROC_LAST = 200
"""The last year read as the Minguo calendar's (2111); today's are 113-115."""
DATE_TYPES = ("DATE", "TIMESTAMP", "TIMESTAMP WITH TIME ZONE")


def may_hold_dates(sniffed: Iterable[str], said: Sequence[str]) -> bool:
    """Whether a table may hold a year below 1000: DuckDB typed a column as dates (``sniffed``: its
    types), or a note ``said`` a column was stored as such (each date reader says it; a column read past
    its Excel errors is typed again by DuckDB's cast). Pure."""
    return any(t.startswith(("DATE", "TIMESTAMP")) for t in sniffed) or any(
        "DATE" in n or "TIMESTAMP" in n or n.startswith("Excel error values in text") for n in said
    )


def early_years(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    sniffed: Mapping[str, str],
    sniffed_formats: tuple[str | None, str | None],
    said: Sequence[str],
    fixed: Sequence[str],
) -> tuple[list[str], list[str]]:
    """``settle_early_years`` on the table's date and timestamp columns (less those the user typed,
    ``fixed``) that hold a year below 1000; ``sniffed``, ``sniffed_formats``, ``said``: what
    ``written_formats`` takes. Returns the notes and the columns turned back to text."""
    types = own_table_types(conn, table)
    dated = {c: t for c, t in types.items() if t in DATE_TYPES and c not in fixed}
    lows = lowest_years(conn, table, list(dated))
    kinds = {c: dated[c] for c, low in lows.items() if low < 1000}
    read = {m[1] for m in (re.match(_READER_NOTE, n) for n in said) if m}  # text dates said their years
    past = {c: dated[c] for c, low in lows.items() if 1000 <= low < 1900 and c not in read}
    if not kinds and not past:
        return [], []
    both = {**kinds, **past}
    formats, options = written_formats(both, sniffed, sniffed_formats, said)
    notes, kept = settle_early_years(conn, table, kinds, formats, options) if kinds else ([], [])
    if past:
        from analytics_agent.db.load.settle.past_years import settle_past_years  # such columns only

        past_notes, past_kept = settle_past_years(conn, table, past, formats, options)
        notes, kept = notes + past_notes, kept + past_kept
    return notes, kept


def lowest_years(conn: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str]) -> dict[str, int]:
    """The lowest year of each of ``columns`` (dates or timestamps) holding one: one aggregate of their
    minimums, which DuckDB answers from the stored columns (no file read)."""
    if not columns:
        return {}
    # DuckDB's -infinity comes to Python as the year 1: only finite values count
    parts = ", ".join(f"min({c}) FILTER (WHERE isfinite({c}))" for c in map(quote_ident, columns))
    found = first_row(conn.execute(f"SELECT {parts} FROM {quote_ident(table)}"))
    return {c: low.year for c, low in zip(columns, found, strict=True) if low is not None}


def written_formats(
    kinds: Mapping[str, str],
    sniffed: Mapping[str, str],
    sniffed_formats: tuple[str | None, str | None],
    said: Sequence[str],
) -> tuple[dict[str, str], dict[str, str]]:
    """The format each column of ``kinds`` (name -> its type) was written in, as far as the load knows,
    and the option that reads it as written: DuckDB's sniffed one (``sniffed_formats``: its date and
    timestamp formats) for a column it typed (``sniffed``: name -> its type), read again by ``--type``; a
    date reader's, as its note ``said`` it, read by ``--date-format``; else ISO (DuckDB's cast). Pure."""
    readers = {m[1]: m[2] for m in (re.match(_READER_NOTE, n) for n in said) if m}
    formats, options = {}, {}
    for c, kind in kinds.items():
        typed = sniffed.get(c) == kind and sniffed_formats[kind != "DATE"]
        iso = "%Y-%m-%d" if kind == "DATE" else "%Y-%m-%d %H:%M:%S"
        formats[c] = readers.get(c) or (sniffed_formats[kind != "DATE"] if typed else None) or iso
        short = kind.replace("TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ")
        options[c] = f"--date-format {c}={readers[c]}" if c in readers else f"--type {c}={short}"
    return formats, options


_READER_NOTE = r"^([^:]+): .*? stored as (?:DATE|TIMESTAMP) \(format ([^;)]+)"
"""A date reader's note of a column and the format it read (``text_dates``)."""


def unsaid_dates(notes: Sequence[str], kept: Sequence[str]) -> list[str]:
    """``notes`` less a date reader's note of a column ``settle_early_years`` turned back to text
    (``day: text dates like 'Jan 5 0202' stored as DATE``): it says the contrary now. Pure."""
    if not kept:
        return list(notes)
    return [
        n
        for n in notes
        if not any(
            n.startswith(f"{c}: ") and ("DATE" in n or "TIMESTAMP" in n or n.startswith(f"{c}: dates read"))
            for c in kept
        )
    ]


def settle_early_years(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    columns: Mapping[str, str],
    formats: Mapping[str, str],
    options: Mapping[str, str],
) -> tuple[list[str], list[str]]:
    """Each column of ``columns`` (name -> its type; a year below 1000 in it) read as the Minguo
    calendar's when its years say so, else turned back to text; one note for the former, one a column for
    the latter. ``formats``, ``options``: the format each column was read with (``written_formats``) and
    the option that reads it as written. Returns the notes and the columns turned back to text."""
    target = quote_ident(table)
    parts = ", ".join(
        f"min(year({c})), max(year({c})), count({c}) FILTER (WHERE year({c}) < 1000)"
        for c in map(quote_ident, columns)
    )
    found = first_row(conn.execute(f"SELECT {parts} FROM {target}"))
    minguo: list[tuple[str, str]] = []
    notes: list[str] = []
    kept: list[str] = []
    for i, name in enumerate(columns):
        low, high, early = found[3 * i : 3 * i + 3]
        if not early:  # a column given without one: nothing to say
            continue
        col, fmt = quote_ident(name), formats.get(name, "%Y-%m-%d")
        minguo_like = low >= 1 and 100 <= high <= ROC_LAST  # three digits: no two-digit year misread
        example = _written(conn, target, col, fmt, minguo=minguo_like)
        if minguo_like:
            conn.execute(f"UPDATE {target} SET {col} = {col} + to_years({ROC_OFFSET})")
            minguo.append((name, example))
            continue
        conn.execute(f"ALTER TABLE {target} ALTER {col} TYPE VARCHAR USING strftime({col}, '{fmt}')")
        kept.append(name)
        values = "value has" if early == 1 else "values have"
        notes.append(
            f"{name} stayed text: {early:,} {values} a year below 1000 (like '{example}'), neither four digits "
            f"nor the Republic of China (Minguo) calendar's (every year 1-{ROC_LAST}); add {options[name]} to "
            "read them as written"
        )
    return minguo_note(minguo) + notes, kept


def _written(conn: duckdb.DuckDBPyConnection, target: str, col: str, fmt: str, *, minguo: bool) -> str:
    """The earliest early value as the file wrote it: a Minguo year without the zeros ``%Y`` pads it with
    (``113``), another as ``%Y`` writes it (``0202``)."""
    sql = f"SELECT strftime(min({col}), '{fmt}') FROM {target} WHERE year({col}) < 1000"
    text = str(first_row(conn.execute(sql))[0])
    return re.sub(r"^0+(?=\d)", "", text) if minguo and fmt.startswith("%Y") else text


def minguo_note(columns: list[tuple[str, str]], *, stored: bool = False, said: str = "") -> list[str]:
    """One note for the columns read as the Minguo calendar's (the first one's example as written);
    ``stored``: they were text (``minguo_text``), not dates DuckDB put in the year itself; ``said``: how
    their times' morning and afternoon marks were read. Pure."""
    if not columns:
        return []
    names = ", ".join(n for n, _ in columns)
    name, example = columns[0]
    each = " (for each such column)" if len(columns) > 1 else ""
    misread = "" if stored else ", not as the year itself"
    return [
        f"{names}: years of the Republic of China (Minguo) calendar like '{example}' stored as Gregorian dates "
        f"(the year plus {ROC_OFFSET}: 113 is 2024{'; ' + said if said else ''}){misread}; add --type {name}=VARCHAR{each} to keep the text"
    ]
