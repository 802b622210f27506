"""``sources.toml`` beside ``config.toml``: read it, and write it back when a source is added or removed.

The file holds only sources (the one the user edits by hand, ``config.toml``, is never rewritten), so
writing it whole loses nothing but comments, which ``sources add`` says in the file's first line.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analytics_agent.errors import SourceError
from analytics_agent.paths import config_dir

if TYPE_CHECKING:  # the parser is imported only when there is a file to parse: most runs have none
    from analytics_agent.db.linked.spec import Source

HEADER = "# Data sources of analytics-agent; `analytics-agent sources add/remove` rewrites this file.\n"


def sources_path() -> Path:
    return config_dir() / "sources.toml"


def read_sources(path: Path | None = None) -> list[Source]:
    """The configured sources (none when the file does not exist)."""
    path = path or sources_path()
    from analytics_agent.small_files import read_small_text

    try:  # a regular file only, read bounded: a FIFO here hung every command, /dev/zero filled memory
        text = read_small_text(path)
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    import tomllib  # only when there is a file: most runs have none

    from analytics_agent.db.linked.spec import parse_sources

    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SourceError(f"{path}: {exc}") from None
    except RecursionError:  # tomllib parses nested arrays and tables by recursion
        raise SourceError(f"{path}: values nest too deeply") from None
    try:
        return parse_sources(document)
    except SourceError as exc:
        raise SourceError(f"{path}: {exc}") from None


def sources_for(db_path: Path) -> tuple[list[Source], list[str]]:
    """The sources a command on ``db_path`` links (those of every database and those of this one), and
    a problem line if the file cannot be read: a broken file leaves the sources out instead of stopping
    every command."""
    try:
        return [s for s in read_sources() if s.applies_to(db_path)], []
    except SourceError as exc:
        return [], [f"{exc}; sources left out (fix the file, or run with --no-sources)"]


def write_sources(sources: list[Source], path: Path | None = None) -> Path:
    """Replace the file atomically with these sources."""
    path = path or sources_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".sources-", suffix=".toml", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(render_toml(sources))
    os.replace(tmp, path)
    return path


def render_toml(sources: list[Source]) -> str:
    """TOML text for the sources: one table each, strings as TOML basic strings."""
    parts = [HEADER]
    for source in sources:
        parts.append(f"\n[{source.name}]\n")
        for key, value in source.as_mapping().items():
            parts.append(f"{key} = {_value(value)}\n")
    return "".join(parts)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):  # an inline table; keys quoted, as a file's column names hold anything
        return "{ " + ", ".join(f"{_value(k)} = {_value(v)}" for k, v in value.items()) + " }"
    # JSON escapes every control character TOML forbids except DEL, which TOML also forbids raw.
    return json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007f")
