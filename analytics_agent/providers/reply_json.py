"""Replies from a model endpoint made safe to hold: bounded nesting, no lone surrogates, odd shapes caught.

JSON allows what Python code downstream cannot take: nesting a thousand levels deep (``json.loads``
and every recursive walk after it raise ``RecursionError``) and escapes like ``"\\udc80"`` that decode
to a lone surrogate, which no UTF-8 file or terminal accepts. ``load_reply_json`` and ``clean_reply``
check a parsed reply once, without recursion, at the provider's edge: too deep is a one-line
``ProviderResponseError``; lone surrogates become U+FFFD. ``reading_reply`` turns the type errors a
reply of an unexpected shape causes in the parsers into the same one-line error.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from analytics_agent.errors import ProviderResponseError

log = logging.getLogger(__name__)

MAX_DEPTH = 64
"""Real replies nest under 10 levels (tool arguments included); a model's own JSON rarely past 20."""
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def too_deep(where: str) -> ProviderResponseError:
    return ProviderResponseError(
        f"{where} sent a reply nested more than {MAX_DEPTH} levels deep, so it was dropped"
    )


def load_reply_json(text: str | bytes, *, where: str = "the server") -> Any:
    """``json.loads`` for a reply, then ``clean_reply``.

    Raises:
        ValueError: the text is not JSON (callers decide what that means).
        ProviderResponseError: nested too deeply.
    """
    try:
        value = json.loads(text)
    except RecursionError:
        raise too_deep(where) from None
    return clean_reply(value, where=where)


def clean_reply(value: Any, *, where: str = "the server") -> Any:
    """``value`` with lone surrogates replaced, checked to nest at most ``MAX_DEPTH`` levels.

    Lists and dicts are fixed in place (they are fresh from the parser); an iterative walk, so the
    check itself cannot overflow the stack.
    """
    if isinstance(value, str):
        return _text(value)
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            _clean_keys(node)
            items: Iterator[tuple[Any, Any]] = iter(list(node.items()))
        elif isinstance(node, list):
            items = enumerate(list(node))
        else:
            continue
        if depth > MAX_DEPTH:
            raise too_deep(where)
        for key, item in items:
            if isinstance(item, str):
                if _LONE_SURROGATE.search(item):
                    node[key] = _text(item)
            elif isinstance(item, dict | list):
                stack.append((item, depth + 1))
    return value


def _clean_keys(node: dict[Any, Any]) -> None:
    bad = [key for key in node if isinstance(key, str) and _LONE_SURROGATE.search(key)]
    for key in bad:
        node[_text(key)] = node.pop(key)


def _text(value: str) -> str:
    return _LONE_SURROGATE.sub("\ufffd", value)


@contextmanager
def reading_reply(where: str) -> Iterator[None]:
    """Turn the errors a reply of an unexpected shape raises while it is parsed into one line.

    Only for code that reads a reply: a value of the wrong type anywhere (a list where text belongs,
    a string where an object belongs) must end as "the server sent a reply we cannot read", never as
    an internal error. The exception goes to the -v log in one line, its traceback to the debug log.
    """
    try:
        yield
    except RecursionError:
        raise too_deep(where) from None
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
        log.info("unreadable reply from %s: %s: %s", where, type(exc).__name__, exc)
        log.debug("where the reply from %s could not be read", where, exc_info=True)  # not at -v
        raise ProviderResponseError(
            f"{where} sent a reply of an unexpected shape ({type(exc).__name__}), so it was dropped"
        ) from None
