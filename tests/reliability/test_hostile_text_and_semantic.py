"""A hostile model reply in text mode, deep tool arguments and hostile semantic files end in one line,
within bounded work (issue 24: the RecursionError crashes, the quadratic text-mode parser, YAML bombs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bounded_run import GIB, run_capped
from typer.testing import CliRunner

from analytics_agent.cli.app import app
from analytics_agent.errors import ArgumentError
from analytics_agent.tools.args.models import parse_arguments
from analytics_agent.tools.run_sql import RunSqlArguments


def test_text_mode_replies_are_read_in_linear_work() -> None:
    """2 MB of '{' ran past 300 s (every '{' rescanned the rest); 100k-deep JSON raised RecursionError.
    In a child with a CPU budget far above what linear reading needs, every reply is read."""
    result = run_capped(
        """
        from analytics_agent.providers.text.protocol import parse_reply
        replies = [
            "{" * 2_000_000,
            "[1," * 300_000,
            '{"a' * 500_000,
            "[" * 100_000,
            "<tool_call>" + "[" * 100_000 + "</tool_call>",
            '{"name": "aggregate", "arguments": ' + "[" * 100_000,
        ]
        for reply in replies:
            parsed = parse_reply(reply, ["aggregate"])
            print(len(parsed.calls), bool(parsed.calls) and "could not be read" in parsed.calls[0].error)
        """,
        memory_bytes=2 * GIB,
        cpu_seconds=60,
    )
    assert result.stdout.splitlines() == [
        "0 False", "0 False", "0 False", "0 False", "1 True", "1 True",
    ], result.stderr[-2000:]  # fmt: skip


def test_a_well_formed_call_is_still_read_after_broken_json() -> None:
    from analytics_agent.providers.text.protocol import parse_reply

    reply = 'Let me look. {"oops": [1, 2 and then {"name": "aggregate", "arguments": {"table": "t"}}'
    parsed = parse_reply(reply, ["aggregate"])
    assert [(c.name, c.arguments, c.error) for c in parsed.calls] == [("aggregate", '{"table": "t"}', "")]


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "raw",
    ['{"query": ' + "[" * 100_000 + "]" * 100_000 + "}", {"query": "x", "extra": _nested(100_000)}],
)
def test_deep_tool_arguments_are_one_line(raw) -> None:
    with pytest.raises(ArgumentError) as info:
        parse_arguments(RunSqlArguments, raw)
    assert "\n" not in str(info.value)


BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(9)
)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (BOMB + "tables:\n  orders:\n    description: *j\n", "expands to more than"),
        ("tables:\n  orders:\n    description: " + "[" * 50_000 + "]" * 50_000 + "\n", "nest deeper"),
        # 5,000 digits: Python's int refuses past 4,300, and every command ended in internal error
        ("tables:\n  orders:\n    description: " + "1" * 5000 + "\n", "a number is longer than"),
        (
            "tables:\n  orders:\n    metrics: {m: {sql: 'sum(x)', format: 1_" + "0" * 5000 + "}}\n",
            "a number is",
        ),
    ],
)
def test_hostile_semantic_files_are_one_line_within_bounded_memory(
    tmp_path: Path, text: str, why: str
) -> None:
    """A 405-byte file made every command take 98 s and 3.1 GB; 50,000-deep nesting raised RecursionError
    in every command, ``mcp`` included. Read in a child held to 1 GB: one line naming the file."""
    path = tmp_path / "shop.semantic.yaml"
    path.write_text(text)
    result = run_capped(
        f"""
        from pathlib import Path
        from analytics_agent.errors import SemanticModelError
        from analytics_agent.tools.semantic.model import read_semantic
        try:
            read_semantic(Path({str(path)!r}))
        except SemanticModelError as exc:
            print("refused:", exc)
        """,
        memory_bytes=1 * GIB,
    )
    assert result.stdout.startswith("refused: "), result.stderr[-2000:]
    assert why in result.stdout and "shop.semantic.yaml" in result.stdout


MEGABYTE = "&s " + "x" * 1_000_000
ALIASES = ", ".join(["*s"] * 450_000)


@pytest.mark.parametrize(
    "text",
    [
        f"x: {MEGABYTE}\ntables:\n  orders:\n    description: [{ALIASES}]\n",
        "x: "
        + MEGABYTE
        + "\ntables:\n  orders:\n    metrics: {"
        + ", ".join(f"m{i}: *s" for i in range(300_000))
        + "}\n",
        f"x: {MEGABYTE}\ny: &t [*s, *s, *s, *s]\ntables:\n  orders:\n    description: ["
        + ", ".join(["*t"] * 100_000)
        + "]\n",
    ],
    ids=["list", "mapping", "nested"],
)
def test_a_semantic_file_aliasing_a_huge_string_is_one_line_within_bounded_memory(
    tmp_path: Path, text: str
) -> None:
    """A 2.8 MB file with one 1 MB string aliased 450,000 times (under the 1,000,000-value bound) made
    ``tables`` take 33 s and 5.2 GB, then ``internal error (MemoryError)``; as metric values, 20 s and
    490 MB. The expanded characters are bounded while parsing: one line, in a child held to 1 GB."""
    path = tmp_path / "shop.semantic.yaml"
    path.write_text(text)
    result = run_capped(
        f"""
        from pathlib import Path
        from analytics_agent.errors import SemanticModelError
        from analytics_agent.tools.semantic.model import read_semantic
        try:
            read_semantic(Path({str(path)!r}))
        except SemanticModelError as exc:
            print("refused:", exc)
        """,
        memory_bytes=1 * GIB,
    )
    assert result.stdout.startswith("refused: "), result.stderr[-2000:]
    assert "expands to more than 16 MB of text" in result.stdout and result.stdout.count("\n") == 1


def test_eval_jobs_is_bounded() -> None:
    result = CliRunner().invoke(app, ["eval", "--jobs", "5000", "--model", "m"])
    assert result.exit_code == 2
    assert "5000 is not in the range 1<=x<=32" in result.output


@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"a": '
        + b"[" * 100_000
        + b"]" * 100_000
        + b"}}",
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": '
        + b'{"a": ' * 100_000
        + b"1"
        + b"}" * 100_001,
        b"[" * 100_000 + b"]" * 100_000,
    ],
    ids=["array", "object", "bare"],
)
def test_an_mcp_line_nested_100k_deep_is_left_to_the_sdk_to_refuse(line: bytes) -> None:
    """The MCP front's own reading of a client's line raised RecursionError on 100,000 levels; it now
    leaves such a line to the SDK's own reader, as it does any line it does not answer itself."""
    from analytics_agent.mcp_server import wire

    assert wire.parse(line) is None
