"""Every dict inside a JSON value, depth first: how schema tests visit every node (test helper)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def json_dicts(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from json_dicts(value)
    elif isinstance(node, list):
        for item in node:
            yield from json_dicts(item)
