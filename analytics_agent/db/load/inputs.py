"""The files a load reads: the paths, globs and ``archive.zip:member`` names a user gave, resolved to
files (one clear error otherwise), whether they are CSV or Parquet, and how many DuckDB threads their size
is worth. Looks at the file system only."""

# no ``from __future__ import annotations``: typing compiles a NamedTuple's annotations written as strings
# one by one when the class is made (a load compiled 113 of them, now 11: 0.8 ms of its imports' 15.5)
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal, NamedTuple

from analytics_agent.errors import LoadError

Kind = Literal["csv", "parquet"]
_PARQUET_SUFFIXES = (".parquet", ".pq")
GLOB = re.compile(r"[*?\[]")
ARCHIVE_MEMBER = r"(?i)^(?P<archive>.+\.zip):(?P<member>[^:]+)$"
SMALL_INPUT_BYTES = 4_000_000
"""Inputs up to this size load on one DuckDB thread. DuckDB splits a CSV file among threads in blocks of
megabytes and a table scan by row groups of 122,880 rows, so a second thread has little of its own to read
here; waking it for each of a load's twenty-odd small queries cost about 9 ms of CPU on a 366-row file
(188 -> 179 ms, whole process)."""
_PACKED = (".gz", ".bz2", ".zst", ".zstd", ".parquet", ".pq")
_PACKED_RATIO = 8
"""A compressed file (or Parquet) counts as this many times its size: CSV text compresses about 5-10x."""


class Input(NamedTuple):
    """One file to read; ``member`` names the file inside a ``.zip`` archive, when one was named."""

    path: Path
    member: str | None = None

    @property
    def label(self) -> str:
        """How messages name it: ``flights.csv``, or ``export.zip:orders.csv`` for an archive member."""
        return f"{self.path.name}:{self.member}" if self.member else self.path.name


def resolve_inputs(patterns: Sequence[str]) -> list[Input]:
    """Every file the arguments name, globs expanded, in a stable order; one clear error otherwise.
    ``archive.zip:member.csv`` names one file inside a zip archive."""
    if not patterns:
        raise LoadError("name at least one file to load, e.g. analytics-agent load sales.csv")
    inputs: list[Input] = []
    for pattern in patterns:
        member_match = re.match(ARCHIVE_MEMBER, pattern) if ":" in pattern else None
        if member_match and not Path(pattern).expanduser().exists():
            archive = Path(member_match["archive"]).expanduser()
            if not archive.is_file():
                raise LoadError(f"no such file: {member_match['archive']}")
            inputs.append(Input(archive.resolve(), member_match["member"]))
            continue
        inputs.extend(Input(path) for path in _expand(pattern))
    unique = list(dict.fromkeys(Input(i.path.resolve(), i.member) for i in inputs))
    for item in unique:
        if item.path.stat().st_size == 0:
            raise LoadError(f"{item.path.name} is empty; there is nothing to load")
    return unique


def _expand(pattern: str) -> list[Path]:
    expanded = Path(pattern).expanduser()
    if GLOB.search(pattern) and not expanded.is_file():  # a file named "[a] b.csv" is itself
        import glob  # only for a pattern: kept off a plain load's start-up

        matches = sorted(Path(m) for m in glob.glob(str(expanded)) if Path(m).is_file())
        if not matches:
            raise LoadError(f"no files match {pattern}")
        return matches
    if expanded.is_dir():
        raise LoadError(f"{pattern} is a folder; name files or a glob such as {pattern}/*.csv")
    if not expanded.is_file():
        from analytics_agent.small_files import special_kind

        kind = special_kind(expanded)  # a FIFO is there, but is no file to load ("no such file" misled)
        raise LoadError(f"{pattern} is {kind}, not a regular file" if kind else f"no such file: {pattern}")
    return [expanded]


def file_kind(names: Sequence[str]) -> Kind:
    """CSV or Parquet, from the names of the files DuckDB will read (members for archives)."""
    kinds: set[Kind] = {"parquet" if n.lower().endswith(_PARQUET_SUFFIXES) else "csv" for n in names}
    if len(kinds) > 1:
        raise LoadError("CSV and Parquet files cannot load into one table at once; load them separately")
    return kinds.pop()


def load_threads(files: Sequence[Path]) -> int | None:
    """One thread for a small input, DuckDB's default otherwise (see ``SMALL_INPUT_BYTES``)."""
    size = 0
    for path in files:
        try:
            size += path.stat().st_size * (_PACKED_RATIO if path.name.lower().endswith(_PACKED) else 1)
        except OSError:  # unreadable: the load says so itself
            return None
    return 1 if size <= SMALL_INPUT_BYTES else None
