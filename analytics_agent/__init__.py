"""analytics-agent: ask business questions in plain language; a model answers with real numbers from DuckDB.

From Python (a notebook, a script): ``import analytics_agent as aa; ws = aa.open()``. The API is imported
on first use of ``aa.open`` (module ``__getattr__``), so the command line's start-up never pays for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:  # type checkers see the API; at run time it loads on first attribute access
    from analytics_agent.api import Answer as Answer
    from analytics_agent.api import Loaded as Loaded
    from analytics_agent.api import Result as Result
    from analytics_agent.api import TeamServer as TeamServer
    from analytics_agent.api import Workspace as Workspace
    from analytics_agent.api import connect as connect
    from analytics_agent.api import open as open

_API = ("Answer", "Loaded", "Result", "TeamServer", "Workspace", "connect", "open")
__all__ = ["__version__", *_API]


def __getattr__(name: str) -> Any:
    if name in _API:
        from analytics_agent import api

        return getattr(api, name)
    raise AttributeError(f"module 'analytics_agent' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])
