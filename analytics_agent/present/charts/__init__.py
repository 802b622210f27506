"""Charts from tool results: pick a chart from a result's shape, draw it as terminal text, SVG or HTML.

``pick`` maps columns and rows to a ``ChartSpec``; ``terminal``, ``svg`` and ``document`` map a spec to
text. All pure: the command line decides where the text goes.
"""

from analytics_agent.present.charts.document import chart_document
from analytics_agent.present.charts.pick import parse_result, pick_chart
from analytics_agent.present.charts.spec import ChartSpec, Series
from analytics_agent.present.charts.svg import render_svg
from analytics_agent.present.charts.terminal import render_terminal

__all__ = [
    "ChartSpec",
    "Series",
    "chart_document",
    "parse_result",
    "pick_chart",
    "render_svg",
    "render_terminal",
]
