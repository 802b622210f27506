"""Streamed text on stdout: lines end before each trace line, and a streamed answer is not printed twice."""

from __future__ import annotations

from analytics_agent.agent.events import RequestSent, ResponseReceived
from analytics_agent.conversation import ToolCall, Usage
from analytics_agent.present.stream import StreamEcho


def reply(step: int, text: str, calls: tuple[ToolCall, ...] = ()) -> ResponseReceived:
    return ResponseReceived(step, "tool_use" if calls else "answer", text, calls, Usage(), 1.0)


def test_a_streamed_answer_is_shown_once_and_intermediate_text_gets_its_own_line() -> None:
    out: list[str] = []
    echo = StreamEcho(out.append)
    echo.on_event(RequestSent(1, 1))
    echo.on_text("Checking")
    echo.on_event(reply(1, "Checking", (ToolCall("a", "t", "{}"),)))
    echo.on_event(RequestSent(2, 3))
    for piece in ("Pune had ", "3 orders."):
        echo.on_text(piece)
    echo.on_event(reply(2, "Pune had 3 orders."))
    assert echo.finish("Pune had 3 orders.") is True
    assert "".join(out) == "Checking\nPune had 3 orders.\n"


def test_an_answer_that_was_not_streamed_must_still_be_printed() -> None:
    echo = StreamEcho(lambda text: None)
    echo.on_event(RequestSent(1, 1))
    assert echo.finish("I stopped after 8 steps.") is False
