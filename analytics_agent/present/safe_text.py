"""Text from outside (CSV headers and values, tool files, a model endpoint) made safe for a terminal. Pure.

A terminal obeys control characters: ESC starts sequences that retitle the window, clear the screen or
hide a link (OSC 8), and C1 codes (U+0080-U+009F) do the same in one character on some terminals. Every
control character except newline and tab is shown as its ``\\u00XX`` escape instead, which is also a valid
escape inside a JSON string, so JSON output stays JSON.
"""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escape_control(text: str) -> str:
    """``text`` with every C0/C1 control character (ESC, CSI, OSC, BEL, DEL, CR...) but ``\\n`` and ``\\t``
    written as ``\\u00XX``."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
