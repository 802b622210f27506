"""``--model offline``: a deterministic stand-in model, so ``eval`` shows a real report with no server.

Like the demo's script it is the *server* side of the OpenAI wire format (``providers.scripted``), so
the real provider, loop, tools, number check and scoring run. Unlike the demo it is stateless and knows
nothing of the question file (never its ``sql`` or ``calls``): each reply depends only on the request.

From the question alone it recognises three things: an order id (``get_order``), a city named in
``sales_summary``'s enum with one day (``sales_summary``), and "which city ... most/least ... revenue"
with a month (``aggregate``). Once the results are in, it answers with their numbers. Anything else gets
an answer with no tool call, which says it cannot answer: eval marks it not grounded, as ``ask`` does.
So its score is what such a keyword matcher earns, a floor to compare real models against.
"""

from __future__ import annotations

import calendar
import datetime as dt
import difflib
import json
import re
from typing import Any

import httpx

from analytics_agent.providers.scripted import ScriptedCall, ScriptedModel, Step, tool_messages

OFFLINE_MODEL = "offline"
OFFLINE_BASE_URL = "http://offline-model.invalid/v1"
CANNOT = (
    "The offline stand-in cannot answer this: it only looks up one order, one city on one day, or the city "
    "with the most or least revenue in a month. Ask a real model for the rest."
)

_ORDER = re.compile(r"\b([A-Za-z]-\d{3,})\b")
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DAY_MONTH_YEAR = re.compile(r"\b(\d{1,2}) ([A-Za-z]{3,}) (\d{4})\b")
_MONTH_YEAR = re.compile(r"\b([A-Za-z]{3,}) (\d{4})\b")
_TODAY = re.compile(r"Today is \w+ (\d{4}-\d{2}-\d{2})")
_MONTHS = {name.lower()[:3]: i for i, name in enumerate(calendar.month_name) if name}


def offline_client() -> httpx.Client:
    """An httpx client whose every request is answered by the stand-in (nothing leaves the process)."""

    def handle(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.read() or b"{}")
        status, headers, content = ScriptedModel([offline_step(body)], model=OFFLINE_MODEL).respond(
            request.method, request.url.path, dict(request.headers), request.read()
        )
        return httpx.Response(status, headers=headers, content=content)

    return httpx.Client(transport=httpx.MockTransport(handle))


def offline_step(body: dict[str, Any]) -> Step:
    """The reply to one request: a tool call for a question it recognises, then an answer from results."""
    results = tool_messages(body)
    if results:
        _, name, content = results[-1]
        return Step(text=answer_from(name, content))
    call = _call_for(_question(body), body)
    return Step(tool_calls=[call]) if call is not None else Step(text=CANNOT)


def _question(body: dict[str, Any]) -> str:
    users = [m for m in body.get("messages", []) if m.get("role") == "user"]
    return str(users[-1].get("content", "")) if users else ""


def _call_for(question: str, body: dict[str, Any]) -> ScriptedCall | None:
    tools = {t.get("function", {}).get("name"): t.get("function", {}) for t in body.get("tools") or []}
    order = _ORDER.search(question)
    if order and "get_order" in tools:
        return ScriptedCall("get_order", {"order_id": order[1].upper()})
    city = _city(question, tools.get("sales_summary"))
    day = _day(question, _today(body))
    if city and day and "sales_summary" in tools:
        return ScriptedCall("sales_summary", {"city": city, "day": day.isoformat()})
    month = _month(question)
    lowered = question.lower()
    wants_city = "which city" in lowered and "revenue" in lowered
    order_by = (
        "-revenue" if re.search(r"\b(most|highest|top)\b", lowered)
        else "revenue" if re.search(r"\b(least|lowest)\b", lowered)
        else None
    )  # fmt: skip
    if wants_city and month and order_by and '"revenue"' in json.dumps(tools.get("aggregate", {})):
        first, last = month
        arguments = {
            "table": "orders", "group_by": ["city"], "metrics": [{"metric": "revenue"}],
            "period": f"{first.isoformat()}..{last.isoformat()}", "order_by": order_by, "limit": 1,
        }  # fmt: skip
        return ScriptedCall("aggregate", arguments)
    return None


def _city(question: str, tool: dict[str, Any] | None) -> str | None:
    """A city of ``sales_summary``'s enum named in the question, a misspelling included (dehli)."""
    enum = ((tool or {}).get("parameters", {}).get("properties", {}).get("city", {}) or {}).get("enum") or []
    by_lower = {str(c).lower(): str(c) for c in enum}
    for word in re.findall(r"[A-Za-z]+", question):
        match = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.8)
        if match:
            return by_lower[match[0]]
    return None


def _today(body: dict[str, Any]) -> dt.date | None:
    for message in body.get("messages", []):
        if message.get("role") == "system":
            found = _TODAY.search(str(message.get("content", "")))
            if found:
                return dt.date.fromisoformat(found[1])
    return None


def _day(question: str, today: dt.date | None) -> dt.date | None:
    lowered = question.lower()
    try:
        if iso := _ISO.search(question):
            return dt.date(int(iso[1]), int(iso[2]), int(iso[3]))
        if (spoken := _DAY_MONTH_YEAR.search(question)) and spoken[2].lower()[:3] in _MONTHS:
            return dt.date(int(spoken[3]), _MONTHS[spoken[2].lower()[:3]], int(spoken[1]))
    except ValueError:
        return None
    if today is not None and "yesterday" in lowered:
        return today - dt.timedelta(days=1)
    if today is not None and re.search(r"\btoday\b", lowered):
        return today
    return None


def _month(question: str) -> tuple[dt.date, dt.date] | None:
    for word, year in _MONTH_YEAR.findall(question):
        month = _MONTHS.get(word.lower()[:3])
        if month is not None:
            first = dt.date(int(year), month, 1)
            return first, first.replace(day=calendar.monthrange(first.year, month)[1])
    return None


def answer_from(name: str, content: str) -> str:
    """The answer, written only from the tool's result."""
    if content.startswith("Error"):
        return "The tools could not answer that: " + content.removeprefix("Error: ").splitlines()[0]
    value = json.loads(content)
    if name == "sales_summary":
        cancelled = int(value.get("by_status", {}).get("cancelled", 0))
        return (
            f"{value['city']} had {value['orders']} orders and ₹{value['revenue']:,} revenue on "
            f"{value['day']}; {cancelled} were cancelled."
        )
    if name == "get_order":
        return (
            f"Order {value['order_id']} ({value['city']}) was {value['status']} on {value['day']}; "
            f"it came to ₹{value['amount']:,}."
        )
    rows, columns = value.get("rows") or [], value.get("columns") or []
    if not rows:
        return "The tool found no rows for that."
    first = dict(zip(columns, rows[0], strict=False))
    shown = ", ".join(f"{c} {v:,}" if isinstance(v, int | float) else f"{c} {v}" for c, v in first.items())
    return f"From {name}: {shown}."
