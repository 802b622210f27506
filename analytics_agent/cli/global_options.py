"""The global options (--db, --tools-dir, --allow-sql, --no-sources, -v) are accepted after the subcommand too.

``analytics-agent tables --db x.duckdb`` means what ``analytics-agent --db x.duckdb tables`` means: every
command gets these options (in their own help panel) and they fill the same ``State``; given in both
places, the later one wins (``--tools-dir`` adds up).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.core import TyperGroup, TyperOption

from analytics_agent.cli.context import State

PANEL = "Global options (before or after the command)"
DB_HELP = "DuckDB database file (env ANALYTICS_AGENT_DB; default: analytics.duckdb in the user data dir)."
TOOLS_DIR_HELP = "A folder of your own .sql tools (repeatable; config: tools_dir)."
ALLOW_SQL_HELP = "Give the model run_sql: one read-only SELECT per call."
NO_SOURCES_HELP = "Leave the configured data sources out (e.g. one is down)."
VERBOSE_HELP = "Log details to stderr."


class GlobalOptionsGroup(TyperGroup):
    """A command group whose commands (and their subcommands) also take the global options."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            add_global_options(command)
        return command


def add_global_options(command: Any) -> None:
    """Give ``command`` (or each command of a group, recursively) the global options, once."""
    if isinstance(command, TyperGroup):
        for sub in getattr(command, "commands", {}).values():
            add_global_options(sub)
        return
    if getattr(command, "_global_options", False):
        return
    taken = {name for p in command.params for name in getattr(p, "opts", ())}
    command.params.extend(o for o in _options() if not taken & set(o.opts))
    command._global_options = True


def _options() -> list[TyperOption]:
    return [
        TyperOption(param_decls=["--db"], metavar="PATH", callback=_set_db, expose_value=False, help=DB_HELP,
                    rich_help_panel=PANEL),
        TyperOption(param_decls=["--tools-dir"], metavar="PATH", multiple=True, callback=_add_tools_dirs,
                    expose_value=False, help=TOOLS_DIR_HELP, rich_help_panel=PANEL),
        TyperOption(param_decls=["--allow-sql"], is_flag=True, callback=_allow_sql, expose_value=False,
                    help=ALLOW_SQL_HELP, rich_help_panel=PANEL),
        TyperOption(param_decls=["--no-sources"], is_flag=True, callback=_no_sources, expose_value=False,
                    help=NO_SOURCES_HELP, rich_help_panel=PANEL),
        TyperOption(param_decls=["--verbose", "-v"], is_flag=True, callback=_verbose, expose_value=False,
                    help=VERBOSE_HELP, rich_help_panel=PANEL),
    ]  # fmt: skip


def _set_db(_ctx: Any, _param: Any, value: Any) -> None:
    if value is not None:
        State.db = Path(value)


def _add_tools_dirs(_ctx: Any, _param: Any, value: Any) -> None:
    if value:
        State.tools_dirs = (*State.tools_dirs, *(Path(v) for v in value))


def _allow_sql(_ctx: Any, _param: Any, value: Any) -> None:
    if value:
        State.allow_sql = True


def _no_sources(_ctx: Any, _param: Any, value: Any) -> None:
    if value:
        State.use_sources = False


def _verbose(_ctx: Any, _param: Any, value: Any) -> None:
    if value:
        set_verbose()


def set_verbose() -> None:
    """INFO logs on stderr (``-v``), wherever on the command line it was given."""
    import logging
    import sys

    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
