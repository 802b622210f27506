"""What every command shares: the global options, the database path and the open workspace.

The root callback in ``app.py`` fills ``State``; command modules read it through these functions, so no
command module imports the app.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer


class State:
    db: Path | None = None
    tools_dirs: tuple[Path, ...] = ()
    allow_sql: bool = False
    use_sources: bool = True


JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def db_path() -> Path:
    from analytics_agent.paths import default_db_path

    return (State.db or default_db_path()).expanduser()


def open_workspace():
    """The workspace the global options describe; says once when it created the database."""
    from analytics_agent.db.linked.store import read_sources
    from analytics_agent.workspace.workspace import Workspace

    workspace = Workspace.open(
        db_path(),
        tool_dirs=user_tool_dirs(State.tools_dirs),
        allow_sql=State.allow_sql,
        sources=read_sources() if State.use_sources else (),
    )
    if workspace.created:
        typer.echo(f"Created {workspace.db_path} with the sample data.", err=True)
    warn_problems(workspace.problems)
    for problem in workspace.source_problems:
        typer.echo(f"warning: {problem}", err=True)
    return workspace


def user_tool_dirs(flag_dirs: Sequence[Path]) -> tuple[Path, ...]:
    """The config file's ``tools_dir`` entries, then the ``--tools-dir`` folders, each once."""
    from analytics_agent.config import load_config_file

    configured = load_config_file().get("tools_dir") or ()
    if isinstance(configured, str):
        configured = [configured]
    folders = [Path(str(f)).expanduser() for f in configured] + [Path(f).expanduser() for f in flag_dirs]
    return tuple(dict.fromkeys(folders))


def warn_problems(problems: Sequence[object]) -> None:
    """One warning line per skipped tool file (it names file:line); the other tools still load."""
    for problem in problems:
        typer.echo(f"warning: {problem} (tool skipped)", err=True)
