"""A pure server-sent-events parser over text lines (the WHATWG event-stream rules, minus reconnection).

Events end at a blank line, not at a network chunk: one JSON payload may arrive split over several
reads, and several events may arrive in one. Comment lines (``: keep-alive``) are dropped. A stream that
ends without a final blank line still yields its last event, because some servers omit it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    data: str
    event: str = "message"
    id: str | None = None


def iter_events(lines: Iterable[str]) -> Iterator[Event]:
    """Yield one ``Event`` per blank-line-terminated block that carries data.

    Args:
        lines: the stream's lines without their line endings (``httpx.Response.iter_lines()``);
            a stray trailing ``\\r`` is tolerated.
    """
    data: list[str] = []
    name = ""
    last_id: str | None = None
    for raw in lines:
        line = raw.rstrip("\r\n")
        if not line:
            if data:
                yield Event("\n".join(data), name or "message", last_id)
            data, name = [], ""
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "data":
            data.append(value)
        elif field == "event":
            name = value
        elif field == "id" and "\0" not in value:
            last_id = value
        # "retry" and unknown fields are ignored, as the standard says
    if data:
        yield Event("\n".join(data), name or "message", last_id)
