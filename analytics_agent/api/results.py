"""What the Python API hands back: a tool's result and a model's answer, each shown as plain text in a
terminal and as a table with its chart in Jupyter (``_repr_html_``, the same SVG as ``--chart-file``)."""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from analytics_agent.api import frames
from analytics_agent.present.charts import ChartSpec, parse_result, render_svg
from analytics_agent.present.results import call_chart
from analytics_agent.present.safe_text import escape_control
from analytics_agent.present.tables import table


@dataclass(frozen=True)
class Result:
    """One tool call's result: exactly what a model reads (at most 50 rows; ``truncated`` says when cut),
    as columns and rows, with the SQL that produced it and the values bound to that SQL."""

    name: str
    arguments: dict[str, Any]
    text: str
    """The result as the model reads it (JSON)."""
    columns: list[str]
    rows: list[list[Any]]
    sql: str = ""
    params: Any = None
    truncated: bool = False

    @classmethod
    def from_text(
        cls,
        name: str,
        arguments: dict[str, Any],
        text: str,
        *,
        sql: str = "",
        params: Any = None,
        truncated: bool = False,
    ) -> Result:
        columns, rows = _table_of(name, text)
        return cls(name, dict(arguments), text, columns, rows, sql, params, truncated)

    @property
    def value(self) -> Any:
        """The result as parsed JSON (an object result keeps its nesting)."""
        return json.loads(self.text)

    @property
    def chart(self) -> ChartSpec | None:
        """The chart ``--chart`` would draw (a date or category column and a number column), or None."""
        return call_chart(self.name, self.text)

    def svg(self) -> str | None:
        """The chart as standalone SVG (what ``--chart-file x.svg`` writes), or None."""
        spec = self.chart
        return render_svg(spec) if spec is not None else None

    def to_arrow(self) -> Any:
        """A ``pyarrow.Table`` (needs pyarrow): dates as date32, timestamps as timestamp, nested values as
        structs and lists (see ``api.frames`` for when a column counts as dates)."""
        return frames.to_arrow(*_table_of(self.name, self.text, flat=False))

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame`` (needs pandas): dates and timestamps as ``datetime64``, numbers as
        numbers, nested values as dicts and lists."""
        return frames.to_pandas(*_table_of(self.name, self.text, flat=False))

    def to_polars(self) -> Any:
        """A ``polars.DataFrame`` (needs polars): dates as Date, timestamps as Datetime, nested values
        as structs and lists."""
        return frames.to_polars(*_table_of(self.name, self.text, flat=False))

    def __str__(self) -> str:
        lines = [escape_control(table(self.columns, self.rows))]
        if self.truncated:
            lines.append("(cut: the tool returned the first rows only; narrow the question for the rest)")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Result {self.name}: {len(self.rows)} rows x {len(self.columns)} columns>\n{self}"

    def _repr_html_(self) -> str:
        return _html_block(self.name, self)


@dataclass(frozen=True)
class Answer:
    """A model's answer to one question, with the tool calls behind it."""

    text: str
    calls: list[Result]
    """Each successful tool call of the question, in order, with its SQL."""
    unverified_numbers: list[str]
    """Numbers in the answer that no tool result explains (empty when every number is traced)."""
    usage: dict[str, int]
    steps: int = 0
    stop: str = "answer"
    """``answer``, or why the question stopped early (``step_limit``, ``token_budget``, ...)."""
    errors: list[str] = field(default_factory=list)
    """The tool errors the model read and acted on."""
    caveat: str | None = None
    """What the command line prints under the answer: numbers no tool returned, or that no tool was called
    at all (the answer does not come from your data); None for a grounded answer."""

    @property
    def grounded(self) -> bool:
        """True when a tool result stands behind the answer and explains each of its numbers."""
        return self.stop == "answer" and self.caveat is None

    @property
    def chart(self) -> ChartSpec | None:
        """The chart under the answer: the last result that makes one."""
        for call in reversed(self.calls):
            spec = call.chart
            if spec is not None:
                return spec
        return None

    def __str__(self) -> str:
        lines = [escape_control(self.text)]
        if self.caveat:
            lines.append(escape_control(self.caveat))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Answer: {len(self.calls)} tool calls, stop={self.stop}>\n{self}"

    def _repr_html_(self) -> str:
        parts = [f"<div><p><b>{_h(self.text)}</b></p>"]
        if self.caveat:
            parts.append(f'<p style="color:#b00">{_h(self.caveat)}</p>')
        shown = next((c for c in reversed(self.calls) if c.chart is not None), None)
        if shown is None and self.calls:
            shown = self.calls[-1]
        if shown is not None:
            parts.append(_html_block(shown.name, shown))
        parts.append("</div>")
        return "".join(parts)


@dataclass(frozen=True)
class Loaded:
    """What a load stored."""

    table: str
    rows: int
    """Rows this load added (``rows_total`` is the table's count after it)."""
    rows_total: int
    columns: list[tuple[str, str]]
    """Each stored column's name and DuckDB type."""
    notes: list[str]
    rejected_lines: list[int]
    """File lines skipped by ``skip_bad_rows`` (kept in the table ``<table>_rejects``)."""
    seconds: float
    links: tuple[str, ...] = ()
    """One line per link from or to the table and how sure it is (``links: a.b → c.d (by name)``)."""

    @classmethod
    def of(cls, summary: Any, *, words: Callable[[str], str] = str) -> Loaded:
        """``words``: how a note is worded for the caller (the API names keyword arguments, not flags)."""
        return cls(
            summary.table,
            summary.rows_loaded,
            summary.rows_total,
            [(c.name, c.type) for c in summary.columns],
            [words(note) for note in summary.notes],
            list(summary.rejected_lines),
            summary.seconds,
            tuple(summary.links),
        )

    def __str__(self) -> str:
        lines = [
            f"Loaded {self.rows:,} rows into {self.table} ({len(self.columns)} columns) in {self.seconds:.1f} s."
        ]
        if self.rejected_lines:
            lines.append(f"Skipped {len(self.rejected_lines):,} bad records, kept in {self.table}_rejects.")
        lines += list(self.links)
        lines += [f"note: {note}" for note in self.notes]
        return escape_control("\n".join(lines))

    def __repr__(self) -> str:
        return f"<Loaded {self.table}: {self.rows:,} rows>\n{self}"


def _table_of(name: str, text: str, *, flat: bool = True) -> tuple[list[str], list[list[Any]]]:
    """Columns and rows of a result; ``describe_table``'s columns as rows; anything else as one value.
    ``flat``: nested values as JSON text (for a table on screen), else as they are (for a data frame)."""
    cell = _flat if flat else _same
    value = _json(text)
    if name == "describe_table" and isinstance(value, dict) and isinstance(value.get("columns"), list):
        columns = value["columns"]
        keys = list(dict.fromkeys(k for c in columns if isinstance(c, dict) for k in c))
        return keys, [[cell(c.get(k)) for k in keys] for c in columns if isinstance(c, dict)]
    parsed = parse_result(text)
    if parsed is not None:
        return parsed
    if isinstance(value, dict):  # an object result: one row
        return list(value), [[cell(v) for v in value.values()]]
    return ["value"], [[value]]


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _same(value: Any) -> Any:
    return value


def _flat(value: Any) -> Any:
    return json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else value


def _h(value: Any) -> str:
    """Data and model text are untrusted: escaped, so a cell can never become markup or script."""
    if value is None:
        return ""
    return html.escape(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))


def _td(value: Any) -> str:
    """A cell; numbers right-aligned, as in a spreadsheet."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f'<td style="text-align:right">{_h(value)}</td>'
    return f"<td>{_h(value)}</td>"


def _html_block(name: str, result: Result) -> str:
    head = "".join(f"<th>{_h(c)}</th>" for c in result.columns)
    body = "".join("<tr>" + "".join(_td(v) for v in row) + "</tr>" for row in result.rows)
    cut = "<p><i>cut: the tool returned the first rows only</i></p>" if result.truncated else ""
    svg = result.svg() or ""
    return (
        f'<div class="analytics-agent-result"><p><code>{_h(name)}</code></p>{svg}'
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{cut}</div>"
    )
