"""The command line's words in the Python API's: a note or an error written for the terminal names flags
(``add --replace``, ``--null 'NA'``, ``(--max-steps)``); from ``ws.load()`` or ``ws.ask()`` the same text names
the keyword arguments those calls take (``replace=True``, ``null=['NA']``, ``max_steps=``).

The messages are written once, in ``db``, ``config`` and ``agent``, where the command line prints them;
rewriting them here keeps those layers free of who is calling. Pure: text in, text out.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable
from typing import Literal, ParamSpec, TypeVar

from analytics_agent.errors import AnalyticsAgentError

P = ParamSpec("P")
R = TypeVar("R")
Kind = Literal["on", "off", "text", "number", "list", "pairs"]

FLAGS: dict[str, tuple[str, Kind]] = {
    # switches: the flag alone sets the keyword
    "replace": ("replace", "on"),
    "append": ("append", "on"),
    "skip-bad-rows": ("skip_bad_rows", "on"),
    "pad-short-rows": ("pad_short_rows", "on"),
    "allow-empty": ("allow_empty", "on"),
    "header": ("header", "on"),
    "no-header": ("header", "off"),
    "allow-sql": ("allow_sql", "on"),
    "no-sources": ("sources", "off"),
    # options with a value
    "null": ("null", "list"),
    "type": ("types", "pairs"),
    "date-format": ("date_format", "text"),
    "delimiter": ("delimiter", "text"),
    "quote": ("quote", "text"),
    "escape": ("escape", "text"),
    "comment": ("comment", "text"),
    "encoding": ("encoding", "text"),
    "thousands": ("thousands", "text"),
    "decimal": ("decimal", "text"),
    "newline": ("newline", "text"),
    "table": ("table", "text"),
    "timezone": ("timezone", "text"),
    "tool-mode": ("tool_mode", "text"),
    "today": ("today", "text"),
    "model": ("model", "text"),
    "provider": ("provider", "text"),
    "region": ("region", "text"),
    "profile": ("profile", "text"),
    "tools-dir": ("tools_dir", "text"),
    "skip": ("skip", "number"),
    "max-line-size": ("max_line_size", "number"),
    "max-steps": ("max_steps", "number"),
    "max-tokens": ("max_tokens", "number"),
    "max-tokens-budget": ("max_tokens_budget", "number"),
    "read-timeout": ("read_timeout", "number"),
    "max-retries": ("max_retries", "number"),
}

_QUOTED = r"'[^']*'|\"[^\"]*\""
# A value after a flag: quoted, COLUMN=SOMETHING, a number, a placeholder (N, ZONE, FORMAT) or, for a
# word such as `latin-1` or `Asia/Kolkata`, anything but the English words a sentence continues with.
_VALUE = rf"(?:{_QUOTED}|[\w{{}}.…-]+=\S+?(?=[,;)]?(?:\s|$))|\d[\d_.,]*\d|\d|[\w./+-]+)"
_FLAG = re.compile(
    rf"--(?P<flag>{'|'.join(sorted(map(re.escape, FLAGS), key=len, reverse=True))})(?![\w-])"
    rf"(?: (?P<value>{_VALUE}))?"
)
_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "as",
        "at",
        "but",
        "by",
        "for",
        "from",
        "given",
        "if",
        "in",
        "is",
        "it",
        "its",
        "must",
        "not",
        "of",
        "on",
        "only",
        "or",
        "out",
        "takes",
        "the",
        "then",
        "to",
        "too",
        "was",
        "when",
        "where",
        "which",
        "with",
        "does",
        "reads",
        "needs",
        "would",
        "contradict",
    ]
)


def python_words(text: str) -> str:
    """``text`` with each command-line flag written as the keyword argument the API takes."""
    out: list[str] = []
    end = prev_stop = 0
    matches = list(_FLAG.finditer(text))
    i = 0
    while i < len(matches):
        match = matches[i]
        name, kind = FLAGS[match["flag"]]
        value = _value(match["value"], kind)
        stop = match.end() if value is not None else match.end("flag")
        if kind == "list" and value is not None:
            values = [value]
            while i + 1 < len(matches) and _joins(text, stop, matches[i + 1]):
                following = _value(matches[i + 1]["value"], "list")
                if following is None:
                    break
                i += 1
                values.append(following)
                stop = matches[i].end()
            rendered = f"{name}=[{', '.join(values)}]"
        else:
            rendered = _render(name, kind, value)
        between = text[end : match.start()]
        if out and between == " " and end == prev_stop:  # --decimal ',' --thousands '.': two arguments
            between = ", "
        out.append(between + rendered)
        prev_stop = stop
        end = stop
        i += 1
    out.append(text[end:])
    return "".join(out)


def _joins(text: str, stop: int, following: re.Match[str]) -> bool:
    """The next ``--null`` follows this one directly (``--null 'a' --null 'b'``): one list."""
    return following["flag"] == "null" and text[stop : following.start()] == " "


def _value(raw: str | None, kind: Kind) -> str | None:
    """The value as Python source, or None when the word after the flag belongs to the sentence."""
    if raw is None or kind in ("on", "off") or raw.lower() in _WORDS:
        return None
    if raw[0] in "'\"":
        return repr(raw[1:-1])
    if kind == "number":
        return raw if re.fullmatch(r"[\d_.]+|[A-Z]", raw) else None
    if kind == "pairs":
        column, _, type_name = raw.partition("=")
        return f"{{{column!r}: {type_name!r}}}" if type_name else None
    if raw.isupper() and kind != "list":
        return raw  # a placeholder the reader fills in: timezone=ZONE
    return repr(raw)


def _render(name: str, kind: Kind, value: str | None) -> str:
    if kind == "on":
        return f"{name}=True"
    if kind == "off":
        return f"{name}=False"
    if kind == "list" and value is not None:
        return f"{name}=[{value}]"
    return f"{name}={value}" if value is not None else f"{name}="


def speaks_python(method: Callable[P, R]) -> Callable[P, R]:
    """A public API call whose user errors are raised from the call itself: the same class, the message in
    the API's words, the internal error chained as ``__cause__`` (without its frames: they are the
    library's, not the caller's), so a traceback ends in the caller's line and one short message. In
    IPython and Jupyter the error shows as that one line."""

    @functools.wraps(method)
    def api_call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except AnalyticsAgentError as exc:
            if getattr(exc, "_surfaced", False):  # an API call inside another: raised once, as it is
                raise
            raise surfaced(exc) from exc.with_traceback(None)

    return api_call


def surfaced(exc: AnalyticsAgentError) -> AnalyticsAgentError:
    """A copy of ``exc`` (class and attributes kept) whose message is in the API's words."""
    fresh = copy.copy(exc)
    fresh.args = (python_words(str(exc)),)
    fresh._surfaced = True  # type: ignore[attr-defined]
    line = f"{type(fresh).__name__}: {fresh}"
    fresh._render_traceback_ = lambda: [line]  # type: ignore[attr-defined]  # IPython's hook
    return fresh
