"""A plain-string test run before a case-blind regular expression of words (``(?i)saldo|balance…``): it
says only "cannot match", never "matches", so the regex still decides every text that passes. Python
compiles a regex on its first use, 0.3-0.9 ms of CPU for each big alternation, which every small file's
load paid to learn that its last row held no ``Closing balance`` or its first no ``Saldo anterior``. Pure.
"""

from __future__ import annotations


def lowered(text: str) -> str | None:
    """``text`` in lower case when a test of plain lower-case ASCII words may stand in for the regex's
    ``(?i)``: an ASCII text. None for any other, which the regex must read itself: under ``(?i)`` ``ſ``
    matches ``s``, the Kelvin sign ``k``, ``ı`` and ``İ`` ``i``, and a letter past ASCII has its own
    case pairs."""
    return text.lower() if text.isascii() else None


def may_start(text: str, starts: tuple[str, ...]) -> bool:
    """False only when ``text``, leading white space aside (``^\\s*``), starts with none of ``starts``
    (lower-case ASCII), in any case."""
    low = lowered(text.lstrip())
    return low is None or low.startswith(starts)


def may_hold(text: str, words: tuple[str, ...]) -> bool:
    """False only when ``text`` holds none of ``words`` (lower-case ASCII), in any case."""
    low = lowered(text)
    return low is None or any(word in low for word in words)
