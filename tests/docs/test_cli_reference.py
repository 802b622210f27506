"""The command reference page is generated from the Typer app: every command, and every option, is on it."""

from __future__ import annotations

from pathlib import Path

from analytics_agent.cli.reference import command_names, render_markdown, root_command, walk

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_every_command_and_option_appears() -> None:
    page = render_markdown()
    names = command_names()
    # the groups and their commands, as `analytics-agent --help` lists them
    for expected in ("ask", "load", "tools call", "semantic init", "sources add", "eval", "mcp", "demo"):
        assert expected in names
    for name in names:
        assert f"`analytics-agent {name}`" in page, name
    for path, command in walk(root_command()):
        for param in command.params:
            for opt in getattr(param, "opts", ()):
                if opt.startswith("-") and opt != "--help":
                    assert f"`{opt}`" in page, (path, opt)


def test_global_options_are_listed_once_and_markup_is_escaped() -> None:
    page = render_markdown()
    assert page.count("| `--db` PATH |") == 1
    assert "<data dir>" not in page  # would read as an HTML tag
    assert "&lt;data dir&gt;" in page


def test_the_page_keeps_the_place_the_hook_fills() -> None:
    assert "<!-- cli-reference -->" in (DOCS / "cli.md").read_text(encoding="utf-8")


def test_asking_page_lists_each_settings_variables_in_the_order_they_are_read() -> None:
    """docs/asking.md's table, `ask --help` and the settings resolver name the variables in one order."""
    import re

    from analytics_agent.cli.reference import render_markdown
    from analytics_agent.config import _ENV

    page = (DOCS / "asking.md").read_text(encoding="utf-8")
    reference = render_markdown()
    settings = (
        ("base_url", "--base-url"),
        ("model", "--model"),
        ("api_key", "--api-key"),
        ("max_tokens", "--max-tokens"),
    )
    for setting, flag in settings:
        row = re.search(rf"^\| `{flag}` \| (.+) \|$", page, re.M)
        assert row is not None, flag
        assert re.findall(r"`(\w+)`", row.group(1)) == list(_ENV[setting])
        assert ", ".join(_ENV[setting]) in reference.split(f"`{flag}`")[1].split("\n")[0]
