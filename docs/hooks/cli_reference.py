"""MkDocs hook: fills docs/cli.md with the command reference rendered from the Typer app at build time."""

from __future__ import annotations

from typing import Any

MARKER = "<!-- cli-reference -->"


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    if page.file.src_uri != "cli.md":
        return markdown
    if MARKER not in markdown:
        raise ValueError(f"docs/cli.md lost its {MARKER} line: the generated reference has nowhere to go")
    from analytics_agent.cli.reference import render_markdown

    return markdown.replace(MARKER, render_markdown())
