"""Terminal charts at 40, 80 and 200 columns: they fit, bars are to scale, lines peak where the data does."""

from __future__ import annotations

import itertools
import re

import pytest

from analytics_agent.present.charts import ChartSpec, Series, render_terminal
from analytics_agent.present.charts.terminal import MIN_WIDTH, sparkline

MONTHS = tuple(f"2026-{m:02d}-01" for m in range(1, 11))
PEAK = 6  # July
TREND = ChartSpec(
    kind="line", title="revenue by period", x_label="period", y_label="revenue", labels=MONTHS,
    series=(Series("revenue", tuple(100.0 + (50 if i == PEAK else i) for i in range(10))),),
)  # fmt: skip
RANKING = ChartSpec(
    kind="bar", title="revenue by city", x_label="city", y_label="revenue",
    labels=("Mumbai", "Delhi", "Pune", "Goa"), series=(Series("revenue", (400.0, 200.0, -100.0, None)),),
)  # fmt: skip


@pytest.mark.parametrize("width", [40, 80, 200])
@pytest.mark.parametrize("spec", [TREND, RANKING], ids=["line", "bar"])
def test_every_line_fits_the_width(spec, width):
    text = render_terminal(spec, width)
    assert all(len(line) <= width for line in text.splitlines())
    assert text.splitlines()[0] == spec.title


@pytest.mark.parametrize("width", [40, 80, 200])
def test_the_line_peaks_at_its_highest_month(width):
    lines = render_terminal(TREND, width).splitlines()
    plot = [line for line in lines if "┤" in line or "│" in line]
    start = plot[0].index("┤") + 1
    top = next(line for line in plot if line[start:].strip())  # the highest row with any dots
    dots = [i - start for i, ch in enumerate(top) if i >= start and ch != " "]
    plot_w = width - start
    peak_col = PEAK * (plot_w - 1) / 9
    assert all(abs(d - peak_col) <= plot_w / 9 for d in dots)


@pytest.mark.parametrize("width", [40, 80, 200])
def test_month_labels_are_in_order_and_apart(width):
    lines = render_terminal(TREND, width).splitlines()
    labels_line = lines[-1]
    found = [(m.start(), m.group()) for m in re.finditer(r"2026-\d\d", labels_line)]
    assert found[0][1] == "2026-01" and found[-1][1] == "2026-10"
    assert [t for _, t in found] == sorted(t for _, t in found)
    assert all(b - a > len("2026-01") for (a, _), (b, _) in itertools.pairwise(found))


def test_bars_are_to_scale_and_a_negative_bar_lies_left_of_zero():
    lines = render_terminal(RANKING, 80).splitlines()
    rows = {line.split()[0]: line for line in lines[2:]}
    mumbai, delhi, pune = (rows[c] for c in ("Mumbai", "Delhi", "Pune"))
    axis = mumbai.index("│")
    assert delhi.index("│") == axis == pune.index("│")
    assert mumbai.count("█") == pytest.approx(2 * delhi.count("█"), abs=1)
    assert pune.rindex("█") < axis < mumbai.index("█")
    assert rows["Goa"].rstrip().endswith("n/a") and "█" not in rows["Goa"]
    assert mumbai.rstrip().endswith("400") and pune.rstrip().endswith("-100")


def test_below_the_minimum_width_a_sparkline_takes_its_place():
    text = render_terminal(TREND, MIN_WIDTH - 1)
    body = text.splitlines()[1:]
    assert len(body) == 1 and body[0].endswith(" 100..150")  # the range stays; the dates need more room
    assert len(body[0]) <= MIN_WIDTH - 1 and len(body[0].split()[0]) == 10  # one mark per month
    wider = render_terminal(ChartSpec(**{**TREND.__dict__, "series": TREND.series * 2}), 80)
    assert wider.splitlines()[1].endswith(" 100..150 2026-01..2026-10")


def test_sparkline_marks_the_lowest_and_highest_values_and_gaps():
    assert sparkline((1.0, None, 5.0, 3.0), 10) == "▁ █▅"


def test_ascii_mode_uses_only_ascii():
    for spec in (TREND, RANKING):
        assert render_terminal(spec, 80, ascii=True).isascii()


def test_a_note_is_shown_under_the_chart():
    spec = ChartSpec(**{**RANKING.__dict__, "note": "top 20 of 45 by revenue"})
    assert render_terminal(spec, 80).splitlines()[-1] == "top 20 of 45 by revenue"


def test_labels_are_drawn_at_an_even_stride_with_the_last_one_kept():
    from analytics_agent.present.charts.spec import spaced_labels

    spans = [(i * 10.0, i * 10.0 + 15) for i in range(10)]  # each label 15 wide, points 10 apart
    chosen = spaced_labels(spans, 2)
    assert chosen[0] == 0 and chosen[-1] == 9
    steps = {b - a for a, b in itertools.pairwise(chosen[:-1])}
    assert steps == {2}  # every second label: one step fits, two do not touch
    assert all(spans[a][1] + 2 <= spans[b][0] for a, b in itertools.pairwise(chosen))
