"""Stand-in models for eval tests: stateless OpenAI-compatible responders on a loopback server.

Stateless on purpose: eval asks questions concurrently and repeatedly, so a reply depends only on the
request (which question, which model, whether tool results are in it), never on the order of requests.
Each reply is rendered by ``ScriptedModel`` (one step), so the wire format is the one the provider tests use.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from loopback import LoopbackServer

from analytics_agent.evaluation.cases import Case
from analytics_agent.providers.scripted import ScriptedCall, ScriptedModel, Step, tool_messages

Behaviour = Callable[[dict[str, Any]], Step]
"""Given a request body, the step to answer it with."""


def question_of(body: dict[str, Any]) -> str:
    users = [m for m in body.get("messages", []) if m.get("role") == "user"]
    return str(users[0].get("content", "")) if users else ""


def has_results(body: dict[str, Any]) -> bool:
    return bool(tool_messages(body))


def calls_then(calls: list[ScriptedCall], answer: str | Callable[[dict[str, Any]], str]) -> Behaviour:
    """First request: the calls; once their results are in: the answer."""
    return lambda body: Step(text=answer) if has_results(body) else Step(tool_calls=calls)


def just_answer(answer: str) -> Behaviour:
    return lambda body: Step(text=answer)


class EvalModel:
    """Routes each request by (model name, question) to a behaviour; counts requests in flight."""

    def __init__(self, behaviours: dict[tuple[str, str], Behaviour], *, delay_s: float = 0.0) -> None:
        self.behaviours = behaviours
        self.delay_s = delay_s
        self.in_flight = 0
        self.most_in_flight = 0
        self.requests = 0
        self._lock = threading.Lock()
        self.server = LoopbackServer(self._answer)
        self.url = self.server.url + "/v1"

    def _answer(
        self, path: str, headers: dict[str, str], content: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        body = json.loads(content)
        with self._lock:
            self.requests += 1
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            time.sleep(self.delay_s)
            behaviour = self.behaviours[(body.get("model", ""), question_of(body))]
            return ScriptedModel([behaviour(body)], model=body.get("model", "")).respond(
                "POST", path, headers, content
            )
        finally:
            with self._lock:
                self.in_flight -= 1

    def close(self) -> None:
        self.server.close()


# --- the reference model: right answers to the bundled cases, from the tools -------------------------

_FORMATS: list[Callable[[int], str]] = [
    lambda v: f"{v:,}",
    lambda v: f"₹{v:,}",
    lambda v: f"{v}",
    lambda v: f"Rs. {v:,}",
]


def reference_answer(case: Case, expected: list[Any], body: dict[str, Any]) -> str:
    """A right answer in varied human formats: each expected value written out, nothing invented."""
    if case.no_answer:
        return "The data has no such figure, so I cannot answer that."
    parts = []
    for i, value in enumerate(expected):
        if isinstance(value, bool) or not isinstance(value, int | float):
            parts.append(str(value))
        elif isinstance(value, int):
            parts.append(_FORMATS[(len(case.id) + i) % len(_FORMATS)](value))
        else:
            parts.append(f"{value}%" if i % 2 else f"{value}")
    return "From the tools: " + "; ".join(parts) + "."


def reference_behaviour(case: Case, expected: list[Any]) -> Behaviour:
    calls = [ScriptedCall(c.tool, c.arguments) for c in case.calls]
    return calls_then(calls, lambda body: reference_answer(case, expected, body))
