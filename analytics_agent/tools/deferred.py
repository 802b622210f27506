"""A tool built on first use: ``aggregate`` and ``describe_table`` need the semantic model and the
planner, which a command that runs one curated tool (``tools call sales_summary``) never touches.

The registry holds the proxy under the tool's name and description; the first read of anything else
builds the real tool once (under a lock: parallel calls may race to it) and every later read goes to it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from analytics_agent.tools.base import Tool


class DeferredTool(Tool):
    def __init__(self, name: str, description: str, build: Callable[[], Tool]) -> None:
        self.name = name
        self.description = description
        self._build: Callable[[], Tool] | None = build
        self._tool: Tool | None = None
        self._lock = threading.Lock()

    @property
    def built(self) -> bool:
        return self._tool is not None

    def resolve(self) -> Tool:
        if self._tool is None:
            with self._lock:
                if self._tool is None:
                    assert self._build is not None
                    tool = self._build()
                    if (tool.name, tool.description) != (self.name, self.description):
                        # a wiring mistake, not the user's: what was listed must be what runs
                        raise RuntimeError(f"deferred tool {self.name!r} built a different tool")
                    self._tool, self._build = tool, None
        return self._tool

    def __getattribute__(self, attr: str) -> Any:
        # Tool's class attributes (description, arguments, returns, run) would shadow the built tool's
        # through normal lookup, so everything but the proxy's own state goes to the real tool.
        if attr in _OWN:
            return object.__getattribute__(self, attr)
        return getattr(object.__getattribute__(self, "resolve")(), attr)


_OWN = frozenset(
    {"name", "description", "built", "resolve", "_build", "_tool", "_lock", "__class__", "__dict__"}
)
