"""Reading the shell and Python examples out of README.md and docs/*.md, for tests/docs/test_examples.py.

How a page's examples are read:

- ```` ```bash ```` blocks are split into commands (a command goes on while a line ends in ``\\`` or a quote
  is open). ``# ...`` lines right under a command (no blank line between) are its shown output: each must
  appear in what the command printed (stdout and stderr; spacing ignored; ``...`` matches anything; what
  genuinely varies is normalised, see ``NORMALISED``). A ``# ...`` line after a blank line is a comment.
  ``export NAME=VALUE`` sets the variable for the rest of the page.
- ```` ```text ```` blocks that start with ``$ `` are a command and its output, checked the same way.
- A block with a file name as its title (```` ```sql title="my-tools/visits_by_region.sql" ````, which the
  site shows above the block) is that file: it is written there, where the commands after it read it.
- ```` ```python ```` blocks run in one fresh namespace each; ``# ...`` lines right under a statement are
  shown output, checked against what the block printed.
- A ```` ```json ```` block of a tool call's arguments (an object with ``"table"``) followed at once by a
  ```` ```json ```` block of a result (an object with ``"columns"``) is an ``aggregate`` call and its result:
  the call runs (on the database ``CALL_DATA`` in tests/docs/test_examples.py names) and must print it.

Marking an example that cannot run here (it needs a real model server, a cloud account, another program,
or installs packages): an **illustration**, marked in the page where the reader sees it:

- the whole block: its first line is ``# illustration: <why it is not run>`` (in a ```` ```text ````
  transcript, the line above the ``$``);
- one command of a block: its trailing comment starts with ``illustration``
  (``ollama pull qwen3:8b   # illustration: another program``).

An illustration is not run; an ``analytics-agent`` command in one is still parsed by the real command tree
(its command, arguments and options must exist) and a Python one compiled. Every other example runs: one
that shows output has it checked, one that shows none has its exit code checked. A command that is not ours
to run (``NEEDS_MARK``, or a program other than ``analytics-agent`` and a few shell tools) fails the test
until it is marked, so a new page's examples are checked or marked, never silently skipped; commands or
Python in a ```` ```text ```` block (``hidden_examples``) fail it too.
"""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHELL_LANGUAGES = ("bash", "sh", "shell", "console")
BLOCK_MARK = re.compile(r"^#\s*illustration\b[:\s]*(.*)$", re.I)
LINE_MARK = re.compile(r"\s#\s*illustration\b[:\s]*(.*)$", re.I)

# What genuinely varies between runs, normalised in shown and printed text alike (and nothing else):
NORMALISED: list[tuple[str, str, str]] = [
    (r"\b\d+(\.\d+)? s\b", "<duration>", "a duration (`0.8 s`): wall-clock time"),
    (r"(?<=  )\d+\.\d(?=  |$)", "<seconds>", "a table's seconds cell (eval's `seconds`, `median s`)"),
]
# Paths: the examples run in a temporary folder and name files relative to it, so none needs normalising.
# Versions: no shown output holds one. A page writes `...` where it leaves something out on purpose.

# (pattern on the command, why it cannot run here): a matching command must be marked as an illustration.
NEEDS_MARK: list[tuple[str, str]] = [
    (r"(^|&& )(pip|pytest|mkdocs) ", "installs packages or runs the test suite itself"),
    (r"^(ollama|vllm|llama-server) ", "starts a model server: another program"),
    (r"^(claude|npx|rsvg-convert|which|cosmic-ray|cr-report|python3? )", "another program"),
    (r"--provider bedrock", "needs AWS credentials and Bedrock model access"),
    (r"openrouter\.ai", "needs an OpenRouter key and the internet"),
    (r"--type (postgres|ducklake|motherduck)|s3://", "needs a PostgreSQL server, S3 or MotherDuck"),
    (
        r"^analytics-agent (\S+ )*(mcp|serve)\b",
        "serves until stopped (tests/mcp_server and the server's tests run it)",
    ),
    (r"^analytics-agent (\S+ )*eval\b(?!.*--only)", "scores a real model on every question"),
    (r"--server https?://", "needs a running team server (tests/cli/test_ask_server.py runs one)"),
]


@dataclass
class Example:
    page: str
    block: int
    line: int
    kind: str  # "shell", "python", "file" or "call" (an `aggregate` call's arguments, then its result)
    code: str
    shown: list[str] = field(default_factory=list)
    illustration: str = ""  # why it is not run, as the page says; "" when it runs

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.code.splitlines()[0][:90]}"

    @property
    def checks(self) -> str:
        """What the docs test checks of it: "output", "exit code" or "illustration"."""
        if self.illustration:
            return "illustration"
        return "output" if self.shown else "exit code"


def fenced_blocks(text: str) -> Iterator[tuple[str, int, list[str], str]]:
    """(language, line number of the first line inside, lines, title) of each fenced block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = re.match(r"^(\s*)(`{3,})(\w*)(.*)$", lines[i])
        if not opening:
            i += 1
            continue
        indent, fence, language, rest = opening.groups()
        title = re.search(r'title="([^"]+)"', rest)
        body, start = [], i + 1
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        yield language, start + 1, body, title.group(1) if title else ""


def shell_examples(page: str, start: int, lines: list[str]) -> list[Example]:
    examples: list[Example] = []
    pending: list[str] = []
    pending_line = 0
    after_command = False
    for offset, line in enumerate(lines):
        if pending:
            pending.append(line)
            if complete("\n".join(pending)):
                examples.append(_command(page, start, pending_line, "\n".join(pending)))
                pending, after_command = [], True
            continue
        stripped = line.strip()
        if not stripped:
            after_command = False
        elif stripped.startswith("#"):
            if after_command:
                _add_shown(examples[-1], stripped[1:])
        else:
            pending, pending_line = [line], start + offset
            if complete(line):
                examples.append(_command(page, start, pending_line, line))
                pending, after_command = [], True
    assert not pending, f"{page}:{pending_line}: a command whose quote or line continuation never ends"
    return examples


def _command(page: str, start: int, line: int, code: str) -> Example:
    mark = LINE_MARK.search(code.splitlines()[-1])
    return Example(page, start, line, "shell", code, illustration=mark.group(1) or "marked" if mark else "")


def transcript_example(page: str, start: int, lines: list[str]) -> Example:
    """A ```text block that starts with ``$ command``: the command, then what it prints."""
    command = [lines[0][2:]]
    i = 1
    while not complete("\n".join(command)):
        command.append(lines[i])
        i += 1
    example = _command(page, start, start, "\n".join(command))
    example.shown = [line for line in lines[i:] if line.strip()]
    return example


def python_example(page: str, start: int, lines: list[str]) -> Example:
    example = Example(page, start, start, "python", "\n".join(lines))
    after_statement = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("#"):
            if after_statement:
                _add_shown(example, stripped[1:])
        else:
            after_statement = bool(stripped)
    return example


def _add_shown(example: Example, text: str) -> None:
    """A shown line; one that starts with two spaces goes on the line before (a long line, wrapped)."""
    if text.startswith("  ") and example.shown:
        example.shown[-1] += text.strip()
    else:
        example.shown.append(text.strip())


def complete(command: str) -> bool:
    if command.rstrip().endswith("\\"):
        return False
    try:
        shlex.split(command, comments=True)
    except ValueError:  # a quote still open: the command goes on
        return False
    return True


def page_examples(path: Path) -> list[Example]:
    page = path.relative_to(ROOT).as_posix()
    examples: list[Example] = []
    request: tuple[int, str] | None = None  # the last block, when it was a tool call's arguments
    for language, start, lines, title in fenced_blocks(path.read_text(encoding="utf-8")):
        mark = BLOCK_MARK.match(lines[0].strip()) if lines else None
        body = lines[1:] if mark else lines
        parsed = _json_object(body) if language == "json" else {}
        if request and "columns" in parsed:
            examples.append(Example(page, request[0], request[0], "call", request[1], ["\n".join(body)]))
        request = (start, "\n".join(body)) if "table" in parsed else None
        if language in SHELL_LANGUAGES:
            found = shell_examples(page, start, body)
        elif language == "text" and body and body[0].startswith("$ "):
            found = [transcript_example(page, start, body)]
        elif language == "python":
            found = [python_example(page, start, body)]
        elif title:
            found = [Example(page, start, start, "file", "\n".join(lines) + "\n", [title])]
        else:
            continue
        for example in found:
            if mark:
                example.illustration = mark.group(1) or "marked"
        examples += found
    return examples


def _json_object(lines: list[str]) -> dict[str, object]:
    try:
        value = json.loads("\n".join(lines))
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


HIDDEN_CODE = re.compile(r"^\s*(analytics-agent |pip3? install |python3? |import \w|from [\w.]+ import )")


def hidden_examples(path: Path) -> list[str]:
    """Commands or Python in a block that is neither shell nor Python (``text``, no language), so the
    checker would not read them: they belong in a ```` ```bash ```` or ```` ```python ```` block."""
    page = path.relative_to(ROOT).as_posix()
    return [
        f"{page}:{start}: {lines[0][:80] if lines else ''}"
        for language, start, lines, _ in fenced_blocks(path.read_text(encoding="utf-8"))
        if language in ("", "text")
        and not (lines and lines[0].startswith("$ "))
        and any(HIDDEN_CODE.match(line) for line in lines)
    ]


def inventory(pages: Iterable[Path]) -> Counter[str]:
    """How many examples have their output checked, only their exit code, or are illustrations."""
    return Counter(e.checks for page in pages for e in page_examples(page) if e.kind != "file")


def needs_mark(command: str) -> str | None:
    """Why a command cannot run here, if it is of a kind that must be marked as an illustration."""
    flat = " ".join(command.replace("\\\n", " ").split())
    for pattern, reason in NEEDS_MARK:
        if re.search(pattern, flat):
            return reason
    return None


# --- checking shown output ----------------------------------------------------------------------------


def _squash(text: str) -> str:
    for pattern, placeholder, _ in NORMALISED:
        text = re.sub(pattern, placeholder, text, flags=re.M)
    return re.sub(r"\s+", "", text)


def missing_lines(shown: list[str], printed: str) -> list[str]:
    """The shown lines that do not appear in what was printed."""
    haystack = _squash(printed)
    missing = []
    for line in shown:
        pattern = ".*?".join(re.escape(part) for part in _squash(line).split("..."))
        if pattern and not re.search(pattern, haystack):
            missing.append(line)
    return missing
