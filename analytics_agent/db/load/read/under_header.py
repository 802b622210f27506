"""The quick look, at the file's first lines, that says whether a row under the header may describe the
columns (``settle/describing_rows``): most files' first records are records, and the written table is
read for it only when this says it may be one. Every load with a header asks it: it reads a dozen lines
of the first block, cut at their line ends with ``str.find`` (``peek.whole_lines``' regular expression
took 30 µs of a wide file's block), and looks twice only at a cell that is no number. Pure."""

from __future__ import annotations

from analytics_agent.db.load.settle.describing_cells import describing_label, number_like, numbers_below

_MOST = 3
"""Rows under the header that may describe the columns (Canvas writes up to two: ``Manual Posting`` and
``Points Possible``)."""
_BELOW = 8
"""Records read below them."""
_MOST_CHARS = 1 << 15
"""What is read when the lines do not end in ``\\n`` (a lone ``\\r``): the csv module splits them."""


def may_describe(text: str, delimiter: str, quote: str, *, skip: int = 0) -> bool:
    """Whether one of the first rows under the header (``skip`` lines above it) holds a describing label
    (``describing_cells``) or a value that is no number in a column whose values below it are numbers.
    A quick test from the text: a yes is checked on the written table."""
    rows = _rows(text, delimiter, quote, skip)
    numbers: dict[tuple[int, int], bool] = {}  # (column, first row below): a text column is read once
    for at, row in enumerate(rows[:_MOST]):
        below = at + 1 if len(rows) < _MOST + 2 else _MOST  # the records past every candidate row
        if len(rows) - below < 2:
            return False
        for i, cell in enumerate(row):
            if number_like(cell) or not cell.strip():  # most cells of most files: no further look
                continue
            if describing_label(cell):
                return True
            if (i, below) not in numbers:
                numbers[i, below] = numbers_below(r[i] for r in rows[below:] if i < len(r) and r[i].strip())
            if numbers[i, below]:
                return True
    return False


def _rows(text: str, delimiter: str, quote: str, skip: int) -> list[list[str]]:
    """The records under the header, from the first lines of ``text`` (none when the csv module cannot
    split them). Pure."""
    import csv
    import io

    if len(delimiter) != 1 or len(quote) > 1:
        return []
    start = 0
    for _ in range(skip):  # --skip counts lines
        start = text.find("\n", start) + 1
        if not start:
            return []
    end = start - 1
    for _ in range(1 + _MOST + _BELOW):
        end = text.find("\n", end + 1)
        if end < 0:
            break
    head = text[start : end + 1] if end >= 0 else text[start : start + _MOST_CHARS]
    reader = csv.reader(
        io.StringIO(head.lstrip("\ufeff")),
        delimiter=delimiter,
        quotechar=quote or None,
        quoting=csv.QUOTE_MINIMAL if quote else csv.QUOTE_NONE,
    )
    try:
        return [row for row in reader if row][1:]
    except csv.Error:
        return []
