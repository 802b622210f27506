"""The bytes of a file past its first block where UTF-8 first fails: a file that is ASCII for its first
64 KB (ids, dates, amounts) and writes a customer's Chinese or Korean name only further down is read as
UTF-8 until DuckDB meets those bytes; its refusal names the encoding they read as, not latin-1 (which
would store every character as two Western letters). Reads the file: for an error's advice only."""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import BinaryIO

from analytics_agent.db.load.read.encodings import PEEK_BYTES, better_encodings
from analytics_agent.errors import LoadError

_CHUNK = 1 << 20


def later_encodings(message: str, files: list[Path]) -> list[str]:
    """For a file DuckDB found not UTF-8 past the first block the load looked at (``message``, its error):
    the ``--encoding`` options naming what the bytes from that line on read as (``better_encodings``),
    when another encoding than latin-1 reads them; else none."""
    if "Invalid unicode" not in message and "not utf-8 encoded" not in message:
        return []
    for path in files:
        block = foreign_block(path)
        if block and (named := better_encodings(block)):
            return named
    return []


def read_refusal(message: str, files: list[Path], label: str | None = None) -> LoadError:
    """The one-line refusal of DuckDB's error ``message`` reading ``files``, naming the encoding the bytes
    past the first block read as when UTF-8 failed there (``later_encodings``). The error path only."""
    from analytics_agent.db.load.reader_errors import explain_load_error

    encodings = later_encodings(message, files)
    return LoadError(explain_load_error(message, files, label=label, encodings=encodings))


def foreign_block(path: Path) -> bytes:
    """Up to 64 KB of ``path`` from the start of the line where UTF-8 reading first fails; empty when it
    never does, or the file is packed or unreadable."""
    if path.name.lower().endswith((".gz", ".zst", ".zstd", ".bz2", ".zip")):
        return b""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="strict")
    done = 0
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(_CHUNK):
                pending = len(decoder.getstate()[0])  # a character cut at the last chunk's end
                try:
                    decoder.decode(chunk)
                except UnicodeDecodeError as exc:
                    return _from_line(handle, done, chunk, max(0, exc.start - pending))
                done += len(chunk)
    except OSError:
        return b""
    return b""


def _from_line(handle: BinaryIO, done: int, chunk: bytes, at: int) -> bytes:
    """``PEEK_BYTES`` bytes from the start of the line holding ``chunk[at]`` (``chunk`` read from offset
    ``done``; a line begun in the chunk before starts at the chunk)."""
    handle.seek(done + chunk.rfind(b"\n", 0, at) + 1)
    return handle.read(PEEK_BYTES)
