"""Read a tool file safely: a regular file of bounded size, or a one-line reason why not.

A tools folder is the user's, but what sits in it need not be a file: a FIFO named ``x.sql`` blocks
``open()`` forever (every command hung), a symlink to ``/dev/zero`` reads without end (12 GB in 26 s).
The file is opened without blocking and checked on the open descriptor, so nothing can swap it between
the check and the read.
"""

from __future__ import annotations

from pathlib import Path

from analytics_agent.errors import ToolDefinitionError
from analytics_agent.small_files import FileTooLarge, NotRegularFile, read_small

MAX_TOOL_FILE_BYTES = 256 * 1024
"""Far above any real tool (the bundled ones are under 3 KB)."""


def read_tool_file(path: Path) -> str:
    """The file's text. ToolDefinitionError (naming the file) if it is not a regular file, is larger than
    ``MAX_TOOL_FILE_BYTES``, cannot be opened or is not UTF-8."""
    try:
        data = read_small(path, MAX_TOOL_FILE_BYTES)
    except NotRegularFile:
        raise ToolDefinitionError(
            "not a regular file (a pipe, device or folder); a tool must be a plain .sql file", path=str(path)
        ) from None
    except FileTooLarge:
        raise ToolDefinitionError(
            f"larger than {MAX_TOOL_FILE_BYTES // 1024} KiB; a tool file is a header and one query",
            path=str(path),
        ) from None
    except OSError as exc:
        raise ToolDefinitionError(f"cannot read the file: {exc.strerror}", path=str(path)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ToolDefinitionError(f"not UTF-8 text (byte {exc.start})", path=str(path)) from None
