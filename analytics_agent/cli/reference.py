"""The command reference of the docs site (docs/cli.md), rendered from the Typer app's own command tree.

Built by the MkDocs hook in ``docs/hooks/cli_reference.py`` at every site build, so the page lists exactly
the commands and options the program has. Nothing imports this module at start-up.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from analytics_agent.cli.global_options import PANEL as GLOBAL_PANEL
from analytics_agent.cli.plain_params import plain_labels

# Typer may carry its own copy of click (typer._click): the command tree is read by duck typing, so this
# works whichever click a Typer release builds its commands with.
Command = Any


def root_command() -> Command:
    """The click command the ``analytics-agent`` script runs (with the global options on every command)."""
    import typer

    from analytics_agent.cli.app import app
    from analytics_agent.cli.global_options import add_global_options

    command = typer.main.get_command(app)
    for sub in getattr(command, "commands", {}).values():
        add_global_options(sub)
    return command


def walk(command: Command, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Command]]:
    """Every command under ``command`` with its path of names, depth first, in the order help lists them."""
    yield path, command
    if hasattr(command, "list_commands"):
        ctx = _context(command, " ".join(path) or "analytics-agent")
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from walk(sub, (*path, name))


def command_names(command: Command | None = None) -> list[str]:
    """Each command's full name (``tools call``), the root left out."""
    return [" ".join(path) for path, _ in walk(command or root_command()) if path]


def render_markdown(command: Command | None = None) -> str:
    """One section per command: its usage, its help, and a table of its arguments and options."""
    root = command or root_command()
    parts: list[str] = []
    for path, cmd in walk(root):
        name = " ".join(("analytics-agent", *path))
        level = "##" if len(path) <= 1 else "###"
        parts.append(f"{level} `{name}`\n")
        ctx = _context(cmd, name)
        usage = " ".join(cmd.collect_usage_pieces(ctx))
        parts.append(f"```text\n{name} {usage}\n```\n")
        if cmd.help:
            parts.append(_plain(cmd.help) + "\n")
        rows = [_row(param, ctx) for param in cmd.get_params(ctx) if _listed(param, top=not path)]
        if path and not hasattr(cmd, "list_commands"):
            rows.append(("the global options", "`--db`, `--tools-dir`, `--allow-sql`, as above"))
        if rows:
            parts.append("| argument or option | meaning |\n|---|---|")
            parts.extend(f"| {left} | {right} |" for left, right in rows)
            parts.append("")
    return "\n".join(parts)


def _listed(param: Any, *, top: bool) -> bool:
    """Each command's own parameters; the global options once, on the top command; never ``--help``."""
    if getattr(param, "hidden", False) or getattr(param, "name", "") == "help":
        return False
    return top or getattr(param, "rich_help_panel", None) != GLOBAL_PANEL


def _context(command: Command, name: str) -> Any:
    """A context of the click the command was built with (Typer's own copy or click itself)."""
    context_class: Any = getattr(command, "context_class", None)
    return context_class(command, info_name=name)


def _metavar(param: Any, ctx: Any) -> str:
    """The value's label as ``--help`` shows it: click's ``make_metavar`` where the parameter has it;
    typer 0.29+ builds parameters without it, so its plain label (``plain_labels``) instead."""
    make = getattr(param, "make_metavar", None)
    if make is not None:
        return str(make(ctx))
    plain_labels([param])
    if getattr(param, "param_type_name", "") == "argument":
        return str(param.get_usage_pieces(ctx)[0])
    return str(param.display_type_rich(ctx) or "")


def _row(param: Any, ctx: Any) -> tuple[str, str]:
    if getattr(param, "param_type_name", "") == "option":
        names = ", ".join(f"`{opt}`" for opt in (*param.opts, *param.secondary_opts))
        metavar = "" if param.is_flag else f" {_metavar(param, ctx)}"
        left = f"{names}{_cell(metavar)}"
        text = param.help or ""
        default = _default(param)
        if default:
            text = f"{text} (default: {default})".strip()
        if param.required:
            text = f"required. {text}"
        return left, _cell(_plain(text))
    metavar = _metavar(param, ctx)
    help_text = getattr(param, "help", None) or ""
    return f"`{metavar}`", _cell(_plain(help_text or ("required" if param.required else "optional")))


def _default(param: Any) -> str:
    show: Any = param.show_default
    value = param.default
    if show is False or value is None or (param.is_flag and value is False) or callable(value):
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value)) if value else ""
    return str(value) if str(value) else ""


def _plain(text: str) -> str:
    """Help text as one paragraph (typer's rich markup is not used by our help strings)."""
    return " ".join(text.split())


def _cell(text: str) -> str:
    """Table-cell safe: a ``|`` would end the cell and ``<dir>`` would read as an HTML tag."""
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
