"""The offline demo: a scripted model drives the real provider, loop and tools on the sample data.

Step 1 asks for ``sales_summary`` with a date the tool refuses and ``get_order`` in parallel; step 2
reads the validation error and retries with an ISO date; step 3 writes its answer from the numbers the
tools returned (read back from the request), so the demo proves the numbers came from the tools.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from analytics_agent.providers.scripted import (
    ScriptedCall,
    ScriptedModel,
    Step,
    expect_tool_result,
    expect_tools,
    expect_user_text,
    last_tool_result,
)

DEMO_QUESTION = "How did Pune do on 24 Oct 2026, and what happened to order A-1042?"
DEMO_MODEL = "scripted-demo"
DEMO_BASE_URL = "http://scripted-model.invalid/v1"
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


DEMO_TOOLS = ("sales_summary", "get_order")


def missing_demo_tools(tool_names: list[str], db_path: object) -> str | None:
    """Why the demo cannot run on this database (its sample tables are gone), or None."""
    if all(name in tool_names for name in DEMO_TOOLS):
        return None
    return (
        f"the demo needs the sample tables (orders, order_items, products) and {db_path} does not have "
        f"them any more; delete {db_path} and run analytics-agent demo again to have it recreated"
    )


def demo_script() -> ScriptedModel:
    """The three-step script (call ids are ``call_<request>_<index>``)."""
    return ScriptedModel(
        [
            Step(
                text="Let me look up Pune's day and the order.",
                tool_calls=[
                    ScriptedCall("sales_summary", {"city": "Pune", "day": "24 Oct 2026"}),
                    ScriptedCall("get_order", {"order_id": "A-1042"}),
                ],
                checks=[expect_user_text("Pune", "A-1042"), expect_tools("sales_summary", "get_order")],
            ),
            Step(
                text="The day must be YYYY-MM-DD; retrying.",
                tool_calls=[ScriptedCall("sales_summary", {"city": "Pune", "day": "2026-10-24"})],
                checks=[
                    expect_tool_result("call_1_0", "day", error=True),
                    expect_tool_result("call_1_1", "A-1042", error=False),
                ],
            ),
            Step(text=demo_answer, checks=[expect_tool_result("call_2_0", "orders", error=False)]),
        ],
        model=DEMO_MODEL,
    )


def demo_answer(body: dict[str, Any]) -> str:
    """The final answer, written only from the tool results in the request."""
    sales = last_tool_result(body, "sales_summary")
    order = last_tool_result(body, "get_order")
    cancelled = int(sales.get("by_status", {}).get("cancelled", 0))
    return (
        f"{sales['city']} had {sales['orders']} orders on {_spoken_date(sales['day'])} "
        f"(₹{sales['revenue']:,} revenue; {cancelled} cancelled). "
        f"Order {order['order_id']} was {order['status']} on {order['day']}."
    )


def _spoken_date(iso: str) -> str:
    day = dt.date.fromisoformat(iso)
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"  # not strftime: month names follow the locale
