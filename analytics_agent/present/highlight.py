"""Colour for the terminal: whether to use it, and the answer with its numbers stood out. Pure."""

from __future__ import annotations

import re
from collections.abc import Mapping

BOLD, CYAN, RESET = "\x1b[1m", "\x1b[36m", "\x1b[0m"
_NUMBER = re.compile(r"(?<![\w.\-])[-+₹$€£]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:%|[kKMBT]|bn)?(?!\w)")


def color_enabled(*, is_tty: bool, env: Mapping[str, str]) -> bool:
    """Colour only on a terminal, never with NO_COLOR set to anything (no-color.org) or TERM=dumb."""
    if env.get("NO_COLOR"):
        return False
    return is_tty and env.get("TERM", "") != "dumb"


def highlight_answer(text: str, *, color: bool) -> str:
    """The answer in bold with its numbers in cyan; unchanged without colour."""
    if not color:
        return text
    lit = _NUMBER.sub(lambda m: f"{CYAN}{m.group()}{RESET}{BOLD}", text)
    return "\n".join(f"{BOLD}{line}{RESET}" if line else line for line in lit.split("\n"))
