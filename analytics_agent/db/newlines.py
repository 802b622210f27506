"""``--newline any``: a file whose lines end in a mix of ``\\r\\n``, ``\\n`` and ``\\r`` (DuckDB's reader takes
one kind per file) is read through a temporary copy where each of them is ``\\n``, as Python's csv module
and spreadsheet programs read such files. Only when asked: a ``\\r`` inside a quoted value becomes ``\\n``."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, cast

from analytics_agent.errors import LoadError

_CHUNK = 1 << 20


@contextlib.contextmanager
def one_kind_of_newline(files: Sequence[Path], newline: str | None) -> Iterator[list[Path]]:
    """The files to read: the same ones, or with ``newline == "any"`` copies with ``\\n`` line ends
    (removed afterwards)."""
    if newline != "any":
        yield list(files)
        return
    with tempfile.TemporaryDirectory(prefix="analytics-agent-newlines-") as folder:
        copies = []
        for n, path in enumerate(files):
            copy = Path(folder) / f"{n}-{path.name.removesuffix('.gz')}"
            with _open(path) as source, copy.open("wb") as target:
                normalise(source, target)
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


def normalise(source: IO[bytes], target: IO[bytes]) -> None:
    """Copy ``source`` to ``target`` with every ``\\r\\n`` and lone ``\\r`` written as ``\\n``, in chunks
    (a ``\\r`` at the end of a chunk waits for the next one to know if a ``\\n`` follows)."""
    pending = b""
    while chunk := source.read(_CHUNK):
        data = pending + chunk
        pending = b"\r" if data.endswith(b"\r") else b""
        if pending:
            data = data[:-1]
        target.write(data.replace(b"\r\n", b"\n").replace(b"\r", b"\n"))
    if pending:
        target.write(b"\n")
