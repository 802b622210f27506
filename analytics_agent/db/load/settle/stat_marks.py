"""Numbers as statistics offices publish them: a symbol for a missing value (Eurostat's ``:``, StatCan's
``..``, ``x`` and ``F``, the ABS's ``np``; ``stat_symbols`` lists whose) and a flag after a number
(Eurostat's ``12.3 p``, the ONS's ``123 [r]``). DuckDB reads such a column as text, and a sum over it is
refused. A text column whose every value is a number, a flagged number or such a symbol becomes numbers:
the symbols NULL, the flags dropped, said in one line with the option that keeps the text. Runs inside
the load's transaction, in DuckDB's SQL.

A wrong guess is worse than text, so the reading is strict: only the symbols and flags of the offices'
own lists, a flag only after a number and written as the office writes it, no code with a leading zero
(``007``), symbols in letters (``x``, ``F``) only where numbers are at least half of the values (a size
column's ``x``, ``F`` for female stay text), and a column of Eurostat's lower-case flags with no symbol
(``12.3 e``: ``1.2 s`` may be a unit), or whose only symbols are ones other systems write too among whole
numbers (one ``X`` among 1, 2, 3 may be anything), only beside other columns that show an office's marks
(``corroborated``).
"""

# no ``from __future__ import annotations``: a NamedTuple's string annotations are each compiled when the
# class is made (its fifteen fields: 0.4 ms of a load that imports this module)
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import duckdb

from analytics_agent.db.amount_forms import literal
from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.settle.stat_symbols import (
    EUROSTAT_FLAGS,
    GSS_FLAGS,
    LETTERS,
    MISSING,
    STATCAN_FLAGS,
    WEAK,
)

# Patterns work alike in Python's re (the first values) and DuckDB's RE2 (the whole column): [0-9], not \d
_GROUP = "[ \u00a0\u202f]"
NUMBER = {
    ".": f"[+-]?(?:[0-9]{{1,3}}(?:,[0-9]{{3}})+|[0-9]{{1,3}}(?:{_GROUP}[0-9]{{3}})+|[0-9]+)(?:[.][0-9]+)?|[+-]?[.][0-9]+",
    ",": f"[+-]?(?:[0-9]{{1,3}}(?:[.][0-9]{{3}})+|[0-9]{{1,3}}(?:{_GROUP}[0-9]{{3}})+|[0-9]+)(?:,[0-9]+)?|[+-]?,[0-9]+",
}
"""A number read with a decimal point (thousands grouped with commas or spaces) or a decimal comma
(grouped with points or spaces), as the offices' English and French, Spanish or Nordic tables write it."""
COLON = f":(?: ?[{EUROSTAT_FLAGS}]{{1,3}})?"
_EUROSTAT_TAIL = f"[0-9] +[{EUROSTAT_FLAGS}]{{1,3}}$"
_SURE_TAIL = (
    f"[0-9] ?(?:\\[(?:{'|'.join(GSS_FLAGS)})\\])+$"  # the GSS shorthand: only offices write it so
    f"|[.,][0-9]+ ?[{STATCAN_FLAGS[:5]}]$|[.,][0-9]+[{STATCAN_FLAGS[5:]}]$"  # StatCan's, after a decimal
)
_STAR_TAIL = "[0-9] ?[*]{1,3}$"
"""An asterisk after a number, one to three (ELSTAT's and others' provisional ``36.758.620*``): a flag
like Eurostat's, standing beside another of an office's marks (``corroborated``)."""
FLAG_TAIL = f"{_EUROSTAT_TAIL}|{_SURE_TAIL}|{_STAR_TAIL}"
STRIP = "(?: *(?:\\[[a-z]{1,3}\\])+| *[A-Za-z]{1,3}| *[*]{1,3})$"
"""What a flag's removal takes off the end of a value (any letters, any shorthand): the value is read so
only once ``FLAG_TAIL`` has matched each value whose end it takes."""
_WHOLE = "[+-]?[0-9]{1,18}"
_EITHER = "[+-]?[0-9]{1,3}[.,][0-9]{3}"
"""A number both marks read, to different numbers (``1,234``: 1234 or 1.234)."""


class Counts(NamedTuple):
    """What one column holds, counted in one scan."""

    present: int
    symbols: int
    """Values that are a missing-value symbol."""
    letters: int
    """Of those, symbols written in letters (``stat_symbols.LETTERS``)."""
    weak: int
    """Of those, symbols other systems write too (``stat_symbols.WEAK``)."""
    point: int
    """Values (a flag taken off) that read as a number with a decimal point."""
    comma: int
    """Values (a flag taken off) that read as a number with a decimal comma."""
    either: int
    """Values both marks read, to different numbers (``_EITHER``)."""
    stripped: int
    """Values with something taken off their end (letters, a shorthand in brackets)."""
    flagged: int
    """Of those, the ones written as an office writes a flag after a number."""
    sure: int
    """Of those, flags only an office writes (the GSS shorthand, StatCan's after a decimal)."""
    whole: int
    """Values that are whole numbers written without grouping (``_WHOLE``): BIGINT if all are."""
    coded: int
    """Values with a leading zero (``007``) or sixteen digits in a row (an order number, which a DOUBLE
    would round): codes, kept as text."""
    seen: list[str]
    """The symbols met."""
    flags: list[str]
    """The flags met."""
    example: str | None
    """A number both marks read, to different numbers (``_EITHER``), if any."""


class Reading(NamedTuple):
    mark: str
    """The decimal mark, ``""`` when either reads every number, some to different numbers (``1,234``)."""
    kind: str
    """BIGINT when every number is whole and ungrouped, else DOUBLE."""
    sure: bool
    """Whether the column shows a symbol or a flag only an office writes, or a symbol other systems write
    too (``stat_symbols.WEAK``) among numbers with a decimal part or grouped thousands (``corroborated``)."""


def _value(col: str) -> str:
    return f"trim({col})"


def _symbol(value: str) -> str:
    """SQL: whether a trimmed value is a missing-value symbol."""
    symbols = ", ".join(map(literal, MISSING))
    return (
        f"({value} IN ({symbols}) OR (starts_with({value}, ':') AND regexp_full_match({value}, '{COLON}')))"
    )


def _core(value: str) -> str:
    """SQL: a trimmed value with its flag taken off."""
    return f"rtrim(regexp_replace({value}, {literal(STRIP)}, ''))"


def _count_sql() -> list[str]:
    """The aggregates of ``Counts`` over ``_values``' rows. CASE, not FILTER: DuckDB plans a FILTER per
    aggregate in time growing with their square; ``approx_top_k``, not ``list(DISTINCT …)``, for the
    symbols and flags met: a twentieth of the CPU, and exact for as few values as a column's marks are."""
    letters, weak = ", ".join(map(literal, LETTERS)), ", ".join(map(literal, WEAK))
    return [
        "count(v)",
        "count(CASE WHEN s THEN 1 END)",
        f"count(CASE WHEN s AND v IN ({letters}) THEN 1 END)",
        f"count(CASE WHEN s AND v IN ({weak}) THEN 1 END)",
        f"count(CASE WHEN regexp_full_match(k, {literal(NUMBER['.'])}) THEN 1 END)",
        f"count(CASE WHEN regexp_full_match(k, {literal(NUMBER[','])}) THEN 1 END)",
        f"count(CASE WHEN regexp_full_match(k, '{_EITHER}') THEN 1 END)",
        "count(f)",
        f"count(CASE WHEN f IS NOT NULL AND regexp_matches(v, {literal(FLAG_TAIL)}) THEN 1 END)",
        f"count(CASE WHEN f IS NOT NULL AND regexp_matches(v, {literal(_SURE_TAIL)}) THEN 1 END)",
        f"count(CASE WHEN regexp_full_match(k, '{_WHOLE}') THEN 1 END)",
        "count(CASE WHEN regexp_matches(k, '^[+-]?0[0-9]|[0-9]{16}') THEN 1 END)",
        f"coalesce(approx_top_k(CASE WHEN s THEN v END, {_SHOWN}), [])",
        f"coalesce(approx_top_k(f, {_SHOWN}), [])",
        f"min(CASE WHEN regexp_full_match(k, '{_EITHER}') THEN k END)",
    ]


_SHOWN = 8
"""The symbols, and the flags, a note names at most."""


def _values(relation: str, columns: Sequence[str]) -> str:
    """SQL: the values of ``relation``'s ``columns`` as rows of ``i`` (the column's position), ``v`` (the
    value trimmed), ``s`` (a symbol), ``k`` (the value less its flag, NULL for a symbol) and ``f`` (the flag
    taken off, NULL for none). One row a value, so that each expression is planned once, not once a
    column: planning is the dearest part of the count of a small table (9 columns of 32 rows: 65 ms of CPU
    as columns, 6 as rows), each regular expression compiled where it is written."""
    listed = ", ".join(_value(quote_ident(n)) for n in columns)
    values = f"SELECT unnest(range({len(columns)})) AS i, unnest([{listed}]) AS v FROM {relation}"
    tested = f"SELECT i, v, {_symbol('v')} AS s FROM ({values}) WHERE v IS NOT NULL"
    cores = f"SELECT i, v, s, CASE WHEN NOT s THEN {_core('v')} END AS k FROM ({tested})"
    return f"(SELECT i, v, s, k, CASE WHEN k <> v THEN ltrim(v[length(k) + 1:]) END AS f FROM ({cores}))"


def mark_counts(conn: duckdb.DuckDBPyConnection, relation: str, columns: Sequence[str]) -> dict[str, Counts]:
    """``Counts`` of each column of ``relation`` (a quoted table, or ``odd_values.first_rows``'s), one scan
    for all (``_values``)."""
    found = dict.fromkeys(columns, Counts(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, [], [], None))
    rows = conn.execute(f"SELECT i, {', '.join(_count_sql())} FROM {_values(relation, columns)} GROUP BY i")
    for i, *counts in rows.fetchall():
        # sorted, as a note shows them
        found[columns[i]] = Counts(*counts)._replace(seen=sorted(counts[-3]), flags=sorted(counts[-2]))
    return found


def read_as(counts: Counts, decimal: str | None) -> Reading | None:
    """How a column of numbers with an office's marks reads, or None when it is not one: some value is
    neither a number, a flagged number nor a symbol, none is marked, a value is a code, or symbols in
    letters are more than half of the values. ``decimal``: the load's ``--decimal``; the mark is ``""``
    when either reads the numbers (``_mark``). Pure."""
    numbers = counts.present - counts.symbols
    if not numbers or not (counts.symbols or counts.stripped) or counts.coded:
        return None
    if counts.flagged != counts.stripped or 2 * counts.letters > counts.present:
        return None
    mark = _mark(counts, numbers, decimal)
    if mark is None:
        return None
    kind = "BIGINT" if counts.whole == numbers else "DOUBLE"
    # a weak symbol among 1,234.5 or 12.3 is an office's (``x``), among 1, 2, 3 it may be anything
    sure = counts.symbols > counts.weak or counts.sure > 0 or (counts.weak > 0 and kind == "DOUBLE")
    return Reading(mark, kind, sure)


def _mark(counts: Counts, numbers: int, decimal: str | None) -> str | None:
    """The decimal mark every number reads with: ``decimal`` if given; else the one that reads them all,
    a point where both do alike; ``""`` where both read them, to different numbers (``1,234``); None
    where neither does. Pure."""
    if decimal in (".", ","):
        return decimal if (counts.point if decimal == "." else counts.comma) == numbers else None
    if counts.point == numbers and counts.comma == numbers and counts.either:
        return ""
    if counts.point == numbers:
        return "."
    return "," if counts.comma == numbers else None


def corroborated(
    readings: Mapping[str, tuple[Reading, Counts]], seen: bool = False
) -> dict[str, tuple[Reading, Counts]]:
    """The columns whose reading stands: all of them when one is sure (``Reading.sure``), or ``seen``:
    the load converted such a column already. Symbols other systems write too (``stat_symbols.WEAK``)
    among whole numbers stand when two of them are met (StatCan's ``x`` and ``F``): one ``X`` among
    1, 2, 3 may be anything. Eurostat's lower-case flags alone (``12.3 p``) stand when two
    columns or more write some numbers without a flag and the flags are of two letters or more: a unit is
    written after every value (``1.2 s``). Pure."""
    if seen or any(reading.sure for reading, _ in readings.values()):
        return dict(readings)
    weak = {s for _, c in readings.values() for s in c.seen if s in WEAK} - {"X"}
    if len(weak) >= 2:
        return dict(readings)
    partly = [c for _, c in readings.values() if c.stripped and c.stripped < c.present - c.symbols]
    flags = {flag for _, c in readings.values() for flag in c.flags}
    return dict(readings) if len(partly) >= 2 and len(flags) >= 2 else {}


def value_sql(col: str, reading: Reading) -> str:
    """SQL: a quoted column's value as a number: NULL for a symbol, the flag and the thousands marks
    taken off. With a decimal point, the cast alone first: it reads most values of a column (``12.5``) and
    none it would misread (every value is a number of ``NUMBER['.']`` or a mark, checked before), at a
    third of the CPU of the rest. TRY_CAST: rows deleted in this load (``--drop-totals``) are rewritten by
    the ALTER too."""
    value = _value(col)
    core = _core(value)
    if reading.mark == ".":
        digits = f"regexp_replace({core}, '[,{_GROUP[1:-1]}]', '', 'g')"
    else:
        digits = f"replace(regexp_replace({core}, '[.{_GROUP[1:-1]}]', '', 'g'), ',', '.')"
    read = f"CASE WHEN {_symbol(value)} THEN NULL ELSE TRY_CAST({digits} AS {reading.kind}) END"
    return f"coalesce(TRY_CAST({col} AS {reading.kind}), {read})" if reading.mark == "." else read


class Marked(NamedTuple):
    """What ``settle_stat_marks`` did."""

    converted: list[str]
    notes: list[str]
    """The notes of the converted columns."""
    either: list[str]
    """Columns kept text: their numbers read either with a decimal point or with a comma (``1,234``)."""
    either_notes: list[str]
    commas: list[str]
    """The converted columns read with a decimal comma: no column of decimal points (``--decimal ','``,
    named for other columns of decimal commas, reads them alike)."""


def settle_stat_marks(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    columns: Sequence[str],
    decimal: str | None,
    *,
    sample: str | None = None,
    seen: bool = False,
    file_comma: str = "",
) -> Marked:
    """Convert each of ``columns`` that is numbers with an office's marks (``read_as``, ``corroborated``)
    to BIGINT or DOUBLE. A column whose numbers read either way (``1,234``) reads as another of them
    shows its decimal mark; else it stays text, said with the ``--decimal`` for each reading. ``sample``:
    a relation of the table's first rows (``odd_values.first_rows``), counted first so that only the
    columns it leaves are read whole. ``file_comma``: a column of the file the amount check read with a
    decimal comma (``4.648.186``, ``1.234,56``): numbers that read either way read so too (said)."""
    if sample is not None and columns:
        first = mark_counts(conn, sample, columns)
        columns = [c for c in columns if read_as(first[c], decimal) is not None]
    if not columns:
        return Marked([], [], [], [], [])
    readings = {}
    for name, counts in mark_counts(conn, quote_ident(table), columns).items():
        reading = read_as(counts, decimal)
        if reading is not None:
            readings[name] = (reading, counts)
    shown = {reading.mark for reading, _ in readings.values()} - {""}
    if len(shown) == 1:  # one file writes its numbers one way: 1,234 reads as 1,234.5 beside it does
        readings = {n: (r._replace(mark=r.mark or next(iter(shown))), c) for n, (r, c) in readings.items()}
    readings = corroborated(readings, seen)
    either = {n: c for n, (r, c) in readings.items() if not r.mark}
    told = {}
    if either and file_comma and not shown:  # the file's other numbers say how it writes them
        told = {n: readings[n][1] for n in either}
        readings = {n: (r._replace(mark=r.mark or ","), c) for n, (r, c) in readings.items()}
        either = {}
    readings = {n: found for n, found in readings.items() if n not in either}
    for name, (reading, _) in readings.items():
        col = quote_ident(name)
        conn.execute(
            f"ALTER TABLE {quote_ident(table)} ALTER {col} TYPE {reading.kind} USING {value_sql(col, reading)}"
        )
    commas = [n for n, (reading, _) in readings.items() if reading.mark == ","]
    notes = marks_notes(readings) + told_note(told, file_comma)
    return Marked(list(readings), notes, list(either), either_note(either), commas)


def told_note(columns: Mapping[str, Counts], file_comma: str) -> list[str]:
    """The line for the columns of numbers with an office's marks that read either way (``12.345``), read
    with a decimal comma as ``file_comma``'s numbers are (``settle_stat_marks``). Pure."""
    if not columns:
        return []
    example = next((c.example for c in columns.values() if c.example is not None), "")
    read = f"{example!r} -> {example.replace('.', '').replace(',', '.')}, " if example else ""
    return [
        f"{', '.join(columns)}: numbers that read either way read with a decimal comma ({read}the points "
        f"grouping thousands), as {file_comma}'s numbers are written; add --decimal '.' to read the points as "
        "decimals"
    ]


def either_note(columns: Mapping[str, Counts]) -> list[str]:
    """The line for the columns of numbers with an office's marks that read either with a decimal point
    or with a comma, kept text: the ``--decimal`` that reads the example's mark as grouping thousands
    first (three digits after one mark are more often a thousand than three decimals). Pure."""
    if not columns:
        return []
    example = next(c.example for c in columns.values() if c.example is not None)
    marks = ("'.'", "','") if "," in example else ("','", "'.'")
    return [
        f"{', '.join(columns)} stayed text: numbers like {example!r} read either with a decimal point or "
        f"with a decimal comma, beside a statistics office's marks; add --decimal {marks[0]} or --decimal "
        f"{marks[1]} to say which"
    ]


def marks_notes(readings: Mapping[str, tuple[Reading, Counts]]) -> list[str]:
    """One line for the columns converted to each type: the symbols read as missing and the flags
    dropped, how many, and the option that keeps the text. Pure."""
    notes = []
    for kind in ("BIGINT", "DOUBLE"):
        group = {name: counts for name, (reading, counts) in readings.items() if reading.kind == kind}
        if not group:
            continue
        said = []
        missing = sum(c.symbols for c in group.values())
        if missing:
            symbols = sorted({s for c in group.values() for s in c.seen})
            said.append(f"{_count(missing, 'value')} {_shown(symbols)} read as missing (NULL)")
        flagged = sum(c.stripped for c in group.values())
        if flagged:
            flags = sorted({f for c in group.values() for f in c.flags})
            said.append(f"the flags after {_count(flagged, 'number')} ({_shown(flags)}) dropped")
        first = next(iter(group))
        each = " (for each such column)" if len(group) > 1 else ""
        notes.append(
            f"{', '.join(group)}: numbers with a statistics office's marks, stored as {kind}: "
            f"{', and '.join(said)}; add --type {first}=VARCHAR{each} to keep them as text"
        )
    return notes


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def _shown(values: Sequence[str], most: int = 6) -> str:
    """The values quoted, the first ``most`` of them. Pure."""
    shown = ", ".join(map(repr, values[:most]))
    return shown + (", …" if len(values) > most else "")
