"""Text for the terminal: aligned tables, control characters escaped. Pure: values in, strings out.

Columns align by display width, not by character count: CJK and most emoji take two terminal cells,
combining marks none (``unicodedata.east_asian_width``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from analytics_agent.present.safe_text import escape_control


@functools.cache
def _year_header() -> re.Pattern[str]:
    """Compiled on first use: a case-blind pattern costs 0.3 ms to compile, and a load's summary, whose
    headers are its own, never asks."""
    return re.compile(r"(^|[^a-z])(year|yr)s?($|[^a-z])", re.IGNORECASE)


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    right: Sequence[int] = (),
    plain: Sequence[int] | None = None,
) -> str:
    """``right``: right-aligned column indexes. ``plain``: integer columns shown without thousands
    separators; by default those whose header names a year."""
    plain = [i for i, h in enumerate(headers) if _year_header().search(h)] if plain is None else plain
    cells = [[_cell(v, separators=i not in plain) for i, v in enumerate(row)] for row in rows]
    widths = [max([width(_one_line(h))] + [width(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def line(values: Sequence[str]) -> str:
        parts = [_pad(v, w, right=i in right) for i, (v, w) in enumerate(zip(values, widths, strict=True))]
        return "  ".join(parts).rstrip()

    out = [line([_one_line(h) for h in headers]), line(["-" * w for w in widths])]
    out.extend(line(r) for r in cells)
    return "\n".join(out)


def column_list(headers: Sequence[str], rows: Sequence[Sequence[Any]], columns: int) -> str:
    """A table too wide for the terminal as one entry per row: its first cell, then ``header value`` for
    the other cells that hold something, wrapped at spaces to ``columns`` under the first cell's column."""
    cells = [
        [_cell(v, separators=not _year_header().search(h)) for h, v in zip(headers, r, strict=True)]
        for r in rows
    ]
    name_w = min(max(width(r[0]) for r in cells), columns // 3)
    out: list[str] = []
    for row in cells:
        parts = [f"{h} {c}" for h, c in zip(headers[1:], row[1:], strict=True) if c != ""]
        out += hanging(_pad(row[0], name_w, right=False) + "  ", "; ".join(parts), columns)
    return "\n".join(out)


def hanging(head: str, text: str, columns: int | None) -> list[str]:
    """``head`` then ``text`` wrapped at spaces to ``columns`` (never inside a word), later lines indented
    under the text's start (or, when the head leaves under 20 columns, the text under the head); one line
    when ``columns`` is None. A word longer than a line stays whole."""
    import textwrap

    if columns is None:
        return [f"{head}{text}".rstrip()]
    first, rest = head, " " * len(head)
    lines = []
    if columns - len(head) < 20:
        lines, first = [head.rstrip()], "    "
        rest = first
    wrapped = textwrap.wrap(
        text,
        columns,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return lines + wrapped if wrapped or lines else [head.rstrip()]


def width(text: str) -> int:
    """Terminal cells the text takes: wide (W/F) characters two, combining marks and zero-width none."""
    if text.isascii() and text.isprintable():  # one cell each, and no unicodedata to import
        return len(text)
    import unicodedata

    total = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def plural(count: int, noun: str) -> str:
    """``1 row``, ``2 rows``, ``1,024 rows``."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def is_year(name: str) -> bool:
    """Whether a column name says it holds years (shown without thousands separators)."""
    return bool(_year_header().search(name))


def _pad(value: str, cells: int, *, right: bool) -> str:
    fill = " " * max(0, cells - width(value))
    return fill + value if right else value + fill


def _cell(value: Any, *, separators: bool = True) -> str:
    if value is None:
        return ""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}" if separators else str(value)
    if isinstance(value, list):
        text = ", ".join(_one_line(v) for v in value)
        return text if len(text) <= 60 else text[:57] + "..."
    return _one_line(value)


def _one_line(value: Any) -> str:
    """A cell never breaks the table nor drives the terminal: line breaks, tabs and every other control
    character are shown escaped."""
    return escape_control(str(value), newlines=False)
