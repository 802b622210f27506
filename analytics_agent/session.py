"""Wiring for the commands that ask a model: an Agent with its trace, streamed text and transcript."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from analytics_agent.agent import Agent
from analytics_agent.config import Settings
from analytics_agent.db.catalog import list_tables
from analytics_agent.events import AgentResult, Event, RequestSent, ResponseReceived
from analytics_agent.prompt import resolve_today, system_prompt
from analytics_agent.providers.base import Provider
from analytics_agent.trace import format_event
from analytics_agent.transcript import Transcript
from analytics_agent.workspace import Workspace

Write = Callable[[str], None]


class StreamEcho:
    """Shows streamed text as it arrives, and knows whether the final answer is already on screen."""

    def __init__(self, write: Write) -> None:
        self.write = write
        self._step_text = ""
        self._open = False

    def on_text(self, piece: str) -> None:
        self.write(piece)
        self._step_text += piece
        self._open = True

    def on_event(self, event: Event) -> None:
        if isinstance(event, RequestSent):
            self._step_text = ""
        elif isinstance(event, ResponseReceived):
            self._end_line()  # before the trace prints its line for this reply

    def finish(self, answer: str) -> bool:
        """End the streamed line; True if what the last reply streamed is the whole answer."""
        self._end_line()
        streamed = self._step_text.strip()
        return bool(streamed) and streamed == answer.strip()

    def _end_line(self) -> None:
        if self._open:
            self.write("\n")
            self._open = False


@dataclass
class Wiring:
    """An agent plus the sinks it reports to."""

    agent: Agent
    transcript: Transcript | None
    echo: StreamEcho | None

    def show(self, result: AgentResult, write_line: Write) -> None:
        """Print the answer unless streaming already did."""
        already = self.echo.finish(result.answer) if self.echo else False
        if not already:
            write_line(result.answer)

    def close(self) -> None:
        if self.transcript is not None:
            self.transcript.close()


def build(
    workspace: Workspace,
    provider: Provider,
    settings: Settings,
    *,
    trace: Write | None,
    transcript: Transcript | None,
    stream_to: Write | None,
) -> Wiring:
    """The agent for one command: system prompt from the tables and today's date, events fanned out."""
    today, zone = resolve_today(timezone=settings.timezone, today=settings.today)
    system = system_prompt(list_tables(workspace.cursor()), today=today, timezone=zone)
    echo = StreamEcho(stream_to) if stream_to else None
    sinks: list[Callable[[Event], None]] = []
    if echo:
        sinks.append(echo.on_event)
    if trace:
        model = f"{provider.name}:{provider.model}"
        sinks.append(lambda event: _trace(trace, event, model, streamed=echo is not None))
    if transcript:
        sinks.append(transcript)

    def on_event(event: Event) -> None:
        for sink in sinks:
            sink(event)

    agent = Agent(
        provider,
        workspace.registry,
        workspace.executor,
        system=system,
        max_steps=settings.max_steps,
        max_input_tokens=settings.max_tokens_budget,
        on_event=on_event,
        on_text=echo.on_text if echo else None,
    )
    return Wiring(agent, transcript, echo)


def _trace(write: Write, event: Event, model: str, *, streamed: bool) -> None:
    text = format_event(event, model=model, streamed=streamed)
    if text is not None:
        write(text)
