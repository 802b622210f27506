"""Every shell and Python example in README.md and docs/*.md runs as printed and its shown output holds, or
is marked in the page as an illustration. How examples are read and marked: tests/doc_blocks.py.

Each page runs in its own temporary folder (a fresh data and config folder, the default database already
holding the sample data, and ``tests/data/real`` where the examples say it is), in page order, commands in
the order printed. ``analytics-agent`` runs in-process through its real entry point (``main``). The model
endpoint is a loopback stand-in (tests/example_model.py): ``OPENAI_BASE_URL`` points at it, and so does a
local server's URL in an example (``http://localhost:11434/v1`` and the like), so the Ollama, vLLM,
llama.cpp and LM Studio examples run for real against it.
"""

from __future__ import annotations

import contextlib
import faulthandler
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from doc_blocks import Example, hidden_examples, inventory, missing_lines, needs_mark, page_examples
from eval_stand_ins import report_models
from example_model import ExampleModel
from typer.testing import CliRunner

from analytics_agent.cli.app import main
from analytics_agent.cli.reference import root_command
from analytics_agent.db.connect import ensure_database

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LOCAL_SERVER = re.compile(r"http://(?:localhost|127\.0\.0\.1):\d+/v1")

# What a page's `aggregate` call examples run on (docs/tools.md says so): each file loaded with defaults.
CALL_DATA = [
    "tests/data/heldout_v3/superstore.csv.gz",
    "tests/data/heldout_v3/seattle_weather.csv",
    "tests/data/heldout_v3/us_marriages_divorces.csv",
    "tests/data/heldout_v4/unemployment1948.csv",
]
HANG_S = 900  # far above a page's run (10 s on a loaded machine); only a command that never ends reaches it
SHELL = {"printf", "mkdir", "cat", "echo", "cp", "ls"}


# --- running --------------------------------------------------------------------------------------------


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

    def shell(self, example: Example) -> None:
        """Run one command and check its exit code and shown output; an illustration is only parsed."""
        command = example.code.replace("\\\n", " ")
        tokens = shlex.split(command, comments=True)
        if example.illustration:  # an `export` in one sets nothing for the commands that run
            self.parse_illustration(example, tokens)
            return
        if tokens and tokens[0] == "export":
            for assignment in tokens[1:]:
                name, _, value = assignment.partition("=")
                self.monkeypatch.setenv(name, value)
            return
        reason = needs_mark(command)
        assert reason is None, (
            f"{example}: {reason}: mark it `# illustration: {reason}` (tests/doc_blocks.py)"
        )
        target = None
        if ">" in tokens:  # `... > run.json`: stdout into a file
            at = tokens.index(">")
            tokens, target = tokens[:at], tokens[at + 1]
        if tokens[0] == "analytics-agent":
            tokens = [LOCAL_SERVER.sub(self.model_url, t) for t in tokens]
            code, printed = run_cli(tokens[1:], stdout_to=self.folder / target if target else None)
            expect_error = any(line.startswith(("Error:", "error:")) for line in example.shown)
            assert code == (1 if expect_error else 0), f"{example}\nexit {code}:\n{printed}"
        else:
            assert tokens[0] in SHELL, (
                f"{example}: {tokens[0]} is not ours to run: mark it as an illustration (tests/doc_blocks.py)"
            )
            done = subprocess.run(["bash", "-c", command], cwd=self.folder, capture_output=True, text=True)
            assert done.returncode == 0, f"{example}\n{done.stderr}"
            printed = done.stdout + done.stderr
        missing = missing_lines(example.shown, printed)
        assert not missing, f"{example}\nshown but not printed: {missing}\nprinted:\n{printed}"

    @staticmethod
    def parse_illustration(example: Example, tokens: list[str]) -> None:
        """What an illustration is checked for: our commands' arguments and options exist."""
        if "&&" in tokens:
            tokens = tokens[tokens.index("&&") + 1 :]
        if ">" in tokens:
            tokens = tokens[: tokens.index(">")]
        if tokens and tokens[0] == "analytics-agent":
            parse_only(tokens[1:])
        elif tokens[:3] == ["python", "-m", "tests.bench"]:
            unknown = [t for t in tokens[3:] if t.startswith("--") and t not in bench_help()]
            assert not unknown, f"{example}: tests.bench has no option {unknown}"

    def call(self, example: Example) -> None:
        """An `aggregate` call example: its result, on CALL_DATA loaded once per page."""
        db = self.folder / "call-examples.duckdb"
        if not db.exists():
            for path in CALL_DATA:
                code, printed = run_cli(["--db", str(db), "load", str(ROOT / path)])
                assert code == 0, printed
        code, printed = run_cli(["--db", str(db), "tools", "call", "aggregate", example.code])
        assert code == 0, f"{example}\n{printed}"
        missing = missing_lines(example.shown, printed)
        assert not missing, f"{example}\nshown but not printed: {missing}\nprinted:\n{printed}"

    def python(self, example: Example) -> None:
        code = compile(example.code, str(example), "exec")
        if example.illustration:
            return
        out = io.StringIO()
        namespace: dict[str, Any] = {"__name__": "__example__"}
        with contextlib.redirect_stdout(out):
            exec(code, namespace)
        printed = out.getvalue()
        missing = missing_lines(example.shown, printed)
        assert not missing, f"{example}\nshown but not printed: {missing}\nprinted:\n{printed}"


@pytest.fixture(scope="module")
def sample_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sample") / "analytics.duckdb"
    ensure_database(path, sample_data=True)
    return path


@pytest.fixture(scope="module")
def model(sample_template: Path) -> Iterator[ExampleModel]:
    with ExampleModel(report_models(sample_template)) as stand_in:
        yield stand_in


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
    # an unmarked command that serves until stopped would hang the run: end the worker with a traceback
    faulthandler.dump_traceback_later(HANG_S, exit=True)
    try:
        _run_all(run, examples)
    finally:
        faulthandler.cancel_dump_traceback_later()
    counts = inventory([page])
    print(f"{page.name}: {dict(counts)}", *(f"{e}: {e.illustration}" for e in examples if e.illustration))


def _run_all(run: PageRun, examples: list[Example]) -> None:
    for example in examples:
        if example.kind == "python":
            run.python(example)
        elif example.kind == "call":
            run.call(example)
        elif example.kind == "file":
            target = run.folder / example.shown[0]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(example.code, encoding="utf-8")
        else:
            run.shell(example)


def test_every_example_is_checked_or_marked() -> None:
    """The inventory the terminal summary prints; an unmarked example of a kind that cannot run fails here
    too, before anything runs."""
    unmarked = [
        f"{e}: {reason}"
        for page in PAGES
        for e in page_examples(page)
        if e.kind == "shell" and not e.illustration and (reason := needs_mark(e.code))
    ]
    assert unmarked == [], "mark these `# illustration: <why>` in the page (tests/doc_blocks.py)"
    hidden = [found for page in PAGES for found in hidden_examples(page)]
    assert hidden == [], "commands or Python in a text block: make it a bash or python block"
    counts = inventory(PAGES)
    assert counts["output"] + counts["exit code"] > counts["illustration"]


def test_shown_output_is_checked() -> None:
    """The checker itself: a wrong number fails; spacing, durations and a table's seconds do not."""
    printed = 'Loaded 2,909 rows from x.csv into flights in 0.8 s.\n{"a": 1}\nsales  pass  3,921  0.4  ok'
    assert missing_lines(["Loaded 2,909 rows from x.csv into flights in 1.7 s."], printed) == []
    assert missing_lines(["Loaded 2,908 rows ... into flights"], printed) == [
        "Loaded 2,908 rows ... into flights"
    ]
    assert missing_lines(['{"a":1}'], printed) == []
    assert missing_lines(["sales  pass  3,921  0.7  ok"], printed) == []
    assert missing_lines(["sales  pass  3,912  0.4  ok"], printed) == ["sales  pass  3,912  0.4  ok"]
    assert needs_mark("analytics-agent ask q --provider bedrock --model m") is not None
    with pytest.raises(Exception, match="No such option"):
        parse_only(["ask", "q", "--no-such-flag"])


def test_a_marker_is_read_from_the_block_or_the_command(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```bash\n# illustration: needs a cloud\nanalytics-agent tables\n```\n\n"
        "```bash\nollama pull x   # illustration: another program\nanalytics-agent tables\n# orders\n```\n"
        "```python\n# illustration: a server\nprint(1)\n```\n",
        encoding="utf-8",
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("doc_blocks.ROOT", tmp_path)
        found = [(e.code.splitlines()[-1], e.checks, e.illustration) for e in page_examples(page)]
    assert found == [
        ("analytics-agent tables", "illustration", "needs a cloud"),
        ("ollama pull x   # illustration: another program", "illustration", "another program"),
        ("analytics-agent tables", "output", ""),
        ("print(1)", "illustration", "a server"),
    ]


def test_a_call_is_a_json_request_block_followed_at_once_by_a_result_block(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    request, result = '{"table": "t", "metrics": [{"fn": "count"}]}', '{"columns": ["count"], "rows": [[3]]}'
    page.write_text(
        f"```json\n{request}\n```\n```json\n{result}\n```\n\n"  # a call and its result
        f"```json\n{request}\n```\n\ntext\n\n```yaml\na: 1\n```\n```json\n{result}\n```\n",  # no pair
        encoding="utf-8",
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("doc_blocks.ROOT", tmp_path)
        found = [(e.kind, e.code, e.shown, e.checks) for e in page_examples(page)]
    assert found == [("call", request, [result], "output")]


def test_commands_hidden_in_a_text_block_are_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```text\nanalytics-agent tables\n```\n\n```text\n$ analytics-agent tables\norders\n```\n\n"
        "```\nimport duckdb\n```\n\n```text\nTables: orders\n```\n",
        encoding="utf-8",
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("doc_blocks.ROOT", tmp_path)
        assert hidden_examples(page) == ["page.md:2: analytics-agent tables", "page.md:11: import duckdb"]
