"""Text for the terminal: aligned tables, control characters escaped. Pure: values in, strings out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analytics_agent.present.safe_text import escape_control


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], *, right: Sequence[int] = ()) -> str:
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max([len(_one_line(h))] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def line(values: Sequence[str]) -> str:
        parts = [
            v.rjust(w) if i in right else v.ljust(w)
            for i, (v, w) in enumerate(zip(values, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    out = [line([_one_line(h) for h in headers]), line(["-" * w for w in widths])]
    out.extend(line(r) for r in cells)
    return "\n".join(out)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    if isinstance(value, list):
        text = ", ".join(_one_line(v) for v in value)
        return text if len(text) <= 60 else text[:57] + "..."
    return _one_line(value)


def _one_line(value: Any) -> str:
    """A cell never breaks the table nor drives the terminal: line breaks, tabs and every other control
    character are shown escaped."""
    return escape_control(str(value), newlines=False)
