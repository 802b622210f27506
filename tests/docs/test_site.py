"""The docs site renders as the Markdown reads: built as CI builds it (``mkdocs build --strict``), no list
item comes out as a paragraph with a literal dash. Python-Markdown nests a block in a list item only when
it is indented four spaces, and starts a list only after a blank line: a two-space fenced block in an item
(docs/asking.md's Bedrock list, docs/charts.md) or a list right under a paragraph (docs/performance.md)
turned the items after it into one paragraph of ``- **Retries…** - **Tools…**`` text."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.required import in_ci

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("mkdocs") is None:
        reason = "mkdocs is not installed (pip install '.[docs]')"
        if in_ci():
            pytest.fail(f"{reason}: .ci/run installs the docs extra", pytrace=False)
        pytest.skip(reason)
    out = tmp_path_factory.mktemp("site")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(out)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    return out


class _Paragraphs(HTMLParser):
    """The text of each ``<p>``, as the reader sees it (markup dropped, line breaks kept)."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[list[str]] = []
        self.paragraphs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "p":
            self.open.append([])

    def handle_endtag(self, tag: str) -> None:
        if tag == "p" and self.open:
            self.paragraphs.append("".join(self.open.pop()))

    def handle_data(self, data: str) -> None:
        if self.open:
            self.open[-1].append(data)


def paragraphs(page: Path) -> list[str]:
    parser = _Paragraphs()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.paragraphs


def test_no_list_item_renders_as_a_paragraph_with_a_dash(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert any(p.parent.name == "asking" for p in pages) and any(p.parent.name == "charts" for p in pages)
    found = [
        f"{page.relative_to(site)}: {line.strip()[:70]}"
        for page in pages
        for text in paragraphs(page)
        for line in text.splitlines()
        if line.lstrip().startswith(("- **", "- "))
    ]
    assert not found, "a list rendered as a paragraph:\n" + "\n".join(found)


def test_the_bedrock_and_chart_lists_are_lists(site: Path) -> None:
    asking = (site / "asking" / "index.html").read_text(encoding="utf-8")
    assert "<strong>Retries and timeouts.</strong>" in asking
    item = asking.index("<strong>Retries and timeouts.</strong>")
    assert asking.rfind("<li>", 0, item) > asking.rfind("</ul>", 0, item)  # inside an open list
    charts = (site / "charts" / "index.html").read_text(encoding="utf-8")
    item = charts.index("Several measures: a line draws")
    assert charts.rfind("<li>", 0, item) > charts.rfind("</ul>", 0, item)
