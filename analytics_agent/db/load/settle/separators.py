"""``--thousands``: DuckDB drops the separator wherever it stands, so ``--thousands ','`` reads a decimal
comma's ``1,2`` as 12 and ``--thousands '.'`` reads ``5.25`` as 525, without a word. The load refuses a
file where a number column holds the separator anywhere but between groups of three digits."""

from __future__ import annotations

import re
from typing import Any

import duckdb

from analytics_agent.db.catalog import column_types, quote_ident
from analytics_agent.db.rows import first_row
from analytics_agent.errors import LoadError

_NUMBER_TYPES = re.compile(r"U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?\b|DOUBLE|FLOAT|REAL|DECIMAL", re.I)


def grouping(thousands: str, decimal: str | None) -> str:
    """An RE2 pattern of a number whose ``thousands`` separators group three digits each. Pure."""
    sep, point = re.escape(thousands), re.escape(decimal or ".")
    return rf"[+-]?\d{{1,3}}({sep}\d{{3}})*({point}\d*)?([eE][+-]?\d+)?"


def separator_notes(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text_reader: tuple[str, list[Any]],
    stored_to_original: dict[str, str],
    options: Any,
    *,
    label: str,
) -> list[str]:
    """What ``--decimal`` and ``--thousands`` (``options.decimal``, ``options.thousands``) did to the
    number columns: ``check_decimal`` for a decimal mark given alone, ``check_thousands`` for a
    thousands separator."""
    decimal, thousands = options.decimal, options.thousands
    notes = []
    if decimal and decimal != "." and not thousands:
        notes = check_decimal(conn, table, text_reader, stored_to_original, decimal)
    if thousands:
        notes += check_thousands(
            conn, table, text_reader, stored_to_original, thousands, decimal, label=label
        )
    return notes


def check_thousands(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text_reader: tuple[str, list[Any]],
    stored_to_original: dict[str, str],
    thousands: str,
    decimal: str | None,
    *,
    label: str,
) -> list[str]:
    """Raise LoadError (the transaction rolls back) when a number column of the freshly written ``table``
    holds, in the file read as text, a value with ``thousands`` outside a thousands group. The notes: a
    column where ``--decimal`` is given but no value holds that mark while some hold ``thousands``
    (``--decimal ',' --thousands '.'`` on a decimal-point file read 1.500 as 1500 without a word; in a
    decimal-comma file without cents it is right, so this is said, not refused)."""
    numbers = _number_columns(conn, table, stored_to_original)
    if not numbers:
        return []
    pattern = grouping(thousands, decimal).replace("'", "''")
    literal = thousands.replace("'", "''")
    point = (decimal or ".").replace("'", "''")
    picks = [
        f"min({c}) FILTER (WHERE contains({c}, '{literal}') AND NOT regexp_full_match(trim({c}), '{pattern}')), "
        f"min({c}) FILTER (WHERE contains({c}, '{literal}')), count(*) FILTER (WHERE contains({c}, '{point}'))"
        for c in map(quote_ident, numbers)
    ]
    notes = []
    for column, (misread, grouped, with_point) in _read_per_column(conn, text_reader, numbers, picks):
        if misread is not None:
            raise LoadError(
                f"{label}: column {column}: --thousands {thousands!r} would read {misread!r} as "
                f"{misread.replace(thousands, '')!r}, which is not a number grouped in thousands; leave "
                f"--thousands out{' or check --decimal' if decimal else ''}, or fix the value"
            )
        if decimal and grouped is not None and not with_point:
            notes.append(
                f"column {column}: no value holds the decimal mark {decimal!r}, so each {thousands!r} was read "
                f"as a thousands separator ({grouped.strip()} as {grouped.strip().replace(thousands, '')}); if "
                f"{thousands!r} is this file's decimal point, load again without --decimal and --thousands"
            )
    return notes


def _number_columns(
    conn: duckdb.DuckDBPyConnection, table: str, stored_to_original: dict[str, str]
) -> list[str]:
    """The file's own names of the table's number columns (the text reader's names)."""
    return [
        stored_to_original[name]
        for name, kind in column_types(conn, table).items()
        if _NUMBER_TYPES.match(kind) and name in stored_to_original
    ]


def _read_per_column(
    conn: duckdb.DuckDBPyConnection,
    text_reader: tuple[str, list[Any]],
    columns: list[str],
    picks: list[str],
    width: int = 3,
) -> list[tuple[str, tuple[Any, ...]]]:
    """Each column with its part of one query over the file read as text: ``picks`` holds one select
    list of ``width`` aggregates per column."""
    source, params = text_reader
    found = first_row(conn.execute(f"SELECT {', '.join(picks)} FROM {source}", params))
    return [(column, tuple(found[width * n : width * (n + 1)])) for n, column in enumerate(columns)]


def check_decimal(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text_reader: tuple[str, list[Any]],
    stored_to_original: dict[str, str],
    decimal: str,
) -> list[str]:
    """Notes for a number column where ``--decimal`` is given and every value holding that mark has
    exactly three digits after it: ``--decimal ','`` on a file writing ``1,500`` for fifteen hundred read
    1.5 without a word (the mirror of ``--thousands`` on a decimal-point file). Loaded as told: in a file
    whose numbers all have three decimals it is right, so this is said, not refused. Not asked with
    ``--thousands`` too: ``1.234,500`` then says which mark groups. Not said when another number column
    writes the mark with other than three digits after it (Rivilė's quantities ``73,210`` beside costs
    ``117,7000`` and values ``8 616,82``): the file shows the mark is its decimal one."""
    numbers = _number_columns(conn, table, stored_to_original)
    if not numbers:
        return []
    point = decimal.replace("'", "''")
    three = rf"[+-]?\d*{re.escape(decimal)}\d{{3}}".replace("'", "''")
    other = rf".*\d{re.escape(decimal)}(\d{{1,2}}|\d{{4,}})".replace("'", "''")
    picks = [
        f"count(*) FILTER (WHERE contains({c}, '{point}')), "
        f"count(*) FILTER (WHERE regexp_full_match(trim({c}), '{three}')), "
        f"min(trim({c})) FILTER (WHERE regexp_full_match(trim({c}), '{three}')), "
        f"bool_or(contains({c}, '{point}') AND regexp_full_match(trim({c}), '{other}'))"
        for c in map(quote_ident, numbers)
    ]
    found = _read_per_column(conn, text_reader, numbers, picks, width=4)
    if any(witness for *_, witness in (counts for _, counts in found)):
        return []
    notes = []
    for column, (with_point, with_three, example, _) in found:
        if with_point and with_three == with_point:
            notes.append(
                f"column {column}: every value with the decimal mark {decimal!r} has three digits after it "
                f"({example} read as {_plain(example.replace(decimal, '.'))}); if "
                f"{decimal!r} groups thousands in this file, load again with --thousands {decimal!r} and "
                "without --decimal"
            )
    return notes


def _plain(number: str) -> str:
    """``1.500`` as ``1.5``, ``1500.000`` as ``1500``: the value as stored. Pure."""
    from decimal import Decimal, InvalidOperation

    try:
        return format(Decimal(number).normalize(), "f")
    except InvalidOperation:
        return number
