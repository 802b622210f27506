"""A scripted Bedrock endpoint for tests: JSON for Converse, real event-stream frames for ConverseStream.

``FakeBedrock.handle`` is transport-free (method, path, body → status, headers, bytes), so the same script
serves a botocore ``before-send`` hook (``attach``) and a loopback HTTP server (``serve``). Every request
body is checked against ``bedrock_rules``; violations fail the test.
"""

from __future__ import annotations

import base64
import binascii
import json
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from bedrock_rules import check_request
from loopback import LoopbackServer

FAKE_ENV = {
    "AWS_ACCESS_KEY_ID": "AKIAFAKEFAKEFAKE1234",
    "AWS_SECRET_ACCESS_KEY": "fake/secret+KEY/do-not-print-0123456789",
    "AWS_SESSION_TOKEN": "FAKE-session-token-never-shown-abcdef",
    "AWS_REGION": "us-east-1",
}
SECRETS = (FAKE_ENV["AWS_SECRET_ACCESS_KEY"], FAKE_ENV["AWS_SESSION_TOKEN"], FAKE_ENV["AWS_ACCESS_KEY_ID"])


# --------------------------------------------------------------------------- event-stream frames


def encode_frame(headers: dict[str, str], payload: bytes) -> bytes:
    """One AWS event-stream message: prelude + CRC, string headers, payload, message CRC."""
    head = b"".join(
        struct.pack("!B", len(k)) + k.encode() + struct.pack("!BH", 7, len(v.encode())) + v.encode()
        for k, v in headers.items()
    )
    total = 12 + len(head) + len(payload) + 4
    prelude = struct.pack("!II", total, len(head))
    prelude += struct.pack("!I", binascii.crc32(prelude))
    body = prelude + head + payload
    return body + struct.pack("!I", binascii.crc32(body))


def event_frame(event_type: str, payload: dict[str, Any]) -> bytes:
    headers = {":event-type": event_type, ":content-type": "application/json", ":message-type": "event"}
    return encode_frame(headers, _json_bytes(payload))


def exception_frame(code: str, message: str) -> bytes:
    headers = {":exception-type": code, ":content-type": "application/json", ":message-type": "exception"}
    return encode_frame(headers, _json_bytes({"message": message}))


def reply_events(reply: dict[str, Any], *, piece: int = 7) -> Iterator[tuple[str, dict[str, Any]]]:
    """The ConverseStream events a real endpoint would send for a Converse reply (text has no start)."""
    yield "messageStart", {"role": "assistant"}
    for index, block in enumerate(reply["output"]["message"]["content"]):
        if "toolUse" in block:
            use = block["toolUse"]
            start = {"toolUseId": use["toolUseId"], "name": use["name"]}
            yield "contentBlockStart", {"start": {"toolUse": start}, "contentBlockIndex": index}
            for part in _pieces(json.dumps(use["input"]), piece):
                yield "contentBlockDelta", {"delta": {"toolUse": {"input": part}}, "contentBlockIndex": index}
        elif "text" in block:
            for part in _pieces(block["text"], piece):
                yield "contentBlockDelta", {"delta": {"text": part}, "contentBlockIndex": index}
        elif "reasoningContent" in block:
            reasoning = block["reasoningContent"]["reasoningText"]
            for part in _pieces(reasoning["text"], piece):
                delta = {"reasoningContent": {"text": part}}
                yield "contentBlockDelta", {"delta": delta, "contentBlockIndex": index}
            if "signature" in reasoning:
                delta = {"reasoningContent": {"signature": reasoning["signature"]}}
                yield "contentBlockDelta", {"delta": delta, "contentBlockIndex": index}
        yield "contentBlockStop", {"contentBlockIndex": index}
    yield "messageStop", {"stopReason": reply["stopReason"]}
    yield "metadata", {"usage": reply["usage"], "metrics": {"latencyMs": 5}}


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _json_bytes(value: Any) -> bytes:
    def default(obj: Any) -> Any:
        if isinstance(obj, bytes):
            return base64.b64encode(obj).decode()
        raise TypeError(type(obj).__name__)

    return json.dumps(value, default=default).encode()


# --------------------------------------------------------------------------- replies


def reply(
    *blocks: dict[str, Any], stop: str = "end_turn", usage: tuple[int, int] = (100, 20)
) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": list(blocks)}},
        "stopReason": stop,
        "usage": {"inputTokens": usage[0], "outputTokens": usage[1], "totalTokens": sum(usage)},
        "metrics": {"latencyMs": 5},
    }


def text(value: str) -> dict[str, Any]:
    return {"text": value}


def tool_use(call_id: str, name: str, **arguments: Any) -> dict[str, Any]:
    return {"toolUse": {"toolUseId": call_id, "name": name, "input": arguments}}


def reasoning(value: str, signature: str | None = None) -> dict[str, Any]:
    block: dict[str, Any] = {"text": value}
    if signature:
        block["signature"] = signature
    return {"reasoningContent": {"reasoningText": block}}


@dataclass(frozen=True)
class Failure:
    """An error answer: HTTP-level (status + x-amzn-ErrorType) or, with ``in_stream``, an exception frame."""

    status: int
    code: str
    message: str
    in_stream: bool = False


# --------------------------------------------------------------------------- the endpoint


class FakeBedrock:
    def __init__(self, script: list[dict[str, Any] | Failure]) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []

    @property
    def attempts(self) -> int:
        return len(self.paths)

    def handle(self, path: str, body: bytes) -> tuple[int, dict[str, str], bytes]:
        self.paths.append(unquote(path))
        request = json.loads(body)
        check_request(request)
        self.requests.append(request)
        assert self.script, f"unexpected request #{len(self.paths)} to {path}: the script is used up"
        step = self.script.pop(0)
        streaming = path.endswith("/converse-stream")
        if isinstance(step, Failure) and not step.in_stream:
            headers = {"content-type": "application/json", "x-amzn-ErrorType": f"{step.code}:http://internal"}
            return step.status, headers, _json_bytes({"message": step.message})
        if not streaming:
            assert not isinstance(step, Failure), "an in-stream failure scripted for a Converse call"
            return 200, {"content-type": "application/json"}, _json_bytes(step)
        if isinstance(step, Failure):
            frames = event_frame("messageStart", {"role": "assistant"})
            frames += event_frame("contentBlockDelta", {"delta": {"text": "Let me"}, "contentBlockIndex": 0})
            frames += exception_frame(step.code, step.message)
        else:
            frames = b"".join(event_frame(kind, payload) for kind, payload in reply_events(step))
        return 200, {"content-type": "application/vnd.amazon.eventstream"}, frames

    def attach(self, client: Any) -> None:
        """Answer every request of this botocore client from the script, through botocore's real parsers."""
        from botocore.awsrequest import AWSResponse

        def before_send(request: Any, **_: Any) -> Any:
            path = request.url.split(".amazonaws.com", 1)[-1]
            status, headers, raw = self.handle(path, request.body)
            return AWSResponse(request.url, status, headers, _Raw(raw))

        client.meta.events.register("before-send.bedrock-runtime.*", before_send)

    def serve(self) -> LoopbackServer:
        """A loopback HTTP server answering from the script (close it when done)."""
        return LoopbackServer(lambda path, headers, body: self.handle(path, body))


class _Raw:
    """What ``AWSResponse`` reads its body from: ``stream()`` for event streams, ``read()`` otherwise."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    def stream(self, amt: int = 1024, **_: Any) -> Iterator[bytes]:
        for i in range(0, len(self._data), amt):
            yield self._data[i : i + amt]

    def read(self, *_: Any) -> bytes:
        data, self._data = self._data, b""
        return data

    def close(self) -> None:
        self._data = b""


def make_client(monkeypatch: Any, *, endpoint_url: str | None = None) -> Any:
    """A real bedrock-runtime client with fake credentials from the environment, region us-east-1."""
    import boto3

    for key, value in FAKE_ENV.items():
        monkeypatch.setenv(key, value)
    return boto3.client("bedrock-runtime", region_name="us-east-1", endpoint_url=endpoint_url)
