"""The chat REPL driven with scripted input: slash commands, EOF, and Ctrl-C that keeps the session."""

from __future__ import annotations

from pathlib import Path

from analytics_agent.cli.chat_repl import ChatSession
from analytics_agent.config import Settings
from analytics_agent.conversation import AssistantTurn, Conversation, ModelResponse, UserTurn
from analytics_agent.errors import ProviderConnectionError
from analytics_agent.present.transcript import Transcript
from analytics_agent.workspace.session import build
from analytics_agent.workspace.workspace import Workspace


class OnceInterrupted:
    """Raises each scripted exception once, in order; otherwise echoes how many user turns it saw."""

    name = "fake"
    model = "fake-1"

    def __init__(self, *failures: BaseException) -> None:
        self.failures = list(failures)
        self.seen: list[list[str]] = []

    def complete(self, conversation: Conversation, tools, *, on_text=None) -> ModelResponse:
        users = [m.text for m in conversation.messages if isinstance(m, UserTurn)]
        self.seen.append(users)
        if self.failures:
            raise self.failures.pop(0)
        return ModelResponse(AssistantTurn(text=f"answer to {users[-1]} ({len(users)} user turns)"))


def session(workspace: Workspace, provider, tmp_path: Path) -> tuple[ChatSession, list[str]]:
    lines: list[str] = []
    transcript = Transcript(tmp_path / "chat.jsonl")
    wiring = build(
        workspace, provider, Settings(model="fake-1"), trace=None, transcript=transcript, stream_to=None
    )
    return ChatSession(wiring, write=lines.append), lines


def feed(*lines: str):
    pending = list(lines)

    def read(prompt: str) -> str:
        if not pending:
            raise EOFError
        item = pending.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item

    return read


def test_ctrl_c_during_a_question_drops_it_and_the_session_goes_on(
    workspace: Workspace, tmp_path: Path
) -> None:
    provider = OnceInterrupted(KeyboardInterrupt())
    chat, lines = session(workspace, provider, tmp_path)
    chat.run(feed("first", "second", "/exit", "never read"))
    assert any(line.startswith("interrupted") for line in lines)
    assert "answer to second (1 user turns)" in lines  # the interrupted question left no trace
    assert provider.seen == [["first"], ["second"]]
    assert '"type": "error"' in (tmp_path / "chat.jsonl").read_text(encoding="utf-8")


def test_the_conversation_is_kept_across_questions_until_reset(workspace: Workspace, tmp_path: Path) -> None:
    provider = OnceInterrupted()
    chat, lines = session(workspace, provider, tmp_path)
    chat.run(feed("a", "b", "/reset", "c"))
    assert "answer to b (2 user turns)" in lines
    assert "The conversation is cleared." in lines
    assert "answer to c (1 user turns)" in lines


def test_a_provider_error_is_one_line_and_the_session_survives(workspace: Workspace, tmp_path: Path) -> None:
    provider = OnceInterrupted(ProviderConnectionError("cannot reach the server at 127.0.0.1:9"))
    chat, lines = session(workspace, provider, tmp_path)
    chat.run(feed("a", "b"))
    assert "error: cannot reach the server at 127.0.0.1:9" in lines
    assert "answer to b (1 user turns)" in lines


def test_tools_lists_every_tool_and_unknown_commands_are_explained(
    workspace: Workspace, tmp_path: Path
) -> None:
    chat, lines = session(workspace, OnceInterrupted(), tmp_path)
    chat.run(feed("/tools", "/frobnicate"))
    listed = [line.split(":")[0] for line in lines if ":" in line and not line.startswith("unknown")]
    assert set(workspace.registry.names) <= set(listed)
    assert any(line.startswith("unknown command /frobnicate") for line in lines)


def test_ctrl_c_at_the_prompt_does_not_end_the_session_but_eof_does(
    workspace: Workspace, tmp_path: Path
) -> None:
    provider = OnceInterrupted()
    chat, lines = session(workspace, provider, tmp_path)
    chat.run(feed(KeyboardInterrupt(), "a"))
    assert "(Ctrl-D or /exit to leave)" in lines
    assert "answer to a (1 user turns)" in lines
    assert provider.seen == [["a"]]
