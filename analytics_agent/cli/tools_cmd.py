"""``tools list | spec | call``: the tools a model can call, inspected and run without a model."""

# No ``from __future__ import annotations`` here: typer reads these signatures at every start, and a string
# annotation costs it an eval each (about a tenth of --help's CPU; docs/performance.md).
import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from analytics_agent.cli.context import open_workspace
from analytics_agent.cli.global_options import JsonFlag
from analytics_agent.cli.output import ChartFileOpt
from analytics_agent.present.safe_text import escape_control, escape_json_text

tools_app = typer.Typer(help="List, inspect and run the tools a model can call.", no_args_is_help=True)


@tools_app.command("list")
def tools_list(as_json: JsonFlag = False) -> None:
    """Every tool with a one-line description."""
    with open_workspace() as ws:
        items = [(t.name, t.description) for t in ws.registry]
    if as_json:
        typer.echo(json.dumps([{"name": n, "description": d} for n, d in items], indent=2))
        return
    from analytics_agent.cli.output import text_columns
    from analytics_agent.present.tables import hanging

    width, columns = max(len(n) for n, _ in items), text_columns()
    for name, description in items:
        text = escape_control(first_sentence(description))
        typer.echo("\n".join(hanging(f"{escape_control(name).ljust(width)}  ", text, columns)))


@tools_app.command("spec")
def tools_spec(
    fmt: Annotated[str, typer.Option("--format", help="openai, bedrock or mcp.")] = "openai",
    strict: Annotated[bool, typer.Option("--strict", help="OpenAI strict-mode schemas.")] = False,
) -> None:
    """The JSON tool payload a provider receives."""
    from analytics_agent.errors import ConfigError

    if fmt not in ("openai", "bedrock", "mcp"):
        raise ConfigError(f"--format must be openai, bedrock or mcp, not {fmt!r}")
    if strict and fmt != "openai":
        raise ConfigError("--strict applies to --format openai only")
    with open_workspace() as ws:
        renderings = {
            "openai": lambda: ws.registry.openai_tools(strict=strict),
            "bedrock": ws.registry.bedrock_tool_config,
            "mcp": ws.registry.mcp_tools,
        }
        payload = renderings[fmt]()
    typer.echo(escape_json_text(json.dumps(payload, indent=2, ensure_ascii=False)))


@tools_app.command("call")
def tools_call(
    name: Annotated[str, typer.Argument(help="Tool name, as in 'tools list'.")],
    arguments: Annotated[str, typer.Argument(help="Arguments as a JSON object.")] = "{}",
    timezone: Annotated[
        Optional[str],  # noqa: UP045 - typer reads the annotation at run time
        typer.Option("--timezone", help="Business time zone for timestamps (default: config, else local)."),
    ] = None,
    sql: Annotated[
        bool, typer.Option("--sql", help="Print the SQL the call runs and its bound values.")
    ] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print the result as CSV.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print {name, arguments, result, rows, truncated, sql, params}.")
    ] = False,
    chart: Annotated[bool, typer.Option("--chart", help="Draw the result as a chart under it.")] = False,
    chart_file: ChartFileOpt = None,
) -> None:
    """Run one tool without a model and print exactly what the model would read."""
    from analytics_agent.errors import ConfigError

    if sum((sql, as_csv, as_json)) > 1:
        raise ConfigError("choose one of --sql, --csv and --json")
    if chart and (sql or as_csv or as_json):
        raise ConfigError(
            "--chart draws on stdout, next to the result; with --sql, --csv or --json use --chart-file"
        )
    from analytics_agent.cli.quick_call import call_tool

    outcome = call_tool(name, arguments, timezone)  # the body a plain call runs without typer too
    if outcome.is_error:
        typer.echo(escape_control(outcome.text))  # the model reads it raw; a terminal must not obey it
        raise typer.Exit(1)
    _print_outcome(outcome, sql=sql, as_csv=as_csv, as_json=as_json)
    if chart or chart_file:
        _chart(name, outcome.text, draw=chart, path=chart_file)


def _print_outcome(outcome, *, sql: bool, as_csv: bool, as_json: bool) -> None:
    from analytics_agent.errors import ExportError

    if sql:
        from analytics_agent.present.trace import format_sql

        text = format_sql(outcome.sql, outcome.params, indent="") or f"-- {outcome.name} runs no SQL"
        typer.echo(escape_control(text))
    elif as_csv:
        from analytics_agent.present.results import csv_text, result_table

        table = result_table(outcome.text)
        if table is None:
            raise ExportError(f"{outcome.name}'s result is not a table to write as CSV; use --json")
        text = csv_text(*table)
        # CSV has no escape that keeps the data equal: exact into a file, made harmless on a terminal
        typer.echo(escape_control(text) if sys.stdout.isatty() else text, nl=False)
    elif as_json:
        typer.echo(escape_json_text(json.dumps(call_json(outcome), indent=2, ensure_ascii=False)))
    else:
        typer.echo(escape_json_text(outcome.text))


def call_json(outcome) -> dict:
    """One call as an export: what was asked, what came back, and the SQL with its bound values."""
    return {
        "name": outcome.name,
        "arguments": outcome.arguments,
        "result": json.loads(outcome.text),
        "rows": outcome.rows,
        "truncated": outcome.truncated,
        "sql": outcome.sql,
        "params": outcome.params,
    }


def _chart(name: str, text: str, *, draw: bool, path: Path | None) -> None:
    from analytics_agent.cli.output import draw_chart, write_chart_file
    from analytics_agent.present.results import call_chart, why_no_chart

    spec = call_chart(name, text)
    if spec is None:
        typer.echo(f"no chart: {why_no_chart(name, text)}", err=True)
        return
    if draw:
        typer.echo()
        draw_chart(spec)
    if path is not None:
        write_chart_file(spec, path)


_ABBREVIATIONS = ("excl.", "incl.", "e.g.", "i.e.", "etc.", "vs.", "approx.", "no.")


def first_sentence(text: str) -> str:
    """Up to the first full stop that ends a sentence: not inside parentheses, not an abbreviation
    ("excl.", "e.g."), and followed by a space or the end."""
    text = " ".join(text.split())
    depth = 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch != "." or depth > 0 or (i + 1 < len(text) and text[i + 1] != " "):
            continue
        if not text[: i + 1].lower().endswith(_ABBREVIATIONS):
            return text[: i + 1]
    return text.rstrip(".") + "."
