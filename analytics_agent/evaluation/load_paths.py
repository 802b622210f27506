"""The files a question file's ``load:`` entry names, each proven to lie inside the file's folder.

A question file may come from anyone, and whatever it loads reaches the model, the report and the stored
run. So its globs are expanded here, not by the loader: every match (and every archive holding a named
member) is resolved, symbolic links and ``..`` included, and must stay inside the folder; the loader then
gets literal paths only. (Checking the pattern alone let ``d/*.csv`` load ``d/x.csv``, a link to a
credentials file.)
"""

from __future__ import annotations

import glob
import re
from pathlib import Path

from analytics_agent.db.load.inputs import ARCHIVE_MEMBER, GLOB
from analytics_agent.db.load.names import table_name_from_path
from analytics_agent.errors import EvalFileError
from analytics_agent.small_files import is_regular


def files_inside(question_file: Path, root: Path, pattern: str) -> list[str]:
    """Literal paths for ``pattern`` (relative to the question file), globs expanded; archive members as
    ``/real/archive.zip:member.csv``.

    Raises:
        EvalFileError: the pattern or any of its matches leads outside ``root``, or nothing matches.
    """
    base = question_file.parent
    member = re.match(ARCHIVE_MEMBER, pattern) if ":" in pattern else None
    if member and not (base / pattern).exists():
        archive = _regular(question_file, pattern, _inside(question_file, root, pattern, member["archive"]))
        return [f"{archive}:{member['member']}"]
    if not GLOB.search(pattern) or (base / pattern).is_file():  # a file named "[a] b.csv" is itself
        return [str(_regular(question_file, pattern, _inside(question_file, root, pattern, pattern)))]
    if Path(pattern).is_absolute():
        raise _outside(question_file, root, pattern, pattern)
    matches = sorted(glob.glob(pattern, root_dir=base))  # hidden files are skipped, as a shell does
    files = [_inside(question_file, root, pattern, match) for match in matches]  # every match, folders too
    found = [str(path) for path in files if path.is_file()]
    if not found:
        raise EvalFileError(f"{question_file}: load: no files match {pattern!r}")
    return found


def default_table(pattern: str) -> str:
    """The table the loader would name after ``pattern`` itself (``exports/sales-*.csv`` → ``sales``),
    kept when the loader is handed the matches instead."""
    return table_name_from_path(pattern.rsplit(".zip:", 1)[-1])


def _inside(question_file: Path, root: Path, pattern: str, relative: str) -> Path:
    target = (question_file.parent / relative).resolve()
    if not target.is_relative_to(root):
        raise _outside(question_file, root, pattern, relative)
    parts = (*Path(relative).parts, *target.relative_to(root).parts)
    if any(part.startswith(".") and part not in (".", "..") for part in parts):
        # A question file saved in a home or project folder reached .aws/credentials, .ssh/id_rsa or
        # .env beside it (directly or through a link): hidden files are never data a question set ships.
        what = repr(pattern) if relative == pattern else f"{pattern!r} matches {relative!r}, which"
        raise EvalFileError(
            f"{question_file}: load: {what} is a hidden file or inside a hidden folder; a question file "
            "loads visible data files beside it"
        )
    return target


def _regular(question_file: Path, pattern: str, target: Path) -> Path:
    """A FIFO or a device named in ``load:`` hung ``eval`` (opening it waits for a writer, or reads for
    ever); a name that does not exist is left for the loader to report."""
    if target.exists() and not is_regular(target) and not target.is_dir():
        raise EvalFileError(
            f"{question_file}: load: {pattern!r} is not a regular file (a FIFO, device or socket); "
            "name a data file"
        )
    return target


def _outside(question_file: Path, root: Path, pattern: str, relative: str) -> EvalFileError:
    what = repr(pattern) if relative == pattern else f"{pattern!r} matches {relative!r}, which"
    return EvalFileError(
        f"{question_file}: load: {what} is outside the question file's folder {root}; "
        "copy the file beside the question file and name it relative to it"
    )
