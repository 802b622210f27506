"""What one question may cost the loop, whatever the model and the endpoint send. Pure, but for ``run_calls``.

* At most ``MAX_CALLS_PER_TURN`` tool calls of one reply are run; the others are answered with an error
  the model can act on (send fewer calls at once).
* An error a tool call gets back is bounded like a result (``MAX_ERROR_TOKENS``): an argument of 50 MB
  is not echoed back to the model, the terminal or the transcript.
* The input-token budget counts ``sent_tokens``, our own floor on what each request carried, whenever
  the endpoint reports less (or nothing): fake usage cannot keep a question running.
* Ctrl-C while calls run cancels the ones not started yet instead of waiting for the queue.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from analytics_agent.conversation import AssistantTurn, Conversation, ToolCall, ToolResults, UserTurn
from analytics_agent.tools.results.shaping import MAX_TOKENS, estimate_tokens

MAX_CALLS_PER_TURN = 16
MAX_PARALLEL_CALLS = 8
MAX_ERROR_TOKENS = MAX_TOKENS
INTERRUPT_POLL_S = 0.1
"""How often a wait for a tool call's result (or ``eval``'s for an answer) wakes: a Ctrl-C that lands just
before the wait blocks would otherwise be handled only when the call ends (CPython runs its handler at
the next bytecode, and a lock wait already blocked is not woken by it; on Windows a lock wait is never
woken at all)."""
BYTES_PER_TOKEN_CEILING = 6
"""No o200k-like tokenizer averages more than this many UTF-8 bytes per token over a whole request
(English ≈ 4.5, JSON ≈ 3, other scripts fewer), so bytes / 6 never counts more than an honest server."""


def over_cap_error(count: int) -> str:
    return (
        f"Error: this reply asked for {count} tool calls; only the first {MAX_CALLS_PER_TURN} were run and "
        "this one was not. Ask for fewer calls at once (combine them, or use aggregate with group_by)."
    )


def bounded_error(text: str, *, max_tokens: int = MAX_ERROR_TOKENS) -> str:
    """An error text cut to ``max_tokens`` (by the result estimate), saying how long it was."""
    tokens = estimate_tokens(text)
    if tokens <= max_tokens:
        return text
    keep = len(text)
    note = ""
    while tokens > max_tokens and keep > 0:
        keep = min(keep - 1, int(keep * max_tokens / tokens * 0.9))
        note = f"… (error cut: {len(text):,} characters in all)"
        tokens = estimate_tokens(text[:keep] + note)
    return text[: max(keep, 0)] + note


def sent_tokens(conversation: Conversation, tools_bytes: int) -> int:
    """A floor on the input tokens of one request: everything it carries, in UTF-8 bytes, / 6."""
    size = len(conversation.system.encode("utf-8", "surrogatepass")) + tools_bytes
    for message in conversation.messages:
        for text in _texts(message):
            size += len(text.encode("utf-8", "surrogatepass"))
    return math.ceil(size / BYTES_PER_TOKEN_CEILING)


def _texts(message: Any) -> list[str]:
    if isinstance(message, UserTurn):
        return [message.text]
    if isinstance(message, AssistantTurn):
        return [message.text, *(t for c in message.tool_calls for t in (c.id, c.name, c.arguments))]
    if isinstance(message, ToolResults):
        return [r.content for r in message.results]
    return []


def tools_size(payload: Any) -> int:
    """The UTF-8 size of the tool definitions sent with every request."""
    return len(json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def run_calls(
    execute: Callable[[str, str], Any],
    calls: Sequence[ToolCall],
    indexes: Sequence[int],
    *,
    on_interrupt: Callable[[int, int, Callable[[], bool]], None],
) -> dict[int, Any]:
    """Run ``calls[i]`` for each index concurrently; outcomes by index.

    On Ctrl-C the calls that have not started are cancelled and ``on_interrupt(cancelled, running,
    settled)`` is told, with ``settled()`` true once every call that had started has ended, so it can
    stop them; then the interrupt goes on.
    """
    if not indexes:
        return {}
    pool = ThreadPoolExecutor(max_workers=min(len(indexes), MAX_PARALLEL_CALLS), thread_name_prefix="tool")
    futures: dict[int, Future[Any]] = {}
    try:
        for i in indexes:
            futures[i] = pool.submit(execute, calls[i].name, calls[i].arguments)
        return {i: _result(future) for i, future in futures.items()}
    except KeyboardInterrupt:
        cancelled = sum(future.cancel() for future in futures.values())
        started = [future for future in futures.values() if not future.done()]
        on_interrupt(cancelled, len(started), lambda: all(future.done() for future in started))
        raise
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _result(future: Future[Any]) -> Any:
    while True:
        try:
            return future.result(timeout=INTERRUPT_POLL_S)
        except TimeoutError:  # concurrent.futures.TimeoutError is this one since Python 3.11
            if future.done():  # the call's own TimeoutError, not the wait's
                raise
