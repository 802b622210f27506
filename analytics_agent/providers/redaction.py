"""What a reply may carry back to the user: no echoed secret, no absurd number of tool calls. Pure.

An endpoint can echo what it was sent (a gateway repeating the API key, a model told to recite its
headers). Every reply passes ``checked_reply`` before the loop sees it, and streamed text passes a
``StreamRedactor``, so an echoed secret reaches neither the terminal, ``--json``, nor the transcript.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from analytics_agent.conversation import ModelResponse, ToolCall
from analytics_agent.errors import ProviderResponseError
from analytics_agent.providers.base import TextSink
from analytics_agent.providers.limits import MAX_TOOL_CALLS_PER_REPLY

MASK = "***"
MIN_SECRET_CHARS = 8
"""Shorter "keys" (``none``, ``ollama`` for a local server) are placeholders; masking them would shred
ordinary words in answers."""


def reply_secrets(secrets: Iterable[str]) -> tuple[str, ...]:
    """The secrets worth masking in reply text, longest first (so no shorter one splits a longer one)."""
    return tuple(sorted({s for s in secrets if s and len(s) >= MIN_SECRET_CHARS}, key=len, reverse=True))


def mask(text: str, secrets: tuple[str, ...]) -> str:
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, MASK)
    return text


def checked_reply(response: ModelResponse, *, secrets: Iterable[str], where: str) -> ModelResponse:
    """``response`` with every secret masked in what is shown or recorded.

    Raises:
        ProviderResponseError: more tool calls than ``MAX_TOOL_CALLS_PER_REPLY`` in one reply.
    """
    calls = response.turn.tool_calls
    if len(calls) > MAX_TOOL_CALLS_PER_REPLY:
        raise ProviderResponseError(
            f"{where} sent {len(calls):,} tool calls in one reply (at most {MAX_TOOL_CALLS_PER_REPLY} are "
            "accepted), so it was dropped"
        )
    hidden = reply_secrets(secrets)
    if not hidden:
        return response
    turn = response.turn
    masked_calls = tuple(
        ToolCall(call.id, mask(call.name, hidden), mask(call.arguments, hidden)) for call in calls
    )
    turn = replace(turn, text=mask(turn.text, hidden), tool_calls=masked_calls)
    return replace(response, turn=turn, notice=mask(response.notice, hidden))


class StreamRedactor:
    """Passes streamed text on with secrets masked, even a secret split across pieces.

    Only a tail that could be the start of a secret is held back, until more text (or ``flush``)
    settles it, so ordinary text streams through at once.
    """

    def __init__(self, secrets: Iterable[str], sink: TextSink) -> None:
        self._secrets = reply_secrets(secrets)
        self._sink = sink
        self._held = ""

    def feed(self, piece: str) -> None:
        if not self._secrets:
            self._sink(piece)
            return
        text = mask(self._held + piece, self._secrets)
        cut = len(text) - _secret_start(text, self._secrets)
        self._held = text[cut:]
        if cut > 0:
            self._sink(text[:cut])

    def flush(self) -> None:
        """At the end of a reply: pass on what was held back."""
        if self._held:
            self._sink(self._held)
            self._held = ""


def _secret_start(text: str, secrets: tuple[str, ...]) -> int:
    """The length of the longest end of ``text`` that begins some secret (0 when none does)."""
    longest = 0
    for secret in secrets:
        for size in range(min(len(text), len(secret) - 1), longest, -1):
            if text.endswith(secret[:size]):
                longest = size
                break
    return longest
