"""How ``ask``, ``chat`` and ``demo`` show an answer: highlighted, its chart under it, its results saved,
or one JSON object (an error object when the question failed)."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from analytics_agent.cli.output import draw_chart, save_results, stdout_color, write_chart_file

ChartOpt = Annotated[
    bool | None,
    typer.Option(
        "--chart/--no-chart",
        help="Draw the answer's data as a chart under it (default: on a terminal, or when the question "
        "says plot/chart/graph).",
        show_default=False,
    ),
]
ShowSqlOpt = Annotated[bool, typer.Option("--show-sql", help="Show each tool call's SQL in the trace.")]
SaveResultsOpt = Annotated[
    Path | None,
    typer.Option(
        "--save-results",
        metavar="DIR",
        help="Write each tool result as CSV into DIR (01-<tool>.csv, ...).",
        show_default=False,
    ),
]
JSON_HELP = (
    'Print {"answer", "steps", "tool_calls" (each with its sql and params), "usage", "stop", '
    '"unverified_numbers", "caveat"} as JSON; '
    'on failure {"error", "error_type", "stop": "error"}.'
)
StrictOpt = Annotated[
    bool,
    typer.Option(
        "--strict",
        help="Exit with code 3 when the answer has numbers no tool returned, or called no tool at all.",
    ),
]
UNVERIFIED_EXIT = 3
_ASKS_FOR_CHART = re.compile(r"\b(plot|chart|graph|visuali[sz]e|draw)", re.IGNORECASE)


@dataclass(frozen=True)
class View:
    """What a command was asked to show besides the answer."""

    quiet: bool = False
    as_json: bool = False
    show_sql: bool = False
    chart: bool | None = None
    chart_file: Path | None = None
    save_results: Path | None = None
    strict: bool = False
    """Exit non-zero (``UNVERIFIED_EXIT``) when the answer carries a caveat."""

    def wants_chart(self, question: str) -> bool:
        """--chart/--no-chart when given; else on a terminal, or when the question asks for a picture."""
        if self.chart is not None:
            return self.chart
        return sys.stdout.isatty() or bool(_ASKS_FOR_CHART.search(question))


def show_answer(wiring: Any, result: Any, question: str, view: View) -> None:
    """The answer (unless streamed), then its chart and files, from the question's tool results."""
    from analytics_agent.present.highlight import highlight_answer
    from analytics_agent.present.safe_text import escape_json_text
    from analytics_agent.present.trace import answer_caveat

    if view.as_json:
        payload = {**result.as_dict(), "caveat": answer_caveat(result)}
        typer.echo(escape_json_text(json.dumps(payload, indent=2, ensure_ascii=False)))
    else:
        color = stdout_color()
        wiring.show(result, lambda text: typer.echo(highlight_answer(text, color=color)))
    calls = wiring.results.calls
    if view.save_results is not None:
        save_results(view.save_results.expanduser(), calls)
    draw = not view.as_json and view.wants_chart(question)
    if draw or view.chart_file is not None:
        _chart(calls, draw=draw, path=view.chart_file)


def _chart(calls: list, *, draw: bool, path: Path | None) -> None:
    from analytics_agent.present.results import answer_chart, why_no_chart

    spec = answer_chart(calls)
    if spec is None:
        if path is not None:
            last = f" ({calls[-1].name}: {why_no_chart(calls[-1].name, calls[-1].content)})" if calls else ""
            typer.echo(f"no chart: no tool result makes one{last}", err=True)
        return
    if draw:
        typer.echo()
        draw_chart(spec)
    if path is not None:
        write_chart_file(spec, path.expanduser())


def print_json_error(exc: BaseException) -> None:
    """The failure as the one JSON object on stdout that --json promises."""
    from analytics_agent.present.safe_text import escape_json_text

    message = str(exc) or type(exc).__name__
    error = {"error": message, "error_type": type(exc).__name__, "stop": "error"}
    typer.echo(escape_json_text(json.dumps(error, indent=2, ensure_ascii=False)))
