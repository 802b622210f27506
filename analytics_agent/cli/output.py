"""Where results go besides the answer: charts on the terminal and in files, CSV exports, colour.

Shared by ``tools call`` and ``ask``/``chat``; the drawing itself is pure code in ``present``, imported
when a command needs it so ``--help`` stays fast.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from analytics_agent.errors import ExportError
from analytics_agent.paths import write_file

if TYPE_CHECKING:
    from analytics_agent.present.charts import ChartSpec
    from analytics_agent.present.results import CallResult

ChartFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--chart-file",
        metavar="FILE",
        help="Also write the chart to FILE: .svg, .html (opens offline) or .json (Vega-Lite).",
        show_default=False,
    ),
]


def stdout_color() -> bool:
    from analytics_agent.present.highlight import color_enabled

    return color_enabled(is_tty=sys.stdout.isatty(), env=os.environ)


def stderr_spinner():
    """A spinner on stderr when stderr is a terminal (else one that never draws)."""
    from analytics_agent.present.progress import Spinner

    encoding = (getattr(sys.stderr, "encoding", None) or "").lower().replace("-", "")

    def write(text: str) -> None:
        sys.stderr.write(text)
        sys.stderr.flush()

    return Spinner(
        write,
        enabled=sys.stderr.isatty(),
        ascii=encoding != "utf8",
    )


def text_columns() -> int | None:
    """How wide plain-text output may be: the terminal's width (or $COLUMNS) on a terminal; None (no
    limit) when piped, so a file or a grep gets whole lines whatever $COLUMNS says."""
    import shutil

    if sys.stdout.isatty():
        return max(40, shutil.get_terminal_size((80, 24)).columns)
    return None


def draw_chart(spec: ChartSpec) -> None:
    """The chart on stdout, as wide as the terminal (or $COLUMNS), in ASCII where UTF-8 cannot show."""
    import shutil

    from analytics_agent.present.charts import render_terminal
    from analytics_agent.present.safe_text import escape_control

    width = shutil.get_terminal_size((80, 24)).columns
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    # labels come from the data: a terminal shows their control characters instead of obeying them
    typer.echo(escape_control(render_terminal(spec, width, ascii=encoding != "utf8")))


def write_chart_file(spec: ChartSpec, path: Path) -> None:
    """Write the chart as the file name says (.svg, .html, .json) and say where, on stderr."""
    from analytics_agent.present.charts import chart_document
    from analytics_agent.present.charts.document import FORMATS

    text = chart_document(spec, path.suffix)
    if text is None:
        kinds = ", ".join(FORMATS)
        raise ExportError(
            f"--chart-file {path.name}: use a name ending in {kinds} (.json is a Vega-Lite spec); "
            f"for PNG, write .svg and convert it, e.g. rsvg-convert {path.stem}.svg -o {path.stem}.png"
        )
    _write(path, text)
    typer.echo(f"Wrote the chart to {path}", err=True)


def save_results(folder: Path, calls: list[CallResult]) -> None:
    """Each call's result as CSV in ``folder`` (created if needed); says how many, and any that were cut."""
    from analytics_agent.present.results import csv_text, export_names, result_table

    if not calls:
        typer.echo("No tool results to save.", err=True)
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"cannot create {folder}: {exc.strerror or exc}") from None
    for call, name in zip(calls, export_names(calls), strict=True):
        table = result_table(call.content)
        if table is None:
            continue
        _write(folder / name, csv_text(*table))
        if call.truncated:
            typer.echo(f"note: {name} holds the rows the model read, not every row", err=True)
    typer.echo(f"Saved {len(calls)} result{'s' if len(calls) != 1 else ''} as CSV in {folder}", err=True)


def _write(path: Path, text: str) -> None:
    try:
        write_file(path.expanduser(), text)
    except OSError as exc:
        raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from None
