"""A loopback OpenAI-compatible server whose "model" is a person or another session writing files.

Each ``POST /v1/chat/completions`` is written to ``<dir>/pending/NNNN.request.json`` with a short
``NNNN.digest.txt``; the server then waits for ``NNNN.reply.json``, holding either
``{"content": "..."}`` or ``{"tool_calls": [{"name": ..., "arguments": {...}}]}``, and answers with it
(as one JSON body, or as SSE chunks when the request asked ``stream: true``). Answered files move to
``<dir>/done/``. A measurement tool (tests/bench), not part of the product.

    python -m tests.bench.relay.server --dir /tmp/relay --port 8765
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

MODEL = "relay"
WAIT_SECONDS = 15 * 60
POLL_SECONDS = 0.5


class Relay:
    """Numbering, files and waiting; one request is answered at a time (the driver asks one question)."""

    def __init__(self, root: Path, wait_seconds: float = WAIT_SECONDS) -> None:
        self.pending = root / "pending"
        self.done = root / "done"
        self.pending.mkdir(parents=True, exist_ok=True)
        self.done.mkdir(parents=True, exist_ok=True)
        self.wait_seconds = wait_seconds
        self._lock = threading.Lock()
        existing = [int(p.name[:4]) for p in self.done.glob("*.request.json") if p.name[:4].isdigit()]
        self._numbers = itertools.count(max(existing, default=0) + 1)
        self._first_of_question: str | None = None

    def next_number(self) -> str:
        with self._lock:
            return f"{next(self._numbers):04d}"

    def ask(self, body: dict[str, Any]) -> dict[str, Any]:
        """Write the request and its digest, wait for the reply file, return it as an assistant message."""
        number = self.next_number()
        (self.pending / f"{number}.request.json").write_text(json.dumps(body, indent=2, ensure_ascii=False))
        if _is_first_request(body):
            self._first_of_question = number
        digest = render_digest(number, body, self._first_of_question)
        (self.pending / f"{number}.digest.txt").write_text(digest)
        reply_path = self.pending / f"{number}.reply.json"
        print(f"[relay] {number} waiting for {reply_path}", file=sys.stderr, flush=True)
        deadline = time.monotonic() + self.wait_seconds
        while time.monotonic() < deadline:
            if reply_path.exists():
                try:
                    reply = parse_reply(reply_path.read_text())
                except ValueError as exc:
                    if time.time() - reply_path.stat().st_mtime < 2:
                        time.sleep(POLL_SECONDS)  # maybe still being written: read it again shortly
                        continue
                    bad = self.pending / f"{number}.reply.bad.json"
                    reply_path.replace(bad)
                    (self.pending / f"{number}.reply.error.txt").write_text(
                        f"{exc}\nYour reply was moved to {bad.name}; write a corrected {reply_path.name}.\n"
                    )
                    print(f"[relay] {number} bad reply: {exc}", file=sys.stderr, flush=True)
                    continue
                for path in self.pending.glob(f"{number}.*"):
                    path.replace(self.done / path.name)
                print(f"[relay] {number} answered", file=sys.stderr, flush=True)
                return reply
            time.sleep(POLL_SECONDS)
        raise TimeoutError(f"no {reply_path.name} within {self.wait_seconds:.0f} s")


def parse_reply(text: str) -> dict[str, Any]:
    """The reply file as an assistant message; ValueError says what is wrong with it."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"reply is not JSON: {exc}") from exc
    if not isinstance(data, dict) or not ({"content", "tool_calls"} & data.keys()):
        raise ValueError(
            'reply must be {"content": "..."} or {"tool_calls": [{"name": ..., "arguments": {...}}]}'
        )
    message: dict[str, Any] = {"role": "assistant", "content": None}
    if data.get("content") is not None:
        if not isinstance(data["content"], str):
            raise ValueError('"content" must be a string')
        message["content"] = data["content"]
    calls = data.get("tool_calls") or []
    if not isinstance(calls, list):
        raise ValueError('"tool_calls" must be a list')
    wire_calls = []
    for call in calls:
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            raise ValueError('each tool call needs "name" (a string) and "arguments" (an object)')
        arguments = call.get("arguments", {})
        if not isinstance(arguments, dict):
            raise ValueError(f'"arguments" of {call["name"]} must be a JSON object')
        wire_calls.append(
            {
                "id": f"call_{uuid.uuid4().hex[:12]}",
                "type": "function",
                "function": {"name": call["name"], "arguments": json.dumps(arguments, ensure_ascii=False)},
            }
        )
    if wire_calls:
        message["tool_calls"] = wire_calls
    elif message["content"] is None:
        raise ValueError("reply has neither content nor tool calls")
    return message


def _is_first_request(body: dict[str, Any]) -> bool:
    return not any(m.get("role") in ("assistant", "tool") for m in body.get("messages", []))


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return "" if content is None else json.dumps(content)


def render_digest(number: str, body: dict[str, Any], first: str | None) -> str:
    """What the model-helper reads: system prompt and tools once per question, then only what is new."""
    messages = body.get("messages", [])
    lines = [f"# request {number}  (model {body.get('model')!r}, {len(messages)} messages)"]
    if _is_first_request(body):
        lines.append("\n## NEW QUESTION. System prompt:")
        lines += [_text(m.get("content")) for m in messages if m.get("role") == "system"]
        lines.append("\n## Tools (name: description; parameters as JSON Schema):")
        for tool in body.get("tools", []):
            fn = tool.get("function", tool)
            lines.append(f"\n### {fn.get('name')}\n{fn.get('description', '')}")
            lines.append("parameters: " + json.dumps(fn.get("parameters", {}), ensure_ascii=False))
        if not body.get("tools"):
            lines.append("(no tools in this request)")
        new = [m for m in messages if m.get("role") != "system"]
    else:
        lines.append(f"\n(System prompt and tools as in {first}.digest.txt.)")
        last_assistant = max(i for i, m in enumerate(messages) if m.get("role") == "assistant")
        new = messages[last_assistant:]
    lines.append("\n## Messages since your last reply:" if not _is_first_request(body) else "\n## Messages:")
    for m in new:
        role = m.get("role")
        if role == "assistant":
            calls = [
                f"{c['function']['name']}({c['function']['arguments']})" for c in m.get("tool_calls") or []
            ]
            text = _text(m.get("content"))
            lines.append(f"\n[you] {text}" + ("".join(f"\n  call {c}" for c in calls)))
        elif role == "tool":
            lines.append(f"\n[tool result {m.get('tool_call_id', '')}]\n{_text(m.get('content'))}")
        else:
            lines.append(f"\n[{role}]\n{_text(m.get('content'))}")
    lines.append(
        f"\n## Reply: write pending/{number}.reply.json as"
        ' {"content": "final answer"} or {"tool_calls": [{"name": "...", "arguments": {...}}]}\n'
    )
    return "\n".join(lines)


def completion(message: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    prompt_tokens = len(json.dumps(body)) // 4
    completion_tokens = len(json.dumps(message)) // 4
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:16]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def sse_chunks(full: dict[str, Any]) -> list[dict[str, Any]]:
    """The same reply as chat.completion.chunk objects: role+content, tool calls, finish, usage."""
    message = full["choices"][0]["message"]
    base = {"id": full["id"], "object": "chat.completion.chunk", "created": full["created"], "model": MODEL}
    delta: dict[str, Any] = {"role": "assistant"}
    if message.get("content"):
        delta["content"] = message["content"]
    if message.get("tool_calls"):
        delta["tool_calls"] = [{"index": i, **call} for i, call in enumerate(message["tool_calls"])]
    finish = full["choices"][0]["finish_reason"]
    return [
        {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
        {**base, "choices": [], "usage": full["usage"]},
    ]


def make_handler(relay: Relay) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            print(f"[relay] {self.address_string()} {format % args}", file=sys.stderr, flush=True)

        def _json(self, status: int, data: dict[str, Any]) -> None:
            raw = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._json(
                    200, {"object": "list", "data": [{"id": MODEL, "object": "model", "owned_by": "relay"}]}
                )
            else:
                self._json(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._json(404, {"error": {"message": f"no route {self.path}"}})
                return
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            try:
                message = relay.ask(body)
            except TimeoutError as exc:
                self._json(504, {"error": {"message": str(exc), "type": "timeout"}})
                return
            full = completion(message, body)
            if not body.get("stream"):
                self._json(200, full)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            for chunk in sse_chunks(full):
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
            self.close_connection = True

    return Handler


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, required=True, help="working folder (pending/, done/)")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--wait", type=float, default=WAIT_SECONDS, help="seconds to wait for a reply")
    args = parser.parse_args(argv)
    relay = Relay(args.dir, args.wait)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(relay))
    print(
        f"[relay] listening on http://127.0.0.1:{args.port}/v1, files in {args.dir}",
        file=sys.stderr,
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
