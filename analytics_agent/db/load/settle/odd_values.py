"""Text columns that are numbers or dates but for a few odd values: which values, and the option that
reads them (a note of the load). Runs inside the load's transaction, in DuckDB's SQL."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.settle.decimal_commas import DECIMAL_COMMA as _DECIMAL_COMMA
from analytics_agent.db.load.settle.decimal_commas import comma_notes, grouped_notes, points_in_use
from analytics_agent.db.load.settle.first_rows import PROBE_ROWS as PROBE_ROWS
from analytics_agent.db.load.settle.first_rows import SAMPLE_ROWS as SAMPLE_ROWS
from analytics_agent.db.load.settle.first_rows import first_rows
from analytics_agent.db.load.settle.odd_counts import cast_sql, odd_counts, odd_sql
from analytics_agent.db.load.settle.stat_symbols import may_mark
from analytics_agent.db.load.settle.total_labels import is_total_label
from analytics_agent.db.rows import first_row

_MOSTLY = 0.9
_SOME = 0.25
"""A column of numbers or dates at least a quarter of which fit, the rest one or two words a system writes
for a missing value (a manifest's ``NVD``, ``k.A.``; Meta's ``Ongoing`` for an ad set with no end, more than
half of its rows): named as one of a few odd values is (``_markers``)."""
_MARKER = r"[^0-9]{1,12}"
_NUMBER_WITH_SEPARATORS = r"^[+-]?\d{1,3}([,.' ]\d{3})+([.,]\d+)?$"  # compiled on first use: most loads none
_AS_POINT = "TRY_CAST(replace(replace({c}, '.', ''), ',', '.') AS DOUBLE)"
_NEVER = {"DOUBLE": "[A-HJ-MO-Za-hj-mo-z]*", "DATE": "[A-DF-HJ-Za-df-hj-z]*"}
"""A first character no value of the type starts with (a GLOB pattern), so its cast is not tried: a
letter, except the first letters of DuckDB's inf, infinity and nan (numbers) and epoch, inf and infinity
(dates). A cast that fails is the dearest part of the check: on 4,000 country names, 4.1 -> 1.5 ms for
three columns. GLOB, not a regular expression: the same values at a third less CPU (58 columns of 4,000
rows: 44 -> 32 ms)."""


def odd_value_notes(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text_columns: Sequence[str],
    *,
    decimal: str | None = None,
    rows: int | None = None,
    comma_read: Sequence[str] = (),
    text_marked: Sequence[str] = (),
    marks_seen: bool = False,
) -> list[str]:
    """One line per text column whose values are numbers or dates except for a few: which values, and
    the option that reads them. Counted over the first ``SAMPLE_ROWS`` rows; the first ``PROBE_ROWS``
    first (the probe), which rule out a column failing both casts on more values than a tenth of any
    sample (then not "mostly" numbers or dates, whatever the rest holds). A table of at most twice
    ``PROBE_ROWS`` rows is its own probe and sample: its first rows cost as much to set apart as the
    rest to cast (4,271 rows: probe and sample 10.7 ms of CPU, the whole table once 5.8).

    A column of numbers written with a decimal comma (``1.234,50``) is named with ``--decimal ','``
    unless ``decimal`` (the load's ``--decimal``) was given; the probe decides. ``rows``: the table's
    row count, when the caller knows it (see ``first_rows``). ``comma_read``: number columns the amount
    check read with a decimal comma (``--decimal ','`` reads them alike: they do not stand in its way).
    ``text_marked``: columns the export marked as text (``text_marks``): no ``--type`` is named to read them as
    numbers (it would meet the marks).

    A column whose odd values are a statistics office's marks (``..``, ``12.3 p``) past the first rows
    the load read ahead is stored as numbers here (``_stat_marked``); ``marks_seen``: the load converted
    such a column from its first values already."""
    if not text_columns:
        return []
    comma, counts = _counted(conn, table, text_columns, decimal, rows)
    text_columns = [c for c in text_columns if c not in comma]
    odd, marked = _fitting(counts)
    candidates = {c: kind for c, kind in {**odd, **marked}.items() if c not in text_marked}
    listed: dict[tuple[str, str], tuple[int, list[str]]] = {}  # odd values counted, for the notes too
    told = "" if decimal else next(iter(comma_read), "")  # the file's own decimal comma (``4.648.186``)
    stat, stat_notes = _stat_marked(
        conn, table, candidates, decimal, rows, (marks_seen, told), listed
    )  # not odd
    odd, marked = _without(odd, stat), _without(marked, stat)
    odd |= _markers(conn, table, marked, rows, decimal)
    numbers_only = [
        name
        for name, (present, numbers, *_) in counts.items()
        if present and numbers == present and name not in text_marked
    ]
    left = [c for c in text_columns if c not in odd and c not in stat]
    grouped = grouped_notes(conn, table, left, rows) if decimal == "," else []
    return (
        stat_notes
        + comma_notes(conn, table, comma, rows, comma_read)
        + grouped
        + _odd_notes(conn, table, odd, rows, listed, decimal)
        + _number_notes(conn, table, numbers_only, rows)
    )


def _counted(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text_columns: Sequence[str],
    decimal: str | None,
    rows: int | None,
) -> tuple[list[str], dict[str, tuple[int, ...]]]:
    """The columns of numbers written with a decimal comma (the probe decides, unless ``decimal``), and the
    cast counts of the others: the probe's, or for a bigger table the sample's of the columns the probe
    left undecided (``odd_value_notes``)."""
    whole = rows is not None and rows <= 2 * PROBE_ROWS
    probe = first_rows(table, text_columns, 2 * PROBE_ROWS if whole else PROBE_ROWS, rows)
    read, probed = _cast_counts(conn, probe, text_columns, decimal)
    comma = [
        name
        for name, (present, numbers, _, as_point, sure) in probed.items()
        if sure and numbers < _MOSTLY * present <= numbers + as_point  # no value with a comma casts as is
    ]
    counts = {c: found for c, found in probed.items() if c not in comma}
    if read >= PROBE_ROWS and not whole:  # a bigger table: the sample's counts, for the columns left
        undecided = [
            c
            for c, (present, numbers, dates, *_) in counts.items()
            if 10 * min(present - numbers, present - dates) <= SAMPLE_ROWS
        ]
        sample = first_rows(table, undecided, SAMPLE_ROWS, rows)
        counts = _cast_counts(conn, sample, undecided, decimal, commas=False)[1] if undecided else {}
    return comma, counts


def _without(kinds: dict[str, str], columns: Sequence[str]) -> dict[str, str]:
    return {name: kind for name, kind in kinds.items() if name not in columns}


def _stat_marked(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    kinds: dict[str, str],
    decimal: str | None,
    rows: int | None,
    seen: tuple[bool, str],
    listed: dict[tuple[str, str], tuple[int, list[str]]],
) -> tuple[list[str], list[str]]:
    """``stat_marks.settle_stat_marks`` on the columns a quarter or more of whose values are numbers and
    the rest odd (``_fitting``): a statistics office's marks (``..``, ``12.3 p``) below the first rows,
    which ``columns._stat_marks`` reads. Only where each of a column's three commonest odd values may be
    a mark (``stat_symbols.may_mark``): weather.csv's ``T`` for a trace of rain cannot, and counting its
    marks cost the load 5 ms of CPU. The odd values counted go to ``listed`` (the notes read them).
    Counted over the sample first, the columns it leaves whole. ``seen``: whether a column of marks was
    converted already, and a column the amount check read with a decimal comma ("" for none). Returns the
    columns converted or said to read either way (``1.234``), and the notes."""
    doubles = {name: kind for name, kind in kinds.items() if kind == "DOUBLE"}
    if not doubles:
        return [], []
    counted = odd_counts(conn, table, doubles, rows, listed_up_to=SAMPLE_ROWS, decimal=decimal)
    listed |= {(name, "DOUBLE"): found for name, found in zip(doubles, counted, strict=True)}
    columns = [name for name, (_, odd) in zip(doubles, counted, strict=True) if all(map(may_mark, odd))]
    if not columns:
        return [], []
    from analytics_agent.db.load.settle.stat_marks import settle_stat_marks  # such columns only

    sample = (
        None if rows is not None and rows <= SAMPLE_ROWS else first_rows(table, columns, SAMPLE_ROWS, rows)
    )
    marked = settle_stat_marks(conn, table, columns, decimal, sample=sample, seen=seen[0], file_comma=seen[1])
    return marked.converted + marked.either, marked.notes + marked.either_notes


_CODE_MARK = "contains({c}, '_') OR regexp_matches({c}, '^\\s*[+-]?0[0-9]')"
"""A value with a leading zero (``007``, ``02134``) or an underscore (``41_10_1``, which DuckDB's cast reads
as 41101): a code, not a number (``_number_notes``)."""


def _fitting(counts: dict[str, tuple[int, ...]]) -> tuple[dict[str, str], dict[str, str]]:
    """The columns (-> the type most of their values fit) with a few odd values (``_MOSTLY``), and those
    whose odd values may be a marker (``_SOME``). Pure."""
    odd: dict[str, str] = {}
    marked: dict[str, str] = {}
    for name, (present, numbers, dates, *_) in counts.items():
        fitting = max(numbers, dates)
        kind = "DOUBLE" if numbers >= dates else "DATE"
        if present and _MOSTLY * present <= fitting < present:
            odd[name] = kind
        elif present and _SOME * present <= fitting < present:
            marked[name] = kind
    return odd, marked


def _markers(
    conn: duckdb.DuckDBPyConnection, table: str, kinds: dict[str, str], rows: int | None, decimal: str | None
) -> dict[str, str]:
    """Those of ``kinds`` (column -> the type a quarter of its values fit at least) whose other values are at most two
    distinct words without a digit, over the sample: a marker, however often a file writes it. Not where
    the words name things (``_named_things``)."""
    if not kinds:
        return {}
    parts = []
    for name, kind in kinds.items():
        col = quote_ident(name)
        odd = odd_sql(col, kind, decimal)
        parts.append(
            f"count(DISTINCT {col}) FILTER (WHERE {odd}) <= 2 AND "
            f"coalesce(bool_and(regexp_full_match({col}, '{_MARKER}')) FILTER (WHERE {odd}), false) AND NOT "
            + _named_things(col, kind, odd)
        )
    source = first_rows(table, list(kinds), SAMPLE_ROWS, rows)
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {source}"))
    return {name: kind for (name, kind), marker in zip(kinds.items(), found, strict=True) if marker}


def _named_things(col: str, kind: str, odd: str) -> str:
    """SQL: the odd values of a quoted column are words naming things, no missing marker (Rivilė's
    warehouse column of ``KAUNAS``, ``CENTR`` and ``01``: read as missing, two thirds of the names were
    lost). Words of letters only (``/``, ``k.A.``, ``n/k`` are marks, whatever the column), and either the
    values that fit are codes (``_CODE_MARK``: with the words missing the column stays text, and the
    option would only lose them), or two different words outnumber them (a column of words with some
    numbers among them: a school's grades ``K`` and ``PK`` above ``1``-``12``). One word however often
    (Meta's ``Ongoing`` for an ad set with no end), or two beside more numbers, stays a marker."""
    fits = f"{col} IS NOT NULL AND NOT ({odd})"
    letters = f"coalesce(bool_and(regexp_full_match({col}, '{_WORDS}')) FILTER (WHERE {odd}), false)"
    codes = (
        f"coalesce(bool_or({_CODE_MARK.format(c=col)}) FILTER (WHERE {fits}), false)"
        if kind == "DOUBLE"  # a date's leading zero (01.02.2024) is no code
        else "false"
    )
    words = (
        f"(count(DISTINCT {col}) FILTER (WHERE {odd}) = 2 AND "
        f"count(*) FILTER (WHERE {odd}) > count(*) FILTER (WHERE {fits}))"
    )
    return f"({letters} AND ({codes} OR {words}))"


_WORDS = r"\pL+( \pL+)?"
"""One or two words of letters, nothing else: a name (``KAUNAS``), or a marker in words (``NVD``)."""


def _number_notes(
    conn: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str], rows: int | None = None
) -> list[str]:
    """One line per text column whose every value is a number DuckDB did not read as one (``+3``, ``-0.5``
    with a plus elsewhere, ``1.5e3`` beside them, ``inf``), with the ``--type`` that stores them: BIGINT
    when every value is a whole number that fits, else DOUBLE; the user judges whether they are quantities
    (a phone number ``+12233445567`` is not). Checked over the whole table (the sample only picked the
    columns). A value that marks a code (``_CODE_MARK``) means no note: a column showing one among its
    first ``SAMPLE_ROWS`` rows is not read again (a column of county codes 01-99 cost a 300,000-row load
    36 ms of CPU for its whole-table check)."""
    columns = _without_codes(conn, table, columns, rows)
    if not columns:
        return []
    parts = []
    for col in map(quote_ident, columns):
        parts += [
            f"count({col}) FILTER (WHERE TRY_CAST({col} AS DOUBLE) IS NULL OR {_CODE_MARK.format(c=col)})",
            f"count({col}) = count(CASE WHEN regexp_full_match({col}, '\\s*[+-]?[0-9]+\\s*') THEN TRY_CAST({col} AS BIGINT) END)",
            # the example: a value not written as DuckDB reads a number, if any
            f"coalesce(min({col}) FILTER (WHERE NOT regexp_full_match({col}, '-?[0-9]*\\.?[0-9]+')), min({col}))",
        ]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {quote_ident(table)}"))
    notes = []
    for i, name in enumerate(columns):
        others, whole, example = found[3 * i : 3 * i + 3]
        if not others:
            kind = "BIGINT" if whole else "DOUBLE"
            notes.append(
                f"{name} stayed text though every value reads as a number, like {example!r}; add --type "
                f"{name}={kind} if they are quantities, not codes"
            )
    return notes


def _without_codes(
    conn: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str], rows: int | None
) -> list[str]:
    """``columns`` but those whose first ``SAMPLE_ROWS`` rows hold a code (``_CODE_MARK``), asked only of a
    table with more rows (a smaller one is read whole as cheaply)."""
    if not columns or (rows is not None and rows <= SAMPLE_ROWS):
        return list(columns)
    marks = ", ".join(f"bool_or({_CODE_MARK.format(c=c)})" for c in map(quote_ident, columns))
    found = first_row(conn.execute(f"SELECT {marks} FROM {first_rows(table, columns, SAMPLE_ROWS, rows)}"))
    return [name for name, coded in zip(columns, found, strict=True) if not coded]


def _cast_counts(
    conn: duckdb.DuckDBPyConnection,
    source: str,
    columns: Sequence[str],
    decimal: str | None,
    *,
    commas: bool = True,
) -> tuple[int, dict[str, tuple[int, ...]]]:
    """The rows of ``source`` (``first_rows``), and per column its values, those that read as numbers (with
    ``decimal``, the load's ``--decimal``) and those that cast to DATE; with ``commas`` and no ``decimal``
    also those that cast with a decimal comma, and those only a decimal comma reads (0 without:
    ``_comma_counts``)."""
    commas = commas and decimal is None
    selects = ["count(*)"]
    for name in columns:
        col = quote_ident(name)
        selects += [
            f"count({col})",
            f"count({_cast(col, 'DOUBLE', decimal)})",
            f"count({_cast(col, 'DATE')})",
        ]
        # CASE, not FILTER: DuckDB plans a FILTER per aggregate in time growing with their square (232
        # aggregates of 58 columns: 13 ms of CPU)
        selects += [f"count(CASE WHEN contains({col}, ',') THEN 1 END)"] if commas else []
    rows, *counts = first_row(conn.execute(f"SELECT {', '.join(selects)} FROM {source}"))
    width = 4 if commas else 3
    found = {name: tuple(counts[width * i : width * i + 3]) for i, name in enumerate(columns)}
    # only values with a comma can read with a decimal comma: a column of too few of them and numbers
    # together cannot be one of numbers written so (``odd_value_notes``), whatever the casts say
    with_commas = [
        name
        for i, name in enumerate(columns)
        if commas
        and counts[width * i + 3]
        and counts[width * i + 1] + counts[width * i + 3] >= _MOSTLY * counts[width * i]
    ]
    comma_counts = _comma_counts(conn, source, with_commas)
    return int(rows), {name: (*found[name], *comma_counts.get(name, (0, 0))) for name in columns}


def _cast(col: str, kind: str, decimal: str | None = None) -> str:
    """``cast_sql`` of a quoted column, not tried on values that cannot be of ``kind`` (``_NEVER``)."""
    return f"CASE WHEN NOT {col} GLOB '{_NEVER[kind]}' THEN {cast_sql(col, kind, decimal)} END"


def _comma_counts(
    conn: duckdb.DuckDBPyConnection, source: str, columns: Sequence[str]
) -> dict[str, tuple[int, int]]:
    """Per column, its values that cast with a decimal comma and those only a decimal comma reads. Asked
    only of the columns holding a comma: most text holds none, and these casts and the regular
    expression cost each column about half a millisecond even where no value is read."""
    if not columns:
        return {}
    selects = []
    for col in map(quote_ident, columns):  # contains() first: the regular expression costs more
        selects += [
            f"count(CASE WHEN contains({col}, ',') THEN {_AS_POINT.format(c=col)} END)",
            f"count(CASE WHEN contains({col}, ',') AND regexp_full_match({col}, '{_DECIMAL_COMMA}') THEN 1 END)",
        ]
    counts = first_row(conn.execute(f"SELECT {', '.join(selects)} FROM {source}"))
    return {name: (counts[2 * i], counts[2 * i + 1]) for i, name in enumerate(columns)}


def _odd_notes(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    kinds: dict[str, str],
    rows: int | None,
    listed: Mapping[tuple[str, str], tuple[int, list[str]]],
    decimal: str | None,
) -> list[str]:
    """The note of each column (-> the type most of its values fit): how many values do not fit, and the
    three commonest (``odd_counts``; those ``listed`` already, not counted again)."""
    if not kinds:
        return []
    left = {name: kind for name, kind in kinds.items() if (name, kind) not in listed}
    counted = (
        dict(
            zip(
                left,
                odd_counts(conn, table, left, rows, listed_up_to=SAMPLE_ROWS, decimal=decimal),
                strict=True,
            )
        )
        if left
        else {}
    )
    notes = []
    for name, (count, odd) in ((n, counted.get(n) or listed[(n, k)]) for n, k in kinds.items()):
        values = "value" if count == 1 else "values"
        # only then is the answer needed; a comma first, a plain test: the regex is compiled on first use
        commas = all("," in v and re.fullmatch(_DECIMAL_COMMA, v) for v in odd)
        fix = odd_value_fix(odd, points=not commas or points_in_use(conn, table, name, rows=rows))
        notes.append(
            f"{name} stayed text because of {count:,} {values} like {', '.join(map(repr, odd))}; {fix}"
        )
    return notes


def odd_value_fix(odd: Sequence[str], *, points: bool = True) -> str:
    """The option that reads such values; ``points``: whether a decimal point is in use in the file (then
    ``--decimal ','`` would lose those numbers, and is not offered). Pure."""
    if not points and all("," in v and re.fullmatch(_DECIMAL_COMMA, v) for v in odd):
        return "add --decimal ',' if ',' is their decimal mark"
    # a plain test before each regex (compiled on first use): a comma; a digit first, or after a sign
    if all(any(c.isdecimal() for c in v[:2]) and re.match(_NUMBER_WITH_SEPARATORS, v) for v in odd):
        separator = next((c for c in odd[0] if c in ",.' "), ",")
        return f"add --thousands {separator!r} if {separator!r} separates thousands"
    if any(is_total_label(v) for v in odd):  # read as missing, its row's numbers would count twice
        return "add --drop-totals if it labels a last row of totals (read as missing, its numbers would load as data)"
    if all(re.fullmatch(_MARKER, v) for v in odd):  # a value with a digit is data (an id C-00217), no marker
        flags = " ".join(f"--null {v!r}" for v in odd)
        return f"add {flags} if {'they mean' if len(odd) > 1 else 'it means'} missing"
    return "fix them, or keep the column as text"


def label_advice(note: str, columns: Sequence[str]) -> bool:
    """Whether ``note`` advises --drop-totals for a column of ``columns`` kept text by a totals label alone
    (``prekes_kodas stayed text because of 1 value like 'Iš viso:'``): once that row is dropped, the
    column stays text for its codes, and the note named a value no longer there. Pure."""
    return any(note.startswith(f"{c} stayed text because of 1 value like") for c in columns) and (
        "add --drop-totals" in note
    )
