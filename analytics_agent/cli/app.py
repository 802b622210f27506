"""The command line's front door: the Typer app, its global options, and one-line errors at the edge.

Every command lives in a module of its own (``tools_cmd``, ``data_cmd``, ``ask_cmd``, ``mcp_cmd``); this module
registers their functions, importing a command's module only when the app being built has that command, so
no command module imports the app. Heavy libraries (duckdb, pydantic, httpx, boto3) are imported inside
commands so ``--help`` stays fast.
"""

# No ``from __future__ import annotations`` here: typer reads these signatures at every start, and a string
# annotation costs it an eval each (about a tenth of --help's CPU; docs/performance.md).
import sys
from importlib import import_module
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from analytics_agent.cli.argv import command_name
from analytics_agent.cli.context import State, set_verbose
from analytics_agent.cli.edge import guarded
from analytics_agent.cli.global_options import (
    ALLOW_SQL_HELP,
    DB_HELP,
    NO_SOURCES_HELP,
    TOOLS_DIR_HELP,
    VERBOSE_HELP,
    GlobalOptionsGroup,
)

HELP = "Ask business questions about your data in plain language; get answers with real numbers."
# The command tree, as (name, module in analytics_agent.cli, attribute): groups first, in help order. A run
# imports only the module of the command it names (the others cost start-up: their imports and typer's
# reading of their signatures); --help, a mistake and the docs get the whole tree.
GROUPS = (
    ("tools", "tools_cmd", "tools_app"),
    ("semantic", "semantic_cmd", "semantic_app"),
    ("sources", "sources_cmd", "sources_app"),
    ("users", "users_cmd", "users_app"),
    ("modes", "modes_cmd", "modes_app"),
)
COMMANDS = (("tables", "data_cmd", "tables"), ("schema", "data_cmd", "schema"), ("ask", "ask_cmd", "ask"),
            ("chat", "ask_cmd", "chat"), ("demo", "ask_cmd", "demo"), ("load", "data_cmd", "load"),
            ("drop", "data_cmd", "drop"), ("mcp", "mcp_cmd", "mcp"), ("audit", "audit_cmd", "audit"),
            ("eval", "eval_cmd", "eval_command"))  # fmt: skip


def _command(module: str, attribute: str) -> Any:
    return getattr(import_module(f"analytics_agent.cli.{module}"), attribute)


def build_app(only: str | None = None) -> typer.Typer:
    """The app with every command, or with only the command or group named ``only``."""
    built = typer.Typer(
        name="analytics-agent",
        help=HELP,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        cls=GlobalOptionsGroup,
    )
    for name, module, attribute in GROUPS:
        if only in (None, name):
            built.add_typer(_command(module, attribute), name=name)
    for name, module, attribute in COMMANDS:
        if only in (None, name):
            built.command(name)(_command(module, attribute))
    built.callback()(_root)
    return built


_whole: list[typer.Typer] = []


def whole_app() -> typer.Typer:
    """The app with every command, built once per process."""
    if not _whole:
        _whole.append(build_app())
    return _whole[0]


def __getattr__(name: str) -> Any:
    # ``app`` (the docs' reference, tests, the benchmarks) is the whole app, built on first use
    if name == "app":
        return whole_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


DbOption = Annotated[
    Optional[Path],  # noqa: UP045 - typer reads the annotation at run time
    typer.Option("--db", help=DB_HELP, show_default=False),
]


def _print_version(value: bool) -> None:
    if value:
        from analytics_agent import __version__

        typer.echo(f"analytics-agent {__version__}")
        raise typer.Exit()


def _root(
    db: DbOption = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help=VERBOSE_HELP)] = False,
    tools_dir: Annotated[
        Optional[list[Path]],  # noqa: UP045 - typer reads the annotation at run time
        typer.Option("--tools-dir", help=TOOLS_DIR_HELP),
    ] = None,
    allow_sql: Annotated[bool, typer.Option("--allow-sql", help=ALLOW_SQL_HELP)] = False,
    version: Annotated[
        bool,
        typer.Option("--version", help="Print the version and exit.", callback=_print_version, is_eager=True),
    ] = False,
    no_sources: Annotated[bool, typer.Option("--no-sources", help=NO_SOURCES_HELP)] = False,
) -> None:
    State.db = db
    State.use_sources = not no_sources
    State.tools_dirs = tuple(tools_dir or ())
    State.allow_sql = allow_sql
    if verbose:
        set_verbose()


def app_for(args: list[str]) -> typer.Typer:
    """The app with only the command ``args`` run: its module alone is imported, and typer builds only its
    parameters. The root's own help, a mistyped command and ``--version`` get the whole app."""
    name = command_name(args)
    if name in {n for n, _, _ in (*GROUPS, *COMMANDS)}:
        return build_app(name)
    return whole_app()


def main() -> None:
    """Console entry point: one line per error, never a traceback."""
    guarded(lambda: app_for(sys.argv[1:])(prog_name="analytics-agent"))
