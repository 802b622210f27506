"""A chart as a file a person opens offline: SVG, an HTML page, or a Vega-Lite spec. Pure: text out.

The HTML page holds the SVG inline, a table of the numbers and the Vega-Lite spec with its data, and
loads nothing: no script, no stylesheet, no font from the network.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from analytics_agent.present.charts.spec import ChartSpec, format_number
from analytics_agent.present.charts.svg import render_svg

FORMATS = {".svg": "svg", ".html": "html", ".htm": "html", ".json": "vega-lite"}


def chart_document(spec: ChartSpec, suffix: str) -> str | None:
    """The file's text for a name ending in ``suffix`` (.svg, .html, .htm, .json), or None for others."""
    kind = FORMATS.get(suffix.lower())
    if kind == "svg":
        return render_svg(spec) + "\n"
    if kind == "html":
        return render_html(spec)
    if kind == "vega-lite":
        return json.dumps(vega_lite(spec), indent=2, ensure_ascii=False) + "\n"
    return None


def vega_lite(spec: ChartSpec) -> dict[str, Any]:
    """The same chart as a Vega-Lite v5 spec with its data inlined (long form: one record per value)."""
    records = [
        {spec.x_label: label, "series": s.name, spec.y_label: value}
        for s in spec.series
        for label, value in zip(spec.labels, s.values, strict=True)
        if value is not None
    ]
    x_type = "temporal" if spec.kind == "line" else "nominal"
    x: dict[str, Any] = {"field": spec.x_label, "type": x_type, "title": spec.x_label}
    y: dict[str, Any] = {"field": spec.y_label, "type": "quantitative", "title": spec.y_title}
    if spec.kind == "bar":
        x["sort"] = None  # keep the result's order: a ranking stays a ranking
        encoding: dict[str, Any] = {"y": x, "x": y}
    else:
        encoding = {"x": x, "y": y}
    if len(spec.series) > 1:
        encoding["color"] = {"field": "series", "type": "nominal", "title": None}
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "title": spec.title,
        "data": {"values": records},
        "mark": {"type": "line", "point": True} if spec.kind == "line" else "bar",
        "encoding": encoding,
        **({"description": spec.note} if spec.note else {}),
    }


def _cell(value: object) -> str:
    if value is None:
        return "<td></td>"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f'<td class="num">{escape(format_number(value, compact=False))}</td>'
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return f"<td>{escape(text)}</td>"


def render_html(spec: ChartSpec) -> str:
    """A page with the chart, its note and its numbers: every column and row of the result it was drawn
    from (a measure the chart leaves out is still in the table); nothing on it is fetched from anywhere."""
    if spec.table_columns:
        columns, cells = list(spec.table_columns), [list(r) for r in spec.table_rows]
    else:
        columns = [spec.x_label, *(s.name for s in spec.series)]
        cells = [[label, *(s.values[i] for s in spec.series)] for i, label in enumerate(spec.labels)]
    header = "".join(f"<th>{escape(name)}</th>" for name in columns)
    rows = "".join("<tr>" + "".join(_cell(v) for v in row) + "</tr>" for row in cells)
    spec_json = json.dumps(vega_lite(spec), ensure_ascii=False).replace("<", "\\u003c")  # no tag inside
    note = f"<p>{escape(spec.note)}</p>" if spec.note else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(spec.title)}</title>
<style>body{{font-family:sans-serif;margin:2em;color:#222}}table{{border-collapse:collapse;margin-top:1em}}
td,th{{padding:2px 10px;border-bottom:1px solid #ddd;text-align:left}}td.num{{text-align:right}}</style></head>
<body>
{render_svg(spec)}
{note}<table><thead><tr>{header}</tr></thead><tbody>{rows}</tbody></table>
<script type="application/json" id="vega-lite-spec">{spec_json}</script>
</body></html>
"""
