"""Streamed model text on the terminal, and whether the final answer is already on screen.

Pieces are shown with terminal controls escaped (``safe_text``): they come straight from the endpoint.
"""

from __future__ import annotations

from collections.abc import Callable

from analytics_agent.agent.events import Event, RequestSent, ResponseReceived
from analytics_agent.present.safe_text import escape_control

Write = Callable[[str], None]


class StreamEcho:
    """Shows streamed text as it arrives, and knows whether the final answer is already on screen."""

    def __init__(self, write: Write) -> None:
        self.write = write
        self._step_text: list[str] = []  # joined once at the end: += would copy a long reply per piece
        self._open = False

    def on_text(self, piece: str) -> None:
        self.write(escape_control(piece))
        self._step_text.append(piece)
        self._open = True

    def on_event(self, event: Event) -> None:
        if isinstance(event, RequestSent):
            self._step_text = []
        elif isinstance(event, ResponseReceived):
            self._end_line()  # before the trace prints its line for this reply

    def finish(self, answer: str) -> bool:
        """End the streamed line; True if what the last reply streamed is the whole answer."""
        self._end_line()
        streamed = "".join(self._step_text).strip()
        return bool(streamed) and streamed == answer.strip()

    def _end_line(self) -> None:
        if self._open:
            self.write("\n")
            self._open = False
