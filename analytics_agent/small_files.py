"""Read a small file the product is told about (settings, a users list, a question file, a run to
compare with) without waiting on it or holding more of it than such a file can be.

``open()`` of a FIFO waits for a writer, and ``read()`` of ``/dev/zero`` never ends: a FIFO named
``sources.toml`` or ``config.toml`` hung every command, a FIFO as a question file or a users file hung
``eval`` and ``users``, and a link to ``/dev/zero`` ended in ``MemoryError`` (issue 38, round three).
Here the file is opened without blocking, must be a regular file (by ``fstat`` of what was opened, so a
link swapped in after a check is judged too), and is read no further than a bound.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

MAX_BYTES = 8 * 1024 * 1024
"""Larger than any settings, users or question file written by hand or by the product."""


class NotRegularFile(OSError):
    """A FIFO, a device, a socket or a folder where a file was expected."""

    def __init__(self, path: object, kind: str) -> None:
        super().__init__(errno.EINVAL, f"{kind}, not a regular file", str(path))

    def __str__(self) -> str:
        return str(self.strerror)


class FileTooLarge(OSError):
    def __init__(self, path: object, max_bytes: int) -> None:
        super().__init__(errno.EFBIG, f"larger than {_size(max_bytes)}", str(path))

    def __str__(self) -> str:
        return str(self.strerror)


def read_small(path: str | os.PathLike[str], max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes`` of them.

    Raises:
        FileNotFoundError: there is no such file (callers often treat that as "none").
        NotRegularFile: a FIFO, device, socket or folder (an OSError).
        FileTooLarge: longer than ``max_bytes`` (an OSError); no more than that is read.
        OSError: any other reason it cannot be read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, _kind(mode))
        chunks: list[bytes] = []
        left = max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1024 * 1024))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:
            raise FileTooLarge(path, max_bytes)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_small_text(path: str | os.PathLike[str], max_bytes: int = MAX_BYTES) -> str:
    """``read_small`` decoded as UTF-8 (``UnicodeDecodeError`` passes through)."""
    return read_small(path, max_bytes).decode("utf-8")


def is_regular(path: Path) -> bool:
    """Whether ``path`` (links followed) is a regular file, judged without opening it."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except (OSError, ValueError):
        return False


def special_kind(path: Path) -> str | None:
    """``a FIFO``, ``a device`` ... for a path (links followed) that exists and is not a regular file or
    a folder; None otherwise."""
    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):
        return None
    return None if stat.S_ISREG(mode) or stat.S_ISDIR(mode) else _kind(mode)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n:,} bytes"
