"""An injection and sandbox-escape corpus through every string parameter of every tool, ``aggregate``'s
identifiers and values, and ``run_sql``: each attempt has no effect, gets a clear one-line-per-problem
error (or an honest empty answer), and the data is byte-for-byte intact afterwards."""

from __future__ import annotations

import hashlib
import inspect
import json
from pathlib import Path
from typing import Any

import pytest

from analytics_agent.tools.args.models import DATE_PATTERN
from analytics_agent.workspace.workspace import Workspace

CORPUS = [
    "Pune' OR '1'='1",
    "Pune'; DROP TABLE orders; --",
    "'; DELETE FROM orders; --",
    'Pune" OR 1=1 --',
    "x'); COPY orders TO '{tmp}/leak.csv'; --",
    "'; ATTACH '{tmp}/other.duckdb' AS o; --",
    "'; INSTALL httpfs; LOAD httpfs; --",
    "'; SET enable_external_access = true; --",
    "' UNION SELECT * FROM read_csv('{tmp}/secret.csv') --",
    "$city",
    "?",
    "${{day}}",
    "orders\x00; DROP TABLE orders",
    "\u202e'; DROP TABLE orders; --",
    "Pu\u0301ne",
    "%' OR 1=1 --",
    "A-1042' --",
    "*/ DROP TABLE orders /*",
    "(SELECT 1)",
]
ESCAPES = [
    "SELECT * FROM read_csv('{tmp}/secret.csv')",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM glob('{tmp}/*')",
    "COPY orders TO '{tmp}/leak.csv'",
    "COPY (SELECT 1) TO '{tmp}/leak.csv'",
    "EXPORT DATABASE '{tmp}/dump'",
    "ATTACH '{tmp}/other.duckdb' AS other",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET enable_external_access = true",
    "SELECT 1; DROP TABLE orders",
    "DROP TABLE orders",
    "DELETE FROM orders",
    "UPDATE orders SET amount = 0",
    "INSERT INTO orders SELECT * FROM orders LIMIT 1",
    "CREATE TABLE stolen AS SELECT * FROM orders",
    "CREATE MACRO m(x) AS x",
    "PRAGMA enable_profiling",
    "CALL pragma_version()",
    "SELECT * FROM orders; SELECT 1",
    "WITH x AS (SELECT 1) DELETE FROM orders",
    "SELECT getenv('HOME')",
    "SELECT current_setting('enable_external_access')",
    "VACUUM",
    "CHECKPOINT",
]


def _open(path: Path) -> Workspace:
    """The workspace with every tool on: generic tools and free SQL where this version has them."""
    params = inspect.signature(Workspace.open).parameters
    options = {k: True for k in ("generic", "allow_sql") if k in params}
    return Workspace.open(path, **options)


def _fingerprint(path: Path) -> tuple[str, dict[str, Any]]:
    """The database file's bytes and, per table, its row count and an order-independent row hash."""
    import duckdb

    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    conn = duckdb.connect(str(path), read_only=True)
    try:
        tables = conn.execute("SELECT schema_name, table_name FROM duckdb_tables() ORDER BY 1, 2").fetchall()
        sums = {
            f"{s}.{t}": conn.execute(f'SELECT count(*), sum(hash(x)) FROM "{s}"."{t}" x').fetchone()
            for s, t in tables
        }
    finally:
        conn.close()
    return digest, sums


@pytest.fixture
def setting(sample_db, tmp_path):
    (tmp_path / "secret.csv").write_text("password\nhunter2\n")
    before = _fingerprint(sample_db)
    ws = _open(sample_db)
    yield ws, tmp_path
    ws.close()
    assert _fingerprint(sample_db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sample.duckdb", "secret.csv"]


def _base_arguments(schema: dict[str, Any]) -> dict[str, Any]:
    """Valid arguments for the required parameters, so each attempt reaches the field under test."""
    found = {}
    for name in schema.get("required", []):
        prop = schema["properties"][name]
        if "enum" in prop:
            found[name] = prop["enum"][0]
        elif prop.get("pattern") == DATE_PATTERN:
            found[name] = "2026-10-01"
        elif prop.get("type") == "integer":
            found[name] = int(prop.get("minimum", 1))
        else:
            found[name] = "A-1042"
    return found


def _string_fields(schema: dict[str, Any]) -> list[str]:
    return [n for n, p in schema.get("properties", {}).items() if p.get("type") == "string"]


def _assert_clear(outcome, payload: str) -> None:
    assert outcome.text.strip()
    assert "failed unexpectedly" not in outcome.text and "Traceback" not in outcome.text
    if outcome.is_error:
        assert outcome.text.startswith("Error: ")
    assert "hunter2" not in outcome.text


def test_every_string_parameter_of_every_tool_resists_the_corpus(setting):
    ws, tmp = setting
    tried = 0
    for tool in ws.registry:
        schema = ws.registry.schema(tool.name)
        for field in _string_fields(schema):
            for raw in CORPUS:
                payload = raw.format(tmp=tmp)
                arguments = {**_base_arguments(schema), field: payload}
                outcome = ws.executor.execute(tool.name, json.dumps(arguments))
                _assert_clear(outcome, payload)
                prop = schema["properties"][field]
                if "enum" in prop or "pattern" in prop:
                    assert outcome.is_error and f"{field}:" in outcome.text, (tool.name, field, outcome.text)
                tried += 1
    assert tried > 100  # the corpus really went through many parameters


def test_a_free_text_parameter_binds_the_payload_as_a_value(setting):
    ws, _ = setting
    for payload in ("C-1' OR 1=1", "x' UNION--", "';DROP--"):
        outcome = ws.executor.execute("customer_summary", {"customer_id": payload})
        assert outcome.is_error and outcome.text == f"Error: no customer with id {payload}"


def _aggregate(ws: Workspace):
    if ws.registry.get("aggregate") is None:
        pytest.skip("this build has no aggregate tool")
    return ws.executor


@pytest.mark.parametrize("where", ["table", "metric", "group_by", "filter_column", "time_column", "order_by"])
def test_aggregate_identifiers_refuse_the_corpus(setting, where):
    ws, tmp = setting
    executor = _aggregate(ws)
    for raw in CORPUS:
        payload = raw.format(tmp=tmp)
        arguments: dict[str, Any] = {"table": "orders", "metrics": [{"fn": "count"}]}
        if where == "table":
            arguments["table"] = payload
        elif where == "metric":
            arguments["metrics"] = [{"fn": "sum", "column": payload}]
        elif where == "group_by":
            arguments["group_by"] = [payload]
        elif where == "filter_column":
            arguments["filters"] = [{"column": payload, "op": "=", "value": "Pune"}]
        elif where == "time_column":
            arguments.update(time_column=payload, time_grain="month")
        else:
            arguments["order_by"] = payload
        outcome = executor.execute("aggregate", json.dumps(arguments))
        _assert_clear(outcome, payload)
        assert outcome.is_error, (where, payload, outcome.text)


def test_aggregate_filter_values_are_bound_and_match_nothing(setting):
    ws, tmp = setting
    executor = _aggregate(ws)
    for raw in CORPUS:
        payload = raw.format(tmp=tmp)
        for op, value in (("=", payload), ("in", [payload, "Pune"]), ("like", payload)):
            arguments = {
                "table": "orders",
                "metrics": [{"fn": "count"}],
                "filters": [{"column": "city", "op": op, "value": value}],
            }
            outcome = executor.execute("aggregate", json.dumps(arguments))
            _assert_clear(outcome, payload)
            if not outcome.is_error and op == "=":  # an answer must be an honest zero, never all orders
                assert json.loads(outcome.text)["rows"] in ([[0]], []), outcome.text


def test_run_sql_refuses_every_escape_and_every_write(setting):
    ws, tmp = setting
    if ws.registry.get("run_sql") is None:
        pytest.skip("this build has no run_sql tool")
    for statement in ESCAPES:
        query = statement.format(tmp=tmp)
        outcome = ws.executor.execute("run_sql", {"query": query})
        _assert_clear(outcome, query)
        if outcome.is_error:
            continue
        # The few statements that parse as one harmless SELECT may run, but must reveal nothing outside.
        assert query.startswith(("SELECT getenv", "SELECT current_setting", "CALL pragma_version")), query
        assert str(Path.home()) not in outcome.text
