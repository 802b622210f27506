"""Wiring for the commands that ask a model: an Agent with its trace, streamed text and transcript."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from analytics_agent.agent.events import (
    AgentResult,
    Event,
    Finished,
    RequestSent,
    ResponseReceived,
    StepFailed,
)
from analytics_agent.agent.loop import Agent
from analytics_agent.agent.prompt import resolve_today, system_prompt
from analytics_agent.config import Settings
from analytics_agent.db.catalog import list_tables, stored_profile
from analytics_agent.present.progress import Spinner
from analytics_agent.present.results import ResultLog
from analytics_agent.present.safe_text import escape_control
from analytics_agent.present.stream import StreamEcho
from analytics_agent.present.trace import answer_caveat, format_event
from analytics_agent.present.transcript import Transcript
from analytics_agent.providers.base import Provider
from analytics_agent.tools.catalog.schema_text import schema_levels
from analytics_agent.workspace.remote import RemoteWorkspace
from analytics_agent.workspace.workspace import Workspace

Write = Callable[[str], None]


@dataclass
class Wiring:
    """An agent plus the sinks it reports to."""

    agent: Agent
    transcript: Transcript | None
    echo: StreamEcho | None
    results: ResultLog = field(default_factory=ResultLog)
    """The current question's successful tool calls: its chart and its exports come from them."""
    spinner: Spinner | None = None
    note: Write | None = None
    """Where the line on unverified numbers goes, under the answer (the trace's stream)."""

    def show(self, result: AgentResult, write_line: Write) -> None:
        """Print the answer unless streaming already did, then any numbers no tool returned."""
        already = self.echo.finish(result.answer) if self.echo else False
        if not already:
            write_line(escape_control(result.answer))
        caveat = answer_caveat(result)
        if caveat:  # with the answer, wherever it goes (a file, a pipe, -q), not on the trace's stream
            write_line(escape_control(caveat))  # it quotes numbers as the model wrote them

    def close(self) -> None:
        if self.spinner is not None:
            self.spinner.close()
        if self.transcript is not None:
            self.transcript.close()


def build(
    workspace: Workspace | RemoteWorkspace,
    provider: Provider,
    settings: Settings,
    *,
    trace: Write | None,
    transcript: Transcript | None,
    stream_to: Write | None,
    show_sql: bool = False,
    spinner: Spinner | None = None,
) -> Wiring:
    """The agent for one command: system prompt from the tables and today's date (a team server's own
    guidance when the tools are there), events fanned out.
    ``spinner`` turns while the model is thinking; everything else written clears it first."""
    system = (
        workspace.guidance if isinstance(workspace, RemoteWorkspace) else _local_prompt(workspace, settings)
    )
    model = f"{provider.name}:{provider.model}"
    if spinner is not None:
        trace = _pausing(spinner, trace)
        stream_to = _pausing(spinner, stream_to)
    echo = StreamEcho(stream_to) if stream_to else None
    results = ResultLog()
    sinks: list[Callable[[Event], None]] = [results]
    if echo:
        sinks.append(echo.on_event)
    if trace:
        sinks.append(lambda event: _trace(trace, event, model, streamed=echo is not None, show_sql=show_sql))
    if transcript:
        sinks.append(transcript)
    if spinner is not None:  # last: it starts after the trace has said what is being waited for
        sinks.append(lambda event: _spin(spinner, event, model))

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
    return Wiring(agent, transcript, echo, results, spinner, note=trace)


def _local_prompt(workspace: Workspace, settings: Settings) -> str:
    today, zone = resolve_today(timezone=settings.timezone, today=settings.today)
    tables = list_tables(workspace.cursor())
    cur = workspace.cursor()
    # the stored profiles only (a linked source's are cached for the session): never a scan at start
    profiles = {t.name: p for t in tables if (p := stored_profile(cur, t.name)) is not None}
    levels, business_zone = schema_levels(workspace.registry, profiles)
    return system_prompt(
        tables,
        today=today,
        timezone=zone,
        schema_levels=levels,
        business_zone=business_zone,
    )


def _trace(write: Write, event: Event, model: str, *, streamed: bool, show_sql: bool) -> None:
    text = format_event(event, model=model, streamed=streamed, show_sql=show_sql)
    if text is not None:
        write(text)


def _spin(spinner: Spinner, event: Event, model: str) -> None:
    if isinstance(event, RequestSent):
        spinner.start(f"waiting for {model}")
    elif isinstance(event, ResponseReceived | StepFailed | Finished):
        spinner.stop()


def _pausing(spinner: Spinner, write: Write | None) -> Write | None:
    """``write`` that first clears the spinner's line, so output never lands in the middle of it."""
    if write is None:
        return None

    def paused(text: str) -> None:
        spinner.stop()
        write(text)

    return paused
