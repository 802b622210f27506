"""The database's business time zone, kept in the ``timezone:`` line of its semantic file: where the
semantic layer reads it, so ``aggregate``, ``describe_table`` and the system prompt all follow it, and a
user sees and changes it in one place (``load --timezone``, ``semantic init --timezone`` or an edit).

``with_zone`` is pure (text in, text out: every other line kept as written); ``set_zone`` does the I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from analytics_agent.errors import SemanticModelError

if TYPE_CHECKING:
    from analytics_agent.db.load.run import LoadSummary

_TOP_ZONE = r"(?m)^timezone[ \t]*:[^\n]*$"  # compiled on first use: every plain load imports this module
_NEW_FILE = (
    "# This database's business time zone: days, months and hours of zoned timestamps are counted in it.\n"
    "# Set by `analytics-agent load` (--timezone, or read from the data); `analytics-agent semantic init`\n"
    "# writes a full starting file (metrics, dimensions) that keeps this zone.\n"
)


class ZoneChange:
    """What ``set_zone`` changed. (A plain class: a frozen dataclass cost every load's import 0.5 ms.)"""

    __slots__ = ("created", "path", "previous", "zone")

    def __init__(self, zone: str, previous: str | None, path: Path, created: bool) -> None:
        self.zone, self.previous, self.path, self.created = zone, previous, path, created

    def note(self) -> str:
        """One line for the load summary: what changed, where it is kept, how to change it back."""
        where = f"{'new file ' if self.created else ''}{self.path.name}"
        if self.previous == self.zone:
            return f"business time zone {self.zone} (unchanged, in {where})"
        was = f"was {self.previous}; " if self.previous else ""
        undo = f"--timezone {self.previous}" if self.previous else "--timezone ZONE"
        return (
            f"business time zone set to {self.zone} in {where} ({was}days, months and hours of zoned "
            f"timestamps are counted in it; change it with load {undo} or by editing the file)"
        )


def with_zone(text: str, zone: str) -> tuple[str, str | None]:
    """``text`` with its top-level ``timezone:`` set to ``zone`` (added first when it has none), and the
    zone it had before."""
    line = f"timezone: {zone}"
    found = re.search(_TOP_ZONE, text)
    if found is None:  # after the file's opening comments, before its first key
        head = re.match(r"(?:[ \t]*(?:#[^\n]*)?\n)*", text)
        cut = head.end() if head else 0
        return f"{text[:cut]}{line}\n{text[cut:]}", None
    before = _named(found.group(0))
    if before == zone:
        return text, before  # its comment kept
    return text[: found.start()] + line + text[found.end() :], before


def stated_zone(path: Path) -> str | None:
    """The zone the semantic file at ``path`` names on its top ``timezone:`` line (None: no file, no line)."""
    try:
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
    except (OSError, UnicodeDecodeError):
        return None
    found = re.search(_TOP_ZONE, text)
    if found is None:
        return None
    return _named(found.group(0))


def _named(line: str) -> str | None:
    return line.split(":", 1)[1].split("#", 1)[0].strip().strip("'\"") or None


def checked_zone(name: str, *, flag: str = "--timezone") -> str:
    """The IANA name as the zone database spells it, checked before a load starts.

    Raises:
        LoadError: not a known IANA zone (one line, with an example).
    """
    from analytics_agent.errors import LoadError, ToolError
    from analytics_agent.tools.aggregate.time import check_zone

    try:
        return check_zone(name.strip()).key
    except ToolError as exc:
        raise LoadError(f"{flag}: {exc}; nothing was loaded") from None


def _check_reads_back(text: str, zone: str, path: Path) -> None:
    """A file whose top level is not plain block YAML could hide the line; then say so, change nothing."""
    from analytics_agent.tools.semantic.model import parse_semantic

    try:
        found = parse_semantic(text, path=str(path)).timezone
    except SemanticModelError:
        found = None
    if found != zone:
        raise SemanticModelError(
            f"cannot set the time zone here; write 'timezone: {zone}' at the top of the file", path=str(path)
        )


def set_zone(path: Path, zone: str) -> ZoneChange:
    """Write ``zone`` into the semantic file at ``path`` (created when missing), never through a link.

    Raises:
        SemanticModelError: the file cannot be read or written (the reason in one line).
    """
    from analytics_agent.paths import refuse_symlink, write_file

    try:
        refuse_symlink(path)
        created = not path.exists()
        text = _NEW_FILE if created else path.read_text(encoding="utf-8")
        new, previous = with_zone(text, zone)
        if new != text:
            _check_reads_back(new, zone, path)
            write_file(path, new)
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise SemanticModelError(f"cannot set the time zone: {reason}", path=str(path)) from None
    return ZoneChange(zone, previous, path, created)


def load_with_zone(
    db: Path, timezone: str | None, load: Callable[[], LoadSummary], *, flag: str = "--timezone"
) -> tuple[LoadSummary, SemanticModelError | None]:
    """Run ``load`` for ``load --timezone`` and ``Workspace.load(timezone=)``: the zone is checked before
    the load starts (a wrong one loads nothing), written once the load has committed, and said in the
    summary's notes. A zone that cannot be written comes back instead of being raised: the load is
    committed, and its summary is still the caller's to show before the error."""
    zone = checked_zone(timezone, flag=flag) if timezone is not None else None
    summary = load()
    if zone is None:
        from analytics_agent.tools.semantic.zone_detect import may_tell_zone

        if may_tell_zone(summary) and (note := _zone_from_load(db, summary)):
            summary.notes.append(note)
        return summary, None
    from analytics_agent.tools.semantic.load import semantic_path_for

    try:
        summary.notes.append(set_zone(semantic_path_for(db), zone).note())
    except SemanticModelError as exc:
        return summary, exc
    return summary, None


def _zone_from_load(db: Path, summary: LoadSummary) -> str | None:
    """After a load without ``--timezone``: when the semantic file names no zone yet and the loaded table
    shows one (``zone_detect``), write it there and return the summary's line saying so; else None."""
    from analytics_agent.tools.semantic.load import semantic_path_for
    from analytics_agent.tools.semantic.zone_detect import zone_of_load

    path = semantic_path_for(db)
    if stated_zone(path) is not None:
        return None  # the user's choice stands
    found = zone_of_load(db, summary)
    if found is None:
        return None
    try:
        change = set_zone(path, found[0])
    except SemanticModelError as exc:
        return f"business time zone looks like {found[0]} ({found[1]}), but {exc}"
    return (
        f"business time zone set to {found[0]} in {'new file ' if change.created else ''}{path.name}, read "
        f"from the data ({found[1]}): days, months and hours are counted in it; change it with load "
        "--timezone ZONE or by editing the file"
    )
