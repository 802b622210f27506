"""Charts that never mislead (issue 25): a cut result is never drawn as if complete, every measure is drawn
or named with the reason it is not, two category columns make a chart, the numbers of one chart read
alike, and no label touches the drawing's edge (read back from the SVG and from the PNG it renders to)."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import xml.etree.ElementTree as ET
import zlib
from html.parser import HTMLParser

import pytest

from analytics_agent.present.charts import ChartSpec, Series, pick_chart, render_svg, render_terminal
from analytics_agent.present.charts.pick import no_chart_reason
from analytics_agent.present.charts.svg import WIDTH, text_width
from analytics_agent.present.results import call_chart
from tests.required import RSVG, program

NS = {"s": "http://www.w3.org/2000/svg"}
DAYS = [str(dt.date(2026, 1, 1) + dt.timedelta(days=i)) for i in range(365)]


def test_a_daily_series_cut_at_the_row_limit_says_so_in_the_svg_and_the_terminal(workspace):
    arguments = {"table": "orders", "group_by": ["day"], "metrics": [{"fn": "sum", "column": "amount"}]}
    outcome = workspace.executor.execute("aggregate", arguments)
    assert outcome.truncated  # the real tool cut 304 days to the rows a model reads
    spec = call_chart("aggregate", outcome.text)
    assert spec is not None
    shown = len(spec.labels)
    words = f"first {shown} of 304 days"
    assert words in spec.title
    assert words in render_terminal(spec, 80).splitlines()[0]
    assert words in ET.fromstring(render_svg(spec)).find(".//s:text[@class='title']", NS).text


def test_which_rows_a_cut_kept_follows_their_order():
    rows = [[d, float(i)] for i, d in enumerate(DAYS[:50])]
    assert "first 50 of 365 days" in pick_chart(["day", "revenue"], rows, total=365).title
    assert "last 50 of 365 days" in pick_chart(["day", "revenue"], rows[::-1], total=365).title
    months = [[f"2026-{m:02d}-01", float(m)] for m in range(1, 4)]
    assert "first 3 of 12 months" in pick_chart(["month", "revenue"], months, total=12).title
    assert "cut" not in pick_chart(["day", "revenue"], rows, total=50).title  # complete: nothing to say


def test_every_measure_is_drawn_or_named_with_the_reason_and_the_html_table_keeps_all_columns():
    rows = [["Pune", 900.0, 12, 75.0], ["Goa", 500.0, 20, 25.0], ["Agra", 100.0, 3, 33.3]]
    spec = pick_chart(["city", "revenue", "orders", "avg_price"], rows)
    assert spec is not None and spec.y_label == "revenue"
    assert "not drawn: orders, avg_price" in spec.note and "one measure" in spec.note
    assert "not drawn: orders, avg_price" in render_terminal(spec, 80)

    class Table(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.cells: list[str] = []
            self.tag = ""

        def handle_starttag(self, tag, attrs):
            self.tag = tag

        def handle_data(self, data):
            if self.tag in ("th", "td"):
                self.cells.append(data)

    from analytics_agent.present.charts import chart_document

    page = Table()
    page.feed(chart_document(spec, ".html"))
    assert page.cells[:4] == ["city", "revenue", "orders", "avg_price"]
    assert page.cells[4:8] == ["Pune", "900", "12", "75"] and "33.3" in page.cells

    months = [[f"2026-{m:02d}-01", 1e6 * m, 8e5 * m, 3000 + m] for m in range(1, 7)]
    line = pick_chart(["month", "revenue", "cost", "orders"], months)
    assert [s.name for s in line.series] == ["revenue", "cost"]
    assert line.note == "not drawn: orders (another unit or scale than revenue)"


def test_two_category_columns_make_one_bar_per_pair():
    rows = [["AA", "JFK", 1630], ["AA", "LGA", 400], ["UA", "JFK", 2210]]
    spec = pick_chart(["carrier", "origin", "flights"], rows)
    assert spec is not None and spec.kind == "bar"
    assert spec.labels == ("AA · JFK", "AA · LGA", "UA · JFK") and spec.series[0].values == (1630, 400, 2210)
    assert no_chart_reason(["carrier", "origin", "flights"], rows) == ""


def test_the_reason_for_no_chart_is_the_true_one():
    assert "two or more rows" in no_chart_reason(["city", "n"], [["a", 1]])
    assert "no number column" in no_chart_reason(["city", "customer_id"], [["a", 1], ["b", 2]])
    dup = [["AA", "JFK", 1], ["AA", "JFK", 2]]
    assert no_chart_reason(["carrier", "origin", "n"], dup) == (
        "carrier and origin repeat: no category column names each row once"
    )
    assert "date or category" in no_chart_reason(["a", "b"], [[1, 2], [3, 4]])


def _decimals_and_suffix(label: str) -> tuple[int, str]:
    number = re.fullmatch(r"-?[\d,]+(?:\.(\d+))?([kMBT]?)", label)
    assert number, label
    return len(number.group(1) or ""), number.group(2)


@pytest.mark.parametrize(
    "values", [(15.8, 15.56, 9.0), (1630.0, 400.0, 25.0), (52000.0, 1630.0, 400.0), (0.125, 0.5, 0.25)]
)
def test_the_numbers_of_one_chart_share_their_precision_and_unit_suffix(values):
    spec = ChartSpec(kind="bar", title="t", x_label="k", y_label="v", labels=("a", "b", "c"),
                     series=(Series("v", values),))  # fmt: skip
    root = ET.fromstring(render_svg(spec))
    for cls in ("value", "x-tick"):
        labels = [t.text for t in root.findall(f".//s:text[@class='{cls}']", NS)]
        assert len({_decimals_and_suffix(x) for x in labels}) == 1, labels
    shown = [line.split()[-1] for line in render_terminal(spec, 60).splitlines()[2:5]]
    assert len({_decimals_and_suffix(x) for x in shown}) == 1, shown


LONG = ChartSpec(
    kind="bar", title="WIDE CAPITALS " * 8, x_label="AIRLINE NAME", y_label="MINUTES",
    labels=("W" * 40, "ExpressJet Airlines Inc.", "東京 航空 " * 4, "MMMMMMMMMMMMMMMM"),
    series=(Series("MINUTES", (15.56, 1234567.0, -30000.0, None)),), note="NOTE " * 40,
)  # fmt: skip


def _extent(node: ET.Element) -> tuple[float, float]:
    x, width = float(node.get("x")), text_width(node.text or "", int(node.get("font-size")))
    return {"start": (x, x + width), "middle": (x - width / 2, x + width / 2), "end": (x - width, x)}[
        node.get("text-anchor")
    ]


def test_no_text_of_the_svg_reaches_the_edge():
    root = ET.fromstring(render_svg(LONG))
    for node in root.iter(f"{{{NS['s']}}}text"):
        if node.get("transform"):
            continue  # the rotated axis title is clipped to the plot's height
        low, high = _extent(node)
        assert low >= 8 and high <= WIDTH - 8, (node.get("class"), node.text, low, high)


def _png_pixels(path) -> tuple[int, int, list[bytes]]:
    """The rows of an 8-bit RGB or RGBA PNG as RGB bytes, unfiltered (PNG spec section 9)."""
    data = path.read_bytes()
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert data[24:26] in (b"\x08\x02", b"\x08\x06")  # 8-bit RGB or RGBA, what rsvg-convert writes
    bpp = 3 if data[25] == 2 else 4
    chunks, i = [], 8
    while i < len(data):
        length = int.from_bytes(data[i : i + 4], "big")
        if data[i + 4 : i + 8] == b"IDAT":
            chunks.append(data[i + 8 : i + 8 + length])
        i += 12 + length
    raw, stride, rows = zlib.decompress(b"".join(chunks)), width * bpp, []
    prev = bytearray(stride)
    for r in range(height):
        kind, line = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1 : (r + 1) * (stride + 1)])
        for j in range(stride):
            a = line[j - bpp] if j >= bpp else 0
            b, c = prev[j], prev[j - bpp] if j >= bpp else 0
            if kind == 1:
                line[j] = (line[j] + a) & 255
            elif kind == 2:
                line[j] = (line[j] + b) & 255
            elif kind == 3:
                line[j] = (line[j] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[j] = (line[j] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(v for k, v in enumerate(line) if k % bpp < 3))
        prev = line
    return width, height, rows


def test_the_rendered_png_leaves_its_edges_blank(tmp_path):
    svg, png = tmp_path / "long.svg", tmp_path / "long.png"
    svg.write_text(render_svg(LONG), encoding="utf-8")
    rsvg = program("rsvg-convert", RSVG)
    subprocess.run([rsvg, "--background-color", "white", str(svg), "-o", str(png)], check=True, timeout=600)
    width, _, rows = _png_pixels(png)
    edge = [x for x in range(width) if x < 6 or x >= width - 6]
    inked = [(x, y) for y, row in enumerate(rows) for x in edge if min(row[3 * x : 3 * x + 3]) < 200]
    assert not inked, inked[:5]
