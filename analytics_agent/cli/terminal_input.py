"""The chat prompt on a terminal: what the user typed while an answer was running is kept, shown and editable.

While the model works, the terminal echoes keystrokes onto the spinner's line, which the next frame
erases; the characters still wait in the terminal's input queue. Before each prompt the reader takes them
out of the queue (non-canonical, non-blocking) and puts them after the prompt with readline, so the user
sees and edits them instead of typing the question again. Ctrl-C would flush that queue (the terminal's
default on SIGINT); ``NOFLSH`` keeps it while the chat runs and is put back on exit.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator


class TerminalReader:
    """``read(prompt)`` for the chat on a terminal, keeping what was typed ahead."""

    def __init__(self, fd: int, *, write: Callable[[str], None]) -> None:
        self._fd = fd
        self._write = write
        self._pending = ""

    def __call__(self, prompt: str) -> str:
        self._pending += _drain(self._fd)
        if "\n" in self._pending:  # a whole question typed ahead: asked now, shown after the prompt
            line, self._pending = self._pending.split("\n", 1)
            self._write(prompt + line + "\n")
            return line
        typed, self._pending = self._pending, ""
        return _input_with(prompt, typed)


def _input_with(prompt: str, typed: str) -> str:
    """``input(prompt)`` with ``typed`` already on the line (editable where readline exists)."""
    try:
        import readline
    except ImportError:  # no readline: show it, and what follows completes it
        return typed + input(prompt + typed) if typed else input(prompt)
    if not typed:
        return input(prompt)
    readline.set_startup_hook(lambda: readline.insert_text(typed))
    try:
        return input(prompt)
    finally:
        readline.set_startup_hook(None)


def _drain(fd: int) -> str:
    """What waits in the terminal's input queue, read without blocking and without echo."""
    import termios

    try:
        saved = termios.tcgetattr(fd)
    except termios.error:
        return ""
    raw = list(saved)
    raw[3] = raw[3] & ~(termios.ICANON | termios.ECHO)
    cc = list(saved[6])
    cc[termios.VMIN], cc[termios.VTIME] = 0, 0
    raw[6] = cc
    chunks: list[bytes] = []
    termios.tcsetattr(fd, termios.TCSANOW, raw)
    try:
        while chunk := os.read(fd, 4096):
            chunks.append(chunk)
    except OSError:
        pass
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)
    text = b"".join(chunks).decode(sys.stdin.encoding or "utf-8", "replace")
    return text.replace("\r", "\n")


@contextlib.contextmanager
def keep_typed_ahead(fd: int) -> Iterator[None]:
    """Ctrl-C does not flush what was typed ahead (``NOFLSH``) while the chat runs."""
    import termios

    try:
        saved = termios.tcgetattr(fd)
    except termios.error:
        yield
        return
    changed = list(saved)
    changed[3] = changed[3] | termios.NOFLSH
    termios.tcsetattr(fd, termios.TCSANOW, changed)
    try:
        yield
    finally:
        with contextlib.suppress(termios.error):
            termios.tcsetattr(fd, termios.TCSANOW, saved)
