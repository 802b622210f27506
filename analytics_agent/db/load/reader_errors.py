"""Turn DuckDB's multi-line reader errors into one line that names the file, the line and the option
that fixes it. Pure: text in, text out.

DuckDB already knows the record (``CSV Error on Line: 60001``) and a fix (``types={'amount': 'VARCHAR'}``);
we keep both and say them in our own flags (``--type amount=VARCHAR``).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from analytics_agent.db.load.record_advice import (
    field_count_advice,
    fields_of,
    one_field_header,
    preamble_advice,
    quoted_header,
    short,
    text_line,
    unquoted_reader,
)

_LINE = re.compile(r"CSV Error on Line: (\d+)")
_FILE = re.compile(r"^\s*file = (.+?)\s*$|sniffing file \"(.+?)\"", re.MULTILINE)
_CONVERT = re.compile(
    r'Error when converting column "(?P<column>.+?)"\. Could not convert string "(?P<value>.*?)" '
    r"to '(?P<type>[^']+)'"
)
_PARSE_DATE = re.compile(
    r'Error when converting column "(?P<column>.+?)"\. Could not parse string "(?P<value>.*?)" '
    r'according to format specifier "(?P<format>[^"]*)"'
)
_STRPTIME = re.compile(
    r'Could not parse string "(?P<value>.*?)" according to format specifier "(?P<format>[^"]*)"'
)
_COLUMNS = re.compile(r"Expected Number of Columns: (\d+) Found: (\d+)")
_UNKNOWN_TYPE = re.compile(r"Type with name (\S+) does not exist")
_LINE_SIZE = re.compile(r"Maximum line size of (\d+) bytes exceeded\. Actual Size:\s*(\d+) bytes")
_ORIGINAL = re.compile(r"^Original Line: (?:\r?\n(?!Expected Number of Columns))?(.*)$", re.MULTILINE)
"""The record DuckDB quotes. After a blank line it quotes that line's end first (``Original Line: ⏎Notes:``):
the record is the line after it, unless that is DuckDB's next sentence (the record itself was blank)."""
_SETTING = re.compile(
    r"^\s*(delimiter|quote|escape) = (.*?) \((?:Auto-Detected|Set By User)\)\s*$", re.MULTILINE
)


# DuckDB quotes at most this many characters of the record in an error; a longer one is cut.
_QUOTED_AT_MOST = 10_000


def fields_in_record(message: str) -> int | None:
    """The real number of fields of the record a DuckDB reader error quotes (DuckDB stops counting one
    past the header), split with the reader's own delimiter and quote; for a record DuckDB cut short, the
    fields of the part it quotes (see ``record_is_cut``). Pure."""
    original = _ORIGINAL.search(message)
    settings = {m[1]: m[2] for m in _SETTING.finditer(message)}
    delimiter = settings.get("delimiter", "")
    if not original or not original[1].strip() or len(delimiter) != 1:
        return None
    quote = settings.get("quote", "")
    quote = quote if len(quote) == 1 else None
    row = next(csv.reader([original[1]], delimiter=delimiter, quotechar=quote or "\x00"), [])
    return len(row) or None


def _quotes_make_it_fit(message: str, expected: int) -> bool:
    """Whether the record DuckDB quotes, read with no quote character (none in the sniffer's sample), has
    the header's field count once ``"`` quotes its values (``1,"x,y",2``). Pure."""
    original = _ORIGINAL.search(message)
    settings = {m[1]: m[2] for m in _SETTING.finditer(message)}
    delimiter = settings.get("delimiter", "")
    if not original or len(delimiter) != 1 or settings.get("quote", "") not in ("", "(empty)"):
        return False
    if '"' not in original[1] or record_is_cut(message):
        return False
    try:
        row = next(csv.reader([original[1]], delimiter=delimiter, quotechar='"', strict=True), [])
    except csv.Error:
        return False
    return len(row) == expected


def quote_around_header(head: str, delimiter: str, fields: int) -> str | None:
    """The character that quotes the header's first field across lines when it is one no sniffer tries
    (PapaParse's ``.a⏎a.,b⏎c,d``: the header is "a⏎a" and "b"), if reading ``head`` (the file's first
    lines) with it gives every record ``fields`` fields and the header a line break; else None. Pure."""
    mark = head[:1]
    if len(delimiter) != 1 or not mark or mark.isalnum() or mark.isspace() or mark in (delimiter, '"', "'"):
        return None
    lines = head.splitlines(keepends=True)
    if len(lines) > 1 and not head.endswith(("\n", "\r")):
        lines.pop()  # the last line may be cut short
    try:
        records = list(csv.reader(lines, delimiter=delimiter, quotechar=mark))
    except csv.Error:
        return None
    if len(records) < 2 or any(len(record) != fields for record in records):
        return None
    first = records[0][0]
    return mark if "\n" in first or "\r" in first else None


def record_is_cut(message: str) -> bool:
    """Whether the record DuckDB quotes is only its first ``_QUOTED_AT_MOST`` characters. Pure."""
    original = _ORIGINAL.search(message)
    return original is not None and len(original[1]) >= _QUOTED_AT_MOST


def renumber_lines(message: str, physical: Callable[[int], int]) -> str:
    """DuckDB numbers records; a record after a multi-line quoted value starts on a later line. Pure given
    ``physical`` (record line -> the file's own line)."""
    return _LINE.sub(lambda m: f"CSV Error on Line: {physical(int(m[1]))}", message, count=1)


def explain_load_error(
    message: str,
    files: Sequence[Path],
    *,
    stored_names: Mapping[str, str] | None = None,
    label: str | None = None,
    good_records: int | None = None,
    header_quote: str | None = None,
    lines_above: int | None = None,
    table_at: int | None = None,
    delimiter: str | None = None,
    encodings: Sequence[str] = (),
) -> str:
    """One line for a failed load. ``stored_names`` maps a file's column names to the stored ones, so the
    suggested ``--type`` uses a name the user can type; ``label`` names the file as the user did (an
    archive member is read from a temporary copy); ``good_records``: how many records have the header's
    field count (None: not counted), so ``--skip-bad-rows`` is offered only when it would load some;
    ``header_quote``: the unusual quote character the header reads right with (``quote_around_header``);
    ``lines_above``: for a one-field header, the lines (comments apart) above the record that begins a block
    of that record's width, when they read as a title (``failure.title_lines``); ``table_at``: the line a
    wider table starts at below a preamble (``failure.table_below``); ``delimiter``: the file's,
    which counts the fields of a record whose value would not convert (a footer line under a date column);
    ``encodings``: for bytes past the first block that are not UTF-8, the ``--encoding`` options naming
    what they read as (``failure.later_encodings``)."""
    stored_names = stored_names or {}
    where = _where(message, files, label)
    fields = fields_in_record(message)
    columns = _COLUMNS.search(message)
    expected = int(columns[1]) if columns else len(stored_names) or None
    original = _ORIGINAL.search(message)
    record = original[1] if original else ""
    if fields is not None and expected and fields != expected:
        if header_quote is not None and good_records == 0:
            return quoted_header(where, fields, expected, header_quote)
        if fields > expected and _quotes_make_it_fit(message, expected):
            return unquoted_reader(where, fields, expected)
        if fields > expected == 1 and len(stored_names) == 1:
            above = one_field_header(where, fields, next(iter(stored_names)), lines_above)
            if above:
                return above
        if table_at is not None and fields > expected:
            return preamble_advice(where, fields, expected, table_at)
        return field_count_advice(where, fields, expected, record, good_records, cut=record_is_cut(message))
    if match := _CONVERT.search(message):
        line = _converted_line(message)
        short = fields_of(line, delimiter) if expected and line else None
        if expected and short is not None and short < expected and text_line(line, short):
            # a note below the table ("Generated by SAP on 04.04.2024 ...") whose first words fell into a
            # date column: it is no record, and --type COLUMN=VARCHAR would only meet it again as one
            return field_count_advice(where, short, expected, line, good_records)
        return _not_converted(where, stored_names.get(match["column"], match["column"]), match)
    if said := _date_format(where, message, stored_names):
        return said
    if match := _COLUMNS.search(message):
        return field_count_advice(where, int(match[2]), int(match[1]), record, good_records)
    return (
        _windows_1252(message, files, where)
        or _other_encoding(message, encodings, where)
        or _reader_failure(message, where)
    )


def _date_format(where: str, message: str, stored_names: Mapping[str, str]) -> str:
    """A value that does not match the date format DuckDB sniffed or ``--date-format`` gave; empty for
    another failure. Pure."""
    if match := _PARSE_DATE.search(message):
        column = stored_names.get(match["column"], match["column"])
        return (
            f'{where}: "{short(match["value"])}" in column {column} does not match the date format '
            f"{match['format']}; give the right --date-format or load it as text with --type {column}=VARCHAR"
        )
    if match := _STRPTIME.search(message):
        return (
            f'{where}: "{short(match["value"])}" does not match the --date-format {match["format"]} given for '
            "its column; give the format its values are written in, or leave it out to keep the column as text"
        )
    return ""


def _not_converted(where: str, column: str, match: re.Match[str]) -> str:
    """A value DuckDB could not cast to its column's type: an amount (read by the load itself once its
    --type is left out), or a value to fix or to read as text."""
    if _is_amount(match["value"]):
        return (
            f'{where}: "{short(match["value"])}" in column {column} is an amount written with its unit '
            f"or sign, which --type {column}={match['type']} cannot read; leave out that --type: a "
            "column of such amounts is stored as numbers by the load itself (and said)"
        )
    return (
        f'{where}: cannot convert "{short(match["value"])}" in column {column} to {match["type"]}; '
        f"{_null_hint(match['value'])}load that column as text with --type {column}=VARCHAR, or fix the value"
    )


def _windows_1252(message: str, files: Sequence[Path], where: str) -> str | None:
    """A decoding failure in a Windows-1252 file (its bytes past the first block the load checks)."""
    encoding = any(s in message for s in ("Invalid unicode", "not utf-8 encoded", "not latin-1 encoded"))
    if encoding and any(_windows_1252_file(f) for f in files):
        return (
            f"{where or 'the file'}: the file is not UTF-8 but Windows-1252 (what Excel on Windows saves: "
            "bytes for €, “ or – that latin-1 lacks); add --encoding windows-1252 to read it as such"
        )
    return None


def _other_encoding(message: str, encodings: Sequence[str], where: str) -> str | None:
    """A decoding failure in a file whose bytes past the first block read as another encoding than latin-1
    (``encodings``, the options naming it: a Chinese name further down an English file). Pure."""
    if not encodings or ("Invalid unicode" not in message and "not utf-8 encoded" not in message):
        return None
    return (
        f"{where or 'the file'}: the file is not UTF-8, and its text there reads as another encoding than "
        f"latin-1; add {' or '.join(encodings)}"
    )


def _is_amount(value: str) -> bool:
    """``$259.40``, ``12%``, ``(5,000.00)``: what ``db.amounts`` reads. Pure."""
    from analytics_agent.db.load.settle.amount_marks import amount_marks  # on this error only

    found = amount_marks(value)
    return found is not None and found[1]


def _reader_failure(message: str, where: str) -> str:
    """A failure of the whole read (layout, quotes, encoding, line size, types, disk), not of one value or
    record. Pure."""
    if "Error when sniffing file" in message:
        return (
            f"{where or 'the file'}: DuckDB could not work out its layout; give --delimiter (and --no-header if "
            "the first line is data) and check that every line has the same number of fields"
        )
    if "unterminated quote" in message:
        return f"{where}: a quoted value is never closed; fix the quotes on that line"
    if "Invalid unicode" in message or "not utf-8 encoded" in message:
        return f"{where}: the file is not UTF-8; give its encoding, e.g. --encoding latin-1"
    if "not latin-1 encoded" in message:  # DuckDB's latin-1 refuses the C1 bytes 0x80-0x9f
        return (
            f"{where or 'the file'} is not latin-1 either: it holds bytes that DuckDB's latin-1 refuses (Windows-1252 "
            "punctuation?); convert it to UTF-8 first (e.g. iconv -f cp1252 -t utf-8), then load it"
        )
    if match := _LINE_SIZE.search(message):
        limit, size = int(match[1]), int(match[2])
        room = -(-size * 2 // 1_000_000) * 1_000_000  # twice the line, in whole millions: room for the next
        name = where.split(": line ")[0] or "the file"  # DuckDB's sniffer gives line 1 for any line
        return (
            f"{name} has a line of {size:,} bytes, past the {limit:,} bytes DuckDB reads in one line; add "
            f"--max-line-size {room} to read longer lines"
        )
    if match := _UNKNOWN_TYPE.search(message):
        return f"--type: DuckDB has no type {match[1]}; use VARCHAR, BIGINT, DOUBLE, DATE or TIMESTAMP"
    if "No space left on device" in message or "disk is full" in message.lower():
        return "the disk is full; free some space and load again (the database is unchanged)"
    first = _first_line(message)
    return f"{where}: {first}" if where else first


_CONVERTED_LINE = re.compile(r"^Original Line:\s*(.*?)\s*^Error when converting", re.MULTILINE | re.DOTALL)


def _converted_line(message: str) -> str:
    """The line whose value would not convert, as DuckDB quotes it (it may start with the blank lines above
    it); empty when not quoted. Pure."""
    found = _CONVERTED_LINE.search(message)
    return found[1] if found and "\n" not in found[1] else ""


def _null_hint(value: str) -> str:
    """``--null VALUE`` when the value could be a missing-value marker (short, no digits)."""
    from analytics_agent.db.load.settle.total_labels import is_total_label  # on this error only

    if is_total_label(value):  # a totals row's label: read as missing, its numbers would load as data
        return ""
    if 0 < len(value) <= 12 and not any(c.isdigit() or c in ',;\t|"\\' for c in value):
        shown = value if value.isalnum() else repr(value)
        return f"add --null {shown} if it means missing, or "
    return ""


def _where(message: str, files: Sequence[Path], label: str | None) -> str:
    named = _FILE.search(message)
    name = Path(named[1] or named[2]).name if named else (files[0].name if len(files) == 1 else "")
    if label and (len(files) == 1 or not named):
        name = label
    line = _LINE.search(message)
    if line:
        return f"{name or 'the file'}: line {line[1]}"
    return name


def _first_line(message: str) -> str:
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    if not lines:
        return "the load failed"
    first = lines[0]
    if first.startswith(("Conversion Error: CSV Error", "Invalid Input Error: CSV Error")) and len(lines) > 2:
        return lines[2]  # the record itself is line 2; the reason follows
    return first


def _windows_1252_file(path: Path) -> bool:
    """Whether the whole file is Windows-1252 text with a byte of its own (0x80-0x9f: ``€``, ``“``, ``–``),
    which neither UTF-8 nor DuckDB's latin-1 reads. Reads the file: for an error's advice only."""
    if path.name.lower().endswith((".gz", ".zst", ".zstd", ".bz2", ".zip")):
        return False
    import codecs  # on this error only

    decoder = codecs.getincrementaldecoder("cp1252")(errors="strict")
    own = False
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                decoder.decode(chunk)
                own = own or any(0x80 <= b <= 0x9F for b in chunk)
    except (UnicodeDecodeError, OSError):
        return False
    return own
