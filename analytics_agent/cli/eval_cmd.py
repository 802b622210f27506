"""``analytics-agent eval [FILE]``: the flags; ``evaluation.command`` does the work (registered by app.py)."""

# No ``from __future__ import annotations`` here: typer reads these signatures at every start, and a string
# annotation costs it an eval each (about a tenth of --help's CPU; docs/performance.md).
import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from analytics_agent.cli.ask_cmd import (
    ApiKeyOpt,
    BaseUrlOpt,
    BudgetOpt,
    ConnectOpt,
    DeadlineOpt,
    MaxTokensOpt,
    ProfileOpt,
    ProviderOpt,
    ReadOpt,
    RegionOpt,
    RetriesOpt,
    StepsOpt,
    TodayOpt,
    ToolModeOpt,
    ZoneOpt,
)
from analytics_agent.cli.context import open_workspace

ModelsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--model",
        "-m",
        help="Model name; repeat for a side-by-side comparison (env ANALYTICS_AGENT_MODEL, LLM_MODEL); "
        "offline: a bundled stand-in that needs no server.",
        rich_help_panel="Model",
    ),
]


FileArg = Annotated[
    Path | None,
    typer.Argument(
        help="Questions as .jsonl or .yaml, or a bundled set's name: retail (the default, on the sample "
        "data) or real_exports (loads its own data)."
    ),
]
OnlyOpt = Annotated[
    list[str] | None,
    typer.Option("--only", help="Run only this case id or tag (repeatable), e.g. --only relative-date."),
]
RepeatOpt = Annotated[int, typer.Option("--repeat", min=1, help="Ask each question N times.")]
JobsOpt = Annotated[
    int, typer.Option("--jobs", "-j", min=1, max=32, help="Questions asked at once (at most 32).")
]
FailUnderOpt = Annotated[
    float | None,
    typer.Option("--fail-under", min=0, max=100, help="Exit 0 when at least PCT % passed (default: 100)."),
]
CompareOpt = Annotated[
    str | None,
    typer.Option("--compare", help="A stored run (its JSON file, or 'last') to show what changed against."),
]
PriceOpt = Annotated[
    list[str] | None,
    typer.Option("--price", help="Dollars per million tokens: IN,OUT or MODEL=IN,OUT (repeatable)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help='Print {"results": [...], "summary": {...}} as JSON.')]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress on stderr.")]


def eval_command(
    file: FileArg = None,
    provider: ProviderOpt = None,
    base_url: BaseUrlOpt = None,
    model: ModelsOpt = None,
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
    only: OnlyOpt = None,
    repeat: RepeatOpt = 1,
    jobs: JobsOpt = 1,
    fail_under: FailUnderOpt = None,
    compare: CompareOpt = None,
    price: PriceOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Ask a set of questions, check each answer and its numbers, and compare models."""
    flags = {k: v for k, v in locals().items() if k in _SETTING_FLAGS}
    contenders, names = _contenders(flags, list(dict.fromkeys(model or [])))
    from analytics_agent.evaluation.command import EvalRequest, parse_prices

    request = EvalRequest(
        contenders, file=file, repeat=repeat, jobs=jobs, as_json=as_json, fail_under=fail_under,
        compare=compare, prices=parse_prices(price or [], names), quiet=quiet, only=tuple(only or ()),
    )  # fmt: skip
    raise typer.Exit(_run(request, contenders))


def _contenders(flags: dict[str, Any], models: list[str]) -> tuple[list[Any], list[str]]:
    """One contender (settings and provider) per model named, the first model defaulting from settings."""
    from analytics_agent.config import resolve_settings
    from analytics_agent.workspace.provider_factory import NO_MODEL_MESSAGE

    if models and set(models) == {"offline"}:  # the stand-in alone needs no endpoint, key or provider
        from analytics_agent.workspace.offline_model import OFFLINE_BASE_URL

        flags = {**flags, "provider": "openai", "base_url": OFFLINE_BASE_URL}
    settings = resolve_settings({**flags, "model": models[0] if models else None})
    if not settings.model:
        typer.echo(f"error: {NO_MODEL_MESSAGE}", err=True)
        raise typer.Exit(2)
    names = models or [settings.model]
    return [_contender(replace(settings, model=n)) for n in names], names


def _contender(settings: Any) -> Any:
    """The model's contender; ``offline`` is the bundled stand-in, answered in-process (no server)."""
    from analytics_agent.evaluation.runner import Contender
    from analytics_agent.workspace.provider_factory import make_provider

    if settings.model != "offline":
        return Contender(settings, make_provider(settings))
    from analytics_agent.workspace.offline_model import OFFLINE_BASE_URL, offline_client

    settings = replace(
        settings,
        provider="openai",
        base_url=OFFLINE_BASE_URL,
        api_key=None,
        tool_mode="native",
        max_retries=0,
    )
    return Contender(settings, make_provider(settings, client=offline_client()))


def _run(request: Any, contenders: list[Any]) -> int:
    """Evaluate, then close every contender's provider whatever happened."""
    from analytics_agent.evaluation.command import evaluate

    try:
        return evaluate(
            open_workspace, request, out=typer.echo, err_raw=_write_stderr, live=sys.stderr.isatty()
        )
    finally:
        for contender in contenders:
            close = getattr(contender.provider, "close", None)
            if callable(close):
                close()


_SETTING_FLAGS = (
    "provider", "base_url", "api_key", "region", "profile", "today", "timezone", "max_steps",
    "max_tokens_budget", "max_tokens", "connect_timeout", "read_timeout", "request_deadline", "max_retries",
    "tool_mode",
)  # fmt: skip


def _write_stderr(text: str) -> None:
    typer.echo(text, err=True, nl=False)
