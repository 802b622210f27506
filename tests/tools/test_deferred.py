"""aggregate and describe_table are built on first use, once, and are the tools the registry listed."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from analytics_agent.tools.base import Tool
from analytics_agent.tools.catalog.tools import ListTables
from analytics_agent.tools.deferred import DeferredTool
from analytics_agent.workspace.workspace import Workspace


def test_a_deferred_tool_is_built_once_by_the_first_use_even_from_many_threads() -> None:
    builds: list[int] = []
    gate = threading.Event()

    def build() -> Tool:
        gate.wait(5)
        builds.append(1)
        return ListTables()

    tool = DeferredTool("list_tables", ListTables.description, build)
    assert tool.name == "list_tables" and not tool.built  # name and description need no build
    threads = [threading.Thread(target=lambda: tool.arguments) for _ in range(4)]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join()
    assert builds == [1] and tool.built
    assert tool.arguments is tool.resolve().arguments


def test_a_deferred_tool_that_builds_another_description_fails_loudly() -> None:
    tool = DeferredTool("list_tables", "something else", ListTables)
    with pytest.raises(RuntimeError, match="different tool"):
        tool.returns  # noqa: B018 - the read is what builds it


def test_the_workspace_builds_aggregate_only_when_asked_and_it_answers(sample_db: Path) -> None:
    with Workspace.open(sample_db) as ws:
        aggregate = ws.registry.get("aggregate")
        assert isinstance(aggregate, DeferredTool) and not aggregate.built
        listed = {t.name: t.description for t in ws.registry}  # what tools list reads
        assert not aggregate.built
        outcome = ws.executor.execute("aggregate", {"table": "orders"})
        assert not outcome.is_error, outcome.text
        assert aggregate.built and listed["aggregate"] == aggregate.resolve().description
        orders = ws.cursor().execute("SELECT count(*) FROM orders").fetchone()[0]
        assert f"[[{orders}]]" in outcome.text.replace(" ", "")
