"""The Python API: the fourth front door, for notebooks and scripts.

    import analytics_agent as aa
    ws = aa.open("flights.duckdb")
    ws.load("flights.csv", table="flights")
    r = ws.call("aggregate", {"table": "flights", "group_by": ["carrier"]})
    a = ws.ask("Which carrier was most often late?", model="qwen3:8b", base_url="http://localhost:11434/v1")

It opens the same workspace as the command line and the MCP server (``workspace/``) and raises the
same errors (``analytics_agent.errors``). ``connect(url)`` uses a team server's tools instead, signed in.
"""

from analytics_agent.api.remote import TeamServer, connect
from analytics_agent.api.results import Answer, Loaded, Result
from analytics_agent.api.workspace import Workspace, open

__all__ = ["Answer", "Loaded", "Result", "TeamServer", "Workspace", "connect", "open"]
