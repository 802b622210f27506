"""``audit``'s summary of a trail written by the real writer: numbers checked by hand, hostile text escaped,
lines that are not records counted and skipped."""

from __future__ import annotations

import datetime as dt
import json
import sys

import pytest

from analytics_agent.cli.app import main
from analytics_agent.team.audit import ERROR, OK, REFUSED, AuditLog, Call
from analytics_agent.team.audit_report import render, summarize
from analytics_agent.team.principal import Principal

ALICE, BOB = Principal("alice", client="claude"), Principal("bob", client="cursor")
DAY1 = dt.datetime(2026, 12, 5, 9, 0, tzinfo=dt.UTC)
DAY2 = dt.datetime(2026, 12, 6, 9, 0, tzinfo=dt.UTC)


def _trail(path, max_bytes: int = 10_000_000):
    """alice: day 1 ok 100 ms (5 rows, 200 bytes) and an error 300 ms; day 2 ok 50 ms.
    bob: day 2 refused 1 ms, its reason holding an ANSI escape; and ok 900 ms."""
    when = iter([DAY1, DAY1, DAY2, DAY2, DAY2])
    log = AuditLog(path, secrets=(), clock=lambda: next(when), max_bytes=max_bytes, backups=9)
    log.write(Call("sales_summary", {"city": "Pune"}, OK, 100.0, rows=5, bytes=200), ALICE)
    log.write(Call("aggregate", {}, ERROR, 300.0, reason="aggregate: unknown column 'x'"), ALICE)
    log.write(Call("list_tables", {}, OK, 50.0, rows=4, bytes=80), ALICE)
    log.write(Call("sales_summary", {}, REFUSED, 1.0, reason="busy: \x1b[2Jcleared"), BOB)
    log.write(Call("aggregate", {}, OK, 900.0, rows=2, bytes=64), BOB)
    log.close()


def test_totals_per_user_and_day_who_asked_what_slowest_and_refused(tmp_path):
    path = tmp_path / "audit.jsonl"
    _trail(path)
    summary = summarize(path.read_text().splitlines())
    alice1 = summary.by_user_day[("alice", "2026-12-05")]
    assert (alice1.calls, alice1.ok, alice1.error, alice1.refused) == (2, 1, 1, 0)
    assert (alice1.duration_ms, alice1.rows, alice1.bytes) == (400.0, 5, 200)
    bob2 = summary.by_user_day[("bob", "2026-12-06")]
    assert (bob2.calls, bob2.ok, bob2.refused, bob2.duration_ms) == (2, 1, 1, 901.0)
    assert dict(summary.tools_by_user["alice"]) == {"sales_summary": 1, "aggregate": 1, "list_tables": 1}
    assert [r["duration_ms"] for r in summary.slowest(2)] == [900.0, 300.0]
    assert [(r["user"], r["outcome"]) for r in summary.not_ok(10)] == [("alice", "error"), ("bob", "refused")]
    assert summarize(path.read_text().splitlines(), user="bob", since="2026-12-06").by_user_day.keys() == {
        ("bob", "2026-12-06")
    }


def test_the_report_escapes_what_callers_sent_and_counts_lines_it_cannot_read(tmp_path):
    path = tmp_path / "audit.jsonl"
    _trail(path)
    lines = [*path.read_text().splitlines(), '{"ts": "torn', "not json at all", json.dumps({"ts": "x"})]
    text = render(summarize(lines))
    assert "\x1b" not in text and "\\x1b[2Jcleared" in text
    assert "3 lines of the trail not read: not audit records" in text
    assert "alice  2026-12-05      2   1      1        0      0.4     5    200" in text


def _run(args: list[str], capsys, monkeypatch) -> tuple[int, str, str]:
    """The console entry point in-process, as a user runs it: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["analytics-agent", *args])
    with pytest.raises(SystemExit) as info:
        main()
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


def test_the_command_reads_the_rotated_files_too_and_says_when_there_is_no_trail(
    tmp_path, capsys, monkeypatch
):
    path = tmp_path / "audit.jsonl"
    _trail(path, max_bytes=400)  # ~250-byte lines: one a file
    assert (tmp_path / "audit.jsonl.4").exists()
    code, out, _ = _run(["audit", str(path), "--json"], capsys, monkeypatch)
    report = json.loads(out)
    assert code == 0 and sum(day["calls"] for day in report["per_user_day"]) == 5
    assert [r["ts"][:10] for r in report["refused_or_failed"]] == ["2026-12-05", "2026-12-06"]  # oldest first
    code, out, err = _run(["audit", str(tmp_path / "nothing.jsonl")], capsys, monkeypatch)
    assert code != 0 and err.startswith("error: no audit trail at") and "Traceback" not in err
    code, out, err = _run(["audit", str(path), "--since", "yesterday"], capsys, monkeypatch)
    assert code != 0 and "--since must be a day as YYYY-MM-DD" in err
