"""Malformed, hostile or echoing replies end in one line (exit 1) or a clean answer, never a crash, a
terminal takeover or a leaked secret (issue 17, groups 4, 9, 10). Every test runs the real CLI process
against a loopback server playing the reply."""

from __future__ import annotations

import base64
import json
import os
import socket
import stat
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from loopback import LoopbackServer
from measured import Run, run_cli

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "providers"))
import bedrock_fake as bf

JSON = {"content-type": "application/json"}
SSE = {"content-type": "text/event-stream"}
KEY = "sk-test-ECHOED-7d1c0ffee4b5a6978877"
MODEL = "us.amazon.nova-micro-v1:0"


@pytest.fixture
def replies(serve) -> Iterator:
    """A loopback server answering each request with the next reply (a function of its headers)."""

    def start(*script) -> LoopbackServer:
        queue = list(script)
        return serve(lambda path, headers, body: queue.pop(0)(headers) if queue else (500, JSON, b"{}"))

    return start


def chat_body(message: dict, finish: str = "stop") -> bytes:
    return json.dumps({"choices": [{"index": 0, "message": message, "finish_reason": finish}]}).encode()


def raw(body: bytes, headers: dict[str, str] = JSON):
    return lambda request_headers: (200, headers, body)


def _openai(
    server, db: Path, home: Path, *args: str, key: str | None = None, stdin: str | None = None
) -> tuple[Run, Path]:
    transcript = home / "t.jsonl"
    env = {**os.environ, "LLM_BASE_URL": server.url + "/v1", "LLM_MODEL": "m"}
    if key:
        env["LLM_API_KEY"] = key
    command = args[0] if args and args[0] == "chat" else "ask"
    rest = list(args[1:] if command == "chat" else args)
    head = ["--db", str(db), "-v", command] + ([] if command == "chat" else ["How did Pune do?"])
    return run_cli(
        [*head, "--transcript", str(transcript), "--max-retries", "0", *rest], env, stdin=stdin
    ), transcript


def _bedrock(
    server, db: Path, home: Path, *args: str, env_extra: dict[str, str] | None = None
) -> tuple[Run, Path]:
    transcript = home / "t.jsonl"
    env = {**os.environ, **(env_extra if env_extra is not None else bf.FAKE_ENV)}
    env["AWS_ENDPOINT_URL_BEDROCK_RUNTIME"] = server.url
    head = ["--db", str(db), "-v", "ask", "How did Pune do?", "--provider", "bedrock", "--model", MODEL]
    return run_cli([*head, "--transcript", str(transcript), "--max-retries", "0", *args], env), transcript


def _one_line_exit_1(run: Run, words: str) -> None:
    assert run.returncode == 1, run.stderr[-1500:]
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("error: ") and words in last, last
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr


# --- group 4: never an internal error from a reply ----------------------------------------------------

DEEP = (
    b'{"choices":[{"index":0,"message":{"role":"assistant","content":"x"},"logprobs":'
    + b"[" * 5000
    + b"]" * 5000
    + b"}]}"
)


def test_a_reply_nested_thousands_deep_is_one_line(replies, sample_db, isolated_user_env):
    run, _ = _openai(replies(raw(DEEP)), sample_db, isolated_user_env, "--no-stream")
    _one_line_exit_1(run, "nested more than 64 levels deep")


def test_a_streamed_event_nested_deep_is_one_line(replies, sample_db, isolated_user_env):
    event = (
        b'data: {"choices":[{"index":0,"delta":{"content":"x"},"x":' + b"[" * 3000 + b"]" * 3000 + b"}]}\n\n"
    )
    run, _ = _openai(replies(raw(event, SSE)), sample_db, isolated_user_env, "--stream")
    _one_line_exit_1(run, "nested more than 64 levels deep")


def test_a_lone_surrogate_in_the_answer_is_shown_replaced_and_recorded(replies, sample_db, isolated_user_env):
    body = b'{"choices":[{"index":0,"message":{"role":"assistant","content":"Pune \\udc80 had 3 orders."},"finish_reason":"stop"}]}'
    run, transcript = _openai(replies(raw(body)), sample_db, isolated_user_env, "--no-stream")
    assert run.returncode == 0, run.stderr[-1500:]
    assert run.stdout.strip().splitlines()[0] == "Pune \ufffd had 3 orders."  # then the no-tool caveat
    answers = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    assert answers[-1]["answer"] == "Pune \ufffd had 3 orders."


@pytest.mark.parametrize(
    "body",
    [
        {"output": {"message": {"role": "assistant", "content": [{"text": "hi"}]}}, "stopReason": "end_turn",
         "usage": {"inputTokens": "lots"}},
        {"output": {"message": {"role": "assistant", "content": [{"toolUse": "not an object"}]}},
         "stopReason": "tool_use"},
    ],
    ids=["usage-as-text", "tool-use-as-text"],
)  # fmt: skip
def test_a_bedrock_reply_of_odd_types_is_one_line(replies, sample_db, isolated_user_env, body):
    server = replies(raw(json.dumps(body).encode()))
    run, _ = _bedrock(server, sample_db, isolated_user_env, "--no-stream")
    _one_line_exit_1(run, "unexpected shape")


def test_a_bedrock_reply_nested_thousands_deep_is_one_line(replies, sample_db, isolated_user_env):
    body = b'{"output":{"message":{"role":"assistant","content":[{"text":"hi"}]}},"stopReason":"end_turn",'
    body += b'"additionalModelResponseFields":{"a":' + b"[" * 5000 + b"]" * 5000 + b"}}"
    run, _ = _bedrock(replies(raw(body)), sample_db, isolated_user_env, "--no-stream")
    _one_line_exit_1(run, "nested more than 64 levels deep")


def test_chat_goes_on_after_a_reply_that_cannot_be_read(replies, sample_db, isolated_user_env):
    fine = chat_body({"role": "assistant", "content": "Pune had 3 orders."})
    server = replies(raw(DEEP), raw(fine))
    run, _ = _openai(
        server, sample_db, isolated_user_env, "chat", "--no-stream", stdin="first?\nsecond?\n/exit\n"
    )
    assert run.returncode == 0, run.stderr[-1500:]
    assert "error: " in run.stdout and "nested more than 64 levels deep" in run.stdout
    assert "Pune had 3 orders." in run.stdout


# --- group 9: terminal controls from the endpoint are shown, not obeyed ---------------------------------


def test_escape_sequences_in_the_answer_and_tool_names_never_reach_the_terminal(
    replies, sample_db, isolated_user_env
):
    hostile_call = {"id": "c1", "type": "function",
                    "function": {"name": "\u001b]0;owned\u0007tool\u009b2J", "arguments": "{}"}}  # fmt: skip
    first = chat_body(
        {"role": "assistant", "content": "\u001b[2J", "tool_calls": [hostile_call]}, "tool_calls"
    )
    answer = chat_body(
        {"role": "assistant", "content": "\u001b]8;;http://evil/\u001b\\Pune\u001b]8;;\u001b\\ had 3\u202e"}
    )
    run, _ = _openai(replies(raw(first), raw(answer)), sample_db, isolated_user_env, "--no-stream")
    assert run.returncode == 0, run.stderr[-1500:]
    for shown in (run.stdout, run.stderr):
        assert not any(c in shown for c in "\x1b\x07\x9b\u202e")
    assert "\\x1b]8;;http://evil/" in run.stdout and "\\x1b]0;owned\\x07tool\\x9b2J" in run.stderr


def test_json_output_escapes_what_json_leaves_raw(replies, sample_db, isolated_user_env):
    answer = chat_body({"role": "assistant", "content": "Pune\u009b2J had 3 \u202eorders"})
    run, _ = _openai(replies(raw(answer)), sample_db, isolated_user_env, "--no-stream", "--json")
    assert run.returncode == 0, run.stderr[-1500:]
    assert "\u009b" not in run.stdout and "\u202e" not in run.stdout
    assert json.loads(run.stdout)["answer"] == "Pune\u009b2J had 3 \u202eorders"  # the same document


# --- group 10: secrets -----------------------------------------------------------------------------------


def test_url_credentials_travel_as_a_header_and_show_nowhere(replies, sample_db, isolated_user_env):
    seen: list[str] = []

    def answer(headers):
        seen.append(headers.get("Authorization", ""))
        return 200, JSON, chat_body({"role": "assistant", "content": "Pune had 3 orders."})

    server = replies(answer)
    transcript = isolated_user_env / "t.jsonl"
    url = server.url.replace("http://", "http://alice:pa55-WORD-url-9f8e7d@") + "/v1"
    args = ["--db", str(sample_db), "-v", "ask", "q", "--base-url", url, "--model", "m", "--no-stream"]
    run = run_cli([*args, "--transcript", str(transcript)], dict(os.environ))
    assert run.returncode == 0, run.stderr[-1500:]
    assert seen == ["Basic " + base64.b64encode(b"alice:pa55-WORD-url-9f8e7d").decode()]
    assert "HTTP Request: POST" in run.stderr  # httpx's own -v line is there, without the password
    for written in (run.stdout, run.stderr, transcript.read_text(encoding="utf-8")):
        assert "pa55-WORD-url-9f8e7d" not in written


@pytest.mark.parametrize("stream", ["--stream", "--no-stream"])
def test_a_key_echoed_in_the_answer_is_masked_everywhere(replies, sample_db, isolated_user_env, stream):
    text = f"Your key is {KEY}, and Pune had 3 orders."
    if stream == "--stream":
        pieces = [text[i : i + 5] for i in range(0, len(text), 5)]  # the key split across many events
        events = (
            b"".join(
                b"data: "
                + json.dumps({"choices": [{"index": 0, "delta": {"content": p}}]}).encode()
                + b"\n\n"
                for p in pieces
            )
            + b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
        )
        reply = raw(events, SSE)
    else:
        reply = raw(chat_body({"role": "assistant", "content": text}))
    run, transcript = _openai(replies(reply), sample_db, isolated_user_env, stream, "--json", key=KEY)
    assert run.returncode == 0, run.stderr[-1500:]
    assert json.loads(run.stdout)["answer"] == "Your key is ***, and Pune had 3 orders."
    for written in (run.stdout, run.stderr, transcript.read_text(encoding="utf-8")):
        assert KEY not in written and KEY[-12:] not in written


def test_bedrock_profile_credentials_echoed_by_the_endpoint_show_nowhere(
    replies, sample_db, isolated_user_env
):
    key_id, secret, token = (
        "AKIAPROFILEONLY12345",
        "profile/secret+KEY/never-0123456789",
        "PROFILE-session-token-xyz-0987",
    )
    credentials = isolated_user_env / "aws-credentials"
    credentials.write_text(
        f"[team]\naws_access_key_id = {key_id}\naws_secret_access_key = {secret}\naws_session_token = {token}\n",
        encoding="utf-8",
    )

    def echo(headers):
        said = f"you sent {headers.get('Authorization')} and {headers.get('X-Amz-Security-Token')}"
        body = {"output": {"message": {"role": "assistant", "content": [{"text": said}]}}, "stopReason": "end_turn",
                "usage": {"inputTokens": 5, "outputTokens": 5}}  # fmt: skip
        return 200, JSON, json.dumps(body).encode()

    def denied(headers):
        head = {**JSON, "x-amzn-ErrorType": "AccessDeniedException:http://internal"}
        return (
            403,
            head,
            json.dumps({"message": f"token {headers.get('X-Amz-Security-Token')} denied"}).encode(),
        )

    env = {"AWS_REGION": "us-east-1", "AWS_PROFILE": "team", "AWS_SHARED_CREDENTIALS_FILE": str(credentials)}
    for reply, code in ((echo, 0), (denied, 1)):
        run, transcript = _bedrock(
            replies(reply), sample_db, isolated_user_env, "--no-stream", "--json", env_extra=env
        )
        assert run.returncode == code, run.stderr[-1500:]
        written = run.stdout + run.stderr + transcript.read_text(encoding="utf-8")
        for value in (key_id, secret, token):
            assert value not in written
        assert "***" in written  # the echo was there, masked


def test_transcripts_are_created_private(replies, sample_db, isolated_user_env):
    run, transcript = _openai(
        replies(raw(chat_body({"role": "assistant", "content": "hi"}))), sample_db, isolated_user_env
    )
    assert run.returncode == 0 and stat.S_IMODE(transcript.stat().st_mode) == 0o600


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux) to fill the disk")
def test_a_full_disk_under_the_transcript_is_one_warning_and_the_answer_still_comes(
    replies, sample_db, isolated_user_env
):
    server = replies(raw(chat_body({"role": "assistant", "content": "Pune had 3 orders."})))
    env = {**os.environ, "LLM_BASE_URL": server.url + "/v1", "LLM_MODEL": "m"}
    before = stat.S_IMODE(os.stat("/dev/full").st_mode)
    run = run_cli(["--db", str(sample_db), "ask", "q", "--no-stream", "--transcript", "/dev/full"], env)
    assert run.returncode == 0, run.stderr[-1500:]
    assert run.stdout.strip().splitlines()[0] == "Pune had 3 orders."  # then the no-tool caveat
    warnings = [line for line in run.stderr.splitlines() if line.startswith("warning: ")]
    # a device under --transcript is refused before anything is written (issue 24: never a FIFO, a link or
    # a device), with the same one warning; the answer still comes
    assert warnings == [
        "warning: cannot write the transcript /dev/full: /dev/full is not a regular file (a pipe, device "
        "or link); choose a file path; going on without it"
    ]
    assert stat.S_IMODE(os.stat("/dev/full").st_mode) == before  # a device is never re-permissioned


# --- group 6: an error that echoes a huge argument stays small everywhere --------------------------------


def test_a_huge_argument_comes_back_bounded_to_the_model_the_terminal_and_the_transcript(
    serve, sample_db, isolated_user_env
):
    huge = "P" * 20_000_000  # under the 32 MiB reply limit: it reaches the tools
    sent_back: list[str] = []

    def first(headers):
        call = {"id": "c1", "type": "function",
                "function": {"name": "sales_summary", "arguments": json.dumps({"city": huge, "day": "2026-10-24"})}}  # fmt: skip
        return (
            200,
            JSON,
            chat_body({"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"),
        )

    server = serve(lambda path, headers, body: _answer_after(body, first, sent_back))
    run, transcript = _openai(server, sample_db, isolated_user_env, "--no-stream")
    assert run.returncode == 0, run.stderr[-1500:]
    assert len(sent_back) == 1 and len(sent_back[0]) < 8_000  # the error the model read
    assert len(run.stderr) < 20_000 and len(run.stdout) < 1_000
    assert transcript.stat().st_size < 200_000  # was 5 copies of the argument


def _answer_after(body: bytes, first, sent_back: list[str]):
    messages = json.loads(body)["messages"]
    tool_messages = [m["content"] for m in messages if m["role"] == "tool"]
    if not tool_messages:
        return first({})
    sent_back.extend(tool_messages)
    return 200, JSON, chat_body({"role": "assistant", "content": "That city is not known."})


# --- round three: tool-call arguments nested 100,000 deep ------------------------------------------------

DEEP_ARGUMENTS = {
    "array": '{"city": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "object": '{"day": "2026-10-24", "city": ' + '{"a": ' * 100_000 + "1" + "}" * 100_000 + "}",
    "bare": "[" * 100_000,
}


@pytest.mark.parametrize("shape", sorted(DEEP_ARGUMENTS))
@pytest.mark.parametrize("how", ["--json", "chat"])
def test_tool_arguments_nested_100k_deep_go_back_to_the_model_as_one_error(
    serve, sample_db, isolated_user_env, shape, how
):
    """A native tool call whose arguments nest 100,000 deep raised RecursionError in the code that shows,
    records and summarises the call: ``ask --json`` printed nothing and ``chat`` ended. The model reads
    one argument error and the question goes on to its answer."""
    sent_back: list[str] = []

    def first(headers):
        call = {"id": "c1", "type": "function",
                "function": {"name": "sales_summary", "arguments": DEEP_ARGUMENTS[shape]}}  # fmt: skip
        return (
            200,
            JSON,
            chat_body({"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"),
        )

    server = serve(lambda path, headers, body: _answer_after(body, first, sent_back))
    if how == "chat":
        run, _ = _openai(
            server, sample_db, isolated_user_env, "chat", "--no-stream", stdin="How did Pune do?\n"
        )
    else:
        run, _ = _openai(server, sample_db, isolated_user_env, "--no-stream", "--json")
    assert run.returncode == 0, run.stderr[-1500:]
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr
    assert len(sent_back) == 1 and "nest" in sent_back[0] and len(sent_back[0]) < 2_000
    assert "That city is not known." in run.stdout
    if how == "--json":
        assert json.loads(run.stdout)["answer"] == "That city is not known."


# --- round three: a server that sends headers and half a body, then closes ------------------------------

HALF_BODIES = {
    "content-length": (
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n"
        b'{"choices": [{"index": 0, "message": {"role": "assistant", "content": "Pu'
    ),
    "chunked": (
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
        b'200\r\n{"choices": [{"index": 0, "mess'
    ),
    "stream": (
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
        b'40\r\ndata: {"choices":[{"index":0,"delta":{"content":"Pu'
    ),
}


class _HalfBodyServer:
    """A loopback TCP server answering every request with ``reply`` (headers and part of a body), then
    closing the connection."""

    def __init__(self, reply: bytes) -> None:
        self._sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._sock.getsockname()[1]}"
        self.requests = 0

        def serve() -> None:
            while True:
                try:
                    conn, _ = self._sock.accept()
                except OSError:
                    return
                with conn:
                    _read_request(conn)  # whole, so closing never resets a request still arriving
                    self.requests += 1
                    conn.sendall(reply)
                    conn.shutdown(socket.SHUT_WR)

        threading.Thread(target=serve, daemon=True).start()

    def close(self) -> None:
        self._sock.close()


def _read_request(conn) -> None:
    data = b""
    while b"\r\n\r\n" not in data and (chunk := conn.recv(65536)):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ),
        0,
    )
    while len(body) < length and (chunk := conn.recv(65536)):
        body += chunk


@pytest.mark.parametrize("shape", sorted(HALF_BODIES))
def test_a_reply_cut_off_mid_body_is_one_line(sample_db, isolated_user_env, shape):
    """``httpx.RemoteProtocolError`` (the server closed mid-body) ended in ``internal error``."""
    server = _HalfBodyServer(HALF_BODIES[shape])
    try:
        run, _ = _openai(
            server, sample_db, isolated_user_env, "--stream" if shape == "stream" else "--no-stream"
        )
    finally:
        server.close()
    _one_line_exit_1(
        run, "dropped the connection: peer closed connection without sending complete message body"
    )
