"""Every shell and Python example in README.md and docs/*.md runs as printed, and its shown output holds.

How a page's examples are read:

- ```` ```bash ```` blocks are split into commands (a command goes on while a line ends in ``\\`` or a quote
  is open). ``# ...`` lines right under a command (no blank line between) are its shown output: each must
  appear in what the command printed (stdout and stderr; spacing ignored; ``...`` matches anything; a
  duration such as ``0.8 s`` matches any duration). A ``# ...`` line after a blank line is a comment.
  ``export NAME=VALUE`` sets the variable for the rest of the page.
- ```` ```text ```` blocks that start with ``$ `` are a command and its output, checked the same way.
- A block with a file name as its title (```` ```sql title="my-tools/visits_by_region.sql" ````, which the
  site shows above the block) is that file: it is written there, where the commands after it read it.
- ```` ```python ```` blocks run in one fresh namespace each; ``# ...`` lines right under a statement are
  shown output, checked against what the block printed.

Each page runs in its own temporary folder (a fresh data and config folder, the default database already
holding the sample data, and ``tests/data/real`` where the examples say it is), in page order, commands in
the order printed. ``analytics-agent`` runs in-process through its real entry point (``main``). The model
endpoint is a loopback stand-in (tests/example_model.py): ``OPENAI_BASE_URL`` points at it, and so does a
local server's URL in an example (``http://localhost:11434/v1`` and the like), so the Ollama, vLLM,
llama.cpp and LM Studio examples run for real against it.

Some examples cannot run here; each kind is listed in ``NOT_RUN`` with its reason, and what an
``analytics-agent`` command among them is checked for is that its command, arguments and options exist
(parsed by the real command tree, nothing run).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from example_model import ExampleModel
from typer.testing import CliRunner

from analytics_agent.cli.app import main
from analytics_agent.cli.reference import root_command
from analytics_agent.db.connect import ensure_database

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LOCAL_SERVER = re.compile(r"http://(?:localhost|127\.0\.0\.1):\d+/v1")

# (pattern on the command, reason): matching `analytics-agent` commands are parsed, not run; other programs
# are neither (they are not ours to run here).
NOT_RUN: list[tuple[str, str]] = [
    (r"^pip |^pytest\b|^mkdocs ", "installs packages or runs the test suite itself"),
    (r"^(ollama|vllm|llama-server) ", "starts a model server: another program"),
    (r"^(claude|npx|rsvg-convert|which) ", "another program (an MCP client, a converter)"),
    (r"^python -m tests\.bench", "a benchmark, minutes long: its options are checked against its --help"),
    (r"--provider bedrock", "needs AWS credentials and Bedrock model access"),
    (r"openrouter\.ai", "needs an OpenRouter key and the internet"),
    (r"--type (postgres|ducklake|motherduck)|s3://", "needs a PostgreSQL server, S3 or MotherDuck"),
    (r"sources add trips", "reads a folder of the reader's (/data/trips/)"),
    (r"^analytics-agent (\S+ )*mcp\b", "serves MCP until stopped; tests/mcp_server runs the server"),
    (r"--server https?://", "needs a running team server; tests/cli/test_ask_server.py runs one"),
    (
        r"^analytics-agent (\S+ )*eval\b.*--model (?!offline\b)",
        "scores a real model; tests/evaluation runs eval",
    ),
    (r"--base-url http://127\.0\.0\.1:\d+/v1 --model reference", "the eval report of tests/eval_models.py"),
]
# A block that sets one of these up: the commands after it in the same block use it, so they are only parsed.
NEEDS_SERVER = ("AWS credentials", "OpenRouter", "PostgreSQL server")
SHELL = {"printf", "mkdir", "cat", "echo", "cp", "ls"}


@dataclass
class Example:
    page: str
    block: int
    line: int
    kind: str  # "shell", "python" or "file"
    code: str
    shown: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.code.splitlines()[0][:90]}"


# --- reading the pages --------------------------------------------------------------------------------


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
            if _complete("\n".join(pending)):
                examples.append(Example(page, start, pending_line, "shell", "\n".join(pending)))
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
            if _complete(line):
                examples.append(Example(page, start, pending_line, "shell", line))
                pending, after_command = [], True
    assert not pending, f"{page}:{pending_line}: a command whose quote or line continuation never ends"
    return examples


def transcript_example(page: str, start: int, lines: list[str]) -> Example:
    """A ```text block that starts with ``$ command``: the command, then what it prints."""
    command = [lines[0][2:]]
    i = 1
    while not _complete("\n".join(command)):
        command.append(lines[i])
        i += 1
    example = Example(page, start, start, "shell", "\n".join(command))
    for line in lines[i:]:
        if line.strip():
            example.shown.append(line)
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


def _complete(command: str) -> bool:
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
    for language, start, lines, title in fenced_blocks(path.read_text(encoding="utf-8")):
        if language in ("bash", "sh", "shell"):
            examples += shell_examples(page, start, lines)
        elif language == "text" and lines and lines[0].startswith("$ "):
            examples.append(transcript_example(page, start, lines))
        elif language == "python":
            examples.append(python_example(page, start, lines))
        elif title:
            examples.append(Example(page, start, start, "file", "\n".join(lines) + "\n", [title]))
    return examples


# --- checking shown output ----------------------------------------------------------------------------


def _squash(text: str) -> str:
    text = re.sub(r"\b\d+(\.\d+)? s\b", "<duration>", text)
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


# --- running --------------------------------------------------------------------------------------------


def not_run_reason(command: str) -> str | None:
    flat = " ".join(command.replace("\\\n", " ").split())
    for pattern, reason in NOT_RUN:
        if re.search(pattern, flat):
            return reason
    return None


def parse_only(args: list[str]) -> None:
    """Parse ``args`` with the real command tree, down to the command, without running anything."""
    command: Any = root_command()
    ctx = command.make_context("analytics-agent", list(args))
    while hasattr(command, "list_commands"):
        rest = [*(getattr(ctx, "protected_args", None) or getattr(ctx, "_protected_args", [])), *ctx.args]
        name, command, rest = ctx.command.resolve_command(ctx, rest)
        ctx = command.make_context(name, rest, parent=ctx)


_bench_help: list[str] = []


def bench_help() -> str:
    """``python -m tests.bench --help`` (run once): the benchmark's own list of options."""
    if not _bench_help:
        done = subprocess.run(
            [sys.executable, "-m", "tests.bench", "--help"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        _bench_help.append(done.stdout)
    return _bench_help[0]


def run_cli(args: list[str], *, stdout_to: Path | None = None) -> tuple[int, str]:
    """The real entry point in this process: (exit code, stdout and stderr); stdout into a file if given."""
    runner = CliRunner()
    with runner.isolation() as streams:
        saved = sys.argv
        sys.argv = ["analytics-agent", *args]
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        finally:
            sys.argv = saved
        out = streams[0].getvalue().decode("utf-8", "replace")
        err = streams[1].getvalue().decode("utf-8", "replace") if len(streams) > 1 and streams[1] else ""
    if stdout_to is not None:
        stdout_to.write_text(out, encoding="utf-8")
        return code, err
    return code, out + err


class PageRun:
    def __init__(self, folder: Path, model_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
        self.folder = folder
        self.model_url = model_url
        self.monkeypatch = monkeypatch

    def shell(self, example: Example, inherited: str | None = None) -> str | None:
        """Run one command; the reason when it is only parsed or left alone (``inherited``: an earlier
        command of its block set up what this one needs, and was not run)."""
        command = example.code.replace("\\\n", " ")
        tokens = shlex.split(command, comments=True)
        if tokens and tokens[0] == "export":
            for assignment in tokens[1:]:
                name, _, value = assignment.partition("=")
                self.monkeypatch.setenv(name, value)
            return None
        reason = inherited or not_run_reason(command)
        target = None
        if ">" in tokens:  # `... > run.json`: stdout into a file
            at = tokens.index(">")
            tokens, target = tokens[:at], tokens[at + 1]
        if tokens[0] == "analytics-agent":
            if reason:
                parse_only(tokens[1:])
                return reason
            tokens = [LOCAL_SERVER.sub(self.model_url, t) for t in tokens]
            code, printed = run_cli(tokens[1:], stdout_to=self.folder / target if target else None)
            expect_error = any(line.startswith(("Error:", "error:")) for line in example.shown)
            assert code == (1 if expect_error else 0), f"{example}\nexit {code}:\n{printed}"
        elif tokens[:3] == ["python", "-m", "tests.bench"]:
            unknown = [t for t in tokens[3:] if t.startswith("--") and t not in bench_help()]
            assert not unknown, f"{example}: tests.bench has no option {unknown}"
            return reason
        elif reason:
            return reason
        else:
            assert tokens[0] in SHELL, f"{example}: {tokens[0]} is not ours; add it to NOT_RUN with a reason"
            done = subprocess.run(["bash", "-c", command], cwd=self.folder, capture_output=True, text=True)
            assert done.returncode == 0, f"{example}\n{done.stderr}"
            printed = done.stdout + done.stderr
        missing = missing_lines(example.shown, printed)
        assert not missing, f"{example}\nshown but not printed: {missing}\nprinted:\n{printed}"
        return None

    def python(self, example: Example) -> None:
        out = io.StringIO()
        namespace: dict[str, Any] = {"__name__": "__example__"}
        with contextlib.redirect_stdout(out):
            exec(compile(example.code, str(example), "exec"), namespace)
        printed = out.getvalue()
        missing = missing_lines(example.shown, printed)
        assert not missing, f"{example}\nshown but not printed: {missing}\nprinted:\n{printed}"


@pytest.fixture(scope="module")
def model() -> Iterator[ExampleModel]:
    with ExampleModel() as stand_in:
        yield stand_in


@pytest.fixture(scope="module")
def sample_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sample") / "analytics.duckdb"
    ensure_database(path, sample_data=True)
    return path


def test_the_pages_have_examples() -> None:
    counts = {p.name: len(page_examples(p)) for p in PAGES}
    assert counts["README.md"] >= 10
    for page in ("getting-started.md", "own-data.md", "tools.md", "python-api.md", "asking.md"):
        assert counts[page] >= 3, page


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_example_runs(
    page: Path,
    model: ExampleModel,
    sample_template: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    examples = page_examples(page)
    if not examples:
        pytest.skip(f"{page.name} has no shell or Python example")
    (tmp_path / "tests" / "data").mkdir(parents=True)
    (tmp_path / "tests" / "data" / "real").symlink_to(ROOT / "tests" / "data" / "real")
    data = Path(os.environ["XDG_DATA_HOME"]) / "analytics-agent"
    data.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(sample_template, data / "analytics.duckdb")
    monkeypatch.setenv("OPENAI_BASE_URL", model.url)
    monkeypatch.chdir(tmp_path)
    run = PageRun(tmp_path, model.url, monkeypatch)
    not_run: list[str] = []
    blocked: dict[int, str] = {}
    for example in examples:
        if example.kind == "python":
            run.python(example)
        elif example.kind == "file":
            target = tmp_path / example.shown[0]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(example.code, encoding="utf-8")
        elif (reason := run.shell(example, blocked.get(example.block))) is not None:
            not_run.append(f"{example}: {reason}")
            if any(word in reason for word in NEEDS_SERVER):
                blocked.setdefault(
                    example.block, f"follows a step that {reason.removeprefix('follows a step that ')}"
                )
    ran = len(examples) - len(not_run)
    print(f"{page.name}: {ran} run, {len(not_run)} parsed only or left alone", *not_run, sep="\n  ")


def test_shown_output_is_checked() -> None:
    """The checker itself: a wrong number fails, spacing and durations do not."""
    printed = 'Loaded 2,909 rows from x.csv into flights in 0.8 s.\n{"a": 1}'
    assert missing_lines(["Loaded 2,909 rows from x.csv into flights in 1.7 s."], printed) == []
    assert missing_lines(["Loaded 2,908 rows ... into flights"], printed) == [
        "Loaded 2,908 rows ... into flights"
    ]
    assert missing_lines(['{"a":1}'], printed) == []
    assert not_run_reason("analytics-agent ask q --provider bedrock --model m") is not None
    with pytest.raises(Exception, match="No such option"):
        parse_only(["ask", "q", "--no-such-flag"])
