"""The tool results behind an answer: kept per question, turned into tables, CSV and the answer's chart.

``ResultLog`` is an event sink; the rest is pure. A table is what the model read (at most 50 rows): a
row result's columns and rows, or an object as one row (nested values as JSON text).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any

from analytics_agent.agent.events import Event, QuestionAsked, ToolFinished
from analytics_agent.present.charts import ChartSpec, parse_result, pick_chart
from analytics_agent.present.charts.pick import no_chart_reason, result_total


@dataclass(frozen=True)
class CallResult:
    """One successful tool call of a question: what ran and what the model read."""

    name: str
    arguments: str
    content: str
    sql: str = ""
    params: Any = None
    truncated: bool = False


class ResultLog:
    """Collects the successful tool calls of the current question (a new question starts a new list)."""

    def __init__(self) -> None:
        self.calls: list[CallResult] = []

    def __call__(self, event: Event) -> None:
        if isinstance(event, QuestionAsked):
            self.calls = []
        elif isinstance(event, ToolFinished) and not event.record.is_error:
            r = event.record
            self.calls.append(CallResult(r.name, r.arguments, event.content, r.sql, r.params, r.truncated))


def result_table(content: str) -> tuple[list[str], list[list[Any]]] | None:
    """A result's text as columns and rows: a row result as it is, an object as one row; None if neither."""
    parsed = parse_result(content)
    if parsed is not None:
        return parsed
    try:
        value = json.loads(content)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    cells = [
        v if not isinstance(v, dict | list) else json.dumps(v, ensure_ascii=False) for v in value.values()
    ]
    return list(value), [cells]


def csv_text(columns: list[str], rows: list[list[Any]]) -> str:
    """RFC 4180 CSV with a header line; empty cells for nulls; nested values as JSON text. Text that a
    spreadsheet would run as a formula (it starts with = + - @, a tab or a carriage return) gets a leading
    ' so it opens as the text it is (OWASP's advice on CSV injection); numbers stay numbers."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([_cell(c) for c in columns])
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return out.getvalue()


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, dict | list):
        value = json.dumps(value, ensure_ascii=False)
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def answer_chart(calls: list[CallResult]) -> ChartSpec | None:
    """The chart of the latest call whose result makes one: an answer usually rests on its last data."""
    for call in reversed(calls):
        spec = call_chart(call.name, call.content)
        if spec is not None:
            return spec
    return None


def call_chart(name: str, content: str) -> ChartSpec | None:
    """The chart of one tool's result text, titled with the tool's name, or None."""
    parsed = parse_result(content)
    if parsed is None:
        return None
    spec = pick_chart(*parsed, total=result_total(content))
    if spec is None:
        return None
    return ChartSpec(**{**spec.__dict__, "title": f"{name}: {spec.title}"})


def why_no_chart(name: str, content: str) -> str:
    """Why one tool's result makes no chart, true to its shape."""
    parsed = parse_result(content)
    if parsed is None:
        return f"{name} returned an object, not rows"
    return no_chart_reason(*parsed)


def export_names(calls: list[CallResult]) -> list[str]:
    """File names for each call's CSV, in call order: ``01-revenue_trend.csv``."""
    return [f"{i:02d}-{call.name}.csv" for i, call in enumerate(calls, 1)]
