"""Charts as terminal text that fits a given width. Pure: a spec and a width in, lines out.

Lines are drawn in braille dots (2x4 per character cell), bars in eighth blocks; ``ascii=True`` uses
only ASCII for terminals that cannot show either. Below ``MIN_WIDTH`` columns, or for several lines at
once, each series becomes a one-line sparkline with its range.
"""

from __future__ import annotations

import itertools

from analytics_agent.present.charts.spec import (
    ChartSpec,
    Series,
    nice_ticks,
    short_dates,
    spaced_labels,
    tick_labels,
    uniform_labels,
)

MIN_WIDTH = 30
MAX_BAR_WIDTH = 100  # wider bars read no better; lines use the whole width for more points
_EIGHTHS = " ▏▎▍▌▋▊▉█"
_SPARKS = "▁▂▃▄▅▆▇█"
_ASCII_SPARKS = "_.-=+*#@"
_BRAILLE_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # [row][column] within a cell


def render_terminal(spec: ChartSpec, width: int, *, height: int = 10, ascii: bool = False) -> str:
    """The chart in at most ``width`` columns: a title line, the chart, and its note if any."""
    width = max(width, 20)
    head = [_clip(spec.title + (f" ({spec.unit})" if spec.unit else ""), width)]
    if width < MIN_WIDTH or (spec.kind == "line" and len(spec.series) > 1):
        body = [_spark_line(s, spec, width, ascii=ascii) for s in spec.series]
    elif spec.kind == "line":
        body = _line_chart(spec, width, height=height, ascii=ascii)
    else:
        body = _bar_chart(spec, min(width, MAX_BAR_WIDTH), ascii=ascii)
    tail = [_clip(spec.note, width)] if spec.note else []
    return "\n".join(line.rstrip() for line in head + body + tail)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


# --- sparklines -----------------------------------------------------------------------------------------


def _spark_line(series: Series, spec: ChartSpec, width: int, *, ascii: bool) -> str:
    """``name ▁▃█▅ low..high first..last``: the dates go first when there is no room, then the range."""
    present = [v for v in series.values if v is not None]
    labels = short_dates(spec.labels)
    name_w = max(len(s.name) for s in spec.series)
    name = f"{series.name.ljust(name_w)} " if len(spec.series) > 1 else ""
    ends = [f(v for s in spec.series for v in s.values if v is not None) for f in (min, max)]
    low, high = uniform_labels([min(present), max(present), *ends])[:2]  # alike across the chart's lines
    values = f" {low}..{high}"
    dates = f" {labels[0]}..{labels[-1]}" if spec.kind == "line" else ""
    wanted = min(len(series.values), 8)
    for span in (values + dates, values, ""):
        room = width - len(name) - len(span)
        if room >= wanted or not span:
            break
    return _clip(name + sparkline(series.values, max(1, room), ascii=ascii) + span, width)


def sparkline(values: tuple[float | None, ...], width: int, *, ascii: bool = False) -> str:
    """One character per value (averaged into ``width`` buckets when there are more); gaps as spaces."""
    levels = _ASCII_SPARKS if ascii else _SPARKS
    buckets = _buckets(values, width)
    present = [v for v in buckets if v is not None]
    if not present:
        return ""
    low, high = min(present), max(present)
    out = []
    for v in buckets:
        if v is None:
            out.append(" ")
        else:
            level = 0 if high == low else round((v - low) / (high - low) * (len(levels) - 1))
            out.append(levels[level])
    return "".join(out)


def _buckets(values: tuple[float | None, ...], width: int) -> list[float | None]:
    if len(values) <= width:
        return list(values)
    out: list[float | None] = []
    for i in range(width):
        part = [v for v in values[i * len(values) // width : (i + 1) * len(values) // width] if v is not None]
        out.append(sum(part) / len(part) if part else None)
    return out


# --- bars -----------------------------------------------------------------------------------------------


def _bar_chart(spec: ChartSpec, width: int, *, ascii: bool) -> list[str]:
    values = spec.series[0].values
    shown = uniform_labels([v for v in values if v is not None])
    texts = ["n/a" if v is None else shown.pop(0) for v in values]
    label_w = min(max(len(x) for x in (*spec.labels, spec.x_label)), max(6, width // 3))
    value_w = max(len(t) for t in texts)
    room = width - label_w - value_w - 2
    low = min(0.0, *(v for v in values if v is not None))
    high = max(0.0, *(v for v in values if v is not None))
    scale = room / (high - low) if high > low else 0.0
    zero = round(-low * scale)
    lines = [f"{_fit(spec.x_label, label_w)} {spec.y_title}"[:width]]
    for label, value, text in zip(spec.labels, values, texts, strict=True):
        bar = _bar(value, zero, room, scale, ascii=ascii)
        lines.append(f"{_fit(label, label_w)} {bar} {text.rjust(value_w)}")
    return lines


def _bar(value: float | None, zero: int, room: int, scale: float, *, ascii: bool) -> str:
    full = "#" if ascii else "█"
    axis = "|" if ascii else "│"
    cells = [" "] * room
    if zero > 0 and zero < room:
        cells[zero] = axis
    if value is None or scale == 0:
        return "".join(cells)
    length = abs(value) * scale
    if value < 0:  # whole cells leftwards from zero: eighth blocks only grow rightwards
        for i in range(max(0, zero - round(length)), zero):
            cells[i] = full
        return "".join(cells)
    start = zero + 1 if 0 < zero < room else zero
    whole, eighths = int(length), round((length - int(length)) * 8)
    if eighths == 8:
        whole, eighths = whole + 1, 0
    for i in range(start, min(room, start + whole)):
        cells[i] = full
    if eighths and start + whole < room:
        cells[start + whole] = "#" if ascii else _EIGHTHS[eighths]
    if whole == 0 and eighths == 0 and value > 0 and start < room:
        cells[start] = "." if ascii else "▏"  # a value above zero never looks like nothing
    return "".join(cells)


def _fit(text: str, width: int) -> str:
    return text.ljust(width) if len(text) <= width else text[: width - 1] + "…"


# --- lines ----------------------------------------------------------------------------------------------


def _line_chart(spec: ChartSpec, width: int, *, height: int, ascii: bool) -> list[str]:
    series = spec.series[0]
    present = [v for v in series.values if v is not None]
    ticks = nice_ticks(min(present), max(present), count=min(5, max(3, height // 2)))
    low, high = ticks[0], ticks[-1]
    names = tick_labels(ticks)
    gutter = max(len(n) for n in names)
    plot_w = width - gutter - 2
    rows = max(3, height)
    grid = _plot(series.values, plot_w, rows, low, high, ascii=ascii)
    tick_rows = {round((high - t) / (high - low) * (rows - 1)): n for t, n in zip(ticks, names, strict=True)}
    axis, corner, tick = ("|", "+", "+") if ascii else ("│", "└", "┤")
    lines = [spec.y_title[:width]]
    for r, cells in enumerate(grid):
        label = tick_rows.get(r, "")
        lines.append(f"{label.rjust(gutter)} {tick if label else axis}{''.join(cells)}")
    lines.append(" " * gutter + " " + corner + ("-" if ascii else "─") * plot_w)
    lines.append(" " * (gutter + 2) + _x_labels(short_dates(spec.labels), plot_w))
    return lines


def _plot(values, plot_w: int, rows: int, low: float, high: float, *, ascii: bool) -> list[list[str]]:
    dots_w, dots_h = (plot_w, rows) if ascii else (plot_w * 2, rows * 4)
    points = [
        None
        if v is None
        else (_x_dot(i, len(values), dots_w), round((high - v) / (high - low) * (dots_h - 1)))
        for i, v in enumerate(values)
    ]
    dots: set[tuple[int, int]] = set()
    for a, b in itertools.pairwise(points):
        if a is not None and b is not None:
            dots.update(_segment(a, b))
    dots.update(p for p in points if p is not None)  # a point between two gaps still shows
    if ascii:
        grid = [[" "] * plot_w for _ in range(rows)]
        for x, y in dots:
            grid[y][x] = "*"
        return grid
    bits = [[0] * plot_w for _ in range(rows)]
    for x, y in dots:
        bits[y // 4][x // 2] |= _BRAILLE_BITS[y % 4][x % 2]
    return [[chr(0x2800 + b) if b else " " for b in row] for row in bits]


def _x_dot(index: int, count: int, dots_w: int) -> int:
    return 0 if count == 1 else round(index * (dots_w - 1) / (count - 1))


def _segment(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    (x0, y0), (x1, y1) = a, b
    steps = max(abs(x1 - x0), abs(y1 - y0), 1)
    return [(round(x0 + (x1 - x0) * s / steps), round(y0 + (y1 - y0) * s / steps)) for s in range(steps + 1)]


def _x_labels(labels: tuple[str, ...], plot_w: int) -> str:
    """Labels under their points at an even stride, first and last included, two blanks apart at least."""
    count = len(labels)
    spans = []
    for i, label in enumerate(labels):
        center = 0 if count == 1 else round(i * (plot_w - 1) / (count - 1))
        start = max(0, min(center - len(label) // 2, plot_w - len(label)))
        spans.append((start, start + len(label)))
    line = [" "] * plot_w
    for i in spaced_labels(spans, 2):
        start, end = spans[i]
        line[start:end] = labels[i][: end - start]
    return "".join(line)[:plot_w]
