"""Text from outside sources made safe for a terminal. Pure: a string in, a string out.

A model endpoint, a CSV header or a tool file can carry bytes a terminal obeys instead of showing:
ESC starts CSI/OSC sequences (clear the screen, retitle the window, hide an OSC 8 hyperlink), C1
controls (U+0080-U+009F) act as ESC-sequences on some terminals, a carriage return or backspace
overwrites what was printed, and bidirectional overrides reorder what the reader sees. Each such
character is shown as a visible escape (``\\x1b``, ``\\u202e``) instead, so nothing is lost and
nothing acts. A lone surrogate (valid in JSON as ``"\\udc80"``, unprintable in UTF-8) is escaped too.
"""

from __future__ import annotations

import re
from functools import cache

# C0 controls except tab and newline, DEL, C1 controls, lone surrogates, and the bidirectional
# embedding/override/isolate controls (the "Trojan Source" set). Compiled on first use: each of these
# character sets costs about 0.5 ms to compile, and most commands print through only one of them.
_UNSAFE = r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]"
_UNSAFE_LINE = r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]"
_NAMED = {"\r": "\\r", "\n": "\\n", "\t": "\\t"}


_JSON_UNSAFE = r"[\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]"


@cache
def _pattern(source: str) -> re.Pattern[str]:
    return re.compile(source)


def escape_json_text(text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with what JSON leaves raw escaped as ``\\uXXXX``.

    JSON already escapes C0 controls; DEL, C1 controls, lone surrogates and bidi overrides only occur
    inside strings, where ``\\u009b`` means the same character: the document stays equal, and safe to print.
    """
    pattern = _pattern(_JSON_UNSAFE)
    if pattern.search(text) is None:
        return text
    return pattern.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def escape_control(text: str, *, newlines: bool = True) -> str:
    """``text`` with every character a terminal would act on written as a visible escape.

    Args:
        text: any text from outside (an answer, a tool name, a CSV header or value).
        newlines: keep ``\\n`` and ``\\t`` as they are (answers, multi-line errors); with False they
            are escaped too, for values that must stay on one line (names, table cells).

    Returns:
        The same text when it holds nothing unsafe.
    """
    if text.isascii() and (text.replace("\n", "").replace("\t", "") if newlines else text).isprintable():
        return text  # plain ASCII, the usual case: no pattern compiled (0.5 ms of a load's CPU)
    pattern = _pattern(_UNSAFE if newlines else _UNSAFE_LINE)
    if pattern.search(text) is None:
        return text
    if newlines:
        text = text.replace("\r\n", "\n")  # a Windows line end is a line end, not an overwrite
    return pattern.sub(_visible, text)
