"""A malicious or broken model endpoint cannot take the process's memory or time (issue 17, group 2).

Each test runs the real CLI as a child process against a loopback server that plays one hostile reply
(endless, huge or trickling), and measures the child: it must end with one line and exit 1, within
seconds, its peak RSS under 1 GiB and its transcript small. Before the limits, each of these ran until
the machine ran out of memory or forever.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from loopback import LoopbackServer
from measured import Run, run_cli

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "providers"))
import bedrock_fake as bf

GIB = 1024**3
SIZE_LIMIT_S = 60.0  # generous: 32 MiB over loopback takes well under a second
DEADLINE_S = 2
MODEL = "us.amazon.nova-micro-v1:0"


def _ask(
    server: LoopbackServer, db: Path, home: Path, *extra: str, bedrock: bool = False
) -> tuple[Run, Path]:
    transcript = home / "t.jsonl"
    env = {**os.environ}
    args = ["--db", str(db), "ask", "How did Pune do?", "--transcript", str(transcript), "--max-retries", "0"]
    if bedrock:
        env.update(bf.FAKE_ENV, AWS_ENDPOINT_URL_BEDROCK_RUNTIME=server.url)
        args += ["--provider", "bedrock", "--model", MODEL]
    else:
        env.update(LLM_BASE_URL=server.url + "/v1", LLM_MODEL="m")
    return run_cli([*args, *extra], env, timeout=600), transcript


def _assert_stopped_with_one_line(run: Run, transcript: Path, *, words: str) -> None:
    assert not run.timed_out, "the child was still running at the test's timeout"
    assert run.returncode == 1, run.stderr[-2000:]
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("error: ") and words in last, last[:500]
    assert "Traceback" not in run.stderr
    assert run.peak_rss_bytes < GIB, f"peak RSS {run.peak_rss_bytes / 2**20:.0f} MiB"
    assert not transcript.exists() or transcript.stat().st_size < 2**20


def _forever(first: bytes, then: bytes, *, pause: float = 0.0) -> Iterator[bytes]:
    yield first
    while True:
        yield then
        if pause:
            time.sleep(pause)


def _sse(payload: dict) -> bytes:
    return b"data: " + json.dumps(payload).encode() + b"\n\n"


SSE = {"content-type": "text/event-stream"}
JSON = {"content-type": "application/json"}


# --- size: OpenAI-compatible -------------------------------------------------------------------------


def _tool_call_fragments() -> Iterator[bytes]:
    start = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "sales_summary"}}
    piece = {"index": 0, "function": {"arguments": "z" * 200}}
    more = _sse({"choices": [{"index": 0, "delta": {"tool_calls": [piece]}}]}) * 100
    return _forever(_sse({"choices": [{"index": 0, "delta": {"tool_calls": [start]}}]}), more)


@pytest.mark.parametrize(
    ("headers", "body", "mode", "words"),
    [
        (JSON, lambda: _forever(b'{"choices":[{"index":0,"message":{"content":"', b"x" * 65536), "--no-stream",
         "larger than 32 MiB"),
        (SSE, lambda: _forever(b'data: {"choices":[{"index":0,"delta":{"content":"', b"y" * 65536), "--stream",
         "a stream event larger than 4 MiB"),
        (SSE, _tool_call_fragments, "--stream", "larger than 32 MiB"),
    ],
    ids=["endless-json-body", "endless-sse-line", "endless-tool-call-fragments"],
)  # fmt: skip
def test_an_endless_reply_is_cut_at_its_size_limit(
    serve, sample_db, isolated_user_env, headers, body, mode, words
):
    server = serve(lambda p, h, b: (200, headers, body()))
    run, transcript = _ask(server, sample_db, isolated_user_env, mode)
    _assert_stopped_with_one_line(run, transcript, words=words)


# --- time: OpenAI-compatible ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "chunks"),
    [
        ("keep-alive comments", lambda: _forever(b": keep-alive\n\n", b": keep-alive\n\n", pause=0.05)),
        ("one byte at a time", lambda: _forever(b"data: ", b"{", pause=0.2)),
    ],
)
def test_a_stream_that_never_finishes_ends_at_the_deadline(serve, sample_db, isolated_user_env, name, chunks):
    server = serve(lambda p, h, b: (200, SSE, chunks()))
    run, transcript = _ask(
        server, sample_db, isolated_user_env, "--stream", "--request-deadline", str(DEADLINE_S)
    )
    _assert_stopped_with_one_line(run, transcript, words=f"within the {DEADLINE_S} s deadline")


# --- Bedrock --------------------------------------------------------------------------------------------


def _delta(text: str) -> bytes:
    return bf.event_frame("contentBlockDelta", {"delta": {"text": text}, "contentBlockIndex": 0})


EVENTS = {"content-type": "application/vnd.amazon.eventstream"}


def test_an_endless_bedrock_event_stream_is_cut_at_the_reply_limit(serve, sample_db, isolated_user_env):
    start = bf.event_frame("messageStart", {"role": "assistant"})
    server = serve(lambda p, h, b: (200, EVENTS, _forever(start, _delta("w" * 4000) * 16)))
    run, transcript = _ask(server, sample_db, isolated_user_env, "--stream", bedrock=True)
    _assert_stopped_with_one_line(run, transcript, words="larger than 32 MiB")


def test_an_endless_bedrock_converse_body_is_cut_at_the_reply_limit(serve, sample_db, isolated_user_env):
    head = b'{"output":{"message":{"role":"assistant","content":[{"text":"'
    server = serve(lambda p, h, b: (200, JSON, _forever(head, b"v" * 65536)))
    run, transcript = _ask(server, sample_db, isolated_user_env, "--no-stream", bedrock=True)
    _assert_stopped_with_one_line(run, transcript, words="larger than 32 MiB")


def test_a_trickling_bedrock_stream_ends_at_the_deadline(serve, sample_db, isolated_user_env):
    start = bf.event_frame("messageStart", {"role": "assistant"})
    server = serve(lambda p, h, b: (200, EVENTS, _forever(start, _delta("."), pause=0.1)))
    args = ("--stream", "--request-deadline", str(DEADLINE_S))
    run, transcript = _ask(server, sample_db, isolated_user_env, *args, bedrock=True)
    _assert_stopped_with_one_line(run, transcript, words=f"within the {DEADLINE_S} s deadline")


def _silent(path, headers, body):
    time.sleep(120)
    return 200, JSON, b"{}"


@pytest.mark.parametrize("bedrock", [False, True], ids=["openai", "bedrock"])
def test_a_silent_server_costs_the_deadline_not_the_read_timeout_times_the_retries(
    serve, sample_db, isolated_user_env, bedrock
):
    # The last --max-retries wins: 3 retries, each of which would wait the whole 60 s read timeout.
    args = (
        "--no-stream",
        "--request-deadline",
        str(DEADLINE_S),
        "--read-timeout",
        "60",
        "--max-retries",
        "3",
    )
    run, transcript = _ask(serve(_silent), sample_db, isolated_user_env, *args, bedrock=bedrock)
    _assert_stopped_with_one_line(run, transcript, words=f"within the {DEADLINE_S} s deadline")
