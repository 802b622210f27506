"""Charts as standalone SVG documents: no library, no script, no fonts to fetch. Pure: a spec in, text out.

Every mark carries a class (``point``, ``bar``, ``x-label``, ``y-tick``, ``zero-line``) and a ``<title>``
with its value, so the file explains itself on hover and tests can read the drawing back.
"""

from __future__ import annotations

import datetime as dt
from xml.sax.saxutils import escape, quoteattr

from analytics_agent.present.charts.spec import (
    ChartSpec,
    format_number,
    nice_ticks,
    short_dates,
    spaced_labels,
    tick_labels,
    uniform_labels,
)

WIDTH = 760
FONT = 12
MARGIN = 16  # no text comes closer than this to the drawing's edge
LABEL_ROOM = 220  # px: a longer category label is cut with "…" (its full text is in the bar's tooltip)
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


def render_svg(spec: ChartSpec) -> str:
    """The chart as an SVG document (UTF-8 text)."""
    body, height = _line(spec) if spec.kind == "line" else _bars(spec)
    title = spec.title + (f" — {spec.note}" if spec.note else "")
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="{FONT}">',
            f"<title>{escape(title)}</title>",
            f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
            _text(
                MARGIN, 22, fit_text(spec.title, WIDTH - 2 * MARGIN, 15), cls="title", size=15, weight="bold"
            ),
            *(
                [_text(MARGIN, 40, fit_text(spec.note, WIDTH - 2 * MARGIN), cls="note", fill="#555")]
                if spec.note
                else []
            ),
            *body,
            "</svg>",
        ]
    )


def _text(x: float, y: float, text: str, *, cls: str, anchor: str = "start", size: int = FONT,
          weight: str = "normal", fill: str = "#222", rotate: bool = False) -> str:  # fmt: skip
    turn = f' transform="rotate(-90 {x:.1f} {y:.1f})"' if rotate else ""
    return (
        f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" '
        f'font-weight="{weight}" fill="{fill}"{turn}>{escape(text)}</text>'
    )


# Advance widths of ASCII 32..126 in thousandths of an em: per character the widest of DejaVu Sans and
# Liberation Sans (Arial's metrics), regular and bold, read from their font files' hmtx tables. A viewer's
# "sans-serif" is one of these or narrower, so a width summed from here is never short.
_ADVANCE = (
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696,
    696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 611, 1015, 774, 762, 734, 830, 683, 683, 821,
    837, 372, 556, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457,
    365, 457, 838, 556, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
    716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
)  # fmt: skip


def text_width(text: str, size: int = FONT) -> float:
    """A label's drawn width at ``size`` px, never less than a sans-serif font draws it: per-character
    widths for ASCII, a full em for anything else (accents, CJK, symbols)."""
    ems = sum(_ADVANCE[o - 32] if 32 <= (o := ord(ch)) <= 126 else 1000 for ch in text) / 1000
    return ems * size


def fit_text(text: str, max_width: float, size: int = FONT) -> str:
    """The text, or its start with "…" when it would be wider than ``max_width`` px."""
    if text_width(text, size) <= max_width:
        return text
    while text and text_width(text + "…", size) > max_width:
        text = text[:-1]
    return text + "…"


# --- lines ----------------------------------------------------------------------------------------------


def _line(spec: ChartSpec) -> tuple[list[str], int]:
    height = 420
    values = spec.values()
    ticks = nice_ticks(min(values), max(values), count=6)
    names = tick_labels(ticks)
    shown = short_dates(spec.labels)
    left = max(40 + max(text_width(n) for n in names), text_width(shown[0]) / 2 + 8)
    top, right, bottom = 60, WIDTH - max(24, text_width(shown[-1]) / 2 + 8), height - 56
    legend = len(spec.series) > 1
    keys = [fit_text(s.name, 160) for s in spec.series]
    if legend:
        right -= 12 + max(text_width(k) for k in keys) + 20

    def y_of(v: float) -> float:
        return bottom - (v - ticks[0]) / (ticks[-1] - ticks[0]) * (bottom - top)

    xs = _x_positions(spec.labels, left, right)
    out = _y_axis(ticks, names, y_of, left, right, spec)
    out.append(f'<line class="x-axis" x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#444"/>')
    out += _x_labels(shown, xs, bottom + 18)
    x_title = fit_text(spec.x_label, right - left)
    out.append(_text((left + right) / 2, height - 10, x_title, cls="x-title", anchor="middle"))
    for i, series in enumerate(spec.series):
        color = PALETTE[i % len(PALETTE)]
        out += _polylines(series.values, xs, y_of, color)
        for x, label, v in zip(xs, spec.labels, series.values, strict=True):
            if v is not None:
                out.append(
                    f'<circle class="point" cx="{x:.1f}" cy="{y_of(v):.1f}" r="3" fill="{color}" '
                    f'data-x={quoteattr(label)} data-value="{v:.15g}"><title>{escape(series.name)} '
                    f"{escape(label)}: {escape(format_number(v, compact=False))}</title></circle>"
                )
        if legend:
            ly = top + 18 * i
            out.append(f'<rect x="{right + 16}" y="{ly - 9}" width="12" height="3" fill="{color}"/>')
            out.append(_text(right + 32, ly, keys[i], cls="legend"))
    return out, height


def _x_positions(labels: tuple[str, ...], left: float, right: float) -> list[float]:
    """Evenly spaced, or placed by date when every label is a date (so gaps in time look like gaps)."""
    days = [d for x in labels if (d := _ordinal(x)) is not None]
    if len(days) == len(labels) and days[-1] > days[0]:
        return [left + (d - days[0]) / (days[-1] - days[0]) * (right - left) for d in days]
    step = (right - left) / max(1, len(labels) - 1)
    return [left + i * step for i in range(len(labels))]


def _ordinal(label: str) -> int | None:
    try:
        return dt.date.fromisoformat(label[:10]).toordinal() if len(label) >= 10 else None
    except ValueError:
        return None


def _y_axis(ticks, names, y_of, left: float, right: float, spec: ChartSpec) -> list[str]:
    out = []
    for t, name in zip(ticks, names, strict=True):
        y = y_of(t)
        zero = t == 0 and ticks[0] < 0 < ticks[-1]
        cls, stroke = ("zero-line", "#444") if zero else ("grid", "#e3e3e3")
        out.append(
            f'<line class="{cls}" x1="{left}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" stroke="{stroke}"/>'
        )
        out.append(_text(left - 6, y + 4, name, cls="y-tick", anchor="end"))
    middle = (y_of(ticks[0]) + y_of(ticks[-1])) / 2
    room = y_of(ticks[0]) - y_of(ticks[-1])
    out.append(_text(16, middle, fit_text(spec.y_title, room), cls="y-title", anchor="middle", rotate=True))
    return out


def _x_labels(labels: tuple[str, ...], xs: list[float], y: float) -> list[str]:
    """Every k-th label, first and last included, at least 8 px apart."""
    spans = [
        (x - text_width(label) / 2, x + text_width(label) / 2) for x, label in zip(xs, labels, strict=True)
    ]
    return [_text(xs[i], y, labels[i], cls="x-label", anchor="middle") for i in spaced_labels(spans, 8)]


def _polylines(values, xs: list[float], y_of, color: str) -> list[str]:
    """One polyline per run of values; a missing value breaks the line instead of pulling it to zero."""
    runs: list[list[str]] = [[]]
    for x, v in zip(xs, values, strict=True):
        if v is None:
            runs.append([])
        else:
            runs[-1].append(f"{x:.1f},{y_of(v):.1f}")
    return [
        f'<polyline class="line" points="{" ".join(run)}" fill="none" stroke="{color}" stroke-width="2"/>'
        for run in runs
        if len(run) > 1
    ]


# --- bars -----------------------------------------------------------------------------------------------


def _bars(spec: ChartSpec) -> tuple[list[str], int]:
    band = 26
    values = spec.series[0].values
    present = [v for v in values if v is not None]
    ticks = nice_ticks(min(0.0, *present), max(0.0, *present), count=6)
    names = tick_labels(ticks)
    shown = uniform_labels(present)
    texts = ["n/a" if v is None else shown.pop(0) for v in values]
    labels = [fit_text(x, LABEL_ROOM) for x in spec.labels]
    x_title = fit_text(spec.x_label, LABEL_ROOM, FONT + 1)  # bold: a size up, for its wider glyphs
    widest = max(text_width(x_title, FONT + 1), *(text_width(x) for x in labels))
    left = MARGIN + 8 + widest  # the widest label ends 8 px left of its bar
    right = WIDTH - MARGIN - 4 - max(text_width(t) for t in texts)  # the widest value ends at the margin
    top = 70
    bottom = top + band * len(values)
    height = bottom + 56

    def x_of(v: float) -> float:
        return left + (v - ticks[0]) / (ticks[-1] - ticks[0]) * (right - left)

    zero = x_of(0.0)
    out = []
    for t, name in zip(ticks, names, strict=True):
        cls, stroke = ("zero-line", "#444") if t == 0 else ("grid", "#e3e3e3")
        out.append(
            f'<line class="{cls}" x1="{x_of(t):.1f}" y1="{top - 6}" x2="{x_of(t):.1f}" y2="{bottom}" stroke="{stroke}"/>'
        )
        out.append(_text(x_of(t), bottom + 16, name, cls="x-tick", anchor="middle"))
    y_title = fit_text(spec.y_title, right - left)
    out.append(_text((left + right) / 2, height - 12, y_title, cls="x-title", anchor="middle"))
    out.append(_text(left - 8, top - 12, x_title, cls="y-title", anchor="end", weight="bold"))
    for i, (label, short, v, text) in enumerate(zip(spec.labels, labels, values, texts, strict=True)):
        y = top + i * band
        out.append(_text(left - 8, y + band / 2 + 4, short, cls="y-label", anchor="end"))
        if v is not None:
            x0, x1 = sorted((zero, x_of(v)))
            out.append(
                f'<rect class="bar" x="{x0:.1f}" y="{y + 4}" width="{max(x1 - x0, 0.5):.1f}" height="{band - 8}" '
                f'fill="{PALETTE[0] if v >= 0 else PALETTE[1]}" data-x={quoteattr(label)} data-value="{v:.15g}">'
                f"<title>{escape(label)}: {escape(format_number(v, compact=False))}</title></rect>"
            )
        end = zero if v is None else max(zero, x_of(v))  # right of the bar, or of zero for a negative one
        out.append(_text(end + 4, y + band / 2 + 4, text, cls="value"))
    return out, height
