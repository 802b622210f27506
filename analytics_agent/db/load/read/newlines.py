"""``--newline any``: a file whose lines end in a mix of ``\\r\\n``, ``\\n`` and ``\\r`` (DuckDB's reader takes
one kind per file) is read through a temporary copy where each of them is ``\\n``, as Python's csv module
and spreadsheet programs read such files. Only when asked: a ``\\r`` inside a quoted value becomes ``\\n``.
The copy is held to the unpack limit of ``archives`` (the free space less a margin, at most 16 GiB): a
``.gz`` bomb copied without one filled the disk."""

from __future__ import annotations

import contextlib
import tempfile
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, cast

from analytics_agent.db.load.read.archives import FreeSpace, free_bytes, unpack_limit
from analytics_agent.errors import LoadError

_CHUNK = 1 << 20


@contextlib.contextmanager
def one_kind_of_newline(
    files: Sequence[Path], newline: str | None, free: FreeSpace = free_bytes
) -> Iterator[list[Path]]:
    """The files to read: the same ones, or with ``newline == "any"`` copies with ``\\n`` line ends
    (removed afterwards).

    Raises:
        LoadError: a copy would pass the unpack limit, or cannot be written (a full disk).
    """
    if newline != "any":
        yield list(files)
        return
    with tempfile.TemporaryDirectory(prefix="analytics-agent-newlines-") as folder:
        copies = []
        for n, path in enumerate(files):
            copy = Path(folder) / f"{n}-{path.name.removesuffix('.gz')}"
            limit = unpack_limit(Path(folder), free)
            try:
                with _open(path) as source, copy.open("wb") as target:
                    whole = normalise(source, target, limit)
            except (OSError, EOFError, zlib.error) as exc:  # a full disk; a cut or corrupt .gz
                why = getattr(exc, "strerror", None) or exc
                raise LoadError(f"cannot copy {path.name} for --newline any: {why}") from None
            if not whole:
                raise LoadError(
                    f"{path.name}: --newline any copies its text into {folder}, and it grows past "
                    f"{limit >> 20} MB (the free space there less 256 MB); make room, or set TMPDIR to a "
                    "folder with more"
                )
            copies.append(copy)
        yield copies


def _open(path: Path) -> IO[bytes]:
    name = path.name.lower()
    if name.endswith((".zst", ".zstd")):
        raise LoadError(f"{path.name}: --newline any reads plain or .gz files; unpack it first")
    try:
        if name.endswith(".gz"):
            import gzip  # only for a .gz file: kept off a plain load's start-up

            return cast(IO[bytes], gzip.open(path, "rb"))
        return path.open("rb")
    except OSError as exc:
        raise LoadError(f"cannot read {path.name}: {exc.strerror or exc}") from None


def normalise(source: IO[bytes], target: IO[bytes], limit: int | None = None) -> bool:
    """Copy ``source`` to ``target`` with every ``\\r\\n`` and lone ``\\r`` written as ``\\n``, in chunks
    (a ``\\r`` at the end of a chunk waits for the next one to know if a ``\\n`` follows). False, and the
    copy stopped, once more than ``limit`` bytes were read."""
    pending = b""
    read = 0
    while chunk := source.read(_CHUNK):
        read += len(chunk)
        if limit is not None and read > limit:
            return False
        data = pending + chunk
        pending = b"\r" if data.endswith(b"\r") else b""
        if pending:
            data = data[:-1]
        target.write(data.replace(b"\r\n", b"\n").replace(b"\r", b"\n"))
    if pending:
        target.write(b"\n")
    return True
