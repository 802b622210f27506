"""The ask loop's tool calls reach the audit trail through its events, as the trace reads them."""

from __future__ import annotations

import json

from analytics_agent.agent.events import QuestionAsked, ToolCallRecord, ToolFinished
from analytics_agent.team.audit import AuditLog
from analytics_agent.team.audit_events import AuditSink
from analytics_agent.team.principal import Principal, acting_as


def _finished(**fields) -> ToolFinished:
    record = ToolCallRecord(step=1, call_id="c1", name=fields.pop("name", "sales_summary"), **fields)
    return ToolFinished(record, content=fields.get("error") or '{"orders": 3}')


def test_each_tool_call_of_the_loop_is_one_line_as_the_principal_asking(tmp_path):
    path = tmp_path / "audit.jsonl"
    sink = AuditSink(AuditLog(path, secrets=()))
    with acting_as(Principal("ana", groups=("sales",), client="cli")):
        sink(QuestionAsked("How did Pune do?", "openai", "m", "system"))  # not a tool call: no line
        sink(_finished(arguments='{"city": "Pune"}', is_error=False, rows=1, duration_ms=4.2, sql="SELECT 1"))
        sink(_finished(arguments="{not json", is_error=True, error="arguments are not JSON"))
        sink(_finished(arguments='{"city": "Pune"}', is_error=True, error="same failure", skipped="repeated"))
    ok, error, skipped = (json.loads(line) for line in path.read_text().splitlines())
    assert (ok["user"], ok["client"], ok["kind"], ok["arguments"], ok["sql"]) == (
        "ana", "cli", "ask", {"city": "Pune"}, "SELECT 1"
    )  # fmt: skip
    assert (ok["outcome"], ok["rows"], ok["bytes"]) == ("ok", 1, len('{"orders": 3}'))
    assert (error["outcome"], error["arguments"], error["reason"]) == (
        "error",
        "{not json",
        "arguments are not JSON",
    )
    assert (skipped["outcome"], skipped["reason"]) == ("refused", "not run (repeated): same failure")
