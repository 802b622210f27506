"""A tool call cannot take more memory than the address-space bound, whatever builds it (issue 38 round
three, item 1). DuckDB's 1 GB ``memory_limit`` does not cover values built by scalar functions: a list of
long strings from ``list_transform`` or the text of one took 2-5 GB, past every check ``run_sql`` makes on
known builders. Each class (list, string, blob, nested, formatted, recursive CTE) in three shapes, each
asking for about 1.5 GB, runs through the real executor in a child held to 2.5 GB with the bound's
headroom set to 256 MiB: the call fails in one line and the child's resident memory grew by less than the
headroom (resident memory can only grow as far as the address space does)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from bounded_run import GIB, run_capped

HEADROOM = 256 * 1024**2

SHAPES = {
    "list": [
        "SELECT len(list_transform(range(100000), lambda x: repeat('y', 15000)))",
        "SELECT len(list_concat(list_transform(range(4000000), lambda x: repeat('a', 200)), "
        "list_transform(range(4000000), lambda x: repeat('b', 200))))",
        "SELECT len(list_transform(range(100000), lambda x: lpad('', 15000, 'z')))",
    ],
    "string": [
        "SELECT length(array_to_string(list_transform(range(100000), lambda x: repeat('y', 15000)), ''))",
        "SELECT length(concat_ws(repeat('y', 15000), list_transform(range(100000), lambda x: 'a')))",
        "SELECT length(replace(repeat('x', 30000), 'x', repeat('y', 50000)))",
    ],
    "blob": [
        "SELECT len(list_transform(range(100000), lambda x: repeat('y', 15000)::BLOB))",
        "SELECT octet_length(from_hex(array_to_string(list_transform(range(100000), "
        "lambda x: repeat('ab', 15000)), '')))",
        "SELECT octet_length(encode(array_to_string(list_transform(range(100000), "
        "lambda x: repeat('y', 15000)), '')))",
    ],
    "nested": [
        "SELECT len(list_transform(range(100), lambda i: list_transform(range(100000), "
        "lambda j: repeat('y', 150))))",
        "SELECT len(list_transform(range(100000), lambda x: {'a': repeat('y', 15000)}))",
        "SELECT len(list_transform(range(1000), lambda i: [repeat('y', 1500000)]))",
    ],
    "formatted": [
        "SELECT len(list_transform(range(100000), lambda x: printf('%15000s', 'x')))",
        "SELECT len(list_transform(range(100000), lambda x: format('{:>15000}', 'x')))",
        "SELECT length(format('{}', list_transform(range(100000), lambda x: repeat('y', 15000))))",
    ],
    "recursive CTE": [
        "WITH RECURSIVE t(n, s) AS (SELECT 0, 'x' UNION ALL SELECT n + 1, s || s FROM t WHERE n < 34) "
        "SELECT max(length(s)) FROM t",
        "WITH RECURSIVE t(n, s) USING KEY (n) AS (SELECT 0, 'x' UNION SELECT n + 1, repeat(s, 4) "
        "FROM t WHERE n < 17) SELECT max(length(s)) FROM t",
        "WITH RECURSIVE t(n, l) AS (SELECT 0, ['x'] UNION ALL SELECT n + 1, "
        "list_transform(l, lambda s: s || s) || l FROM t WHERE n < 30) SELECT max(len(l)) FROM t",
    ],
}


def run_bounded(db: Path, query: str) -> dict:
    """``run_sql`` of ``query`` through the real executor with a 256 MiB headroom, in a child held to
    2.5 GB; what it answered and by how much its peak resident memory grew during the call."""
    result = run_capped(
        f"""
        import json, resource
        from pathlib import Path
        from analytics_agent.db.connect import open_sandbox
        from analytics_agent.tools.executor import Executor
        from analytics_agent.tools.registry import Registry
        from analytics_agent.tools.run_sql import RunSql
        executor = Executor(
            Registry([RunSql()]), open_sandbox(Path({str(db)!r})), memory_headroom={HEADROOM}, timeout_s=120
        )
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        outcome = executor.execute("run_sql", {{"query": {query!r}}})
        grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
        print(json.dumps({{"text": outcome.text, "grew": grew}}))
        """,
        memory_bytes=5 * GIB // 2,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    "query", [pytest.param(q, id=f"{kind}-{i}") for kind, qs in SHAPES.items() for i, q in enumerate(qs)]
)
def test_no_value_builder_grows_a_call_past_the_address_space_bound(tmp_path: Path, query: str) -> None:
    db = tmp_path / "shop.duckdb"
    duckdb.connect(str(db)).close()
    answer = run_bounded(db, query)
    assert answer["text"] == "Error: run_sql needed more memory than allowed; narrow the question"
    assert answer["grew"] < HEADROOM, answer


def test_calls_within_the_bound_answer_and_the_next_call_runs(tmp_path: Path) -> None:
    """The bound is held per call: the call after an over-the-bound one answers, as does a call that
    builds 50 MB (below the headroom)."""
    db = tmp_path / "shop.duckdb"
    duckdb.connect(str(db)).close()
    result = run_capped(
        f"""
        from pathlib import Path
        from analytics_agent.db.connect import open_sandbox
        from analytics_agent.tools.executor import Executor
        from analytics_agent.tools.registry import Registry
        from analytics_agent.tools.run_sql import RunSql
        executor = Executor(Registry([RunSql()]), open_sandbox(Path({str(db)!r})), memory_headroom={HEADROOM})
        for query in [
            "SELECT len(list_transform(range(100000), lambda x: repeat('y', 15000)))",
            "SELECT len(list_transform(range(10000), lambda x: repeat('y', 5000)))",
        ]:
            print(executor.execute("run_sql", {{"query": query}}).text)
        """,
        memory_bytes=5 * GIB // 2,
    )
    lines = result.stdout.splitlines()
    assert lines[0] == "Error: run_sql needed more memory than allowed; narrow the question", result.stderr
    assert json.loads(lines[1])["rows"] == [[10000]]
