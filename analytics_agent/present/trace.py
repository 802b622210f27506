"""The live trace: one or two lines per event, for stderr. Pure: events in, text out."""

from __future__ import annotations

import json
from typing import Any

from analytics_agent import bounded_json
from analytics_agent.agent.events import (
    AgentResult,
    Event,
    Finished,
    RequestSent,
    ResponseReceived,
    StepFailed,
    ToolCallRecord,
    ToolFinished,
)
from analytics_agent.conversation import Usage
from analytics_agent.present.safe_text import escape_control
from analytics_agent.suggest import MAX_LISTED

MAX_ARGUMENTS_CHARS = 160


def format_event(
    event: Event, *, model: str = "", streamed: bool = False, show_sql: bool = False
) -> str | None:
    """The trace lines for one event, or None for events the trace does not show. ``streamed``: the
    reply's text was already shown as it arrived, so the trace does not repeat it. ``show_sql``: each
    tool call's SQL and bound values follow its line.

    Whatever came from the endpoint (text, tool names, arguments, errors quoting them) is shown with
    terminal controls escaped."""
    text = _format(event, model=model, streamed=streamed, show_sql=show_sql)
    return escape_control(text) if text is not None else None


def _format(event: Event, *, model: str, streamed: bool, show_sql: bool) -> str | None:
    if isinstance(event, RequestSent):
        plural = "s" if event.messages != 1 else ""
        return f"[step {event.step}] asking {model or 'the model'} ({event.messages} message{plural})"
    if isinstance(event, ResponseReceived):
        return _response(event, streamed=streamed)
    if isinstance(event, ToolFinished):
        text = format_tool(event.record)
        return (
            text + "\n" + format_sql(event.record.sql, event.record.params)
            if show_sql and event.record.sql
            else text
        )
    if isinstance(event, StepFailed):
        return f"[step {event.step}] {event.reason}"
    if isinstance(event, Finished):
        r = event.result
        return (
            f"[done] {r.steps} step{'s' if r.steps != 1 else ''}, {len(r.tool_calls)} tool "
            f"call{'s' if len(r.tool_calls) != 1 else ''}, {_tokens(r.usage, replies=r.steps)} ({r.stop})"
        )
    return None


NO_TOOL_CAVEAT = "[unverified] no tool was called: this answer does not come from your data"


def answer_caveat(result: AgentResult) -> str | None:
    """The caveat that travels with an answer (stdout, --json, transcript): numbers no tool returned, or
    numbers with no tool called at all; None for a grounded answer, for one that states no number of its
    own (a refusal: "the data has no weather column") and for our own stop sentences."""
    if result.stop != "answer":
        return None
    if not result.tool_calls and not result.from_tools:
        return NO_TOOL_CAVEAT if result.unverified_numbers else None
    return format_unverified(result.unverified_numbers)


def format_unverified(numbers: list[str]) -> str | None:
    """The line under an answer naming the numbers no tool result explains; None when there are none."""
    if not numbers:
        return None
    shown = "; ".join(numbers[:MAX_LISTED])  # a reply can hold any number of numbers: the line stays short
    more = f"; … and {len(numbers) - MAX_LISTED:,} more" if len(numbers) > MAX_LISTED else ""
    return f"[unverified] no tool returned these numbers: {shown}{more}"


def _response(event: ResponseReceived, *, streamed: bool) -> str:
    count = len(event.tool_calls)
    what = f"{count} tool call{'s' if count != 1 else ''}" if count else "answer"
    if event.stop not in ("answer", "tool_use"):
        what += f", stop: {event.stop}"
    line = f"[step {event.step}] reply in {event.duration_ms / 1000:.2f} s: {what} ({_tokens(event.usage)})"
    if event.tool_calls and event.text.strip() and not streamed:  # what it said alongside its calls
        line += f"\n    says: {_clip(' '.join(event.text.split()))}"
    return line + (f"\n    notice: {event.notice}" if event.notice else "")


def _tokens(usage: Usage, *, replies: int = 1) -> str:
    """``120 in / 8 out tokens``; a server that sent no counts is said so, not shown as 0 tokens."""
    counted = f"{usage.input_tokens:,} in / {usage.output_tokens:,} out tokens"
    if not usage.unreported:
        return counted
    if usage.unreported >= replies:
        return "usage not reported by the server"
    return f"{counted}, usage not reported for {usage.unreported} of {replies} replies"


def format_tool(record: ToolCallRecord) -> str:
    """``  name {args} -> 3 rows, ~41 tokens (2 ms)`` plus the error or the repair on the next lines; the
    token count is the offline estimate (an over-count), so it says "~"."""
    head = f"  {escape_control(_clip(record.name), newlines=False)} {_short(record.arguments)} -> "
    timing = f" ({record.duration_ms:.0f} ms)" if not record.skipped else ""
    if record.is_error:
        why = {
            "repeated": "not run: already failed",
            "cut_off": "not run: cut off",
            "over_cap": "not run: too many calls",
        }.get(record.skipped, "error")
        lines = [head + why + timing]
        if not record.skipped:
            lines += ["      " + line for line in record.error.removeprefix("Error: ").splitlines()]
    else:
        rows = f"{record.rows} row{'s' if record.rows != 1 else ''}"
        cut = ", truncated" if record.truncated else ""
        lines = [f"{head}{rows}, ~{record.tokens:,} tokens{cut}{timing}"]
    if record.repaired_from is not None and not record.is_error:  # a failed call repaired nothing
        change = describe_repair(record.repaired_from, record.arguments)
        if change:
            lines.append(f"      repaired: {change}")
    return "\n".join(lines)


def format_sql(sql: str, params: Any, *, indent: str = "      ") -> str:
    """The SQL as run, then one comment line with the values bound to its parameters."""
    lines = [indent + line.rstrip() for line in sql.strip().splitlines() if line.strip()]
    if isinstance(params, dict) and params:
        bound = ", ".join(f"${k} = {json.dumps(v, ensure_ascii=False)}" for k, v in params.items())
        lines.append(f"{indent}-- parameters: {bound}")
    elif isinstance(params, list) and params:
        bound = ", ".join(f"?{i} = {json.dumps(v, ensure_ascii=False)}" for i, v in enumerate(params, 1))
        lines.append(f"{indent}-- parameters: {bound}")
    return "\n".join(lines)


def describe_repair(before: str, after: str) -> str:
    """``day "24 Oct 2026" -> "2026-10-24"`` for each argument that changed."""
    old, new = _parsed(before), _parsed(after)
    if old is None or new is None:
        return f"{_short(before)} -> {_short(after)}"
    changes = []
    for key in list(dict.fromkeys([*old, *new])):
        if old.get(key, _MISSING) != new.get(key, _MISSING):
            changes.append(f"{key} {_value(old, key)} -> {_value(new, key)}")
    return "; ".join(changes)


_MISSING = object()


def _value(data: dict[str, Any], key: str) -> str:
    return json.dumps(data[key], ensure_ascii=False) if key in data else "(absent)"


def _parsed(text: str) -> dict[str, Any] | None:
    try:
        value = bounded_json.loads(text) if text.strip() else {}
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _short(arguments: str) -> str:
    """The arguments on one bounded line: parsed ones re-serialised, malformed ones escaped (a reply's
    raw newlines and controls would otherwise break the trace into lines that look like our own)."""
    parsed = _parsed(arguments)
    if parsed is not None:
        return _clip(escape_control(json.dumps(parsed, ensure_ascii=False), newlines=False))
    return _clip(escape_control(arguments, newlines=False))


def _clip(text: str) -> str:
    return text if len(text) <= MAX_ARGUMENTS_CHARS else text[: MAX_ARGUMENTS_CHARS - 3] + "..."
