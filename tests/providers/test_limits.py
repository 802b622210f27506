"""The pure parts of the reply limits: line splitting with an event bound, the deadline, redaction of
streamed text, and the reply-JSON checks."""

from __future__ import annotations

import json

import pytest

from analytics_agent.conversation import AssistantTurn, ModelResponse, ToolCall
from analytics_agent.errors import ProviderResponseError, ProviderTimeoutError
from analytics_agent.providers.limits import (
    MAX_TOOL_CALLS_PER_REPLY,
    Deadline,
    bounded_chunks,
    bounded_lines,
    read_prefix,
)
from analytics_agent.providers.redaction import StreamRedactor, checked_reply
from analytics_agent.providers.reply_json import MAX_DEPTH, clean_reply, load_reply_json, reading_reply

SECRET = "sk-live-ABCDEFGHIJKLMNOP"


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def lines(chunks: list[bytes], limit: int = 1000) -> list[str]:
    return list(bounded_lines(chunks, max_event_bytes=limit, deadline=Deadline(60, where="s")))


def test_lines_split_at_lf_crlf_and_cr_across_chunk_boundaries_only() -> None:
    assert lines([b"data: a\r", b"\ndata: b\n\nx\ry\r\r"]) == ["data: a", "data: b", "", "x", "y", ""]
    assert lines(['data: "\u2028"\n'.encode()]) == ['data: "\u2028"']  # not a line break in SSE
    assert lines([b"data: \xe2\x82", b"\xac\n"]) == ["data: €"]  # a character split between chunks


def test_an_event_is_bounded_whether_one_long_line_or_many_short_ones() -> None:
    with pytest.raises(ProviderResponseError, match="a stream event larger than"):
        lines([b"data: " + b"x" * 600, b"x" * 600])
    with pytest.raises(ProviderResponseError, match="a stream event larger than"):
        lines([b"data: xxxxxxxxxxxxxxxxx\n" * 100])
    assert len(lines([b"data: xxxxxxxxxxxxxxxxx\n\n" * 100])) == 200  # blank lines end events


def test_the_deadline_stops_a_stream_between_chunks_and_names_itself() -> None:
    clock = Clock()
    deadline = Deadline(5, where="server", clock=clock)

    def trickle():
        while True:
            clock.now += 1
            yield b"."

    with pytest.raises(ProviderTimeoutError, match="within the 5 s deadline"):
        list(bounded_chunks(trickle(), limit=10**9, deadline=deadline))
    assert clock.now == 5


def test_a_transport_error_after_the_deadline_is_the_deadline_not_a_retryable_drop() -> None:
    clock = Clock()
    deadline = Deadline(1, where="server", clock=clock)

    def cut():
        yield b"a"
        clock.now = 2
        raise ConnectionResetError("socket shut down at the deadline")

    with pytest.raises(ProviderTimeoutError):
        list(bounded_chunks(cut(), limit=100, deadline=deadline))


def test_clamped_timeouts_and_sleeps_never_pass_the_deadline() -> None:
    clock = Clock()
    deadline = Deadline(10, where="s", clock=clock)
    clock.now = 7
    assert deadline.clamp(120) == 3 and deadline.clamp(None) == 3 and deadline.clamp(1) == 1
    slept: list[float] = []
    deadline.sleeper(slept.append)(60)
    assert slept == [3]


def test_an_error_body_is_read_only_up_to_its_prefix() -> None:
    endless = iter(lambda: b"x" * 1000, None)
    assert len(read_prefix(endless, limit=2500)) == 2500


@pytest.mark.parametrize("size", [1, 3, 7, 100])
def test_a_secret_split_across_streamed_pieces_never_shows(size: int) -> None:
    text = f"key={SECRET}; and {SECRET[:5]} is no key"
    shown: list[str] = []
    redactor = StreamRedactor([SECRET], shown.append)
    for i in range(0, len(text), size):
        redactor.feed(text[i : i + size])
    redactor.flush()
    assert "".join(shown) == f"key=***; and {SECRET[:5]} is no key"


def test_ordinary_text_streams_through_at_once() -> None:
    shown: list[str] = []
    redactor = StreamRedactor([SECRET], shown.append)
    redactor.feed("Pune had 3 orders.")
    assert shown == ["Pune had 3 orders."]
    redactor.feed(" Delhi: s")  # "s" may begin the key: only that is held back
    assert shown[-1] == " Delhi: "


def test_a_reply_with_too_many_calls_is_refused_and_secrets_are_masked() -> None:
    calls = tuple(ToolCall(f"c{i}", "t", "{}") for i in range(MAX_TOOL_CALLS_PER_REPLY + 1))
    with pytest.raises(ProviderResponseError, match="129 tool calls"):
        checked_reply(ModelResponse(AssistantTurn(tool_calls=calls)), secrets=(), where="s")
    echo = ModelResponse(
        AssistantTurn(text=f"got {SECRET}", tool_calls=(ToolCall("c", "t", f'{{"k": "{SECRET}"}}'),))
    )
    masked = checked_reply(echo, secrets=[SECRET, "tiny"], where="s")
    assert masked.turn.text == "got ***" and masked.turn.tool_calls[0].arguments == '{"k": "***"}'


def test_reply_json_fixes_lone_surrogates_in_values_and_keys_and_refuses_depth() -> None:
    value = load_reply_json('{"a\\udc80": ["x\\ud800y", {"b": "\\ud83d\\ude00"}]}')
    assert value == {"a\ufffd": ["x\ufffdy", {"b": "😀"}]}  # a real pair stays one character
    json.dumps(value, ensure_ascii=False).encode("utf-8")
    assert clean_reply(json.loads("[" * MAX_DEPTH + "]" * MAX_DEPTH)) is not None
    with pytest.raises(ProviderResponseError, match="nested more than"):
        clean_reply(json.loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)))
    with pytest.raises(ProviderResponseError, match="nested more than"):
        load_reply_json("[" * 100_000 + "]" * 100_000)


def test_reading_a_reply_of_the_wrong_shape_is_one_provider_error() -> None:
    with (
        pytest.raises(ProviderResponseError, match="unexpected shape \\(AttributeError\\)"),
        reading_reply("s"),
    ):
        "text".get("x")  # type: ignore[attr-defined]


def test_a_streamed_reply_with_thousands_of_calls_is_refused_by_the_provider() -> None:
    import httpx

    from analytics_agent.conversation import Conversation, UserTurn
    from analytics_agent.providers.openai.provider import OpenAIProvider

    def fragment(i: int) -> bytes:
        call = {"index": i, "id": f"c{i}", "type": "function", "function": {"name": "t", "arguments": "{}"}}
        return (
            b"data: "
            + json.dumps({"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}).encode()
            + b"\n\n"
        )

    body = (
        b"".join(fragment(i) for i in range(5000))
        + b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\n'
    )
    transport = httpx.MockTransport(
        lambda r: httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)
    )

    class NoTools:
        def __len__(self) -> int:
            return 0

        def openai_tools(self, *, strict: bool = False) -> list:
            return []

    provider = OpenAIProvider(
        base_url="http://x/v1", model="m", stream=True, client=httpx.Client(transport=transport)
    )
    with pytest.raises(ProviderResponseError, match="more than 128 tool calls in one reply"):
        provider.complete(Conversation(messages=[UserTurn("q")]), NoTools())
