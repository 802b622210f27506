"""Score the relay's answers against each question's ground-truth SQL (plain DuckDB over the CSVs).

A question is ``right`` when every ground-truth number appears in the answer as the answer rounds it
(1,234.5 / 1234 / 12.3% / 1.2k / 2.3M / 2.3 million all count) and every text value (a region, a
state) is named; ``refused`` when the run failed or the answer has no numbers; ``check`` when a number is
only close (within 1%) or a text value is missing, so a person decides; otherwise ``wrong``.

A question marked ``unanswerable`` (no ``sql``) is ``right`` when the answer declines (it says the data
has no such thing and gives no number), ``check`` when it declines but shows numbers, ``wrong`` otherwise.

    python -m tests.bench.relay.score --dir /tmp/relay
    python -m tests.bench.relay.score --dir /tmp/relay4 --set tests/data/heldout_v4
"""

from __future__ import annotations

import argparse
import datetime as dt
import decimal
import json
import re
import statistics
from pathlib import Path
from typing import Any

import yaml

from tests.bench.relay.drive import add_set_arguments, resolve_set

_NUMBER = re.compile(
    r"(?<![\w.])[-−]?\$?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(%|percent|k\b|K\b|thousand|m\b|M\b|million|bn\b|billion)?",
)
_DECLINES = re.compile(
    r"\b(no|not|cannot|can't|can ?not|doesn't|does not|don't|do not|isn't|is not|unavailable|only|without|"
    r"lacks?|missing|unable)\b",
    re.IGNORECASE,
)
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9}


def truth_values(sql: str, data: Path) -> list[tuple[str, Any]]:
    """(column name, value) for each value of the ground truth's result."""
    from tests.data.heldout_truth import connect

    result = connect(data).execute(sql)
    names = [d[0] for d in result.description or []]
    return [(name, value) for row in result.fetchall() for name, value in zip(names, row, strict=True)]


def names_the_month(column: str, value: Any, answer: str) -> bool:
    """A month number (1-12) in a column named for months counts when the answer names that month
    ("Jan", "January"): the truth's labels are numbers, an answer's are often names."""
    named = "month" in column.lower() or column.lower() in ("m", "mon", "mm")  # v5's truth: AS m
    if not named or isinstance(value, bool) or not isinstance(value, int):
        return False
    if not 1 <= value <= 12:
        return False
    month = dt.date(2000, value, 1)
    return any(
        re.search(rf"\b{name}\b", answer, re.IGNORECASE)
        for name in (month.strftime("%B"), month.strftime("%b"))
    )


def answer_numbers(text: str) -> list[tuple[float, int, str]]:
    """(value as written, decimals shown, suffix) for each number in the answer."""
    found = []
    for match in _NUMBER.finditer(text):
        whole, frac, suffix = match.group(1), match.group(2) or "", (match.group(3) or "").lower()
        sign = -1 if match.group(0).lstrip().startswith(("-", "−")) else 1
        found.append((sign * float(whole.replace(",", "") + frac), max(len(frac) - 1, 0), suffix))
    return found


def _rounded(value: float, decimals: int) -> float:
    quant = decimal.Decimal(1).scaleb(-decimals)
    return float(decimal.Decimal(repr(value)).quantize(quant, rounding=decimal.ROUND_HALF_UP))


def match_number(truth: float, numbers: list[tuple[float, int, str]]) -> str:
    """'exact' when some answer number is the truth as the answer rounds it, 'close' within 1%, else ''."""
    best = ""
    for shown, decimals, suffix in numbers:
        candidates = [truth]
        if suffix in _SCALE:
            candidates = [truth / _SCALE[suffix]]
        elif suffix in ("%", "percent") and abs(truth) <= 1:
            candidates = [truth, truth * 100]  # a share stored as 0.147 and shown as 14.7%
        for want in candidates:
            for candidate in (want, abs(want)):
                if _rounded(candidate, decimals) == shown or _rounded(candidate, decimals) == abs(shown):
                    return "exact"
                if candidate and abs(abs(shown) - abs(candidate)) <= 0.01 * abs(candidate):
                    best = "close"
    return best


def score_one(question: dict[str, Any], result: dict[str, Any], data: Path) -> dict[str, Any]:
    calls = result.get("tool_calls") or []
    row: dict[str, Any] = {
        "id": question["id"],
        "tool_calls": len(calls),
        "tool_errors": sum(1 for c in calls if c.get("is_error")),
        "unverified": len(result.get("unverified_numbers") or []),
        "stop": result.get("stop"),
    }
    answer = result.get("answer") or ""
    if result.get("stop") == "error" or not answer:
        return {**row, "verdict": "refused", "why": result.get("error", "no answer")}
    numbers = answer_numbers(answer)
    if question.get("unanswerable"):  # the right response is a refusal
        if not _DECLINES.search(answer):
            return {**row, "verdict": "wrong", "why": "answered an unanswerable question", "answer": answer}
        asked = {n for n, _, _ in answer_numbers(question.get("question", ""))}
        if [n for n in numbers if n[0] not in asked]:  # repeating the question's own year is no answer
            return {**row, "verdict": "check", "missing": [], "close": [], "answer": answer,
                    "why": "unanswerable: declines, but shows numbers"}  # fmt: skip
        return {**row, "verdict": "right", "why": "declined an unanswerable question"}
    if not numbers:
        return {**row, "verdict": "refused", "why": "no number in the answer", "answer": answer}
    missing: list[str | float] = []
    close: list[float] = []
    for column, value in truth_values(question["sql"], data):
        if value is None or names_the_month(column, value, answer):
            continue
        if isinstance(value, (dt.date, dt.datetime)):
            text = value.isoformat()[:10]
            if text not in answer and value.strftime("%B %-d, %Y") not in answer:
                missing.append(text)
        elif isinstance(value, str):
            if value.lower() not in answer.lower():
                missing.append(value)
        elif isinstance(value, (int, float, decimal.Decimal)):
            how = match_number(float(value), numbers)
            if how == "close":
                close.append(float(value))
            elif not how:
                missing.append(float(value))
    numeric_missing = [m for m in missing if isinstance(m, float)]
    if not missing and not close:
        verdict = "right"
    elif numeric_missing:
        verdict = "wrong"
    else:
        verdict = "check"
    out = {**row, "verdict": verdict}
    if verdict != "right":
        out |= {"missing": missing, "close": close, "answer": answer}
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, required=True)
    add_set_arguments(parser)
    args = parser.parse_args(argv)
    questions_file, data = resolve_set(args.set_dir, args.questions, args.data)
    questions = yaml.safe_load(questions_file.read_text())
    rows = []
    for q in questions:
        path = args.dir / "answers" / f"{q['id']}.json"
        if path.exists():
            rows.append(score_one(q, json.loads(path.read_text()), data))
    print(f"{'id':42} {'verdict':8} {'calls':>5} {'errors':>6} {'unverif':>7}")
    for r in rows:
        print(f"{r['id']:42} {r['verdict']:8} {r['tool_calls']:5} {r['tool_errors']:6} {r['unverified']:7}")
    calls = [r["tool_calls"] for r in rows] or [0]
    totals = {
        "answered": len(rows),
        "questions": len(questions),
        **{v: sum(1 for r in rows if r["verdict"] == v) for v in ("right", "wrong", "refused", "check")},
        "tool_calls_median": statistics.median(calls),
        "tool_calls_mean": round(statistics.fmean(calls), 2),
        "tool_errors": sum(r["tool_errors"] for r in rows),
        "unverified_numbers": sum(r["unverified"] for r in rows),
    }
    print(json.dumps(totals))
    for r in rows:
        if r["verdict"] == "check":
            print(
                f"\nCHECK {r['id']}: missing {r['missing']} close {r['close']}\n  answer: {r['answer'][:600]}"
            )
    (args.dir / "score.json").write_text(
        json.dumps({"totals": totals, "questions": rows}, indent=2, default=str)
    )


if __name__ == "__main__":
    main()
