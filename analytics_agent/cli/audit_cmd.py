"""``audit``: sum up the MCP server's audit trail: who asked what, per user and day, the slowest and the
refused calls (docs/audit.md)."""

# No ``from __future__ import annotations`` here: typer reads these signatures at every start.
import datetime as dt
import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from analytics_agent.cli.context import db_path
from analytics_agent.errors import ConfigError


def audit(
    file: Annotated[
        Optional[Path],  # noqa: UP045 (typer reads the annotation at run time)
        typer.Argument(
            metavar="[FILE]",
            help="The audit trail (its rotated files FILE.1, FILE.2… are read too). "
            "Default: NAME.audit.jsonl beside the database, where mcp --http writes it.",
            show_default=False,
        ),
    ] = None,
    user: Annotated[Optional[str], typer.Option("--user", help="Only this user's calls.")] = None,  # noqa: UP045
    since: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--since", metavar="YYYY-MM-DD", help="Only calls on this day (UTC) or later."),
    ] = None,
    top: Annotated[
        int, typer.Option("--top", min=1, help="How many slowest and refused calls to list.")
    ] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Sum up the audit trail: calls per user and day, who asked what, the slowest and the refused calls."""
    from analytics_agent.cli.mcp_cmd import default_audit_path
    from analytics_agent.team import audit_report

    if since is not None:
        try:
            dt.date.fromisoformat(since)
        except ValueError:
            raise ConfigError(f"--since must be a day as YYYY-MM-DD, not {since!r}") from None
    path = (file or default_audit_path(db_path())).expanduser()
    summary = audit_report.summarize(_lines(path), user=user, since=since)
    if as_json:
        typer.echo(json.dumps(audit_report.as_json(summary, top=top), ensure_ascii=True, indent=2))
    else:
        typer.echo(audit_report.render(summary, top=top))


def _lines(path: Path):
    """The trail's lines, oldest first: ``path.N`` … ``path.1``, then ``path``."""
    rotated = sorted(
        (p for p in path.parent.glob(f"{path.name}.*") if p.suffix[1:].isdigit()),
        key=lambda p: -int(p.suffix[1:]),
    )
    files = [p for p in [*rotated, path] if p.is_file()]
    if not files:
        raise ConfigError(
            f"no audit trail at {path}; `analytics-agent mcp --http` writes one beside the database "
            "(or where --audit FILE says): pass that FILE"
        )
    for file in files:
        try:
            with file.open(encoding="utf-8", errors="replace") as lines:
                yield from lines
        except OSError as exc:
            raise ConfigError(f"cannot read the audit trail {file}: {exc.strerror or exc}") from None
