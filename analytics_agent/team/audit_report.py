"""``analytics-agent audit``: what the audit trail says, summed up. Pure: lines in, a summary and its text out.

Four parts: per user and day (calls, how they ended, time, rows and bytes), who asked what (each user's
tools), the slowest calls, and the calls that were refused or failed with their reasons. A line that is
not an audit record (a torn tail after a crash, a stray edit) is counted and skipped, never guessed at.
Everything shown passes the table renderer, which escapes control characters: what a caller put in an
argument or a name cannot drive the reader's terminal.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from analytics_agent.present.tables import plural, table

REQUIRED = ("ts", "user", "tool", "outcome", "duration_ms")


@dataclass
class DayTotals:
    calls: int = 0
    ok: int = 0
    error: int = 0
    refused: int = 0
    duration_ms: float = 0.0
    rows: int = 0
    bytes: int = 0


@dataclass
class Summary:
    records: list[dict[str, Any]] = field(default_factory=list)
    unreadable: int = 0
    by_user_day: dict[tuple[str, str], DayTotals] = field(default_factory=dict)
    tools_by_user: dict[str, Counter[str]] = field(default_factory=dict)

    def slowest(self, top: int) -> list[dict[str, Any]]:
        return sorted(self.records, key=lambda r: -float(r["duration_ms"]))[:top]

    def not_ok(self, top: int) -> list[dict[str, Any]]:
        """The last ``top`` refused or failed calls, oldest first."""
        return [r for r in self.records if r["outcome"] != "ok"][-top:]


def parse(line: str) -> dict[str, Any] | None:
    """One audit record, or None when ``line`` is not one."""
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or not all(key in record for key in REQUIRED):
        return None
    if not isinstance(record["duration_ms"], int | float) or not isinstance(record["ts"], str):
        return None
    return record


def summarize(lines: Iterable[str], *, user: str | None = None, since: str | None = None) -> Summary:
    """The summary of the audit ``lines`` (oldest first), only ``user``'s and those from day ``since``
    (``YYYY-MM-DD``) on when given."""
    summary = Summary()
    for line in lines:
        if not line.strip():
            continue
        record = parse(line)
        if record is None:
            summary.unreadable += 1
            continue
        name, day = str(record["user"]), record["ts"][:10]
        if (user is not None and name != user) or (since is not None and day < since):
            continue
        summary.records.append(record)
        totals = summary.by_user_day.setdefault((name, day), DayTotals())
        totals.calls += 1
        outcome = record["outcome"]
        if outcome in ("ok", "error", "refused"):
            setattr(totals, outcome, getattr(totals, outcome) + 1)
        totals.duration_ms += float(record["duration_ms"])
        totals.rows += _count(record.get("rows"))
        totals.bytes += _count(record.get("bytes"))
        summary.tools_by_user.setdefault(name, Counter())[str(record["tool"])] += 1
    return summary


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def render(summary: Summary, *, top: int = 10) -> str:
    """The summary as text for a terminal."""
    if not summary.records:
        return _unreadable_note(summary) or "no calls in the audit trail"
    days = [
        [user, day, t.calls, t.ok, t.error, t.refused, f"{t.duration_ms / 1000:.1f}", t.rows, t.bytes]
        for (user, day), t in sorted(summary.by_user_day.items(), key=lambda item: (item[0][1], item[0][0]))
    ]
    parts = [
        "Per user and day",
        table(
            ["user", "day", "calls", "ok", "error", "refused", "seconds", "rows", "bytes"],
            days,
            right=range(2, 9),
        ),
        "\nWho asked what",
        table(
            ["user", "calls", "tools"],
            [
                [user, sum(tools.values()), ", ".join(f"{tool} {n}" for tool, n in tools.most_common())]
                for user, tools in sorted(summary.tools_by_user.items())
            ],
            right=[1],
        ),
        f"\nSlowest {plural(min(top, len(summary.records)), 'call')}",
        table(
            ["ms", "when", "user", "tool", "outcome"],
            [
                [f"{r['duration_ms']:,.0f}", r["ts"], r["user"], r["tool"], r["outcome"]]
                for r in summary.slowest(top)
            ],
            right=[0],
        ),
    ]
    failed = summary.not_ok(top)
    if failed:
        parts += [
            f"\nRefused or failed (last {plural(len(failed), 'call')})",
            table(
                ["when", "user", "tool", "outcome", "reason"],
                [[r["ts"], r["user"], r["tool"], r["outcome"], _short(r.get("reason", ""))] for r in failed],
            ),
        ]
    note = _unreadable_note(summary)
    return "\n".join(parts + ([f"\n{note}"] if note else []))


def _short(reason: Any) -> str:
    text = str(reason)
    return text if len(text) <= 100 else text[:97] + "..."


def _unreadable_note(summary: Summary) -> str:
    if not summary.unreadable:
        return ""
    return f"{plural(summary.unreadable, 'line')} of the trail not read: not audit records"


def as_json(summary: Summary, *, top: int = 10) -> dict[str, Any]:
    """The same summary as plain JSON (``audit --json``)."""
    return {
        "per_user_day": [
            {"user": user, "day": day, **vars(totals)}
            for (user, day), totals in sorted(summary.by_user_day.items())
        ],
        "tools_by_user": {
            user: dict(tools.most_common()) for user, tools in sorted(summary.tools_by_user.items())
        },
        "slowest": summary.slowest(top),
        "refused_or_failed": summary.not_ok(top),
        "unreadable_lines": summary.unreadable,
    }
