"""A spinner with elapsed time on one terminal line, for waits the user would otherwise stare at.

Drawn from a daemon thread ten times a second once a wait passes ``delay`` seconds (a quick reply never
flickers); ``stop`` clears the line so other output (the trace, streamed text) never lands in the middle
of it. Off unless told the stream is a terminal.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
ASCII_FRAMES = "|/-\\"


class Spinner:
    def __init__(self, write: Callable[[str], None], *, enabled: bool, ascii: bool = False,
                 interval: float = 0.1, delay: float = 0.3,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self._write = write
        self.enabled = enabled
        self._frames = ASCII_FRAMES if ascii else FRAMES
        self._interval = interval
        self._delay = delay
        self._clock = clock
        self._lock = threading.Lock()
        self._label = ""
        self._started = 0.0
        self._shown = False
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False

    def start(self, label: str) -> None:
        """Show ``label`` with a turning mark and the seconds since now (restarts the clock)."""
        if not self.enabled:
            return
        with self._lock:
            self._label, self._started = label, self._clock()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="spinner", daemon=True)
            self._thread.start()
        self._wake.set()

    def stop(self) -> None:
        """Clear the line and stay quiet until the next ``start``."""
        with self._lock:
            self._label = ""
            self._clear()

    def close(self) -> None:
        self.stop()
        self._closed = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=1)

    @contextmanager
    def running(self, label: str) -> Iterator[None]:
        self.start(label)
        try:
            yield
        finally:
            self.stop()

    def line(self, frame: int, now: float) -> str:
        """The text shown at ``now``: mark, label, elapsed seconds."""
        return f"{self._frames[frame % len(self._frames)]} {self._label} {now - self._started:.1f}s"

    def _run(self) -> None:
        frame = 0
        while not self._closed:
            with self._lock:
                now = self._clock()
                if self._label and now - self._started >= self._delay:
                    self._write("\r\x1b[K" + self.line(frame, now))
                    self._shown = True
            frame += 1
            if not self._label:
                self._wake.wait()
                self._wake.clear()
            else:
                time.sleep(self._interval)

    def _clear(self) -> None:
        if self._shown:
            self._write("\r\x1b[K")
            self._shown = False
