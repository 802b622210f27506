"""Work out a CSV file's layout with DuckDB's sniffer, and refuse a sniff that would lose data.

DuckDB's sniffer falls back quietly when a file is ragged: it skips leading lines (the header with them),
or reads each whole line as one text column. We pin what the first line plainly says instead (its
delimiter, that it is the header), so the strict read that follows fails on the first ragged record and
names its line, or, with ``--skip-bad-rows``, sets such records aside.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb

from analytics_agent.db.load.options import Dialect, LoadOptions, sniff_sql
from analytics_agent.db.load.read.column_groups import group_of_each
from analytics_agent.db.load.read.first_line import first_line
from analytics_agent.db.load.read.peek import (
    CANDIDATE_DELIMITERS,
    Peek,
    agreeing_delimiter,
    excel_delimiter,
    field_count,
    header_cells,
    header_row,
    peek_file,
    trailing_empty_fields,
)
from analytics_agent.db.load.read.titles import (
    MOST_TITLE_LINES,
    names_over_numbers,
    padded_title,
    past_sparse_lines,
    table_start,
    title_above_header,
    title_block,
    widest_title,
)
from analytics_agent.db.load.read.under_header import may_describe
from analytics_agent.db.load.settle.hex_values import written_in_hex
from analytics_agent.db.rows import first_row
from analytics_agent.errors import LoadError

_SHOWN = {"\t": "\\t"}
_NO_LAYOUT = (
    "{label}: DuckDB could not work out its layout; give --delimiter (and --no-header if the first line "
    "is data) and check that every line has the same number of fields"
)


def _quoted_line_breaks(endings: tuple[str, ...], text: str, options: LoadOptions) -> str:
    """``\\n`` when the file's lines all end in ``\\n`` and its other line ends are inside quoted values
    (``"first\\r\\nname"``): DuckDB's sniffer takes them for mixed line ends and gives up, and ``--newline
    any`` would turn them into ``\\n``. Only ``\\n``: DuckDB reads no rows with ``\\r\\n`` pinned when the
    header holds a quoted ``\\n``. Empty otherwise."""
    if len(endings) < 2 or options.newline is not None or options.quote not in (None, '"'):
        return ""
    if text.count('"') % 2:  # a stray quote (5'11") would hide real line ends from the count below
        return ""
    from analytics_agent.db.load.read.peek import endings_outside_quotes  # files of mixed line ends only

    return "\\n" if endings_outside_quotes(text) == ("\\n",) else ""


class _SniffFailed(Exception):
    """DuckDB's sniffer found no consistent layout in its sample."""


def _refuse_padding_past_the_header(
    label: str, text: str, delimiter: str, quote: str, columns: int, options: LoadOptions
) -> None:
    """``--pad-short-rows`` (DuckDB's null_padding) also took a record longer than the header and added a
    column for it (``column2``, NULL in every other row) without a word: refused, as the option pads short
    records only. (A longer record past the sniffer's sample is refused by the strict read already.)"""
    width = len(header_row(text, delimiter, quote, skip=options.skip or 0))
    if 0 < width < columns:
        raise LoadError(
            f"{label}: a record has {columns} fields, more than the header's {width}; --pad-short-rows pads "
            "short records only: name the extra fields in the header, or fix the record"
        )


def sniff_dialect(conn: duckdb.DuckDBPyConnection, path: Path, label: str, options: LoadOptions) -> Dialect:
    """The layout of one CSV file, checked. Raises LoadError saying which option to use."""
    peeked = peek_file(path, label, encoding=options.encoding, comment=options.comment, skip=options.skip)
    excel = excel_delimiter(peeked.text) if options.skip is None else None
    if excel is not None:  # Excel's "sep=;" line is never the header: read from the line after it
        options = options._replace(skip=1, delimiter=options.delimiter or excel)
    new_line = _quoted_line_breaks(peeked.endings, peeked.text, options)
    sniffed, options = _sniffed(conn, path, label, options, peeked, new_line)
    header = bool(sniffed["HasHeader"])
    columns = {c["name"]: c["type"] for c in sniffed["Columns"]}
    quote = options.quote if options.quote is not None else _or(sniffed["Quote"], "")
    if header and options.skip is None and options.header is None and not options.comment:
        title = _title_lines(peeked.text, sniffed["Delimiter"], quote, columns)
        if title is not None:
            raise LoadError(f"{label}: {title}")
    escape = options.escape if options.escape is not None else _or(sniffed["Escape"], "")
    if header and options.pad_short_rows:
        _refuse_padding_past_the_header(
            label, peeked.text, sniffed["Delimiter"], quote, len(columns), options
        )
    if header and options.nulls() != [""]:
        columns = _token_names(conn, path, options, sniffed["Delimiter"], quote, columns)
    return Dialect(
        delimiter=sniffed["Delimiter"],
        quote=quote,  # as DuckDB detected it: forcing '"' on a file it read without quotes loses rows
        escape=escape,
        header=header,
        columns=columns,
        date_format=sniffed["DateFormat"],
        timestamp_format=sniffed["TimestampFormat"],
        comment=options.comment or "",
        skip=options.skip or 0,
        trailing_empty=trailing_empty_fields(
            peeked.text, sniffed["Delimiter"], quote, len(columns), skip=options.skip or 0
        ),
        excel_delimiter=excel or "",
        hex_seen=written_in_hex(peeked.text),
        describing=header and may_describe(peeked.text, sniffed["Delimiter"], quote, skip=options.skip or 0),
        new_line=new_line,
        header_cells=header_cells(
            peeked.text, list(columns), sniffed["Delimiter"], quote, skip=options.skip or 0
        )
        if header
        else (),
        **(_column_groups(peeked.text, sniffed["Delimiter"], quote, len(columns), options) if header else {}),
    )


def _sniffed(
    conn: duckdb.DuckDBPyConnection, path: Path, label: str, options: LoadOptions, peeked: Peek, new_line: str
) -> tuple[dict[str, Any], LoadOptions]:
    """DuckDB's sniff of the file, sniffed again with the layout pinned when the first fell back (or met a
    ragged record), or with the header read after all; and the options as they then read the file."""
    lf = {"new_line": new_line} if new_line else {}
    try:
        sniffed = _sniff(conn, path, label, options, **lf)
        pinned = _pin(conn, path, label, options, sniffed, peeked.text)
        if pinned:
            options = _past_blank_below_comments(options, peeked.text, sniffed)
    except _SniffFailed:  # a ragged record inside the sample
        pinned = _first_line_layout(conn, path, label, options, peeked.endings)
    if pinned:
        # ignore_errors: the sniff must not trip over the very records the strict read will report
        sniffed = _sniff(
            conn, path, label, options, skip=options.skip or 0, ignore_errors=True, **pinned, **lf
        )
    elif not sniffed["HasHeader"] and options.header is None and len(sniffed["Columns"]) > 1:
        options = _header_after_all(conn, path, label, options, sniffed, peeked.text)
        sniffed = _sniff(conn, path, label, options, **lf)
    return sniffed, options


def _column_groups(text: str, delimiter: str, quote: str, width: int, options: LoadOptions) -> dict[str, Any]:
    """The ``Dialect`` fields of the groups over each column when ``--skip`` starts at a header below lines
    of column groups (``column_groups.group_of_each``); asked only then, and not under --plain-header or
    --comment (whose lines --skip does not count). Pure."""
    if not options.skip or options.plain_header or options.comment:
        return {}
    groups, lines = group_of_each(text, delimiter, quote, options.skip)
    return {"column_groups": groups, "group_lines": lines} if len(groups) == width else {}


def _first_line_layout(
    conn: duckdb.DuckDBPyConnection, path: Path, label: str, options: LoadOptions, endings: Sequence[str]
) -> dict[str, Any]:
    """When DuckDB's sniff fails on a ragged record: the first line's delimiter, pinned. Mixed line endings
    are the likelier cause, and their option is named instead."""
    if len(endings) > 1 and options.newline is None:
        raise LoadError(
            f"{label} mixes line endings ({' and '.join(endings)}), which DuckDB cannot read as "
            "they are; add --newline any to end a line at each of them"
        ) from None  # raised while the failed sniff is handled: its context says nothing to a user
    delimiter = options.delimiter or likely_delimiter(first_line(conn, path, options, label))
    if delimiter is None:
        raise LoadError(_NO_LAYOUT.format(label=label)) from None
    return {"delim": delimiter, "header": options.header if options.header is not None else True}


def _title_lines(head: str, delimiter: str, quote: str, columns: dict[str, str]) -> str | None:
    """The refusal for lines above the header that DuckDB read as the header itself: a title padded to
    the table's width (``padded_title``), or key-value lines narrower than the table below them (a bank
    statement's ``Account Name :,M/S …``, where DuckDB saw a two-column file). Not asked of a delimiter of
    several characters, which the csv module cannot split on."""
    if len(delimiter) != 1:
        return None
    if _unnamed(columns):
        title = padded_title(head, delimiter, quote)
        if title is not None:
            return title
    start = table_start(head, delimiter, quote, 0)
    start = past_sparse_lines(head, delimiter, quote, start) if start else start
    above = head.splitlines()[: start + 1]
    if not start or any(line.lstrip().startswith("#") for line in above):
        return None  # comment lines: --comment '#' is named first, by the strict read
    if quote and any(line.count(quote) % 2 for line in above):
        return None  # a quoted value across lines (a header cell's line break): no title
    if _quoted_header(head, delimiter, len(header_row(head, delimiter, quote, skip=start))):
        return None  # a first field quoted across lines reads alike; the error path names its quote
    return title_above_header(head, delimiter, quote, start)


def _header_after_all(
    conn: duckdb.DuckDBPyConnection,
    path: Path,
    label: str,
    options: LoadOptions,
    sniffed: dict[str, Any],
    head: str,
) -> LoadOptions:
    """A first line DuckDB saw as no header: ``options`` reading it as one when it is names over numbers
    DuckDB reads as text (``16.781,12``); else refused, naming the ``--skip`` past a pivot table's title
    (``Summe von Nettoumsatz;Spaltenbeschriftungen;;;``, where --no-header would load the title and the
    header as records), or --no-header and --header."""
    delimiter = options.delimiter or sniffed["Delimiter"]
    quote = options.quote if options.quote is not None else _or(sniffed["Quote"], "")
    if len(delimiter) == 1 and options.skip is None:
        title = padded_title(head, delimiter, quote)
        if title is not None:
            raise LoadError(f"{label}: {title}")
    if len(delimiter) == 1 and names_over_numbers(head, delimiter, quote, options.skip or 0):
        return options._replace(header=True)
    line = first_line(conn, path, options, label)
    raise LoadError(
        f"{label}: the first line ({_short(line)}) looks like data, not column names; add --no-header to "
        "load it as data, or --header to use it as the names"
    )


def _unnamed(columns: dict[str, str]) -> bool:
    """Whether DuckDB named a column itself (``column1``): the first line has an empty field."""
    return any(name.startswith("column") and re.fullmatch(r"column\d+", name) for name in columns)


def _token_names(
    conn: duckdb.DuckDBPyConnection,
    path: Path,
    options: LoadOptions,
    delimiter: str,
    quote: str,
    columns: dict[str, str],
) -> dict[str, str]:
    """A header cell that is a missing-value token (``NA``, ``null``) is a name all the same: DuckDB calls
    such a column ``column2``; give it back its own name."""
    generic = [n for n in columns if n.startswith("column") and re.fullmatch(r"column\d+", n)]
    if not generic:
        return columns
    try:
        line = first_line(conn, path, options)
    except LoadError:
        return columns
    cells = next(csv.reader([line], delimiter=delimiter, quotechar=quote or "\x00"), [])
    if len(cells) != len(columns):
        return columns
    tokens = set(options.nulls()) - {""}
    renamed = {}
    for cell, (name, type_name) in zip(cells, columns.items(), strict=True):
        cell = cell.strip()
        keep = name in generic and cell in tokens and cell not in columns and cell not in renamed
        renamed[cell if keep else name] = type_name
    return renamed


def _pin(
    conn: duckdb.DuckDBPyConnection,
    path: Path,
    label: str,
    options: LoadOptions,
    sniffed: dict[str, Any],
    head: str,
) -> dict[str, Any]:
    """What to pin when the sniff fell back (skipped lines, or one column where the first line has
    delimiters); empty when the sniff can be trusted. ``head``: the file's first block, as text."""
    header = options.header if options.header is not None else True
    if int(sniffed["SkipRows"]) > (options.skip or 0):  # DuckDB's SkipRows counts --skip's lines too
        # DuckDB skipped lines to read the rest alike. A tab file whose values hold commas agrees with
        # itself from the first line on under tabs: that is its delimiter. Lines that are a title above
        # the header are named with the option that skips them; else the strict read names the ragged line
        delimiter = options.delimiter or agreeing_delimiter(head) or sniffed["Delimiter"]
        if delimiter == sniffed["Delimiter"] and header and sniffed["HasHeader"] and options.skip is None:
            quote = options.quote if options.quote is not None else _or(sniffed["Quote"], "")
            start = int(sniffed["SkipRows"])
            if not options.comment:  # --skip counts no comment line; the head holds them
                start = past_sparse_lines(head, delimiter, quote, table_start(head, delimiter, quote, start))
            title = title_above_header(head, delimiter, quote, start)
            if title is not None and not _quoted_header(head, delimiter, len(sniffed["Columns"])):
                raise LoadError(f"{label}: {title}")
            if title is None and not options.delimiter and not options.comment:
                _refuse_wider_table(label, head, options.quote, sniffed)
        return {"delim": delimiter, "header": header}
    if len(sniffed["Columns"]) != 1:
        return {}
    line = first_line(conn, path, options, label)
    seen = likely_delimiter(line)
    if options.delimiter is not None and options.delimiter not in line:
        hint = f"it looks separated by {_show(seen)}; use --delimiter {_show(seen)}" if seen else ""
        raise LoadError(
            f"{label}: --delimiter {_show(options.delimiter)} does not occur in the first line "
            f"({_short(line)}); {hint or 'leave --delimiter out to detect it'}"
        )
    delimiter = options.delimiter or seen
    if delimiter is None and options.skip is None and header:  # a title block above a delimited table
        title = title_block(head, _or(sniffed["Quote"], '"'), onward=not options.comment)
        if title is not None:
            raise LoadError(f"{label}: {title}")
    if delimiter is None or delimiter not in line:
        return {}  # really one column
    return {"delim": delimiter, "header": header}


def _refuse_wider_table(label: str, head: str, quote: str | None, sniffed: dict[str, Any]) -> None:
    """Refuses, naming its ``--skip``, a title above a table that a delimiter reads better than DuckDB's
    sniff did: the sniffer took the delimiter of the notes below the table (a ``|`` in a copyright line,
    the commas of a sentence), and pinned, that read the title as a one-field header and the records as
    ragged (``--skip-bad-rows`` named for a file of good records), or the records as a table narrower than
    they are. Past the title lines (``MOST_TITLE_LINES``), DuckDB's skip went to the notes, and its own
    delimiter is weighed with the others; else only another one wider than its reading counts."""
    quote = quote if quote is not None else _or(sniffed["Quote"], '"')
    far = int(sniffed["SkipRows"]) > MOST_TITLE_LINES
    tried = [d for d in CANDIDATE_DELIMITERS if far or d != sniffed["Delimiter"]]
    found = widest_title(head, quote, tried)
    if found is not None and (far or found[0] > len(sniffed["Columns"])):
        raise LoadError(f"{label}: {found[1]}")


def _past_blank_below_comments(options: LoadOptions, head: str, sniffed: dict[str, Any]) -> LoadOptions:
    """``options`` skipping the lines DuckDB's sniffer skipped (``SkipRows``, comment lines not counted)
    when they are blank below comments (Adobe's report header, a blank line between comment blocks): read
    from line 0 with the dialect pinned, the blank line was the header and the real one a record. Pure."""
    if not options.comment or options.skip is not None:
        return options
    skipped = int(sniffed["SkipRows"])
    lines = [line for line in head.splitlines() if not line.lstrip().startswith(options.comment)]
    if 0 < skipped < len(lines) and all(not line.strip() for line in lines[:skipped]):
        return options._replace(skip=skipped)
    return options


def _quoted_header(head: str, delimiter: str, fields: int) -> bool:
    """Whether the header's first field is quoted across lines with a character no sniffer tries, which
    reads like a line above the header (PapaParse's ``.a⏎a.,b``): the error path names that quote."""
    from analytics_agent.db.load.reader_errors import quote_around_header

    return quote_around_header(head, delimiter, fields) is not None


def likely_delimiter(line: str) -> str | None:
    """The candidate delimiter the line uses most outside quotes, if any. Pure."""
    counts = {d: field_count(line, d) - 1 for d in CANDIDATE_DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] > 0 else None


def _sniff(
    conn: duckdb.DuckDBPyConnection, path: Path, label: str, options: LoadOptions, **pinned: Any
) -> dict[str, Any]:
    sql, params = sniff_sql(path, options, **pinned)
    try:
        cursor = conn.execute(f"SELECT * FROM {sql}", params)
        names = [d[0] for d in cursor.description]
        row = first_row(cursor)
    except duckdb.Error as exc:
        if "Error when sniffing file" in str(exc) and not pinned.keys() - {"new_line"}:
            raise _SniffFailed from None
        from analytics_agent.db.load.read.late_bytes import read_refusal  # error path only

        raise read_refusal(str(exc), [path], label) from None  # not UTF-8 past the first block, say
    return dict(zip(names, row, strict=True))


def _or(value: str | None, default: str) -> str:
    return default if value in (None, "", "(empty)") else value


def _show(delimiter: str | None) -> str:
    return repr(_SHOWN.get(delimiter or "", delimiter))


def _short(line: str, limit: int = 60) -> str:
    return repr(line if len(line) <= limit else line[: limit - 3] + "...")
