"""A tool whose query runs until something stops it (the time limit, Ctrl-C, ``close``): shared by the
executor's and the agent's interrupt tests."""

from __future__ import annotations

from typing import Any

from analytics_agent.tools.args.models import ToolArguments
from analytics_agent.tools.base import Tool, ToolValue


class CountsForever(Tool):
    name = "slow"
    description = "Runs a query that takes long: it counts to 10^11."
    arguments = ToolArguments

    def run(self, cursor: Any, args: Any) -> ToolValue:
        cursor.execute("SELECT count(*) FROM range(100000000000) a")
        return ToolValue({"n": cursor.fetchone()[0]})
