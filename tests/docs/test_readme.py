"""The README stays a five-minute read, and its test command is the one CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme_is_at_most_1500_words() -> None:
    words = len((ROOT / "README.md").read_text(encoding="utf-8").split())  # as `wc -w` counts
    assert words <= 1500, f"README.md has {words} words; move the detail into docs/"


def test_readme_links_only_to_pages_that_exist() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\((docs/[^)#]+)(?:#[^)]*)?\)", text)
    assert targets
    for target in targets:
        assert (ROOT / target).is_file(), target


def test_the_readme_test_command_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = re.search(r'^pip install "\.\[test\]" && (pytest.*)$', readme, re.M)
    assert command is not None, "the README's second command (install + tests) is missing"
    assert re.search(rf"^(run_pytest )?{re.escape(command.group(1))}$", ci, re.M), (
        "CI no longer runs the README's command"
    )
