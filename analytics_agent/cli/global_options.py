"""The global options (--db, --tools-dir, --allow-sql, --no-sources, -v) are accepted after the subcommand too.

``analytics-agent tables --db x.duckdb`` means what ``analytics-agent --db x.duckdb tables`` means: every
command gets these options (in their own help panel) and they fill the same ``State``; given in both
places, the later one wins (``--tools-dir`` adds up).
"""

# No ``from __future__ import annotations``: typer reads the options' annotations below at run time.
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from analytics_agent.cli.context import State, set_verbose
from analytics_agent.cli.plain_params import plain_labels

PANEL = "Global options (before or after the command)"
DB_HELP = "DuckDB database file (env ANALYTICS_AGENT_DB; default: analytics.duckdb in the user data dir)."
TOOLS_DIR_HELP = "A folder of your own .sql tools (repeatable; config: tools_dir)."
ALLOW_SQL_HELP = "Give the model run_sql: one read-only SELECT per call."
NO_SOURCES_HELP = "Leave the configured data sources out (e.g. one is down)."
VERBOSE_HELP = "Log details to stderr."

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


class GlobalOptionsGroup(TyperGroup):
    """A command group whose commands (and their subcommands) also take the global options, and whose help
    labels each value plainly on any typer release."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            add_global_options(command)
        return command

    def get_params(self, ctx: Any) -> Any:
        return plain_labels(super().get_params(ctx))


def add_global_options(command: Any) -> None:
    """Give ``command`` (or each command of a group, recursively) the global options, once."""
    if getattr(command, "_global_options", False):
        return
    command._global_options = True
    _label_plainly(command)
    if isinstance(command, TyperGroup):
        for sub in getattr(command, "commands", {}).values():
            add_global_options(sub)
        return
    taken = {name for p in command.params for name in getattr(p, "opts", ())}
    command.params.extend(o for o in _options() if not taken & set(o.opts))


def _label_plainly(command: Any) -> None:
    """Every parameter ``command`` shows (its help option included, which click makes on demand) is
    labelled by ``plain_labels``."""
    if isinstance(command, GlobalOptionsGroup):
        return  # does it in its own get_params
    get_params = command.get_params
    command.get_params = lambda ctx: plain_labels(get_params(ctx))


@cache
def _options() -> tuple[Any, ...]:
    """The options, built by typer itself from a signature: each typer release constructs and renders its
    own parameters its own way (0.27 changed how, 0.29 what an option needs to be built), so we never
    build one by hand. Built once per process; click keeps parsed values in the context, not the option."""
    from typer.main import get_command

    def option(*names: str, **kwargs: Any) -> Any:
        return typer.Option(*names, expose_value=False, rich_help_panel=PANEL, show_default=False, **kwargs)

    holder = typer.Typer(add_completion=False)

    @holder.command()
    def global_options(
        db: Annotated[Optional[Path], option("--db", metavar="PATH", callback=_set_db, help=DB_HELP)] = None,  # noqa: UP045
        tools_dir: Annotated[
            Optional[list[Path]],  # noqa: UP045 - typer reads the annotation at run time
            option("--tools-dir", metavar="PATH", callback=_add_tools_dirs, help=TOOLS_DIR_HELP),
        ] = None,
        allow_sql: Annotated[bool, option("--allow-sql", callback=_allow_sql, help=ALLOW_SQL_HELP)] = False,
        no_sources: Annotated[
            bool, option("--no-sources", callback=_no_sources, help=NO_SOURCES_HELP)
        ] = False,
        verbose: Annotated[bool, option("--verbose", "-v", callback=_verbose, help=VERBOSE_HELP)] = False,
    ) -> None:
        """Never run: the signature the options are read from."""

    return tuple(get_command(holder).params)


def _set_db(value: Optional[Path]) -> None:  # noqa: UP045 - typer reads the annotation at run time
    if value is not None:
        State.db = Path(value)


def _add_tools_dirs(value: Optional[list[Path]]) -> None:  # noqa: UP045
    if value:
        State.tools_dirs = (*State.tools_dirs, *(Path(v) for v in value))


def _allow_sql(value: bool) -> None:
    if value:
        State.allow_sql = True


def _no_sources(value: bool) -> None:
    if value:
        State.use_sources = False


def _verbose(value: bool) -> None:
    if value:
        set_verbose()
