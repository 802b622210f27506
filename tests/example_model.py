"""A stand-in OpenAI-compatible model for the docs' examples and the Python API tests, on a loopback server.

Stateless: each reply depends only on the request. A question about Pune calls ``sales_summary`` for
2026-10-24; a question about carriers or flights calls ``aggregate`` on ``flights``; any other question
calls ``list_tables``. Once the results are in, it answers from them, writing only numbers a tool returned.
A request without ``tools`` (``--tool-mode text``) gets the text protocol: ``<tool_call>`` blocks out,
``<tool_result>`` blocks back.
"""

from __future__ import annotations

import json
import re
from typing import Any

from eval_models import Behaviour, question_of
from loopback import LoopbackServer

from analytics_agent.providers.scripted import ScriptedCall, ScriptedModel, Step, tool_messages

PUNE_ANSWER = "Pune had {orders} orders and ₹{revenue:,} revenue on 24 Oct 2026."


def _calls(question: str) -> list[ScriptedCall]:
    lowered = question.lower()
    if "pune" in lowered:
        return [ScriptedCall("sales_summary", {"city": "Pune", "day": "2026-10-24"})]
    if "carrier" in lowered or "flight" in lowered:
        arguments = {"table": "flights", "group_by": ["carrier"], "order_by": "-count", "limit": 3}
        return [ScriptedCall("aggregate", arguments)]
    return [ScriptedCall("list_tables", {})]


TEXT_RESULT = re.compile(r'<tool_result name="([^"]+)"[^>]*>\s*(.*?)\s*</tool_result>', re.S)


def _answer(name: str, content: str) -> str:
    if content.startswith("Error"):
        return "The tools could not answer that."
    value = json.loads(content)
    if name == "sales_summary":
        return PUNE_ANSWER.format(**value)
    if name == "aggregate":
        top = value["rows"][0]
        return f"{top[0]} had the most flights: {top[1]:,}."
    names = ", ".join(row[0] for row in value["rows"])
    return f"The database holds {names}."


def _reply(body: dict[str, Any]) -> Step:
    if "tools" not in body:  # the text protocol
        last = str(body["messages"][-1].get("content", ""))
        if found := TEXT_RESULT.findall(last):
            return Step(text=_answer(*found[-1]))
        call = _calls(question_of(body))[0]
        block = json.dumps({"name": call.name, "arguments": call.arguments})
        return Step(text=f"<tool_call>\n{block}\n</tool_call>")
    if results := tool_messages(body):
        _, name, content = results[-1]
        return Step(text=_answer(name, content))
    return Step(tool_calls=_calls(question_of(body)))


class ExampleModel:
    """The stand-in on 127.0.0.1; ``url`` is its ``/v1`` base URL. ``named``: behaviours by (model,
    question) that answer before the rules above (docs/eval.md's example report)."""

    def __init__(self, named: dict[tuple[str, str], Behaviour] | None = None) -> None:
        self.named = named or {}
        self.requests = 0
        self.server = LoopbackServer(self._answer)
        self.url = self.server.url + "/v1"

    def _answer(
        self, path: str, headers: dict[str, str], content: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        self.requests += 1
        body = json.loads(content)
        named = self.named.get((body.get("model", ""), question_of(body)))
        return ScriptedModel([named(body) if named else _reply(body)], model=body.get("model", "")).respond(
            "POST", path, headers, content
        )

    def close(self) -> None:
        self.server.close()

    def __enter__(self) -> ExampleModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
