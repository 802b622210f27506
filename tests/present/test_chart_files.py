"""Chart files read back: the SVG parses, its marks sit where the values say, labels keep apart; the HTML
page and the Vega-Lite spec carry the same data and fetch nothing."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

from analytics_agent.present.charts import ChartSpec, Series, chart_document, render_svg
from analytics_agent.present.charts.svg import text_width
from tests.required import RSVG, program

NS = {"s": "http://www.w3.org/2000/svg"}
DAYS = tuple(f"2026-{m:02d}-{d:02d}" for m in range(1, 4) for d in (1, 8, 15, 22))
TREND = ChartSpec(
    kind="line", title="revenue by week", x_label="week", y_label="revenue", labels=DAYS,
    series=(Series("revenue", tuple(1000.0 + 37 * i for i in range(len(DAYS)))),),
)  # fmt: skip
SIGNED = ChartSpec(
    kind="bar", title="change by city", x_label="city", y_label="change", unit="%",
    labels=("Pune", "Goa", "Agra"), series=(Series("change", (12.5, -7.0, None)),),
)  # fmt: skip


def parse(spec: ChartSpec) -> ET.Element:
    return ET.fromstring(render_svg(spec))


def test_line_points_run_left_to_right_in_date_order_and_up_with_the_values():
    root = parse(TREND)
    points = root.findall(".//s:circle[@class='point']", NS)
    assert [p.get("data-x") for p in points] == list(DAYS)
    xs = [float(p.get("cx")) for p in points]
    ys = [float(p.get("cy")) for p in points]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)
    assert ys == sorted(ys, reverse=True)  # rising values: SVG y shrinks upwards


def test_y_ticks_cover_the_values_and_read_in_order():
    root = parse(TREND)
    ticks = root.findall(".//s:text[@class='y-tick']", NS)
    ys = [float(t.get("y")) for t in ticks]
    assert ys == sorted(ys, reverse=True)  # the first tick is the lowest one, at the bottom
    point_ys = [float(p.get("cy")) for p in root.findall(".//s:circle[@class='point']", NS)]
    assert min(ys) - 4 <= min(point_ys) and max(point_ys) <= max(ys) - 4 + 0.5


def test_x_labels_do_not_overlap_and_include_first_and_last():
    root = parse(TREND)
    labels = root.findall(".//s:text[@class='x-label']", NS)
    spans = sorted(
        (float(t.get("x")) - text_width(t.text) / 2, float(t.get("x")) + text_width(t.text) / 2)
        for t in labels
    )
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in itertools.pairwise(spans))
    texts = [t.text for t in labels]
    assert DAYS[0] in texts and DAYS[-1] in texts
    assert all(start >= 0 and end <= 760 for start, end in spans)


def test_a_negative_bar_lies_left_of_the_zero_line_and_a_missing_one_is_not_drawn():
    root = parse(SIGNED)
    zero = root.find(".//s:line[@class='zero-line']", NS)
    zero_x = float(zero.get("x1"))
    bars = {b.get("data-x"): b for b in root.findall(".//s:rect[@class='bar']", NS)}
    assert set(bars) == {"Pune", "Goa"}
    pune, goa = bars["Pune"], bars["Goa"]
    assert float(pune.get("x")) == pytest.approx(zero_x, abs=0.1)
    assert float(goa.get("x")) + float(goa.get("width")) == pytest.approx(zero_x, abs=0.1)
    assert float(pune.get("width")) / float(goa.get("width")) == pytest.approx(12.5 / 7.0, rel=0.02)
    assert "change (%)" in {t.text for t in root.iter(f"{{{NS['s']}}}text")}


def test_the_html_page_has_the_chart_the_numbers_and_no_remote_reference():
    page = chart_document(TREND, ".html")
    assert "<svg" in page and "1,407" in page  # 1000 + 37 * 11, in the table
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    spec = json.loads(re.search(r'id="vega-lite-spec">(.*?)</script>', page, re.S).group(1))
    assert len(spec["data"]["values"]) == len(DAYS)


def test_the_vega_lite_spec_inlines_every_value_and_keeps_the_ranking_order():
    spec = json.loads(chart_document(SIGNED, ".json"))
    assert spec["data"]["values"] == [
        {"city": "Pune", "series": "change", "change": 12.5},
        {"city": "Goa", "series": "change", "change": -7.0},
    ]
    assert spec["mark"] == "bar" and spec["encoding"]["y"]["sort"] is None


def test_an_unknown_suffix_has_no_document():
    assert chart_document(TREND, ".png") is None


def test_the_svg_renders_to_a_non_blank_png(tmp_path):
    svg = tmp_path / "chart.svg"
    svg.write_text(render_svg(TREND), encoding="utf-8")
    png = tmp_path / "chart.png"
    subprocess.run([program("rsvg-convert", RSVG), str(svg), "-o", str(png)], check=True, timeout=600)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (760, 420)


def test_labels_from_the_data_are_escaped_and_read_back_unchanged():
    label = "<script>\"x\" & 'Co'"
    spec = ChartSpec(kind="bar", title="t <b>", x_label="name", y_label="n", labels=(label, "b"),
                     series=(Series("n", (1.0, 2.0)),))  # fmt: skip
    root = ET.fromstring(render_svg(spec))
    assert root.find(".//s:script", NS) is None
    assert label in {t.text for t in root.iter(f"{{{NS['s']}}}text")}
    assert root.find(".//s:rect[@class='bar']", NS).get("data-x") == label
    page = chart_document(spec, ".html")
    assert '<script>"x"' not in page


def test_the_png_has_dark_pixels_where_the_line_is(tmp_path):
    import zlib

    svg = tmp_path / "chart.svg"
    svg.write_text(render_svg(TREND), encoding="utf-8")
    png = tmp_path / "chart.png"
    subprocess.run(
        [program("rsvg-convert", RSVG), "--background-color", "white", str(svg), "-o", str(png)],
        check=True,
        timeout=600,
    )
    data = png.read_bytes()
    chunks, i = [], 8
    while i < len(data):
        length = int.from_bytes(data[i : i + 4], "big")
        if data[i + 4 : i + 8] == b"IDAT":
            chunks.append(data[i + 8 : i + 8 + length])
        i += 12 + length
    pixels = zlib.decompress(b"".join(chunks))
    dark = sum(1 for b in pixels[::7] if b < 128)
    assert dark > 200  # not blank: axes, labels and the line are drawn
