"""Commands that ask a model: ask, chat, demo (registered by ``app.py``).

The trace goes to stderr, the answer to stdout. A missing model is exit 2 with one line saying how to
configure one; every other failure is an ``AnalyticsAgentError`` for ``app.main`` to print.
"""

# No ``from __future__ import annotations`` here: typer reads these signatures at every start, and a string
# annotation costs it an eval each (about a tenth of --help's CPU; docs/performance.md).
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from analytics_agent.cli.answer_view import (
    JSON_HELP,
    UNVERIFIED_EXIT,
    ChartOpt,
    SaveResultsOpt,
    ShowSqlOpt,
    StrictOpt,
    View,
    print_json_error,
    show_answer,
)
from analytics_agent.cli.ask_tools import empty_database, has_tables, open_tools
from analytics_agent.cli.context import open_workspace
from analytics_agent.cli.output import ChartFileOpt

_PANEL = "Model"
ProviderOpt = Annotated[
    str | None,
    typer.Option(
        "--provider", help="openai (any OpenAI-compatible server) or bedrock.", rich_help_panel=_PANEL
    ),
]
BaseUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--base-url",
        help="e.g. http://localhost:11434/v1 (env LLM_BASE_URL, OPENAI_BASE_URL).",
        rich_help_panel=_PANEL,
    ),
]
ModelOpt = Annotated[
    str | None,
    typer.Option(
        "--model", "-m", help="Model name (env ANALYTICS_AGENT_MODEL, LLM_MODEL).", rich_help_panel=_PANEL
    ),
]
ApiKeyOpt = Annotated[
    str | None,
    typer.Option(
        "--api-key",
        help="API key (env LLM_API_KEY, OPENAI_API_KEY); local servers need none.",
        rich_help_panel=_PANEL,
    ),
]
RegionOpt = Annotated[
    str | None,
    typer.Option("--region", help="AWS region for bedrock (env AWS_REGION).", rich_help_panel=_PANEL),
]
ProfileOpt = Annotated[
    str | None,
    typer.Option("--profile", help="AWS profile for bedrock (env AWS_PROFILE).", rich_help_panel=_PANEL),
]
_TEAM = "Team server"
ServerOpt = Annotated[
    str | None,
    typer.Option(
        "--server",
        help="Take the tools from a team server (its /mcp URL) as a signed-in user; the model runs here.",
        rich_help_panel=_TEAM,
    ),
]
TokenFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--token-file",
        help="--server: a file holding your token (default: env ANALYTICS_AGENT_TOKEN).",
        rich_help_panel=_TEAM,
    ),
]
TodayOpt = Annotated[
    str | None, typer.Option("--today", help="Today's date, YYYY-MM-DD (default: the local date).")
]
ZoneOpt = Annotated[
    str | None, typer.Option("--timezone", help="IANA time zone, e.g. Asia/Kolkata (default: local).")
]
StepsOpt = Annotated[
    int | None, typer.Option("--max-steps", help="Model requests per question (default: 8).")
]
BudgetOpt = Annotated[
    int | None,
    typer.Option("--max-tokens-budget", help="Input tokens per question (default: 100000)."),
]
MaxTokensOpt = Annotated[
    int | None,
    typer.Option(
        "--max-tokens",
        help="Output tokens per reply (env ANALYTICS_AGENT_MAX_TOKENS; default: 4096 for openai, the "
        "model's own for bedrock; 0 sends no cap).",
        show_default=False,
    ),
]
ConnectOpt = Annotated[float | None, typer.Option("--connect-timeout", help="Seconds (default: 10).")]
DeadlineOpt = Annotated[
    float | None,
    typer.Option(
        "--request-deadline",
        help="Seconds one model request may take in all, retries included (default: 900).",
    ),
]
ReadOpt = Annotated[
    float | None, typer.Option("--read-timeout", help="Seconds (default: 120 openai, 3600 bedrock).")
]
RetriesOpt = Annotated[
    int | None, typer.Option("--max-retries", help="Retries of transient failures (default: 3).")
]
ToolModeOpt = Annotated[
    str | None,
    typer.Option(
        "--tool-mode",
        help="native | text | auto (default): text puts the tools in the prompt for models without tool "
        "calling; auto switches to it when the server says the model cannot call tools.",
        show_default=False,
    ),
]
TranscriptOpt = Annotated[
    Path | None,
    typer.Option(
        "--transcript",
        help="JSON Lines file (default: <data dir>/transcripts/<date>.jsonl).",
        show_default=False,
    ),
]
StreamOpt = Annotated[
    bool | None,
    typer.Option(
        "--stream/--no-stream",
        help="Stream the reply (default: on a terminal, unless the endpoint is remembered as unable to).",
        show_default=False,
    ),
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No trace on stderr.")]
JsonOpt = Annotated[bool, typer.Option("--json", help=JSON_HELP)]


def ask(
    question: Annotated[str, typer.Argument(help="The question, in plain language.")],
    provider: ProviderOpt = None,
    base_url: BaseUrlOpt = None,
    model: ModelOpt = None,
    api_key: ApiKeyOpt = None,
    region: RegionOpt = None,
    profile: ProfileOpt = None,
    today: TodayOpt = None,
    timezone: ZoneOpt = None,
    max_steps: StepsOpt = None,
    max_tokens_budget: BudgetOpt = None,
    max_tokens: MaxTokensOpt = None,
    connect_timeout: ConnectOpt = None,
    read_timeout: ReadOpt = None,
    request_deadline: DeadlineOpt = None,
    max_retries: RetriesOpt = None,
    tool_mode: ToolModeOpt = None,
    transcript: TranscriptOpt = None,
    stream: StreamOpt = None,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
    show_sql: ShowSqlOpt = False,
    chart: ChartOpt = None,
    chart_file: ChartFileOpt = None,
    save_results: SaveResultsOpt = None,
    strict: StrictOpt = False,
    server: ServerOpt = None,
    token_file: TokenFileOpt = None,
) -> None:
    """Answer one question: the trace on stderr, the answer (and its chart) on stdout."""
    view = View(quiet, as_json, show_sql, chart, chart_file, save_results, strict)
    settings = _settings(locals(), as_json=as_json)
    if not question.strip():
        from analytics_agent.errors import ConfigError

        empty = ConfigError('the question is empty; e.g. analytics-agent ask "How did Pune do yesterday?"')
        if as_json:
            print_json_error(empty)
        raise empty
    _answer_one(
        question, settings, view, transcript=transcript, stream=stream, server=server, token_file=token_file
    )


def chat(
    provider: ProviderOpt = None,
    base_url: BaseUrlOpt = None,
    model: ModelOpt = None,
    api_key: ApiKeyOpt = None,
    region: RegionOpt = None,
    profile: ProfileOpt = None,
    today: TodayOpt = None,
    timezone: ZoneOpt = None,
    max_steps: StepsOpt = None,
    max_tokens_budget: BudgetOpt = None,
    max_tokens: MaxTokensOpt = None,
    connect_timeout: ConnectOpt = None,
    read_timeout: ReadOpt = None,
    request_deadline: DeadlineOpt = None,
    max_retries: RetriesOpt = None,
    tool_mode: ToolModeOpt = None,
    transcript: TranscriptOpt = None,
    stream: StreamOpt = None,
    quiet: QuietOpt = False,
    show_sql: ShowSqlOpt = False,
    chart: ChartOpt = None,
    server: ServerOpt = None,
    token_file: TokenFileOpt = None,
) -> None:
    """Ask questions in a conversation: /tools, /reset, /exit (or Ctrl-D); Ctrl-C stops one answer."""
    from analytics_agent.cli.chat_repl import ChatSession
    from analytics_agent.workspace.provider_factory import make_provider

    view = View(quiet=quiet, show_sql=show_sql, chart=chart)
    settings = _settings(locals())
    streaming = sys.stdout.isatty() if stream is None else stream
    with open_tools(settings.timezone, server=server, token_file=token_file) as ws:
        if not has_tables(ws):
            typer.echo(f"note: {empty_database(ws)}", err=True)
        model_provider = make_provider(settings, stream=streaming, stream_asked=stream is True)
        wiring = _wire(ws, model_provider, settings, view, transcript=transcript, stream=streaming)
        try:
            session = ChatSession(wiring, write=typer.echo)
            session.show = lambda result, question: show_answer(wiring, result, question, view)
            if sys.stdin.isatty():
                from analytics_agent.cli.terminal_input import TerminalReader, keep_typed_ahead

                fd = sys.stdin.fileno()
                with keep_typed_ahead(fd):
                    session.run(TerminalReader(fd, write=lambda text: typer.echo(text, nl=False)))
            else:
                session.run(input)
        finally:
            wiring.close()
            _close(model_provider)


def demo(
    transcript: TranscriptOpt = None,
    stream: StreamOpt = None,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
    show_sql: ShowSqlOpt = False,
) -> None:
    """See it work offline: a scripted model drives the real provider, loop and tools on the sample data."""
    from analytics_agent.config import Settings
    from analytics_agent.errors import DatabaseError
    from analytics_agent.workspace.demo import (
        DEMO_BASE_URL,
        DEMO_MODEL,
        DEMO_QUESTION,
        demo_script,
        missing_demo_tools,
    )

    with open_workspace(demo=True) as ws:
        problem = missing_demo_tools(ws.registry.names, ws.db_path)
    if problem:
        raise DatabaseError(problem)
    script = demo_script()
    settings = Settings(model=DEMO_MODEL, base_url=DEMO_BASE_URL, max_retries=0)
    if not quiet and not as_json:
        typer.echo(f"Question: {DEMO_QUESTION}", err=True)
    view = View(quiet=quiet, as_json=as_json, show_sql=show_sql)
    _answer_one(
        DEMO_QUESTION, settings, view, transcript=transcript, stream=stream, client=script.client(), demo=True
    )
    try:
        script.assert_all_used()
    except AssertionError as exc:
        from analytics_agent.errors import ProviderResponseError

        raise ProviderResponseError(f"the demo script did not run as written: {exc}") from None


# The model and limit flags ask and chat share (typer needs them declared on each command).
_SETTING_FLAGS = (
    "provider", "base_url", "model", "api_key", "region", "profile", "today", "timezone", "max_steps",
    "max_tokens_budget", "max_tokens", "connect_timeout", "read_timeout", "request_deadline", "max_retries",
    "tool_mode",
)  # fmt: skip


def _settings(command_args: dict[str, Any], *, as_json: bool = False):
    """Resolved settings from a command's flags; without a model, one line on how to set one, exit 2."""
    from analytics_agent.config import resolve_settings
    from analytics_agent.errors import ConfigError
    from analytics_agent.workspace.provider_factory import NO_MODEL_MESSAGE

    try:
        settings = resolve_settings({name: command_args[name] for name in _SETTING_FLAGS})
    except ConfigError as exc:
        if as_json:
            print_json_error(exc)
        raise
    if not settings.model:
        if as_json:
            print_json_error(ConfigError(NO_MODEL_MESSAGE))
        typer.echo(f"error: {NO_MODEL_MESSAGE}", err=True)
        raise typer.Exit(2)
    return settings


def _answer_one(
    question: str, settings: Any, view: View, *, transcript: Path | None, stream: bool | None,
    client: Any = None, demo: bool = False, server: str | None = None, token_file: Path | None = None,
) -> None:  # fmt: skip
    from analytics_agent.errors import AnalyticsAgentError

    try:
        wiring, result = _run_question(
            question, settings, view, transcript=transcript, stream=stream, client=client, demo=demo,
            tools=lambda: open_tools(settings.timezone, demo=demo, server=server, token_file=token_file),
        )  # fmt: skip
    except AnalyticsAgentError as exc:
        if view.as_json:
            print_json_error(exc)
        raise
    show_answer(wiring, result, question, view)
    if result.stop not in ("answer", "filtered"):
        raise typer.Exit(1)
    if view.strict:
        from analytics_agent.present.trace import answer_caveat

        if answer_caveat(result):
            typer.echo("error: --strict: the answer has unverified numbers (see the caveat)", err=True)
            raise typer.Exit(UNVERIFIED_EXIT)


def _run_question(question: str, settings: Any, view: View, *, transcript, stream, client, demo: bool, tools):
    from analytics_agent.errors import AnalyticsAgentError, DatabaseError
    from analytics_agent.workspace.provider_factory import make_provider

    streaming = (sys.stdout.isatty() and not view.as_json) if stream is None else stream
    with tools() as ws:
        if not has_tables(ws):  # nothing to answer from: say how to load a file, spend no model call
            raise DatabaseError(empty_database(ws))
        model_provider = make_provider(settings, stream=streaming, client=client, stream_asked=stream is True)
        wiring = _wire(
            ws, model_provider, settings, view, transcript=transcript, stream=streaming and not view.as_json
        )
        try:
            return wiring, wiring.agent.ask(question)
        except (AnalyticsAgentError, KeyboardInterrupt) as exc:
            if wiring.transcript is not None:
                wiring.transcript.error(str(exc) or type(exc).__name__)
            raise
        finally:
            wiring.close()
            _close(model_provider)


def _wire(ws: Any, model_provider: Any, settings: Any, view: View, *, transcript: Path | None, stream: bool):
    from analytics_agent.cli.output import stderr_spinner, stdout_color
    from analytics_agent.present.highlight import BOLD, RESET
    from analytics_agent.present.transcript import Transcript, default_transcript_path
    from analytics_agent.workspace.session import build

    path = (transcript or default_transcript_path()).expanduser()
    provider_secrets = getattr(model_provider, "secrets", None) or tuple

    def secrets() -> tuple[str, ...]:  # asked per line: boto3's resolved credentials can change
        return (*settings.secrets, *provider_secrets())

    writer = Transcript(
        path, secrets=secrets, warn=lambda message: typer.echo(f"warning: {message}", err=True)
    )
    bold, reset = (BOLD, RESET) if stdout_color() else ("", "")
    return build(
        ws,
        model_provider,
        settings,
        trace=None if view.quiet else (lambda line: typer.echo(line, err=True)),
        transcript=writer,
        stream_to=(lambda piece: typer.echo(f"{bold}{piece}{reset}", nl=False)) if stream else None,
        show_sql=view.show_sql,
        spinner=None if view.quiet or view.as_json else stderr_spinner(),
    )


def _close(model_provider: Any) -> None:
    close = getattr(model_provider, "close", None)
    if callable(close):
        close()
