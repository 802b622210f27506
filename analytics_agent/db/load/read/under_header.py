"""The quick look, at the file's first lines, that says whether a row under the header may describe the
columns (``settle/describing_rows``): most files' first records are records, and the written table is
read for it only when this says it may be one. Pure."""

from __future__ import annotations

from analytics_agent.db.load.read.peek import csv_rows, whole_lines
from analytics_agent.db.load.settle.describing_cells import describing_label, number_like

_MOST = 3
"""Rows under the header that may describe the columns (Canvas writes up to two: ``Manual Posting`` and
``Points Possible``)."""
_BELOW = 8
"""Records read below each of them."""


def may_describe(text: str, delimiter: str, quote: str, *, skip: int = 0) -> bool:
    """Whether one of the first rows under the header (``skip`` lines above it) holds a describing label
    (``describing_cells``) or a value that is no number in a column whose values below it are numbers.
    A test that may say yes wrongly, never no: the table decides."""
    import csv

    if len(delimiter) != 1 or len(quote) > 1:
        return False
    lines = whole_lines(text.lstrip("\ufeff"), skip + 1 + _MOST + _BELOW)[skip + 1 :]
    try:
        rows = [[cell.strip() for cell in row] for row in csv_rows(lines, delimiter, quote) if row]
    except csv.Error:
        return False
    for at, row in enumerate(rows[:_MOST]):
        below = rows[at + 1 :]
        if len(below) < 2:
            return False
        if any(describing_label(cell) for cell in row):
            return True
        for i, cell in enumerate(row):
            if not cell or number_like(cell):
                continue
            values = [r[i] for r in below if i < len(r) and r[i]]
            if len(values) >= 2 and all(map(number_like, values)):
                return True
    return False
