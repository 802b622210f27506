"""``modes list | forget``: what the program remembered about a model endpoint, and forgetting it.

Two choices are remembered per endpoint and model, in ``<data dir>/tool_modes.json``: the text protocol for
a server that refused native tool calling (``--tool-mode auto``), and "no streaming" for one that closed a
streamed reply before sending anything. ``--tool-mode native`` and ``--stream`` each override theirs for the
endpoint they are used with; ``modes forget`` clears them without asking a model (docs/asking.md).
"""

# No ``from __future__ import annotations`` here: typer reads these signatures at every start.
# ruff: noqa: UP045 - typer reads the Optional[...] annotations at run time

import json
from typing import Annotated, Optional

import typer

from analytics_agent.cli.global_options import JsonFlag

modes_app = typer.Typer(
    help="What is remembered per model endpoint (text protocol, no streaming), and forgetting it.",
    no_args_is_help=True,
)
STREAMING = " (streaming)"
"""The suffix of a streaming choice's key (``provider_factory``); the rest is the endpoint and model."""


def _memory():
    from analytics_agent.providers.tool_mode import ToolModeMemory
    from analytics_agent.workspace.provider_factory import tool_modes_path

    return ToolModeMemory(tool_modes_path())


def _what(key: str, mode: object) -> tuple[str, str]:
    """(endpoint and model, what is remembered about it), as a person reads them."""
    if key.endswith(STREAMING):
        return key[: -len(STREAMING)], "no streaming" if mode == "off" else f"streaming {mode}"
    return key, f"tool mode {mode}"


@modes_app.command("list")
def modes_list(as_json: JsonFlag = False) -> None:
    """Every remembered choice: endpoint and model, what, since when and why."""
    memory = _memory()
    entries = memory.entries()
    if as_json:
        typer.echo(json.dumps(entries, indent=2, ensure_ascii=False))
        return
    if not entries:
        typer.echo(f"Nothing remembered ({memory.path}).")
        return
    from analytics_agent.present.safe_text import escape_control

    for key, entry in sorted(entries.items()):
        endpoint, what = _what(key, entry.get("mode"))
        since = f" since {entry['since']}" if entry.get("since") else ""
        reason = f": {entry['reason']}" if entry.get("reason") else ""
        typer.echo(escape_control(f"{endpoint}  {what}{since}{reason}"))


@modes_app.command("forget")
def modes_forget(
    match: Annotated[
        Optional[str],
        typer.Argument(
            metavar="[ENDPOINT]",
            help="Only the choices whose endpoint or model contains this text (default: all).",
        ),
    ] = None,
) -> None:
    """Forget remembered choices: the next question tries native tool calling and streaming again."""
    from analytics_agent.errors import ConfigError
    from analytics_agent.present.safe_text import escape_control

    memory = _memory()
    gone = memory.forget_matching(match or "")
    if not gone:
        known = sorted({_what(k, None)[0] for k in memory.entries()})
        if match is None or not known:
            typer.echo("Nothing was remembered.")
            return
        raise ConfigError(
            f"nothing remembered matches {match!r}; remembered: {', '.join(known)} (modes list shows them)"
        )
    for key, entry in sorted(gone.items()):
        endpoint, what = _what(key, entry.get("mode"))
        typer.echo(escape_control(f"forgot {what} for {endpoint}"))
