"""``tools list | spec | call``: the tools a model can call, inspected and run without a model."""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from analytics_agent.cli.context import JsonFlag, open_workspace
from analytics_agent.present.safe_text import escape_control, escape_json_text

tools_app = typer.Typer(help="List, inspect and run the tools a model can call.", no_args_is_help=True)


@tools_app.command("list")
def tools_list(as_json: JsonFlag = False) -> None:
    """Every tool with a one-line description."""
    with open_workspace() as ws:
        items = [(t.name, t.description) for t in ws.registry]
    if as_json:
        typer.echo(json.dumps([{"name": n, "description": d} for n, d in items], indent=2))
        return
    width = max(len(n) for n, _ in items)
    for name, description in items:
        typer.echo(escape_control(f"{name.ljust(width)}  {first_sentence(description)}"))


@tools_app.command("spec")
def tools_spec(
    fmt: Annotated[str, typer.Option("--format", help="openai, bedrock or mcp.")] = "openai",
    strict: Annotated[bool, typer.Option("--strict", help="OpenAI strict-mode schemas.")] = False,
) -> None:
    """The JSON tool payload a provider receives."""
    from analytics_agent.errors import ConfigError

    if fmt not in ("openai", "bedrock", "mcp"):
        raise ConfigError(f"--format must be openai, bedrock or mcp, not {fmt!r}")
    if strict and fmt != "openai":
        raise ConfigError("--strict applies to --format openai only")
    with open_workspace() as ws:
        renderings = {
            "openai": lambda: ws.registry.openai_tools(strict=strict),
            "bedrock": ws.registry.bedrock_tool_config,
            "mcp": ws.registry.mcp_tools,
        }
        payload = renderings[fmt]()
    typer.echo(escape_json_text(json.dumps(payload, indent=2, ensure_ascii=False)))


@tools_app.command("call")
def tools_call(
    name: Annotated[str, typer.Argument(help="Tool name, as in 'tools list'.")],
    arguments: Annotated[str, typer.Argument(help="Arguments as a JSON object.")] = "{}",
    timezone: Annotated[
        Optional[str],  # noqa: UP045 - typer reads the annotation at run time
        typer.Option("--timezone", help="Business time zone for timestamps (default: config, else local)."),
    ] = None,
) -> None:
    """Run one tool without a model and print exactly what the model would read."""
    with open_workspace(timezone) as ws:
        outcome = ws.executor.execute(name, arguments)
    # the model reads it raw; a terminal must not obey it (a result is JSON, an error a sentence)
    typer.echo(escape_control(outcome.text) if outcome.is_error else escape_json_text(outcome.text))
    if outcome.is_error:
        raise typer.Exit(1)


def first_sentence(text: str) -> str:
    head = text.split(". ")[0].rstrip(".")
    return head + "."
