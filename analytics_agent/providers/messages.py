"""A server's own words about a failure, on one short line: the message of its JSON error, or a snippet of
its body (HTML reduced to its visible text). Pure."""

from __future__ import annotations

import re
from typing import Any

from analytics_agent.providers.refusals import brief_validation

SNIPPET_CHARS = 200
MESSAGE_CHARS = 400


def server_message(payload: Any, text: str) -> str:
    """The server's own words, on one line of at most ``MESSAGE_CHARS``: ``error.message``, a top-level
    ``message``/``detail``, or a text snippet. (A validation error can list every field of a union.)"""
    if isinstance(payload, dict):
        inner = payload.get("error")
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return _brief(inner["message"])
        if isinstance(inner, str) and inner:
            return _brief(inner)
        for key in ("message", "detail"):
            if isinstance(payload.get(key), str) and payload[key]:
                return _brief(payload[key])
    return snippet(text)


def _brief(message: str) -> str:
    return snippet(brief_validation(message), limit=MESSAGE_CHARS)


def snippet(text: str, *, limit: int = SNIPPET_CHARS) -> str:
    """A short one-line excerpt of a body; HTML is reduced to its visible text."""
    if "<" in text and re.search(r"<(html|head|body|title|h1|!doctype)", text, re.IGNORECASE):
        text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.IGNORECASE | re.DOTALL)
        text = re.sub(r"<[^>]+>", " ", text)
    text = " ".join(text.split())
    if not text:
        return "(empty body)"
    return text if len(text) <= limit else text[: limit - 1] + "…"
