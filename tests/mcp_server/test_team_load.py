"""The team server's load benchmark (tests/bench/bench_team.py) at CI size: a real
``mcp --http --auth users --access --audit`` process, 3 users in 3 groups x 4 sessions of the official
client x 10 requests each, checked for errors, names a user may not see, and one audit line per tool call
under the right user. No time is asserted. The checks themselves are tested to catch what they look for."""

from __future__ import annotations

import json
from collections import Counter

import pytest

pytest.importorskip("mcp")

from tests.bench.bench_team import Stats, audit_problems, hidden_names, leaked, measure, visible_columns

COLUMNS = {"customers": ["customer_id", "email", "segment"], "employees": ["employee_id", "salary"]}


def test_many_signed_in_clients_at_once_see_only_their_tables_and_each_call_is_audited(tmp_path):
    m = measure(tmp_path, users=3, clients=12, calls=10)
    stats = m.stats
    assert stats.errors == [] and stats.unanswered == 0
    assert stats.leaks == []
    assert m.audit_problems == []
    assert m.audit_lines == sum(stats.calls.values()) > 0
    assert {user for user, _ in stats.calls} == {"ana", "cho", "eve"}
    assert len(stats.calls) == 12  # every session made tool calls, each under its own client name
    assert sum(stats.kinds.values()) + stats.refused == 120
    # each kind of request ran, probes of hidden tables included (each answered as an error, else an error)
    assert {"tools/list", "list_tables", "describe_table", "aggregate", "describe_table probe"} <= set(
        stats.kinds
    )
    # the leak check looked at names worth looking at: ana (sales) must never read a salary or a payment
    ana = next(s for s in m.seats if s.user == "ana")
    assert {"salary", "payments", "employees", "email", "tax_id"} <= ana.hidden
    assert "customers" not in ana.hidden and "segment" not in ana.hidden


def test_the_leak_check_finds_a_hidden_name_and_spares_the_probed_one():
    visible = visible_columns("ana", "sales", {**COLUMNS, "orders": ["order_id"]})
    assert visible == {"customers": ["customer_id", "segment"], "orders": ["order_id"]}
    hidden = frozenset(hidden_names(visible, {**COLUMNS, "orders": ["order_id"]}))
    assert hidden == {"email", "employees", "employee_id", "salary"}
    assert leaked('{"related":{"employees":"account_manager_id -> employees.employee_id"}}', hidden) == [
        "employee_id",
        "employees",
    ]
    assert leaked("Error: table: got 'employees'; did you mean 'customers'?", hidden, "employees") == []
    assert leaked('{"columns":["segment","count"]}', hidden) == []


def test_the_audit_check_finds_a_missing_line_and_a_line_under_another_user(tmp_path):
    trail = tmp_path / "team.audit.jsonl"
    lines = [
        {"user": "ana", "client": "bench-0", "kind": "tools/call"},
        {"user": "ana", "client": "bench-0", "kind": "resources/read"},  # not a tool call: not counted
        {"user": "cho", "client": "bench-1", "kind": "tools/call"},
    ]
    trail.write_text("".join(json.dumps(x) + "\n" for x in lines))
    (tmp_path / "team.audit.jsonl.1").write_text(json.dumps(lines[0]) + "\n")  # rotated: read too
    stats = Stats(calls=Counter({("ana", "bench-0"): 3, ("eve", "bench-1"): 1}))
    count, problems = audit_problems(trail, stats)
    assert count == 3
    assert problems == [
        "('ana', 'bench-0'): 2 audit lines for 3 calls",
        "('eve', 'bench-1'): 0 audit lines for 1 calls",
        "('cho', 'bench-1'): 1 audit lines of no call sent",
    ]
