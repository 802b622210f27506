"""What every command shares: the global options, the database path and the open workspace.

The root callback in ``app.py`` fills ``State``; command modules read it through these functions, so no
command module imports the app. Needs no typer: ``load`` runs without it (``load_args``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from analytics_agent.cli.edge import say
from analytics_agent.present.safe_text import escape_control


class State:
    db: Path | None = None
    tools_dirs: tuple[Path, ...] = ()
    allow_sql: bool = False
    use_sources: bool = True


def db_path() -> Path:
    from analytics_agent.paths import default_db_path

    return (State.db or default_db_path()).expanduser()


def gets_sample_data(path: Path) -> bool:
    """Only the default database is created with the sample data; any other starts empty."""
    from analytics_agent.paths import builtin_db_path

    return path.expanduser().absolute() == builtin_db_path().absolute()


def open_workspace(timezone: str | None = None, *, demo: bool = False, semantic_warnings: bool = True):
    """The workspace the global options describe; says once when it created the database.

    ``timezone`` (``--timezone``) is the business zone ``aggregate`` buckets timestamps in; without it, the
    config file's ``timezone``, else the machine's zone. ``demo``: without --db, the demo's own database;
    a new one gets the sample data either way. ``semantic_warnings=False``: the caller reports the semantic
    file's mistakes itself (``semantic check``), so they are not printed twice."""
    from analytics_agent.errors import SemanticModelError
    from analytics_agent.paths import demo_db_path
    from analytics_agent.workspace.workspace import Workspace

    path = (State.db or demo_db_path()).expanduser() if demo else db_path()
    if not demo and not path.exists() and not gets_sample_data(path):
        # only `load` creates a database: a mistyped --db must not become a new empty file
        from analytics_agent.errors import DatabaseError

        raise DatabaseError(missing_database_message(path))
    sources, unreadable = linked_sources(path)
    workspace = Workspace.open(
        path,
        tool_dirs=user_tool_dirs(State.tools_dirs),
        allow_sql=State.allow_sql,
        sample_data=demo or gets_sample_data(path),
        # a zone the user typed is checked now; the default one is looked up only if a tool needs it
        timezone=business_zone(timezone) if timezone else lambda: business_zone(None),
        sources=sources,
    )
    if workspace.created:
        say_created(path, sample_data=demo or gets_sample_data(path))
    warn_problems(
        [p for p in workspace.problems if semantic_warnings or not isinstance(p, SemanticModelError)]
    )
    for problem in (*unreadable, *workspace.source_problems):
        say(escape_control(f"warning: {problem}"))
    return workspace


def linked_sources(path: Path) -> tuple[list, list[str]]:
    """The sources a command on ``path`` links (none with --no-sources), and why the file was left out."""
    if not State.use_sources:
        return [], []
    from analytics_agent.db.linked.store import sources_for

    return sources_for(path)


_warned: set[str] = set()


def readable_config() -> dict:
    """The config file for commands that only read data: a broken file is a warning (once) and is
    ignored, because the data is still there; only the commands that ask a model refuse it."""
    from analytics_agent.paths import config_path

    if not config_path().exists():  # the usual case: no file, and no config module to import
        return {}
    from analytics_agent.config import load_config_file
    from analytics_agent.errors import ConfigError

    try:
        return load_config_file()
    except ConfigError as exc:
        if str(exc) not in _warned:
            _warned.add(str(exc))
            say(f"warning: {exc} (config file ignored; commands that ask a model need it fixed)")
        return {}


def missing_database_message(path: Path) -> str:
    """A --db that names no file, for commands that only read: what exists nearby, and how to make one."""
    from analytics_agent.suggest import did_you_mean

    if not path.parent.is_dir():
        return f"no folder {path.parent} for the database {path.name}; create the folder first or fix --db"
    nearby = [p.name for p in path.parent.glob("*.duckdb")]
    hint = did_you_mean(path.name, nearby)
    return (
        f"no database at {path}{hint}; fix --db, or create it with analytics-agent --db {path} load FILE.csv"
    )


def set_verbose() -> None:
    """INFO logs on stderr (``-v``), wherever on the command line it was given."""
    import logging

    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")


def say_created(path: Path, *, sample_data: bool) -> None:
    if sample_data:
        say(f"Created {path} with the sample data.")
    else:
        say(f"Created an empty database {path}.")


def db_option() -> str:
    """The ``--db`` this command was given, as it was typed (with a space after it), or "" for the default
    database: a hint that names the next command repeats it, so the hint runs on the same database."""
    import shlex

    return f"--db {shlex.quote(str(State.db))} " if State.db is not None else ""


def load_hint(path: Path) -> str:
    """How to put a first table into an empty database."""
    from analytics_agent.paths import default_db_path

    db = "" if path == default_db_path().expanduser() else f"--db {path} "
    return f"analytics-agent {db}load FILE.csv (CSV, Parquet, .gz, .zst or .zip)"


def user_tool_dirs(flag_dirs: Sequence[Path]) -> tuple[Path, ...]:
    """The config file's ``tools_dir`` entries, then the ``--tools-dir`` folders, each once."""
    configured = readable_config().get("tools_dir") or ()
    if isinstance(configured, str):
        configured = [configured]
    folders = [Path(str(f)).expanduser() for f in configured] + [Path(f).expanduser() for f in flag_dirs]
    return tuple(dict.fromkeys(folders))


def business_zone(flag: str | None) -> str:
    """The flag, the config file's ``timezone``, else the machine's zone if it has an IANA name, else UTC."""
    from analytics_agent.zones import business_zone_from, local_zone_name

    return business_zone_from(flag, readable_config().get("timezone"), local_zone_name())


def warn_problems(problems: Sequence[object]) -> None:
    """One warning line per skipped tool file or semantic definition (each names file:line); the rest
    still load."""
    from analytics_agent.errors import SemanticModelError

    for problem in problems:
        what = "definition" if isinstance(problem, SemanticModelError) else "tool"
        say(escape_control(f"warning: {problem} ({what} skipped)"))
