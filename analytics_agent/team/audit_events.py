"""The audit trail as one more reader of the loop's events, like the trace: each tool call the agent ran
while answering a question (``ToolFinished``) becomes an audit line, as the principal asking."""

from __future__ import annotations

import json
from typing import Any

from analytics_agent.agent.events import Event, ToolFinished
from analytics_agent.team.audit import ERROR, OK, REFUSED, AuditLog, Call
from analytics_agent.team.principal import Principal, current


class AuditSink:
    """An event sink (``EventSink``) writing each of the loop's tool calls to ``trail``.

    Args:
        trail: where the lines go.
        principal: who asks; by default the principal current when each event arrives.
    """

    def __init__(self, trail: AuditLog, principal: Principal | None = None) -> None:
        self.trail = trail
        self.principal = principal

    def __call__(self, event: Event) -> None:
        if isinstance(event, ToolFinished):
            self.trail.write(call_of(event), self.principal or current())


def call_of(event: ToolFinished) -> Call:
    """The audit record of one of the loop's tool calls (pure). A call the loop chose not to run (a
    repeat of a failed call, a reply cut off) is ``refused`` with why."""
    record = event.record
    if record.skipped:
        outcome, reason = REFUSED, f"not run ({record.skipped}): {record.error or event.content}"
    elif record.is_error:
        outcome, reason = ERROR, record.error or event.content
    else:
        outcome, reason = OK, ""
    return Call(
        record.name,
        _arguments(record.arguments),
        outcome,
        record.duration_ms,
        sql=record.sql,
        rows=record.rows,
        bytes=len(event.content.encode("utf-8", "replace")),
        reason=reason,
        kind="ask",
    )


def _arguments(text: str) -> Any:
    """The model's arguments as sent: parsed when they are JSON, else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text
