"""Explaining a load DuckDB refused, in one line: the file's own line number, whether other records are
good (so ``--skip-bad-rows`` is offered only when it would load some), and a header quoted across lines
with a character no sniffer tries. The error path only: imported when a load fails. The wording is
``load_errors``' (pure); this module reads what it needs from the file and the database."""

from __future__ import annotations

from pathlib import Path

import duckdb

from analytics_agent.db.load.line_numbers import physical_lines
from analytics_agent.db.load.options import Dialect, Input, LoadOptions
from analytics_agent.db.load.plan import Plan
from analytics_agent.db.load.read.late_bytes import later_encodings
from analytics_agent.db.load.read.titles import past_sparse_lines
from analytics_agent.db.load.reader_errors import (
    explain_load_error,
    fields_in_record,
    quote_around_header,
    renumber_lines,
)
from analytics_agent.db.rows import first_row

_HEAD_BYTES = 65_536
"""How much of a refused file is read again to explain the refusal (a header quoted across lines)."""


def explain_failure(
    conn: duckdb.DuckDBPyConnection,
    message: str,
    plan: Plan,
    options: LoadOptions,
    files: list[Path],
    inputs: list[Input],
) -> str:
    """One line for DuckDB's ``message`` about the load ``plan`` of ``files``."""
    dialect = plan.dialect
    if len(files) == 1 and dialect is not None:
        message = renumber_lines(message, lambda n: physical_line(files[0], n, dialect))
    good = _good_records(conn, plan) if "Expected Number of Columns" in message else None
    quote = None
    if good == 0 and len(files) == 1 and dialect is not None and options.quote is None:
        quote = _header_quote(files[0], message, dialect)
    if len(files) == 1 and dialect is not None and not options.skip and not options.delimiter:
        wider = _other_delimiter(files[0], message, dialect, len(plan.originals))
        if wider is not None:
            return f"{inputs[0].label if len(inputs) == 1 else files[0].name}: {wider}"
    above = below = None
    if len(plan.originals) == 1 and len(files) == 1 and dialect is not None and not options.skip:
        above = title_lines(files[0], message, dialect)
    if above is None and len(files) == 1 and dialect is not None and not options.skip:
        below = table_below(files[0], message, dialect, len(plan.originals))
    return explain_load_error(
        message,
        files,
        stored_names=dict(zip(plan.originals, plan.safe, strict=True)),
        label=inputs[0].label if len(inputs) == 1 else None,
        good_records=good,
        header_quote=quote,
        lines_above=above,
        table_at=below,
        delimiter=dialect.delimiter if dialect is not None else None,
        encodings=later_encodings(message, files),
    )

    from analytics_agent.db.load.read.encodings import better_encodings  # this refusal's path only
    from analytics_agent.db.load.read.late_bytes import foreign_block

    for path in files:
        block = foreign_block(path)
        if block and (named := better_encodings(block)):
            return named
    return []


def _refused_record(path: Path, message: str, dialect: Dialect) -> tuple[int, int, list[str]] | None:
    """The refused record's line (0-based), its field count, and the file's first block as lines; None
    when the message names no line or count, the delimiter is longer than a character, or the file is gone."""
    import re

    line = re.search(r"CSV Error on Line: (\d+)", message)
    fields = fields_in_record(message)
    if line is None or fields is None or len(dialect.delimiter) != 1:
        return None
    try:
        with path.open("rb") as handle:
            head = handle.read(_HEAD_BYTES).decode("utf-8", errors="replace").splitlines()[:-1]
    except OSError:
        return None
    return int(line[1]) - 1, fields, head


def _other_delimiter(path: Path, message: str, dialect: Dialect, expected: int) -> str | None:
    """For a refused record narrower than the header, in the first lines: the refusal naming the
    ``--skip`` to a wider table another delimiter reads below a title (``titles.widest_title``), when the
    sniffer took the title's delimiter for the file's (Statistics Norway's ``12871: Befolkning og areal,
    etter region, …`` above a ``;`` table whose two decimal commas split each record alike: the ``;``
    header was refused as a line of text, and ``--skip-bad-rows`` named, which loaded the title as the
    header)."""
    from analytics_agent.db.load.read.peek import CANDIDATE_DELIMITERS  # this refusal's path only
    from analytics_agent.db.load.read.titles import MOST_TITLE_LINES, widest_title

    refused = _refused_record(path, message, dialect)
    if refused is None or refused[1] >= expected or refused[0] > MOST_TITLE_LINES:
        return None
    others = [d for d in CANDIDATE_DELIMITERS if d != dialect.delimiter]
    found = widest_title("\n".join(refused[2]), dialect.quote or '"', others)
    return found[1] if found is not None and found[0] > expected else None


_TITLE_LINES = 10
"""At most this many lines above a header are taken for a title (a report's name, its date, a note)."""


def title_lines(path: Path, message: str, dialect: Dialect) -> int | None:
    """For a one-field header whose refused record (at line N) starts a block of records as wide as it:
    the lines above N that are neither comments nor blank, when there are at most ``_TITLE_LINES`` and the
    header reads as words (``oh no I forgot to make a comment``); else None."""
    import csv

    refused = _refused_record(path, message, dialect)
    if refused is None:
        return None
    at, fields, head = refused

    def counted(text: str) -> bool:
        return bool(text.strip()) and not (dialect.comment and text.lstrip().startswith(dialect.comment))

    above = [text for text in head[:at] if counted(text)]
    below = [text for text in head[at:] if counted(text)]
    if not above or len(above) > _TITLE_LINES or len(below) < 2 or len(above[0].split()) < 3:
        return None
    quote = dialect.quote or "\x00"
    widths = {len(next(csv.reader([t], delimiter=dialect.delimiter, quotechar=quote), [])) for t in below}
    if widths != {fields}:
        return None
    from analytics_agent.db.load.read.titles import past_sparse_lines  # on this refusal's path only

    # key-value lines padded to the table's width below the title (Santander's 'Cuenta:;ES21 …;;;;;')
    # are no header: the skip goes on past them, to the line that names every field
    return len(above) + past_sparse_lines("\n".join(head), dialect.delimiter, dialect.quote or '"', at) - at


_TABLE_LINES = 3
"""Lines of one width, from the first on, that make a table below a preamble."""


def table_below(path: Path, message: str, dialect: Dialect, expected: int) -> int | None:
    """For a refused record wider than the header: the line a wider table starts at, at or below it,
    when every non-blank line from there to the end of the first block has that table's width (a bank's
    25 lines of address and filters above its header, the first of them read as the header); None
    otherwise. What ``--skip`` takes to start at that table's header."""
    import csv

    refused = _refused_record(path, message, dialect)
    if refused is None or refused[1] <= expected:
        return None
    at, _, head = refused
    quote = dialect.quote or "\x00"
    widths = [
        len(next(csv.reader([t], delimiter=dialect.delimiter, quotechar=quote), [])) if t.strip() else 0
        for t in head
    ]
    for start in range(at, len(head) - _TABLE_LINES + 1):
        width = widths[start]
        rest = [w for w in widths[start:] if w]
        if width > expected and len(rest) >= _TABLE_LINES and all(w == width for w in rest):
            # its first lines may be sparse: an ERP's key-value line, a row of column groups
            return past_sparse_lines("\n".join(head), dialect.delimiter, dialect.quote, start)
    return None


def _header_quote(path: Path, message: str, dialect: Dialect) -> str | None:
    """No record has the header's field count: a header quoted across lines with a character no sniffer
    tries would explain it (only when --quote was not given)."""
    fields = fields_in_record(message)
    if fields is None:
        return None
    try:
        with path.open("rb") as handle:
            head = handle.read(_HEAD_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return None
    return quote_around_header(head, dialect.delimiter, fields)


def _good_records(conn: duckdb.DuckDBPyConnection, plan: Plan) -> int | None:
    if plan.text_reader is None:
        return None
    source, params = plan.text_reader
    try:  # a cursor of its own: the load's transaction has failed
        return int(first_row(conn.cursor().execute(f"SELECT count(*) FROM {source}", params))[0])
    except duckdb.Error:
        return None


def physical_line(path: Path, record_line: int, dialect: Dialect) -> int:
    """The line of the file where DuckDB's ``record_line`` (header = 1) starts (``physical_lines``)."""
    return physical_lines(path, [record_line], dialect)[record_line]
