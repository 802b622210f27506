"""What a chart shows, independent of where it is drawn, and the number formats every renderer shares. Pure."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

ChartKind = Literal["line", "bar"]


@dataclass(frozen=True)
class Series:
    name: str
    values: tuple[float | None, ...]
    """One value per label; None where the result has no value (drawn as a gap, never as zero)."""


@dataclass(frozen=True)
class ChartSpec:
    """A line over time or bars over categories, with everything a renderer needs to label it."""

    kind: ChartKind
    title: str
    x_label: str
    y_label: str
    labels: tuple[str, ...]
    """The x values as text, in drawing order (dates ascending for a line)."""
    series: tuple[Series, ...]
    unit: str = ""
    """"%" for shares and rates; empty when the data does not say."""
    note: str = ""
    """What the chart leaves out (top 20 of 48, rows without a date, measures not drawn), shown with it."""
    table_columns: tuple[str, ...] = ()
    table_rows: tuple[tuple[object, ...], ...] = ()
    """The whole result the chart was drawn from (every column, every row the tool returned): the HTML
    page's table shows it, so a measure the chart leaves out is still there to read."""

    @property
    def y_title(self) -> str:
        return f"{self.y_label} ({self.unit})" if self.unit else self.y_label

    def values(self) -> list[float]:
        return [v for s in self.series for v in s.values if v is not None]


def format_number(value: float, *, compact: bool = True) -> str:
    """12345678 -> 12.3M, 0.125 -> 0.125, -4500 -> -4.5k; exact with thousands separators when not compact."""
    if not compact:
        if float(value).is_integer():
            return f"{int(value):,}"
        return f"{value:,.2f}" if abs(value) >= 100 else f"{value:.4g}"
    magnitude = abs(value)
    for limit, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if magnitude >= limit:
            return f"{_trim(value / limit, 3)}{suffix}"
    return _trim(value, 4)


def _trim(value: float, digits: int) -> str:
    if value == 0:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    text = f"{value:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def nice_ticks(low: float, high: float, *, count: int = 5) -> list[float]:
    """Round tick values covering [low, high] (steps of 1, 2, 2.5 or 5 times a power of ten)."""
    if high < low:
        low, high = high, low
    if high == low:
        pad = abs(high) * 0.1 or 1.0
        low, high = low - pad, high + pad
    raw = (high - low) / max(1, count - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    return [round(i * step, 12) for i in range(first, last + 1)]


def tick_labels(ticks: list[float]) -> list[str]:
    """The ticks' labels, alike in unit suffix and decimals (see ``uniform_labels``), each exact."""
    return uniform_labels(ticks, exact=True)


_SCALES = ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e4, "k"))


def uniform_labels(values: Sequence[float], *, exact: bool = False) -> list[str]:
    """Labels for numbers shown side by side in one chart: one unit suffix (chosen by the largest value,
    so never ``1.63k`` beside ``400``) and one number of decimals (never ``15.8`` beside ``15.56``): enough
    for three significant digits of the largest, more only while two different values would read alike.
    Below 10,000 (whole numbers: below a million) they are written out with thousands separators
    (``1,630`` beside ``400``).
    ``exact`` (round tick values): the fewest decimals that write every value exactly (``0.0 2.5 5.0``)."""
    if not values:
        return []
    top = max(abs(v) for v in values)
    whole = all(float(v).is_integer() for v in values)
    floor = 1e6 if whole else 1e4  # counts up to 999,999 read best written out
    divisor, suffix = next(((d, s) for d, s in _SCALES if top >= max(d, floor)), (1.0, ""))
    if divisor == 1e4:
        divisor = 1e3
    scaled = [v / divisor for v in values]
    if exact:
        decimals = next((d for d in range(10) if all(abs(round(v, d) - v) < 1e-9 for v in scaled)), 9)
    elif not suffix and whole:
        decimals = 0
    else:
        peak = max(abs(v) for v in scaled)
        decimals = max(0, 2 - math.floor(math.log10(peak))) if peak else 0
    if not exact and any(v and round(x, decimals) == 0 for v, x in zip(values, scaled, strict=True)):
        # a small value beside a huge one would read as 0.00M: write them all out in full instead
        scaled, suffix = list(values), ""
        decimals = 0 if top >= 100 else decimals
    distinct = len(set(values))
    for extra in range(7):
        labels = [f"{v:,.{decimals + extra}f}{suffix}" for v in scaled]
        zeroed = any(v and round(x, decimals + extra) == 0 for v, x in zip(values, scaled, strict=True))
        if len(set(labels)) == distinct and not zeroed:
            break
    return [_no_minus_zero(label) for label in labels]


def _no_minus_zero(label: str) -> str:
    return label[1:] if label.startswith("-") and not any(ch in "123456789" for ch in label) else label


def short_dates(labels: tuple[str, ...]) -> tuple[str, ...]:
    """Month starts shown as 2026-01, year starts as 2026; other labels unchanged."""
    if labels and all(len(x) == 10 and x.endswith("-01-01") for x in labels):
        return tuple(x[:4] for x in labels)
    if labels and all(len(x) == 10 and x[4] == "-" and x.endswith("-01") for x in labels):
        return tuple(x[:7] for x in labels)
    return labels


def spaced_labels(spans: Sequence[tuple[float, float]], gap: float) -> list[int]:
    """Which labels to draw: every k-th one for the smallest k at which none comes closer than ``gap`` to
    the next, and the last one too (in place of the one before it if they would touch)."""
    count = len(spans)
    for step in range(1, count + 1):
        chosen = list(range(0, count, step))
        if chosen[-1] != count - 1:
            chosen.append(count - 1)
            if len(chosen) > 2 and spans[chosen[-2]][1] + gap > spans[-1][0]:
                del chosen[-2]
        if all(spans[a][1] + gap <= spans[b][0] for a, b in itertools.pairwise(chosen)):
            return chosen
    return [0]
