"""JSON from outside (a model's tool-call arguments, a run file to compare with) read with bounded nesting.

``json.loads`` raises ``RecursionError`` past about 1,000 levels, and so does every recursive walk of a
value that parsed (``json.dumps``, pydantic, a sort): 100,000-deep tool arguments ended ``chat`` and left
``ask --json`` printing nothing. ``loads`` parses once and checks the depth without recursion; too deep
is ``JsonTooDeep``, a ``ValueError``, so every caller that already handles text that is not JSON handles
it too. Pure.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 64
"""Real tool arguments nest under 10 levels; a run file under 10."""


class JsonTooDeep(ValueError):
    def __init__(self, max_depth: int) -> None:
        super().__init__(f"it nests more than {max_depth} levels deep")


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads(text)``, refused when it nests deeper than ``max_depth``.

    Raises:
        JsonTooDeep: nested too deeply (a ValueError).
        ValueError: not JSON.
    """
    try:
        value = json.loads(text)
    except RecursionError:
        raise JsonTooDeep(max_depth) from None
    if too_deep(value, max_depth):
        raise JsonTooDeep(max_depth)
    return value


def too_deep(value: Any, max_depth: int = MAX_DEPTH) -> bool:
    """Whether lists and dicts in ``value`` nest more than ``max_depth`` levels (an iterative walk)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > max_depth:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False
