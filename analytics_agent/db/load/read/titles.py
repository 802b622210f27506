"""Lines above a CSV file's header, read from its first block before DuckDB reads it: a report's title, a
spreadsheet's padded title block, key-value lines, a pivot table's corner, or a header DuckDB could not
tell from data (names over numbers it reads as text). Each becomes the ``--skip`` (or the header) that
reads the table, named in one line. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from analytics_agent.db.load.read.column_groups import column_groups, groups_over, sparse_groups
from analytics_agent.db.load.read.peek import (
    CANDIDATE_DELIMITERS,
    csv_rows,
    field_widths,
    name_like,
    short_line,
    whole_lines,
)

MOST_TITLE_LINES = 10
"""More lines above the header are another table (an AEMO report has hundreds), not a title."""


def title_above_header(text: str, delimiter: str, quote: str, skipped: int) -> str | None:
    """The refusal to give when the ``skipped`` first lines of ``text`` (what DuckDB's sniffer skipped) are a
    title or note above the header (``some notes...`` over ``number,text,date``): each has fewer fields
    than the header below them, and the records after it (at least one) have as many as it has; None when
    they are not. Pure."""
    found = _titled(text, delimiter, quote, skipped)
    return _title_refusal(skipped, *found) if found else None


def _titled(text: str, delimiter: str, quote: str, skipped: int) -> tuple[str, int, list[str]] | None:
    """``title_above_header``'s test: the first line, the header's width and the names of a line of column
    groups right above it (``column_groups``) when the ``skipped`` first lines are a title above the
    header, else None. Lines as wide as the header count among them only when they fill at most half
    their fields (the lines ``past_sparse_lines`` goes past). Pure."""
    lines = _records(whole_lines(text, skipped + 12), quote)[: skipped + 4]
    if not 1 <= skipped <= MOST_TITLE_LINES or len(lines) < skipped + 2:
        return None
    widths = field_widths(lines, delimiter, quote)
    header = widths[skipped]
    records = [w for line, w in zip(lines[skipped + 1 :], widths[skipped + 1 :], strict=True) if line.strip()]
    if header < 2 or not records or any(w != header for w in records):
        return None
    if max(widths[:skipped]) >= header and not _sparse_above(lines[: skipped + 1], widths, delimiter, quote):
        return None
    if skipped == 1 and 1 < widths[0] == header - 1:  # a header without the row names' column (R's write.csv)
        return None
    groups = (
        column_groups(lines[skipped - 1], lines[skipped], delimiter, quote) if widths[skipped - 1] > 1 else []
    )
    return lines[0], header, groups


def _sparse_above(lines: list[str], widths: list[int], delimiter: str, quote: str) -> bool:
    """Whether each of ``lines`` above the last (the header) is narrower than it, or as wide and filled in
    at most half its fields (an ERP's key-value line padded to the table's width, a line of column
    groups), the header naming every field. Pure."""
    import csv

    try:
        rows = [[cell.strip() for cell in row] for row in csv_rows(lines, delimiter, quote)]
    except csv.Error:
        return False
    header = rows[-1]
    if len(rows) != len(lines) or not all(map(name_like, header)):
        return False
    return all(
        width < len(header) or (width == len(header) and 2 * sum(map(bool, sparse_groups(row))) <= width)
        for row, width in zip(rows[:-1], widths, strict=False)
    )


def widest_title(text: str, quote: str, delimiters: Sequence[str]) -> tuple[int, str] | None:
    """The title above the widest table one of ``delimiters`` reads under it (of two as wide, the one
    that starts higher: a ``,`` reading of ``name;value`` over ``Item 1;1,5`` starts at the first record):
    that table's width and the refusal naming its ``--skip`` (counted on to where the table starts,
    ``table_start``), or None. For a file whose notes below the table led DuckDB's sniffer to their own
    delimiter and past every record (Destatis' ``© … | Stand: …`` read with ``|``; a Greek bill's VAT note
    read with the commas of its ``319,44 €`` amounts, which split each record in two as well). Pure."""
    best: tuple[int, int, str] | None = None  # width, -start, refusal
    for delimiter in delimiters:
        skipped = next((n for n in range(1, MOST_TITLE_LINES + 1) if _titled(text, delimiter, quote, n)), 0)
        if not skipped:
            continue
        start = header_start(text, delimiter, quote, skipped)
        found = _titled(text, delimiter, quote, start)
        if found is None:
            start, found = skipped, _titled(text, delimiter, quote, skipped)
        if found is not None and (best is None or (found[1], -start) > best[:2]):
            best = (found[1], -start, _title_refusal(start, *found))
    return (best[0], best[2]) if best else None


def _records(lines: list[str], quote: str) -> list[str]:
    """``lines`` with a quoted value's line breaks joined back (a note cell ``"午前中指定\n担当：鈴木"``):
    one per record, so a record is counted by its fields, not its lines; the last, if its quote is still
    open, is left out. Pure."""
    if not quote:
        return lines
    records, pending = [], ""
    for line in lines:
        pending = f"{pending}\n{line}" if pending else line
        if pending.count(quote) % 2 == 0:
            records.append(pending)
            pending = ""
    return records


def _title_refusal(skipped: int, first: str, width: int, groups: Sequence[str] = ()) -> str:
    """The refusal naming the ``skipped`` lines above a header of ``width`` fields (``first`` the first of
    them; ``groups``: the names of a line of column groups right above the header, the last of them) and
    the --skip that starts at it. Pure."""
    if groups:
        groups = list(dict.fromkeys(groups))  # each once: ``Insgesamt`` over each year's columns
        named = ", ".join(map(repr, groups[:3])) + (", …" if len(groups) > 3 else "")
        kinds = f"line {skipped} is a line of column groups ({named})"
        if skipped > 1:
            which = (
                "line 1 is a title or note" if skipped == 2 else f"lines 1-{skipped - 1} are a title or notes"
            )
            kinds = f"{which} ({short_line(first.lstrip(chr(0xFEFF)))}) and {kinds}"
        return (
            f"{kinds} above the header (line {skipped + 1}, {width} fields, its names under the groups); add "
            f"--skip {skipped} to start at the header"
        )
    which = "line 1 is a title or note" if skipped == 1 else f"lines 1-{skipped} are a title or notes"
    return (
        f"{which} ({short_line(first.lstrip(chr(0xFEFF)))}) above the header (line {skipped + 1}, {width} fields); add "
        f"--skip {skipped} to start at the header"
    )


_RECORDS_SEEN = 12
"""Lines below a title block read to find where the table starts (``table_start``)."""


def table_start(text: str, delimiter: str, quote: str, first: int) -> int:
    """The line the table starts at, from ``first`` (where DuckDB's sniffer started) on: the first of at
    least two fields that every line after it matches (two lines at least). An SAP list's ``Company
    Code<TAB>1000`` lines below its title are two fields wide, and DuckDB took the first for the header.
    Pure."""
    lines = whole_lines(text, MOST_TITLE_LINES + _RECORDS_SEEN)
    widths = field_widths(lines, delimiter, quote)
    for start in range(first, min(MOST_TITLE_LINES, len(lines) - 2) + 1):
        below = [w for line, w in zip(lines[start + 1 :], widths[start + 1 :], strict=True) if line.strip()]
        if widths[start] >= 2 and len(below) >= 2 and all(w == widths[start] for w in below):
            return start
    return first


def header_start(text: str, delimiter: str, quote: str, first: int) -> int:
    """The header's line from ``first`` on: where the table starts (``table_start``), past the sparse lines
    at its top (``past_sparse_lines``: a line of column groups above the names). Pure."""
    return past_sparse_lines(text, delimiter, quote, table_start(text, delimiter, quote, first))


_MOST_PADDED_LINES = 30
"""Lines of one value each above a header: a padded title block may be longer than a title (WeChat Pay's
bill has 16: nickname, period, export time, counts and sums, three notes, a banner)."""


def past_sparse_lines(text: str, delimiter: str, quote: str, start: int) -> int:
    """The header's line when lines of the table's width from ``start`` on fill at most half their fields
    (an ERP's ``核算单位：…,,,期间：…,,,,币别：…`` and a row of column groups, ``,,期初余额,,本期发生额,,…``)
    above a line that names every field and a record with a digit below it; else ``start``. Pure."""
    import csv

    lines = _records(whole_lines(text, start + MOST_TITLE_LINES + 2), quote)
    try:
        rows = [[cell.strip() for cell in row] for row in csv_rows(lines[start:], delimiter, quote)]
    except csv.Error:
        return start
    for at, row in enumerate(rows[:MOST_TITLE_LINES], start=start):
        filled = sum(1 for cell in row if cell)
        if 2 * filled <= len(row) or 2 * sum(map(bool, sparse_groups(row))) <= len(row):
            continue  # a sparse line, a blank one, or a line of groups each name repeated over its columns
        below = rows[at - start + 1] if at - start + 1 < len(rows) else []
        named = filled == len(row) and all(map(name_like, row))
        if at > start and named and len(below) == len(row) and any(c.isdigit() for c in "".join(below)):
            return at
        return start
    return start


def padded_title(text: str, delimiter: str, quote: str) -> str | None:
    """``title_above_header``'s refusal for a title block a spreadsheet padded to the table's width
    (``Umsätze Girokonto;;;;;`` and ``;;;;;`` above the header), which DuckDB reads as the header: the first
    lines hold at most one value each (or an Excel pivot's filter pairs, ``_pivot_pair``), the line below
    them a name in every field, and the record after it as many fields. None when the file does not start
    so. Pure."""
    import csv

    lines = whole_lines(text, _MOST_PADDED_LINES + 2)
    try:
        rows = [[cell.strip() for cell in row] for row in csv_rows(lines, delimiter, quote)]
    except csv.Error:
        return None
    filled = [sum(1 for cell in row if cell) for row in rows]
    for start in range(1, min(_MOST_PADDED_LINES, len(rows) - 2) + 1):
        if filled[start] <= 1 or _pivot_pair(rows, start):
            continue  # another title line, a blank one, or a pivot table's filter or corner
        width = len(rows[start])
        named = len(_trimmed(rows[start]))  # a spreadsheet pads every line with empty cells (a pivot's)
        unnamed = int(rows[start][0] == "")  # a first column of no name (Venmo's, pandas' index)
        below = rows[start + 1 : start + 3]  # a statement's balance row may fill one cell under the header
        if filled[start] + unnamed < named or named - unnamed < 2 or len(rows[start + 1]) != width:
            return None
        if not any(len(row) == width and sum(1 for c in row if c) >= 2 for row in below):
            return None
        if not all(name_like(cell) for cell in rows[start][unnamed:named]):
            return None  # a record under a header with empty names (``id,,`` over ``1,2,3``), not a header
        if not any(filled[:start]):
            return None  # empty lines alone: DuckDB skips those itself
        title = next(row for row in rows if any(row))
        groups = groups_over(rows[start - 1], rows[start])
        return _title_refusal(start, next(c for c in title if c), width, groups)
    return None


def _pivot_pair(rows: list[list[str]], at: int) -> bool:
    """Whether ``rows[at]`` is a pair above an Excel pivot table, a name and a value in its first two
    cells and nothing else, in a run of them closed by a blank line and then the table (report filters,
    ``Fiscal Year,FY2024,,,``, ``Channel,(All),,,``: Excel leaves one blank line under them), or by a line
    naming more fields (the corner above the header, ``Sum of Net Sales,Column Labels,,``). Pure."""

    def pair(row: list[str]) -> bool:
        return len(row) > 2 and name_like(row[0]) and bool(row[1]) and not any(row[2:])

    if not pair(rows[at]):
        return False
    end = next((i for i in range(at + 1, len(rows)) if not pair(rows[i])), len(rows))
    named = [cell for cell in rows[end] if cell] if end < len(rows) else None
    if named is None:
        return False
    if named:
        return len(named) > 2 and all(map(name_like, named))
    table = next((row for row in rows[end + 1 :] if any(row)), [])  # what the blank line closes on
    return pair(table) or sum(1 for cell in table if cell) > 2


def names_over_numbers(text: str, delimiter: str, quote: str, skip: int = 0) -> bool:
    """Whether the first line is column names over records: every cell a name (``name_like``), none
    twice, and two or more columns whose every value below holds a digit (numbers DuckDB reads as text,
    ``16.781,12``, so its sniffer saw no header in a file of text columns); ``skip``: the lines above
    it. Pure."""
    import csv

    lines = _records(whole_lines(text, skip + _RECORDS_SEEN + 1)[skip:], quote)
    try:
        rows = [_trimmed([cell.strip() for cell in row]) for row in csv_rows(lines, delimiter, quote)]
    except csv.Error:
        return False
    if len(rows) < 3:
        return False
    names = [c for c in rows[0] if c]
    if len(names) < 2 or len(set(names)) < len(names) or not all(map(name_like, names)):
        return False
    digits = 0
    for i, name in enumerate(rows[0]):
        below = [row[i] for row in rows[1:] if i < len(row) and row[i]]
        digits += bool(name and below and all(any(c.isdigit() for c in v) for v in below))
    return digits >= 2


def _trimmed(row: list[str]) -> list[str]:
    """``row`` without its trailing empty cells: a spreadsheet pads every line of a table with them
    (an Excel pivot's ``…;Gesamtergebnis;;``). Pure."""
    while row and not row[-1]:
        row = row[:-1]
    return row


def title_block(text: str, quote: str, *, onward: bool = True) -> str | None:
    """``title_above_header``'s refusal for a file DuckDB read as one column because its first lines (a
    report's title, a blank line) hold no delimiter: the first count of lines, and the delimiter, under
    which the lines below are a header and records of one width (counted on to where the table starts,
    ``table_start``, when ``onward``: not under --comment, whose lines --skip does not count). Pure."""
    for skipped in range(1, MOST_TITLE_LINES + 1):
        for delimiter in CANDIDATE_DELIMITERS:
            title = title_above_header(text, delimiter, quote, skipped)
            if title is not None and onward:
                start = header_start(text, delimiter, quote, skipped)
                title = title_above_header(text, delimiter, quote, start) or title
            if title is not None:
                return title
    return None
