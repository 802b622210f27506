"""The command line: parse, call one function, render. Errors are caught once, at the edge.

Heavy libraries (duckdb, pydantic, httpx, boto3) are imported inside commands so ``--help`` stays fast.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from analytics_agent.errors import AnalyticsAgentError

app = typer.Typer(
    name="analytics-agent",
    help="Ask business questions about your data in plain language; get answers with real numbers.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
tools_app = typer.Typer(help="List, inspect and run the tools a model can call.", no_args_is_help=True)
app.add_typer(tools_app, name="tools")

log = logging.getLogger("analytics_agent")


class State:
    db: Path | None = None
    tools_dirs: tuple[Path, ...] = ()
    allow_sql: bool = False


DbOption = Annotated[
    Optional[Path],  # noqa: UP045 - typer reads the annotation at run time
    typer.Option(
        "--db",
        help="DuckDB database file (env ANALYTICS_AGENT_DB; default: analytics.duckdb in the user data dir).",
        show_default=False,
    ),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


@app.callback()
def _root(
    db: DbOption = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log details to stderr.")] = False,
    tools_dir: Annotated[
        Optional[list[Path]],  # noqa: UP045 - typer reads the annotation at run time
        typer.Option("--tools-dir", help="A folder of your own .sql tools (repeatable; config: tools_dir)."),
    ] = None,
    allow_sql: Annotated[
        bool, typer.Option("--allow-sql", help="Give the model run_sql: one read-only SELECT per call.")
    ] = False,
) -> None:
    State.db = db
    State.tools_dirs = tuple(tools_dir or ())
    State.allow_sql = allow_sql
    if verbose:
        logging.basicConfig(
            level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
        )


def _db_path() -> Path:
    from analytics_agent.paths import default_db_path

    return (State.db or default_db_path()).expanduser()


def _workspace():
    from analytics_agent.cli_data import user_tool_dirs, warn_problems
    from analytics_agent.workspace import Workspace

    workspace = Workspace.open(
        _db_path(), tool_dirs=user_tool_dirs(State.tools_dirs), allow_sql=State.allow_sql
    )
    if workspace.created:
        typer.echo(f"Created {workspace.db_path} with the sample data.", err=True)
    warn_problems(workspace.problems)
    return workspace


@tools_app.command("list")
def tools_list(as_json: JsonFlag = False) -> None:
    """Every tool with a one-line description."""
    with _workspace() as ws:
        items = [(t.name, t.description) for t in ws.registry]
    if as_json:
        typer.echo(json.dumps([{"name": n, "description": d} for n, d in items], indent=2))
        return
    width = max(len(n) for n, _ in items)
    for name, description in items:
        typer.echo(f"{name.ljust(width)}  {_first_sentence(description)}")


@tools_app.command("spec")
def tools_spec(
    fmt: Annotated[str, typer.Option("--format", help="openai or bedrock.")] = "openai",
    strict: Annotated[bool, typer.Option("--strict", help="OpenAI strict-mode schemas.")] = False,
) -> None:
    """The JSON tool payload a provider receives."""
    from analytics_agent.errors import ConfigError

    if fmt not in ("openai", "bedrock"):
        raise ConfigError(f"--format must be openai or bedrock, not {fmt!r}")
    if strict and fmt != "openai":
        raise ConfigError("--strict applies to --format openai only")
    with _workspace() as ws:
        payload = (
            ws.registry.openai_tools(strict=strict) if fmt == "openai" else ws.registry.bedrock_tool_config()
        )
    typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))


@tools_app.command("call")
def tools_call(
    name: Annotated[str, typer.Argument(help="Tool name, as in 'tools list'.")],
    arguments: Annotated[str, typer.Argument(help="Arguments as a JSON object.")] = "{}",
) -> None:
    """Run one tool without a model and print exactly what the model would read."""
    with _workspace() as ws:
        outcome = ws.executor.execute(name, arguments)
    typer.echo(outcome.text)
    if outcome.is_error:
        raise typer.Exit(1)


@app.command("tables")
def tables(as_json: JsonFlag = False) -> None:
    """Tables in the database with row and column counts."""
    from analytics_agent.db.catalog import list_tables
    from analytics_agent.render import table

    with _workspace() as ws:
        infos = list_tables(ws.cursor())
    if as_json:
        typer.echo(
            json.dumps([{"name": t.name, "rows": t.rows, "columns": t.columns} for t in infos], indent=2)
        )
        return
    typer.echo(
        table(["table", "rows", "columns"], [(t.name, t.rows, t.columns) for t in infos], right=(1, 2))
    )


@app.command("schema")
def schema(
    table_name: Annotated[str, typer.Argument(metavar="TABLE", help="Table name.")], as_json: JsonFlag = False
) -> None:
    """Columns of one table: type, nulls, range and common values."""
    from analytics_agent.db.catalog import get_profile, table_names
    from analytics_agent.errors import DatabaseError
    from analytics_agent.render import table
    from analytics_agent.suggest import did_you_mean

    with _workspace() as ws:
        names = table_names(ws.cursor())
        if table_name not in names:
            raise DatabaseError(
                f"no table {table_name!r}{did_you_mean(table_name, names)}; "
                f"tables: {', '.join(names) or 'none'}"
            )
        profile = get_profile(ws.cursor(), table_name)
    if as_json:
        typer.echo(json.dumps(profile, indent=2, ensure_ascii=False))
        return
    typer.echo(f"{table_name}: {profile['rows']:,} rows")
    original = profile.get("original_names", {})
    headers = ["column", "type", "nulls", "min", "max", "values"]
    if original:
        headers.insert(1, "original name")
    rows = []
    for c in profile["columns"]:
        row = [c["name"], c["type"], c["nulls"], c.get("min"), c.get("max"), c.get("values")]
        if original:
            row.insert(1, original.get(c["name"], ""))
        rows.append(row)
    typer.echo(table(headers, rows, right=(headers.index("nulls"),)))


def _first_sentence(text: str) -> str:
    head = text.split(". ")[0].rstrip(".")
    return head + "."


def main() -> None:
    """Console entry point: one line per error, never a traceback."""
    try:
        app()  # typer handles usage errors and exits itself; our errors come through here
    except AnalyticsAgentError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # a bug: keep the user's screen clean, keep the details in a log
        path = _log_crash(exc)
        typer.echo(f"error: internal error ({type(exc).__name__}); details in {path}", err=True)
        sys.exit(2)


def _log_crash(exc: BaseException) -> str:
    import traceback

    from analytics_agent.paths import data_dir

    try:
        path = data_dir() / "crash.log"
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as fh:
            fh.write("".join(traceback.format_exception(exc)))
        return str(path)
    except OSError:
        return "(no log: the data dir is not writable)"


# Command groups live in their own modules; importing them registers their commands on ``app``.
from analytics_agent import cli_agent, cli_data  # noqa: E402, F401
